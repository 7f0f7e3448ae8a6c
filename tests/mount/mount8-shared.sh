#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/mount/mount8-shared.sh - mount.shared, filesystem type "shared", as
# util-linux mount(8) runs it: `mount -t shared TAG DIR`, fstab lines
# (`mount DIR`, `mount -a -T FSTAB`), the options mount(8) passes to
# helpers (-o, -s, -v, -n, -N, -t shared.SUBTYPE) and wait=SECONDS.
#
# In a private mount namespace: the stand-in sysfs of shared.sh
# (lib-mount.sh's sysfs_standin: virtio-9p tag hostshare, virtiofs tag
# myfs), /sbin/mount.shared made visible by an overlay as in mount8.sh,
# and the mount(2) call checked exactly under strace's injection.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/mount/lib-mount.sh"

need_root mount/mount8-shared || exit 0
for tool in strace unshare mount; do
	if ! command -v $tool >/dev/null; then
		skip mount/mount8-shared "$tool not installed (Debian: strace util-linux mount)"
		exit 0
	fi
done
if ! mount --version 2>/dev/null | grep -q util-linux; then
	skip mount/mount8-shared "mount(8) is not util-linux's"
	exit 0
fi
need_applet mount.shared mount-shared || exit 0

T=$(scratch mount8-shared)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/sbin" "$T/mnt/a" "$T/mnt/b" "$T/mnt/c" "$T/root"
ln -s "$FORKLESS" "$T/sbin/mount.shared"

# --install puts the helper where mount(8) looks: /sbin/mount.shared,
# through a merged-/usr root's /sbin -> usr/sbin link.
ln -s usr/sbin "$T/root/sbin"
if "$FORKLESS" --install -s "$T/root" >/dev/null 2>&1; then
	check mount/install/mount.shared-via-sbin-link "$(readlink -f "$T/root/usr/bin/forkless")" \
		"$(cd "$T/root" && readlink -f sbin/mount.shared)"
else
	fail mount/install/mount.shared "forkless --install -s failed"
fi

M=$T/mnt
D9="trans=virtio,version=9p2000.L,msize=512000"
cat >"$T/fstab" <<EOF
# shares by tag: the wait is wait= (mount(8) never passes x-* to helpers)
hostshare $M/a shared nofail,wait=3,x-systemd.device-timeout=10s,ro,cache=loose 0 0
myfs      $M/b shared.virtiofs defaults,dax=inode 0 0
hostshare $M/c shared.virtiofs noauto,wait=0 0 0
EOF
export T TOP FORKLESS M D9

cat >"$T/ns.sh" <<'NS'
. "$TOP/tests/lib.sh"
. "$TOP/tests/mount/lib-mount.sh"
sysfs_standin mount/mount8-shared || exit 0
mkdir -p /sys/bus/virtio/drivers/9pnet_virtio/virtio3
printf 'hostshare\n' >/sys/bus/virtio/drivers/9pnet_virtio/virtio3/mount_tag
mkdir -p /sys/fs/virtiofs/0
printf 'myfs\n' >/sys/fs/virtiofs/0/tag
sbindir=$(readlink -f /sbin)
if ! mount -t overlay overlay -o "lowerdir=$T/sbin:$sbindir" "$sbindir" 2>"$T/ovl.err"; then
	skip mount/mount8-shared "cannot overlay $sbindir: $(cat "$T/ovl.err")"
	exit 0
fi
[ -x /sbin/mount.shared ] || { fail mount/mount8-shared/setup "/sbin/mount.shared not visible"; exit 0; }

# within NAME MIN-MS MAX-MS CMD...: CMD's run time in ms in MS, then
# ok when MIN <= MS < MAX.
within() {
	local start
	start=$(date +%s%N)
	shift 3
	mount_calls "$@"
	MS=$(( ($(date +%s%N) - start) / 1000000 ))
}

mounts mount/mount8-shared/9p "mount(\"hostshare\", \"$M\", \"9p\", 0, \"$D9\")" \
	mount -t shared hostshare "$M"
