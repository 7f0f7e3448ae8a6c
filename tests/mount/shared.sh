#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/mount/shared.sh - mount-shared: finding a share by its tag.
#
# In a private mount namespace, tmpfs is mounted over the sysfs
# directories mount-shared reads (/sys/bus/virtio, /sys/fs, /sys/bus/pci)
# and filled the way the kernel fills them: virtio-9p mount tags, virtiofs
# tags (Linux 6.9+), a virtio-fs device without a visible tag (older
# kernels), the VirtualBox guest PCI device 80ee:cafe. The mount(2) call is
# checked with strace's injection, as in mount8.sh. Xen 9pfs tags come
# from xenstore (/dev/xen/xenbus): a stand-in (tests/xenstored-standin.py) answers
# on a raw pty bound there (an overlay on /dev makes the path; lib-mount.sh),
# when python3 is installed;
# the message encoding is also covered by tests/unit/test_xenstore.c, the
# real xenstore by the VM tests.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/mount/lib-mount.sh"

need_root mount/shared || exit 0
if ! command -v strace >/dev/null; then
	skip mount/shared "strace not installed"
	exit 0
fi
need_applet mount-shared || exit 0
T=$(scratch shared)
trap 'rm -rf "$T"' EXIT
ln -s "$FORKLESS" "$T/mount-shared"
mkdir -p "$T/mnt"
export T TOP FORKLESS

cat >"$T/ns.sh" <<'NS'
. "$TOP/tests/lib.sh"
. "$TOP/tests/mount/lib-mount.sh"
MS=$T/mount-shared
M=$T/mnt
sysfs_standin mount/shared || exit 0
mkdir -p /sys/bus/virtio/drivers/9pnet_virtio/virtio3 /sys/bus/virtio/drivers/9pnet_virtio/virtio7 \
	/sys/bus/virtio/devices
printf 'hostshare\n' >/sys/bus/virtio/drivers/9pnet_virtio/virtio3/mount_tag
printf 'old-style\0' >/sys/bus/virtio/drivers/9pnet_virtio/virtio7/mount_tag   # older kernels: NUL
touch /sys/bus/virtio/drivers/9pnet_virtio/bind /sys/bus/virtio/drivers/9pnet_virtio/uevent
mkdir -p /sys/fs/virtiofs/0
printf 'myfs\n' >/sys/fs/virtiofs/0/tag

# expect_within NAME WANT MIN-MS MAX-MS ARGS...: mount-shared ARGS makes
# the mount(2) calls WANT (mounts), in MIN..MAX-1 ms.
expect_within() {
	local name=$1 want=$2 min=$3 max=$4 start ms
	shift 4
	start=$(date +%s%N)
	mount_calls "$MS" "$@"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	[ "$RC" = 0 ] && [ "$got" = "$want" ] && [ "$ms" -ge "$min" ] && [ "$ms" -lt "$max" ] && pass "$name" ||
		fail "$name" "exit $RC after $ms ms (expected $min..$max), '$got'" "$(cat "$T/err")"
}

mount_calls "$MS" -l
want=$(printf 'myfs\tvirtiofs\tvirtiofs:0\nhostshare\t9p\tvirtio:virtio3\nold-style\t9p\tvirtio:virtio7\n' | sort)
[ "$RC" = 0 ] && check mount/shared/list "$want" "$(sort "$T/out")" || fail mount/shared/list "exit $RC" "$(cat "$T/err")"
mounts mount/shared/9p "mount(\"hostshare\", \"$M\", \"9p\", 0, \"trans=virtio,version=9p2000.L,msize=512000\")" "$MS" hostshare "$M"
mounts mount/shared/9p-nul-terminated-tag "mount(\"old-style\", \"$M\", \"9p\", 0, \"trans=virtio,version=9p2000.L,msize=512000\")" "$MS" old-style "$M"
mounts mount/shared/9p-options "mount(\"hostshare\", \"$M\", \"9p\", MS_RDONLY|MS_RELATIME, \"cache=loose,trans=virtio,version=9p2000.L,msize=512000\")" "$MS" \
	-o ro,relatime,nofail,cache=loose hostshare "$M"
