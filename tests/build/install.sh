#!/bin/bash
# SPDX-License-Identifier: MIT
# Installing: `make install DESTDIR=DIR` and `forkless --install [-s] DIR`
# create a missing DIR (0755, like install -d); in a chroot without /proc
# (a Buildroot post-build step) a binary already at usr/bin/forkless is
# not copied, and one elsewhere is told that /proc is needed.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2
base=$(scratch install)
trap 'rm -rf "$base"' EXIT

# make install DESTDIR=a directory that does not exist yet.
run_capture make -s install DESTDIR="$base/srv/new-root"
check "make install DESTDIR=missing: exit 0, DIR made 0755, links relative" \
	"0 755 ../lib/xen-common/bin/xen-utils-wrapper" \
	"$RC $(stat -c %a "$base/srv/new-root" 2>&1) $(readlink "$base/srv/new-root/usr/sbin/xl")"
[ "$RC" = 0 ] || fail "make install DESTDIR=missing: output" "$OUT$ERR"

# The umask plays no part in DIR's mode.
run_capture sh -c "umask 077; exec \"$FORKLESS\" --install \"$base/umask-dir\""
check "--install DIR under umask 077: DIR is 0755" "0 755" "$RC $(stat -c %a "$base/umask-dir" 2>&1)"

# DIR with a trailing slash: one slash in messages.
mkdir -p "$base/blocked" && touch "$base/blocked/usr"
expect "--install DIR/: the message has one slash" 1 "" \
	"forkless: $base/blocked/usr/bin/forkless: Not a directory"$'\n' \
	-- "$FORKLESS" --install -s "$base/blocked/"

# A merged-/usr root (bin -> usr/bin, sbin -> usr/sbin: Debian 12 and 13):
# each link is counted from where it lands, so bin/sh (XEN_MIGRATE_SHELL_SH,
# in allyesconfig) is usr/bin/sh -> forkless, not ../usr/bin/forkless
# (usr/usr/bin/forkless from there); and a symlink on the way that is
# absolute is DIR's, never followed out of DIR (bin -> /U/usr/bin: U a
# name the host has not, so that a regression writes nothing of the host's).
. "$TOP/tests/build/lib-build.sh"
KB=$base/kb
make -s build/gen/.applets.stamp build/gen/.kconfig-tools >/dev/null 2>&1
if configure allyes --allyesconfig && build allyes; then
	yes=$KB/allyes/forkless
	merged=$base/merged
	mkdir -p "$merged/usr/bin" "$merged/usr/sbin" && ln -s usr/bin "$merged/bin" && ln -s usr/sbin "$merged/sbin"
	run_capture "$yes" --install -s "$merged"
	check "--install -s, merged /usr: exit 0, bin/sh -> forkless" "0 forkless" "$RC $(readlink "$merged/usr/bin/sh")"
	bad= want=$(realpath "$merged")/usr/bin/forkless
	for p in $("$yes" --list-full); do
		t=$(realpath -e "$merged/$p" 2>&1)
		[ "$t" = "$want" ] || bad+="$p -> $(readlink "$merged/$p") ($t)"$'\n'
	done
	"$yes" --list-full | grep -qx bin/sh && [ -z "$bad" ] &&
		pass "--install -s, merged /usr: every path of --list-full reaches usr/bin/forkless" ||
		fail "--install -s, merged /usr: every path of --list-full reaches usr/bin/forkless" "${bad:-no bin/sh in --list-full}"
	u=forkless-install-test.$$ abs=$base/absolute
	if [ ! -e "/$u" ]; then
		mkdir -p "$abs/$u/usr/bin" && ln -s "/$u/usr/bin" "$abs/bin"
		run_capture "$yes" --install -s "$abs"
		check "--install -s, bin -> /U/usr/bin (absolute): exit 0, DIR's U/usr/bin/sh made, nothing at /U" \
			"0 ../../../usr/bin/forkless absent" \
			"$RC $(readlink "$abs/$u/usr/bin/sh") $([ -e "/$u" ] && echo "present" || echo absent)"
		[ ! -e "/$u" ] || rm -rf "/${u:?}"
	fi
else
	fail "--install -s, merged /usr: allyesconfig builds" "$(tail -5 "$KB/allyes.log")"
fi

need_root install/chroot || exit 0
if ! file -L "$FORKLESS" | grep -q 'statically linked'; then
	skip install/chroot "$FORKLESS is not static: it cannot run in an empty chroot"
	exit 0
fi
# A root being built, without /proc, with forkless already in place.
root=$base/root
mkdir -p "$root/usr/bin"
cp "$FORKLESS" "$root/usr/bin/forkless"
expect "--install -s / in a chroot without /proc, binary in place: exit 0, nothing said" \
	0 "" "" -- chroot "$root" /usr/bin/forkless --install -s /
check "--install -s / without /proc: the links are made" \
	"../lib/xen-common/bin/xen-utils-wrapper ../bin/forkless" \
	"$(readlink "$root/usr/sbin/xl") $(readlink "$root/usr/sbin/xen")"
cmp -s "$FORKLESS" "$root/usr/bin/forkless" && pass "--install -s / without /proc: the binary is untouched" ||
	fail "--install -s / without /proc: the binary is untouched" "usr/bin/forkless differs"
# The binary elsewhere: it would have to be copied, which needs /proc.
cp "$FORKLESS" "$root/forkless-elsewhere"
expect "--install -s / without /proc, binary elsewhere: exit 1, says /proc is needed" 1 "" \
	"forkless: /usr/bin/forkless: cannot copy the running binary from /proc/self/exe: No such file or directory (is /proc mounted?)"$'\n' \
	-- chroot "$root" /forkless-elsewhere --install -s /
exit 0