mounts mount/mount8-shared/virtiofs "mount(\"myfs\", \"$M\", \"virtiofs\", 0, \"dax\")" \
	mount -t shared -o dax myfs "$M"
mounts mount/mount8-shared/options-of-the-type-found \
	"mount(\"hostshare\", \"$M\", \"9p\", MS_NOSUID|MS_NODEV|MS_NOATIME, \"cache=mmap,msize=131072,$(echo "$D9" | sed 's/,msize=512000//')\")" \
	mount -t shared -o nosuid,nodev,noatime,cache=mmap,msize=131072,nofail,_netdev hostshare "$M"
# wait= is mount.shared's: the kernel never sees it
mounts mount/mount8-shared/wait-not-in-mount-data "mount(\"hostshare\", \"$M\", \"9p\", 0, \"cache=loose,$D9\")" \
	mount -t shared -o wait=2,cache=loose hostshare "$M"
mounts mount/mount8-shared/wait-alone "mount(\"hostshare\", \"$M\", \"9p\", 0, \"$D9\")" \
	mount -t shared -o wait=0 hostshare "$M"
# -t shared.SUBTYPE (mount(8) passes -t shared.9p to /sbin/mount.shared)
mounts mount/mount8-shared/subtype-9p "mount(\"hostshare\", \"$M\", \"9p\", 0, \"$D9\")" \
	mount -t shared.9p hostshare "$M"
mount_calls mount -t shared.virtiofs -o wait=0 hostshare "$M"
[ "$RC" = 32 ] && [ -z "$got" ] && grep -q "mount.shared: no share with tag 'hostshare' found; the tags present are" "$T/err" &&
	grep -q "^myfs	virtiofs" "$T/err" && ! grep -q "^hostshare	9p" "$T/err" && pass mount/mount8-shared/subtype-restricts ||
	fail mount/mount8-shared/subtype-restricts "exit $RC, calls '$got'" "$(cat "$T/err")"
mount_calls mount -t shared.nfs hostshare "$M"
[ "$RC" = 1 ] && [ -z "$got" ] && grep -q -- "-t nfs: not a type" "$T/err" && pass mount/mount8-shared/bad-subtype ||
	fail mount/mount8-shared/bad-subtype "exit $RC" "$(cat "$T/err")"

# fstab lines: `mount DIR`, `mount -a`
mounts mount/mount8-shared/fstab-9p "mount(\"hostshare\", \"$M/a\", \"9p\", MS_RDONLY, \"cache=loose,$D9\")" \
	mount -T "$T/fstab" "$M/a"
mounts mount/mount8-shared/fstab-subtype "mount(\"myfs\", \"$M/b\", \"virtiofs\", 0, \"dax=inode\")" \
	mount -T "$T/fstab" "$M/b"
mount_calls mount -a -T "$T/fstab"
want=$(printf '%s\n' "mount(\"hostshare\", \"$M/a\", \"9p\", MS_RDONLY, \"cache=loose,$D9\")" \
	"mount(\"myfs\", \"$M/b\", \"virtiofs\", 0, \"dax=inode\")" | sort)
[ "$RC" = 0 ] && check mount/mount8-shared/fstab-mount-a "$want" "$(printf '%s\n' "$got" | sort)" ||
	fail mount/mount8-shared/fstab-mount-a "exit $RC: $(cat "$T/err")"
# mount -a again: a line whose TAG is mounted on its DIR (whatever the
# type /proc/mounts shows: 9p, not shared) is not mounted twice. A tmpfs
# with source hostshare stands in for the 9p mount.
mount -t tmpfs hostshare "$M/a"
mount_calls mount -a -T "$T/fstab"
[ "$RC" = 0 ] && check mount/mount8-shared/fstab-mount-a-skips-mounted "mount(\"myfs\", \"$M/b\", \"virtiofs\", 0, \"dax=inode\")" "$got" ||
	fail mount/mount8-shared/fstab-mount-a-skips-mounted "exit $RC: $(cat "$T/err")"
