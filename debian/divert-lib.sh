# SPDX-License-Identifier: MIT
# debian/divert-lib.sh - the diversion code forkless-xen's preinst,
# postinst and postrm share (debian/rules substitutes it for #DIVERT_LIB#:
# a preinst runs before any file of the package is on disk). It works on
# the list $DIVERSIONS and on what dpkg-divert lists as forkless-xen's.
#
# A diversion PATH -> PATH.distrib by forkless-xen. What the running
# preinst changes it first writes to $JOURNAL, one line each:
#   add PATH      it added the diversion (--rename: Debian's file moved)
#   local PATH    it turned a local diversion PATH -> PATH.distrib into
#                 forkless-xen's (Debian's file left where it was)
#   own PATH      it added the diversion without --rename: the file at
#                 PATH was forkless-xen's own under PATH's other name on
#                 merged /usr (below, ours_by_alias), not Debian's
#   pending PATH  it moved a conffile dpkg has unpacked and not yet
#                 configured, PATH.dpkg-new, to PATH.distrib.dpkg-new
# An abort (postrm abort-install/abort-upgrade, preinst abort-upgrade)
# undoes the lines, last first; configure (postinst) commits them by
# deleting the journal.

JOURNAL=/var/lib/forkless-xen/preinst.journal

# chrootless ACTION: dpkg runs the maintainer scripts outside the root it
# installs into (dpkg --root with --force-script-chrootless), naming that
# root in DPKG_ROOT. These scripts divert, move, enable and stamp files
# by their absolute paths and run /usr/bin/forkless: in that mode they
# would change the running system, not the root. Such a run is refused,
# before any change, with what to do instead: dpkg --root without that
# option runs the scripts chrooted into the root, where they work.
chrootless() {
	[ -n "${DPKG_ROOT:-}" ] || return 1
	echo "forkless-xen: $1 refused: DPKG_ROOT=$DPKG_ROOT (dpkg --force-script-chrootless) is not supported, the maintainer scripts divert and move files by their paths on the running system; use dpkg --root=$DPKG_ROOT without --force-script-chrootless (the scripts then run chrooted into the root)" >&2
}

# exists PATH: PATH is there, a dangling symlink included.
exists() { [ -e "$1" ] || [ -L "$1" ]; }