mounts mount/shared/virtiofs "mount(\"myfs\", \"$M\", \"virtiofs\", 0, \"dax\")" "$MS" myfs "$M" -o dax
mounts mount/shared/type-9p "mount(\"hostshare\", \"$M\", \"9p\", 0, \"trans=virtio,version=9p2000.L,msize=512000\")" "$MS" -t 9p hostshare "$M"
mount_calls "$MS" -v -f myfs "$M"
[ "$RC" = 0 ] && [ -z "$got" ] && [ "$(cat "$T/out")" = "mount(\"myfs\", \"$M\", \"virtiofs\", 0, NULL)" ] &&
	pass mount/shared/fake-verbose || fail mount/shared/fake-verbose "exit $RC, '$got'" "$(cat "$T/out" "$T/err")"
# The list is what -l is for: losing it is an error (exit 2), named.
"$MS" -l >/dev/full 2>"$T/err"; rc=$?
exit_seen mount-shared "$rc"
[ $rc = 2 ] && grep -q "mount-shared: cannot write to stdout: No space left on device" "$T/err" &&
	pass mount/shared/list-to-full-stdout || fail mount/shared/list-to-full-stdout "exit $rc" "$(cat "$T/err")"
"$MS" -l >&- 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "mount-shared: cannot write to stdout: " "$T/err" &&
	pass mount/shared/list-to-closed-stdout || fail mount/shared/list-to-closed-stdout "exit $rc" "$(cat "$T/err")"

# Not there: exit 32 after the wait, naming the tags that exist.
start=$(date +%s%N)
mount_calls "$MS" -w 1 nosuch "$M"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$RC" = 32 ] && [ -z "$got" ] && grep -q "no share with tag 'nosuch' found after waiting 1 s; the tags present are" "$T/err" &&
	grep -q "^hostshare	9p	virtio:virtio3" "$T/err" && grep -q "^myfs	virtiofs" "$T/err" &&
	[ "$ms" -ge 1000 ] && [ "$ms" -lt 3000 ]; then
	pass mount/shared/missing-lists-tags
else
	fail mount/shared/missing-lists-tags "exit $RC after $ms ms" "$(cat "$T/err")"
fi
start=$(date +%s%N)
mount_calls "$MS" -w 0 -t virtiofs hostshare "$M"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$RC" = 32 ] && [ "$ms" -lt 900 ] && grep -q "no share with tag 'hostshare' found;" "$T/err" &&
	pass mount/shared/type-restricts-and-w0-no-wait || fail mount/shared/type-restricts-and-w0-no-wait "exit $RC after $ms ms" "$(cat "$T/err")"

# A tag that appears while waiting (a device probed late at boot).
( sleep 1; mkdir -p /sys/bus/virtio/drivers/9pnet_virtio/virtio9; printf 'late\n' >/sys/bus/virtio/drivers/9pnet_virtio/virtio9/mount_tag ) &
expect_within mount/shared/waits-for-late-tag "mount(\"late\", \"$M\", \"9p\", 0, \"trans=virtio,version=9p2000.L,msize=512000\")" \
	900 3000 -w 5 late "$M"
wait
# Polling is cheap: a 1 s wait sleeps ~10 times, no busy loop.
strace -qq -c -o "$T/count" "$MS" -w 1 nosuch2 "$M" 2>/dev/null
n=$(awk '$NF == "total" { print $4 }' "$T/count")
sleeps=$(awk '$NF ~ /nanosleep/ { print $4 }' "$T/count")
[ -n "$n" ] && [ "$n" -lt 800 ] && [ "${sleeps:-0}" -ge 8 ] && [ "${sleeps:-0}" -le 12 ] &&
	pass mount/shared/cheap-polling || fail mount/shared/cheap-polling "$n syscalls, $sleeps sleeps in 1 s" "$(cat "$T/count")"
info "mount-shared: a 1 s wait for a missing tag costs $n syscalls ($sleeps sleeps)"