umount "$M/a"
# the noauto line names a tag that is no virtiofs one: exit 32 at once (wait=0)
within x 0 0 mount -T "$T/fstab" "$M/c"
[ "$RC" = 32 ] && [ -z "$got" ] && [ "$MS" -lt 900 ] && grep -q "no share with tag 'hostshare' found;" "$T/err" &&
	pass mount/mount8-shared/fstab-wait-0-missing || fail mount/mount8-shared/fstab-wait-0-missing "exit $RC after $MS ms" "$(cat "$T/err")"

# nofail does not hide a missing tag: mount.shared exits 32 with its
# message, and util-linux mount(8) passes that on (nofail only tells
# systemd not to hold the boot for the mount)
printf 'nosuch %s shared nofail,wait=0 0 0\n' "$M/c" >"$T/fstab-nofail"
mount_calls mount -a -T "$T/fstab-nofail"
[ "$RC" = 32 ] && [ -z "$got" ] && grep -q "^mount.shared: no share with tag 'nosuch' found;" "$T/err" &&
	pass mount/mount8-shared/nofail-missing-tag-reported || fail mount/mount8-shared/nofail-missing-tag-reported "exit $RC" "$(cat "$T/err")"
# wait=: the tag probed late is waited for; a missing one waits that long
( sleep 1; mkdir -p /sys/bus/virtio/drivers/9pnet_virtio/virtio9; printf 'late\n' >/sys/bus/virtio/drivers/9pnet_virtio/virtio9/mount_tag ) &
within x 0 0 mount -t shared -o wait=5 late "$M"
[ "$RC" = 0 ] && [ "$got" = "mount(\"late\", \"$M\", \"9p\", 0, \"$D9\")" ] && [ "$MS" -ge 900 ] && [ "$MS" -lt 3000 ] &&
	pass mount/mount8-shared/waits-for-late-tag || fail mount/mount8-shared/waits-for-late-tag "exit $RC after $MS ms, '$got'" "$(cat "$T/err")"
wait
within x 0 0 mount -t shared -o wait=1 nosuch "$M"
[ "$RC" = 32 ] && [ -z "$got" ] && [ "$MS" -ge 1000 ] && [ "$MS" -lt 3000 ] &&
	grep -q "no share with tag 'nosuch' found after waiting 1 s" "$T/err" && pass mount/mount8-shared/wait-1-missing ||
	fail mount/mount8-shared/wait-1-missing "exit $RC after $MS ms" "$(cat "$T/err")"
# the last wait= wins, across -o strings and within one
within x 0 0 /sbin/mount.shared nosuch "$M" -o wait=9 -o ro,wait=7,wait=0
[ "$RC" = 32 ] && [ "$MS" -lt 900 ] && pass mount/mount8-shared/last-wait-wins ||
	fail mount/mount8-shared/last-wait-wins "exit $RC after $MS ms" "$(cat "$T/err")"
# the default is mount-shared's, 5 s
within x 0 0 mount -t shared nosuch "$M"
[ "$RC" = 32 ] && [ "$MS" -ge 5000 ] && [ "$MS" -lt 7000 ] && grep -q "after waiting 5 s" "$T/err" &&
	pass mount/mount8-shared/default-wait-5s || fail mount/mount8-shared/default-wait-5s "exit $RC after $MS ms" "$(cat "$T/err")"
for bad in soon -1 86401 ""; do
	mount_calls mount -t shared -o "wait=$bad" hostshare "$M"
	[ "$RC" = 1 ] && [ -z "$got" ] && grep -qxF "mount.shared: wait= wants a number of seconds (0..86400), not ${bad:-an empty value} (try mount.shared --help)" "$T/err" &&
		pass "mount/mount8-shared/bad-wait-'$bad'" || fail "mount/mount8-shared/bad-wait-'$bad'" "exit $RC" "$(cat "$T/err")"
done
# mount-shared takes wait= too (and -w)
within x 0 0 "$FORKLESS" mount-shared -o wait=0 nosuch "$M"
[ "$RC" = 32 ] && [ "$MS" -lt 900 ] && pass mount/mount8-shared/mount-shared-takes-wait ||
	fail mount/mount8-shared/mount-shared-takes-wait "exit $RC after $MS ms" "$(cat "$T/err")"

