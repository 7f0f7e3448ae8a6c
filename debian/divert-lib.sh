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
#   pending PATH  it moved a conffile dpkg has unpacked and not yet
#                 configured, PATH.dpkg-new, to PATH.distrib.dpkg-new
# An abort (postrm abort-install/abort-upgrade, preinst abort-upgrade)
# undoes the lines, last first; configure (postinst) commits them by
# deleting the journal.

JOURNAL=/var/lib/forkless-xen/preinst.journal

# exists PATH: PATH is there, a dangling symlink included.
exists() { [ -e "$1" ] || [ -L "$1" ]; }

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