# Errors: usage, options for the type found, the mount's own errors.
mount_calls "$MS" -t nfs x "$M"
[ "$RC" = 1 ] && grep -q -- "-t nfs: not a type" "$T/err" && pass mount/shared/bad-type || fail mount/shared/bad-type "exit $RC" "$(cat "$T/err")"
mount_calls "$MS" -w soon x "$M"
[ "$RC" = 1 ] && grep -q -- "-w wants a number of seconds" "$T/err" && pass mount/shared/bad-wait || fail mount/shared/bad-wait "exit $RC" "$(cat "$T/err")"
mount_calls "$MS" hostshare
[ "$RC" = 1 ] && grep -q "missing operand" "$T/err" && pass mount/shared/missing-operand || fail mount/shared/missing-operand "exit $RC" "$(cat "$T/err")"
mount_calls "$MS" -o dmode=755 hostshare "$M"
[ "$RC" = 1 ] && grep -q "unknown 9p option 'dmode=755'" "$T/err" && pass mount/shared/option-of-wrong-type ||
	fail mount/shared/option-of-wrong-type "exit $RC" "$(cat "$T/err")"
strace -qq -o /dev/null -e trace=mount -e inject=mount:error=ENOENT "$MS" hostshare "$M" 2>"$T/err"
rc=$?
[ $rc = 32 ] && grep -q "no virtio 9p device has the mount tag 'hostshare'" "$T/err" &&
	pass mount/shared/mount-error-message || fail mount/shared/mount-error-message "exit $rc" "$(cat "$T/err")"

# Older kernels: a virtio-fs device (id 0x001a) whose tag sysfs does not show.
umount /sys/fs
mkdir -p /sys/bus/virtio/devices/virtio5 /sys/bus/virtio/devices/virtio3
printf '0x001a\n' >/sys/bus/virtio/devices/virtio5/device
printf '0x0009\n' >/sys/bus/virtio/devices/virtio3/device
if [ -d /sys/fs/virtiofs ]; then
	skip mount/shared/untagged-virtiofs "/sys/fs/virtiofs exists below the tmpfs"
else
	mount_calls "$MS" -l
	grep -q "^?	virtiofs	virtiofs:1 device(s), tags not shown by this kernel" "$T/out" &&
		pass mount/shared/untagged-virtiofs-listed || fail mount/shared/untagged-virtiofs-listed "$(cat "$T/out")"
	mounts mount/shared/untagged-virtiofs-tried "mount(\"unlisted\", \"$M\", \"virtiofs\", 0, NULL)" "$MS" -w 0 unlisted "$M"
	# tried at once, not after the (default 5 s) wait
	expect_within mount/shared/untagged-virtiofs-no-wait "mount(\"unlisted\", \"$M\", \"virtiofs\", 0, NULL)" \
		0 2000 unlisted "$M"
	# a device probed while waiting is tried when it appears
	rm -rf /sys/bus/virtio/devices/virtio5
	( sleep 1; mkdir -p /sys/bus/virtio/devices/virtio6; printf '0x001a\n' >/sys/bus/virtio/devices/virtio6/device ) &
	expect_within mount/shared/untagged-virtiofs-late-device "mount(\"unlisted\", \"$M\", \"virtiofs\", 0, NULL)" \
		900 3000 -w 5 unlisted "$M"
	wait
	rm -rf /sys/bus/virtio/devices/virtio6
fi
rm -rf /sys/bus/virtio/devices/virtio5