# the flags mount(8) passes on: -s -v -n -N; and the helper's own -r -w
mount_calls mount -s -t shared -o foo,cache=none hostshare "$M"
[ "$RC" = 0 ] && [ "$got" = "mount(\"hostshare\", \"$M\", \"9p\", 0, \"cache=none,$D9\")" ] &&
	grep -q "ignoring unknown option 'foo' (-s)" "$T/err" && pass mount/mount8-shared/sloppy ||
	fail mount/mount8-shared/sloppy "exit $RC, '$got'" "$(cat "$T/err")"
mount_calls mount -t shared -o foo hostshare "$M"
[ "$RC" = 1 ] && [ -z "$got" ] && grep -q "unknown 9p option 'foo'" "$T/err" && pass mount/mount8-shared/unknown-option ||
	fail mount/mount8-shared/unknown-option "exit $RC, '$got'" "$(cat "$T/err")"
mount_calls mount -v -n -t shared myfs "$M"
[ "$RC" = 0 ] && grep -qxF "mount(\"myfs\", \"$M\", \"virtiofs\", 0, NULL)" "$T/out" && pass mount/mount8-shared/verbose ||
	fail mount/mount8-shared/verbose "exit $RC, stdout: $(cat "$T/out")" "$(cat "$T/err")"
mounts mount/mount8-shared/namespace "mount(\"hostshare\", \"$M\", \"9p\", 0, \"$D9\")" \
	mount -N "/proc/$$/ns/mnt" -t shared hostshare "$M"
mounts mount/mount8-shared/helper-r "mount(\"hostshare\", \"$M\", \"9p\", MS_RDONLY, \"$D9\")" \
	/sbin/mount.shared hostshare "$M" -r
mounts mount/mount8-shared/helper-w-is-rw "mount(\"hostshare\", \"$M\", \"9p\", 0, \"$D9\")" \
	/sbin/mount.shared hostshare "$M" -o ro -w
mount_calls /sbin/mount.shared -l
[ "$RC" = 1 ] && grep -q "unknown option -l" "$T/err" && pass mount/mount8-shared/no-list-option ||
	fail mount/mount8-shared/no-list-option "exit $RC" "$(cat "$T/out" "$T/err")"
mount_calls /sbin/mount.shared --help
[ "$RC" = 0 ] && grep -q "^Usage: mount.shared TAG DIR" "$T/out" && grep -q "wait=SECONDS" "$T/out" &&
	pass mount/mount8-shared/help || fail mount/mount8-shared/help "exit $RC" "$(cat "$T/out" "$T/err")"
# wait= is an option of its own only outside quotes: a label that holds
# the text is passed whole; a quote left open is refused, not cut
mount_calls /sbin/mount.shared hostshare "$M" -f -v -o 'context="a,wait=9",wait=0'
[ "$RC" = 0 ] && [ -z "$got" ] &&
	[ "$(cat "$T/out")" = "mount(\"hostshare\", \"$M\", \"9p\", 0, \"context=\\\"a,wait=9\\\",$D9\")" ] &&
	pass mount/mount8-shared/wait-inside-quotes-kept || fail mount/mount8-shared/wait-inside-quotes-kept "exit $RC" "$(cat "$T/out" "$T/err")"
mount_calls /sbin/mount.shared hostshare "$M" -o '"wait=1'
[ "$RC" = 1 ] && [ -z "$got" ] && grep -q "unclosed double quote" "$T/err" && pass mount/mount8-shared/open-quote ||
	fail mount/mount8-shared/open-quote "exit $RC" "$(cat "$T/err")"
for h in --help -h; do
	/sbin/mount.shared $h >/dev/full 2>"$T/err"; rc=$?
	exit_seen mount.shared "$rc"
	[ $rc = 2 ] && grep -qx "mount.shared: cannot write to stdout: No space left on device" "$T/err" &&
		pass "mount/mount8-shared/help$h-to-full" || fail "mount/mount8-shared/help$h-to-full" "exit $rc" "$(cat "$T/err")"
done
NS
unshare -m bash "$T/ns.sh" </dev/null || fail mount/mount8-shared "the namespace script exited with status $?"
exit 0