# alias_of PATH: PATH's other name on merged /usr, where /lib, /bin and
# /sbin are /usr/lib, /usr/bin and /usr/sbin; nothing for other paths.
alias_of() {
	case $1 in
	/usr/lib/*|/usr/bin/*|/usr/sbin/*) echo "${1#/usr}" ;;
	/lib/*|/bin/*|/sbin/*) echo "/usr$1" ;;
	esac
}

# owners PATH: the packages dpkg lists as shipping PATH, by that exact
# name, one a line (not its "diversion by PACKAGE from: PATH" lines).
owners() {
	dpkg-query -S "$1" 2>/dev/null | awk -v f="$1" '
		!/^diversion by / && substr($0, length($0) - length(f) - 1) == ": " f {
			n = split(substr($0, 1, length($0) - length(f) - 2), p, ", ")
			for (i = 1; i <= n; i++) print p[i] }'
}

# recorded_md5 PKG PATH: the md5sum dpkg records for PKG's regular file
# PATH (not for a conffile), or nothing.
recorded_md5() {
	sums=$(dpkg-query --control-path "$1" md5sums 2>/dev/null) || return 0
	[ -n "$sums" ] && awk -v f="${2#/}" '$2 == f { print $1; exit }' "$sums"
}

# ours_by_alias PATH: the file at PATH is forkless-xen's own, shipped by
# its installed version under PATH's other name (forkless-xen 0.1 shipped
# its units at /lib/systemd/system, which on merged /usr is the directory
# of Debian 13's), and its bytes are not those dpkg records for another
# package's PATH. Diverting it with --rename would keep forkless's unit as
# Debian's at PATH.distrib, and a purge would put it back at PATH.
ours_by_alias() {
	a=$(alias_of "$1")
	[ -n "$a" ] && [ -f "$1" ] && [ ! -L "$1" ] || return 1
	owners "$a" | grep -qx forkless-xen || return 1
	sum=$(md5sum <"$1" | cut -c1-32)
	for p in $(owners "$1"); do
		[ "$p" = forkless-xen ] && continue
		[ "$(recorded_md5 "$p" "$1")" = "$sum" ] && return 1
	done
	return 0
}

# pending_conffile PATH: PATH is a conffile of a package that dpkg has
# unpacked and not configured yet: its new version waits at PATH.dpkg-new,
# or at the diverted name's .dpkg-new, for that package's configure.
pending_conffile() {
	dpkg-query -W -f='${db:Status-Status} ${Package}\n' | while read -r st p; do
		case $st in unpacked|half-configured) ;; *) continue ;; esac
		dpkg-query -W -f='${Conffiles}\n' "$p" | awk -v f="$1" '$1 == f { found = 1 } END { exit !found }' &&
			echo "$p"
	done | grep -q .
}

# conflict PATH WHAT: stop before any change, naming PATH and what is in
# the way.
conflict() {
	echo "forkless-xen: cannot divert $1 to $1.distrib: $2." >&2
	echo "forkless-xen: nothing was changed; undo that (dpkg-divert --list '$1*' shows it) and install again." >&2
	exit 1
}

# check_conflicts: every path of $DIVERSIONS can be diverted to
# PATH.distrib by forkless-xen: it is not diverted, or diverted there by
# forkless-xen or locally (taken over); nothing else is diverted to or
# from PATH.distrib; no file is in the way of the renames. Exit 1 with a
# message otherwise, having changed nothing.
check_conflicts() {
	all=$(dpkg-divert --list)
	for f in $DIVERSIONS; do
		pkg=$(dpkg-divert --listpackage "$f")
		to=$(dpkg-divert --truename "$f")
		case $pkg in
		'') ;;
		LOCAL)
			[ "$to" = "$f.distrib" ] ||
				conflict "$f" "it has a local diversion to $to" ;;
		forkless-xen)
			[ "$to" = "$f.distrib" ] ||
				conflict "$f" "forkless-xen already diverts it to $to" ;;
		*)
			conflict "$f" "$pkg diverts it to $to" ;;
		esac
		# PATH.distrib as another diversion's source or destination.
		other=$(printf '%s\n' "$all" | awk -v f="$f" -v d="$f.distrib" '
			{ from = ($1 == "local") ? $4 : $3; to = ($1 == "local") ? $6 : $5 }
			(from == d || to == d) && from != f { print; exit }')
		[ -z "$other" ] || conflict "$f" "$f.distrib is in another diversion ($other)"
		[ -n "$pkg" ] && continue
		if exists "$f" && exists "$f.distrib"; then
			conflict "$f" "$f.distrib is already there"
		fi
		if exists "$f.dpkg-new" && exists "$f.distrib.dpkg-new" && pending_conffile "$f"; then
			conflict "$f" "$f.distrib.dpkg-new is already there"
		fi
	done
}

# divert_all: divert every path of $DIVERSIONS (preinst install/upgrade),
# journaling each change first.
divert_all() {
	mkdir -p "${JOURNAL%/*}"
	for f in $DIVERSIONS; do
		case $(dpkg-divert --listpackage "$f") in
		forkless-xen) continue ;;
		LOCAL)
			# What a manual install made (`dpkg-divert --local --rename
			# --add PATH`, as forkless's README says): it becomes this
			# package's, Debian's file staying where it is.
			echo "local $f" >>"$JOURNAL"
			dpkg-divert --local --no-rename --divert "$f.distrib" --remove "$f" >/dev/null
			dpkg-divert --package forkless-xen --no-rename --divert "$f.distrib" --add "$f" >/dev/null
			continue ;;
		esac
		if ours_by_alias "$f"; then
			# Debian's file is not there to move aside (Debian 12 has
			# none; on Debian 13 forkless-xen 0.1's overwrote it):
			# the unpack replaces forkless's, and Debian's comes back
			# at PATH.distrib with xen-utils-common's reinstall
			# (postinst says so: missing_debian_files).
			echo "own $f" >>"$JOURNAL"
			dpkg-divert --package forkless-xen --no-rename --divert "$f.distrib" --add "$f" >/dev/null
			continue
		fi
		# A conffile dpkg has unpacked in this run, before the diversion
		# existed, waits at PATH.dpkg-new; its package's configure will
		# look for it at the diverted name, PATH.distrib.dpkg-new (and
		# our own unpack must not reuse the name PATH.dpkg-new).
		pending=no
		exists "$f.dpkg-new" && pending_conffile "$f" && pending=yes
		echo "add $f" >>"$JOURNAL"
		dpkg-divert --package forkless-xen --rename --divert "$f.distrib" --add "$f" >/dev/null
		if [ $pending = yes ]; then
			echo "pending $f" >>"$JOURNAL"
			mv "$f.dpkg-new" "$f.distrib.dpkg-new"
		fi
	done
}

# undo_journal: undo what the journal says a preinst changed, last change
# first, and delete it. Each step checks the state it undoes, so a step
# that had not happened (the preinst stopped before it), or an undo run
# twice, changes nothing.
undo_journal() {
	[ -f "$JOURNAL" ] || return 0
	sed '1!G;h;$!d' "$JOURNAL" | while read -r what f; do
		case $what in
		pending)
			if exists "$f.distrib.dpkg-new" && ! exists "$f.dpkg-new"; then
				mv "$f.distrib.dpkg-new" "$f.dpkg-new"
			fi ;;
		add)
			if [ "$(dpkg-divert --listpackage "$f")" = forkless-xen ]; then
				dpkg-divert --package forkless-xen --rename \
					--divert "$f.distrib" --remove "$f" >/dev/null
			fi ;;
		local)
			if [ "$(dpkg-divert --listpackage "$f")" = forkless-xen ]; then
				dpkg-divert --package forkless-xen --no-rename --divert "$f.distrib" --remove "$f" >/dev/null
				dpkg-divert --local --no-rename --divert "$f.distrib" --add "$f" >/dev/null
			fi ;;
		own)
			if [ "$(dpkg-divert --listpackage "$f")" = forkless-xen ]; then
				dpkg-divert --package forkless-xen --no-rename --divert "$f.distrib" --remove "$f" >/dev/null
			fi ;;
		esac
	done
	rm -f "$JOURNAL"
	rmdir "${JOURNAL%/*}" 2>/dev/null || :
}

# undivert PATH: remove forkless-xen's diversion of PATH with --rename
# (Debian's file back at PATH), after moving a conffile waiting at
# PATH.distrib.dpkg-new for its package's configure back to PATH.dpkg-new.
undivert() {
	if exists "$1.distrib.dpkg-new" && ! exists "$1.dpkg-new" && pending_conffile "$1"; then
		mv "$1.distrib.dpkg-new" "$1.dpkg-new"
	fi
	dpkg-divert --package forkless-xen --rename --divert "$1.distrib" --remove "$1" >/dev/null
}

# owned_diversions: every path dpkg-divert lists as diverted by
# forkless-xen, whatever version's list diverted it.
owned_diversions() {
	dpkg-divert --list | awk '$1 == "diversion" && $NF == "forkless-xen" { print $3 }'
}

# missing_debian_files: for each path forkless-xen diverts that another
# package ships by that name, whose file is missing at PATH.distrib, say
# so and how to get it back (after an upgrade from forkless-xen 0.1 on
# Debian 13, whose units had overwritten Debian's: ours_by_alias).
missing_debian_files() {
	for f in $(owned_diversions); do
		exists "$f.distrib" && continue
		for p in $(owners "$f"); do
			[ "$p" = forkless-xen ] && continue
			echo "forkless-xen: $p's $f is not on disk (diverted to $f.distrib): an earlier forkless-xen wrote its own file over it." >&2
			echo "forkless-xen: 'apt-get install --reinstall $p' puts it back." >&2
		done
	done
}

# The units forkless-xen ships (#UNITS#, debian/split), enabled at
# configure as debhelper's dh_installsystemd would (deb-systemd-helper:
# enabled on a first install, left as the admin set them after).
enable_units() {
	command -v deb-systemd-helper >/dev/null || return 0
	for u in $UNITS; do
		if deb-systemd-helper --quiet was-enabled "$u"; then
			deb-systemd-helper enable "$u" >/dev/null || :
		else
			deb-systemd-helper update-state "$u" >/dev/null || :
		fi
	done
}

# purge_units: at purge, forget the enablement of each unit no other
# package ships. Debian 13's xen-utils-common ships and enables units of
# the same names: once the diversions are gone they are back, enabled or
# disabled as their package and the admin left them, and stay so.
purge_units() {
	command -v deb-systemd-helper >/dev/null || return 0
	for u in $UNITS; do
		[ -e "/usr/lib/systemd/system/$u" ] || [ -e "/lib/systemd/system/$u" ] && continue
		deb-systemd-helper purge "$u" >/dev/null || :
	done
}

# daemon_reload: systemd, when it runs, reads the units as they now are.
daemon_reload() {
	if [ -d /run/systemd/system ]; then
		systemctl --system daemon-reload >/dev/null || :
	fi
}