# A VirtualBox guest: the guest PCI device, shares tried by name.
mkdir -p /sys/bus/pci/devices/0000:00:04.0 /sys/bus/pci/devices/0000:00:02.0
printf '0x80ee\n' >/sys/bus/pci/devices/0000:00:04.0/vendor
printf '0xcafe\n' >/sys/bus/pci/devices/0000:00:04.0/device
printf '0x80ee\n' >/sys/bus/pci/devices/0000:00:02.0/vendor   # VirtualBox VGA
printf '0xbeef\n' >/sys/bus/pci/devices/0000:00:02.0/device
mount_calls "$MS" -l
grep -q "^\*	vboxsf	virtualbox:" "$T/out" && pass mount/shared/virtualbox-listed || fail mount/shared/virtualbox-listed "$(cat "$T/out")"
mounts mount/shared/vboxsf "mount(\"projects\", \"$M\", \"vboxsf\", MS_NODEV, \"uid=1000\")" "$MS" -w 0 projects "$M" -o uid=1000
# Shared folder names are never listed: tried at once, not after the wait.
expect_within mount/shared/vboxsf-no-wait "mount(\"projects\", \"$M\", \"vboxsf\", MS_NODEV, \"uid=1000\")" \
	0 2000 projects "$M" -o uid=1000
start=$(date +%s%N)
"$MS" -f -v projects "$M" -o uid=1000 >"$T/out" 2>"$T/err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc = 0 ] && [ "$(cat "$T/out")" = "mount(\"projects\", \"$M\", \"vboxsf\", MS_NODEV, \"uid=1000\")" ] && [ "$ms" -lt 2000 ] &&
	pass mount/shared/vboxsf-fake-verbose-no-wait ||
	fail mount/shared/vboxsf-fake-verbose-no-wait "exit $rc after $ms ms" "$(cat "$T/out" "$T/err")"
mounts mount/shared/tag-beats-vboxsf "mount(\"hostshare\", \"$M\", \"9p\", 0, \"trans=virtio,version=9p2000.L,msize=512000\")" "$MS" hostshare "$M"
printf '0xbeef\n' >/sys/bus/pci/devices/0000:00:04.0/device

# Nothing at all.
umount /sys/bus/virtio
mount_calls "$MS" -w 0 x "$M"
[ "$RC" = 32 ] && grep -q "no 9p, virtiofs, Xen 9pfs or VirtualBox share is visible" "$T/err" &&
	pass mount/shared/nothing-visible || fail mount/shared/nothing-visible "exit $RC" "$(cat "$T/err")"
mount_calls "$MS" -l
[ "$RC" = 0 ] && [ ! -s "$T/out" ] && pass mount/shared/list-empty || fail mount/shared/list-empty "exit $RC: $(cat "$T/out")"

# Xen 9pfs: device/9pfs/0/tag = xenshare in a stand-in xenstore.
xenstore_standin mount/shared/xen "$T" 0=xenshare || exit 0
case $(printf '%s\n' "$(uname -r)" 5.8 | sort -V | head -1) in
5.8) xm=262144 ;; *) xm=65536 ;;
esac
mount_calls "$MS" -l
[ "$RC" = 0 ] && check mount/shared/xen-list "$(printf 'xenshare\t9p\txen:0')" "$(cat "$T/out")" ||
	fail mount/shared/xen-list "exit $RC" "$(cat "$T/err")"
mounts mount/shared/xen "mount(\"xenshare\", \"$M\", \"9p\", 0, \"trans=xen,version=9p2000.L,msize=$xm\")" "$MS" xenshare "$M"
# trans=xen is added after the 32 -o options mount-shared takes.
opts=()
for _ in $(seq 31); do opts+=(-o noatime); done
mounts mount/shared/xen-after-32-options \
	"mount(\"xenshare\", \"$M\", \"9p\", MS_NOATIME, \"cache=loose,trans=xen,version=9p2000.L,msize=$xm\")" "$MS" \
	"${opts[@]}" -o cache=loose xenshare "$M"
mount_calls "$MS" "${opts[@]}" -o cache=loose -o ro xenshare "$M"
[ "$RC" = 1 ] && [ -z "$got" ] && grep -q "too many -o options" "$T/err" && pass mount/shared/33-options-refused ||
	fail mount/shared/33-options-refused "exit $RC, '$got'" "$(cat "$T/err")"
xenstore_standin_stop "$T"
NS
unshare -m bash "$T/ns.sh" </dev/null || fail mount/shared "the namespace script exited with status $?"
exit 0
