#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/vm/guest/mount.sh - the mount helpers against a real kernel, inside
# the QEMU guest of tests/vm/run (POSIX sh; busybox sh in the guest).
#
# Called by the guest's /init with no arguments, after forkless was
# installed with `forkless --install -s /`, the kernel modules loaded
# (9p, 9pnet_virtio; virtiofs and vboxsf when the kernel has them), and
# with a virtio-9p share of tag "hostshare" attached. Environment (all
# optional):
#   FORKLESS_SBIN   where the helpers are        (default: /sbin if it has
#                                                 mount.9p, else /usr/sbin)
#   MOUNT_SHARED    the mount-shared applet      (default /usr/bin/mount-shared)
#   VMTEST_TMP      scratch directory            (default /tmp)
#   VMTEST_FORCE    run although the kernel command line has no vmtest.*
# Prints one line per check, read by tests/vm/run:
#   VMTEST PASS name | VMTEST FAIL name: details | VMTEST SKIP name: reason
# The helpers are mostly called directly: busybox mount mounts 9p itself and
# only runs mount.TYPE (through PATH) when its own mount(2) fails, so it would
# not exercise them. Type "shared" is the exception: the kernel knows no such
# filesystem, mount(2) fails with ENODEV and busybox runs
# `mount.shared [-n] TAG DIR [-o OPTS]` (found through PATH in /usr/sbin), the
# way util-linux mount(8) runs /sbin/mount.shared: `mount -t shared TAG DIR`
# and an /etc/fstab line are checked through busybox mount.
#
# The plain boot (kernel parameter vmtest.vfs=TAG,...) also has virtio-fs
# shares (virtiofsd on the host): mounted through mount.virtiofs,
# mount-shared and `mount -t shared`, the host's token read, and files
# written that tests/vm/run checks on the host after the boot.
#
# What it shows: the helpers mount the real share (mount.9p, mount-shared),
# and the kernel's own parsers accept every option string the helpers
# produce for vboxsf and virtiofs: with no VirtualBox / virtio-fs device the
# mount must then fail at the connect step (ENODEV for vboxsf, "tag not
# found" for virtiofs), never with "Unknown parameter" or "Bad value".

# tests/run runs every executable tests/*/*.sh on the host: only the guest
# (booted with vmtest.* parameters) runs the checks.
if ! grep -q 'vmtest\.' /proc/cmdline 2>/dev/null && [ -z "${VMTEST_FORCE:-}" ]; then
	echo "INFO: tests/vm/guest/mount.sh runs inside the VM guest of tests/vm/run only"
	exit 0
fi

SBIN=${FORKLESS_SBIN:-}
[ -n "$SBIN" ] || { [ -x /sbin/mount.9p ] && SBIN=/sbin || SBIN=/usr/sbin; }
MS=${MOUNT_SHARED:-/usr/bin/mount-shared}
TMP=${VMTEST_TMP:-/tmp}
P=vm-mount

pass() { echo "VMTEST PASS $P/$1"; }
fail() { n=$1; shift; echo "VMTEST FAIL $P/$n: $*"; }
skipt() { n=$1; shift; echo "VMTEST SKIP $P/$n: $*"; }
oneline() { tr '\n' '|' <"$1" | head -c 300; }
# the mount's line in /proc/mounts
mounted() { grep " $1 " /proc/mounts | head -1; }

mkdir -p "$TMP/m9p" "$TMP/mshared" "$TMP/mvbox" "$TMP/mvfs"
TOKEN= VFS=
for arg in $(cat /proc/cmdline); do
	case $arg in
	vmtest.token=*) TOKEN=${arg#*=} ;;
	vmtest.vfs=*) VFS=${arg#*=} ;;
	esac
done
# token_check NAME DIR: the host's token file reads back through DIR
token_check() {
	got=$(cat "$2/token" 2>&1)
	[ "$got" = "$TOKEN" ] && pass "$1" || fail "$1" "read '$got' from $2/token, expected '$TOKEN'"
}

# ---- 9p: the real share through mount.9p -----------------------------------
if [ ! -x "$SBIN/mount.9p" ]; then
	fail 9p-helper "no $SBIN/mount.9p"
elif "$SBIN/mount.9p" hostshare "$TMP/m9p" -v >"$TMP/o" 2>"$TMP/e"; then
	line=$(mounted "$TMP/m9p")
	case $line in
	*" 9p "*trans=virtio*) pass 9p-helper ;;
	*) fail 9p-helper "mounted, but /proc/mounts says: $line" ;;
	esac
	case $line in
	*msize=512000*) pass 9p-helper-msize-default ;;
	*) fail 9p-helper-msize-default "no msize=512000 in: $line" ;;
	esac
	ls "$TMP/m9p" >/dev/null 2>&1 && pass 9p-helper-readable || fail 9p-helper-readable "cannot list the share"
	token_check 9p-helper-reads-host-token "$TMP/m9p"
	# read on the host after the boot (tests/vm/run)
	echo "9p $TOKEN" >"$TMP/m9p/from-guest-9p" && pass 9p-helper-write || fail 9p-helper-write "cannot write to the share"
	umount "$TMP/m9p"
else
	fail 9p-helper "exit $?: $(oneline "$TMP/e")"
fi
# options mount(8) and fstab pass: all accepted by the kernel
if "$SBIN/mount.9p" hostshare "$TMP/m9p" -o ro,nodev,relatime,nofail,_netdev,cache=loose,access=client,posixacl,x-systemd.automount 2>"$TMP/e"; then
	line=$(mounted "$TMP/m9p")
	case $line in
	*" ro,"*) pass 9p-helper-options ;;
	*) fail 9p-helper-options "not read-only: $line" ;;
	esac
	umount "$TMP/m9p"
else
	fail 9p-helper-options "exit $?: $(oneline "$TMP/e")"
fi
"$SBIN/mount.9p" nosuchtag "$TMP/m9p" 2>"$TMP/e"
rc=$?
if [ $rc = 32 ] && grep -q "no virtio 9p device has the mount tag 'nosuchtag'" "$TMP/e"; then
	pass 9p-missing-tag-message
else
	fail 9p-missing-tag-message "exit $rc: $(oneline "$TMP/e")"
fi

# ---- mount-shared ---------------------------------------------------------------
if [ ! -x "$MS" ]; then
	fail mount-shared "no $MS"
else
	"$MS" -l >"$TMP/o" 2>"$TMP/e"
	if grep -q "^hostshare	9p	virtio:" "$TMP/o"; then
		pass mount-shared-list
	else
		fail mount-shared-list "$(oneline "$TMP/o") $(oneline "$TMP/e")"
	fi
	if "$MS" hostshare "$TMP/mshared" 2>"$TMP/e"; then
		case $(mounted "$TMP/mshared") in
		*" 9p "*) pass mount-shared-mount ;;
		*) fail mount-shared-mount "not a 9p mount: $(mounted "$TMP/mshared")" ;;
		esac
		umount "$TMP/mshared"
	else
		fail mount-shared-mount "exit $?: $(oneline "$TMP/e")"
	fi
	"$MS" -w 1 nosuchtag "$TMP/mshared" 2>"$TMP/e"
	rc=$?
	if [ $rc = 32 ] && grep -q "^hostshare	9p" "$TMP/e"; then
		pass mount-shared-missing-lists-tags
	else
		fail mount-shared-missing-lists-tags "exit $rc: $(oneline "$TMP/e")"
	fi
fi

# ---- type "shared" through busybox mount: mount.shared as a mount helper -----
# only_shared DIR: DIR is mounted once, and not as type "shared" (busybox
# mounted nothing itself)
if [ -x "$SBIN/mount.shared" ]; then
	if mount -t shared -o wait=5,nofail hostshare "$TMP/mshared" 2>"$TMP/e"; then
		line=$(mounted "$TMP/mshared")
		case $line in
		*" 9p "*msize=512000*) pass mount-t-shared-9p ;;
		*) fail mount-t-shared-9p "not mount.shared's 9p mount: $line" ;;
		esac
		token_check mount-t-shared-9p-reads-host-token "$TMP/mshared"
		umount "$TMP/mshared"
	else
		fail mount-t-shared-9p "busybox mount -t shared: exit $?: $(oneline "$TMP/e")"
	fi
	# an fstab line, as in the README (busybox reads /etc/fstab). busybox
	# passes helpers only the options that are no VFS flag words (ro, nosuid
	# ... and -r never reach them: a busybox limitation); msize= does (262144: 6.1 does not show its default, 131072).
	mkdir -p "$TMP/mfstab"
	[ -e /etc/fstab ] && cp /etc/fstab "$TMP/fstab.orig"
	mkdir -p /etc
	echo "hostshare $TMP/mfstab shared nofail,wait=10,msize=262144 0 0" >>/etc/fstab
	if mount "$TMP/mfstab" 2>"$TMP/e"; then
		case $(mounted "$TMP/mfstab") in
		*" 9p "*msize=262144*) pass fstab-shared-9p ;;
		*) fail fstab-shared-9p "not mount.shared's 9p mount with msize=262144: $(mounted "$TMP/mfstab")" ;;
		esac
		umount "$TMP/mfstab"
	else
		fail fstab-shared-9p "mount $TMP/mfstab: exit $?: $(oneline "$TMP/e")"
	fi
	if [ -e "$TMP/fstab.orig" ]; then cp "$TMP/fstab.orig" /etc/fstab; else rm -f /etc/fstab; fi
	mount -t shared -o wait=0 nosuchtag "$TMP/mshared" 2>"$TMP/e"
	rc=$?
	if [ $rc != 0 ] && grep -q "mount.shared: no share with tag 'nosuchtag' found" "$TMP/e"; then
		pass mount-t-shared-missing-tag
	else
		fail mount-t-shared-missing-tag "exit $rc: $(oneline "$TMP/e")"
	fi
else
	fail mount-t-shared "no $SBIN/mount.shared"
fi

# ---- virtio-fs: the real share (plain boot: virtiofsd on the host) ---------
if [ -n "$VFS" ]; then
	tag=${VFS%%,*}
	ntags=$(echo "$VFS" | tr ',' '\n' | grep -c .)
	ndev=$(grep -l '^0x001a$' /sys/bus/virtio/devices/*/device 2>/dev/null | grep -c .)
	[ "$ndev" = "$ntags" ] && pass virtiofs-devices || fail virtiofs-devices "$ndev virtio devices of id 0x001a, $ntags tags ($VFS)"
	"$MS" -l >"$TMP/o" 2>"$TMP/e"
	if [ -d /sys/fs/virtiofs ]; then
		grep -q "^$tag	virtiofs	virtiofs:" "$TMP/o" && pass virtiofs-listed ||
			fail virtiofs-listed "no $tag in: $(oneline "$TMP/o")"
	else
		# before Linux 6.9 sysfs shows no virtio-fs tags: mount-shared counts
		# the devices (virtio id 26) and tries the tag on them
		echo "VMTEST INFO $(uname -r): no /sys/fs/virtiofs (tags shown from 6.9 on); mount-shared -l: $(oneline "$TMP/o")"
		grep -q "^?	virtiofs	virtiofs:$ntags device(s), tags not shown" "$TMP/o" && pass virtiofs-listed-untagged ||
			fail virtiofs-listed-untagged "$(oneline "$TMP/o") $(oneline "$TMP/e")"
	fi
	# vfsmount NAME FILE CMD...: CMD mounts the share on $TMP/mvfs; the token
	# is read, FILE written (checked on the host), the share unmounted
	vfsmount() {
		name=$1 file=$2
		shift 2
		if "$@" >"$TMP/o" 2>"$TMP/e"; then
			case $(mounted "$TMP/mvfs") in
			*" virtiofs "*) pass "$name" ;;
			*) fail "$name" "not a virtiofs mount: $(mounted "$TMP/mvfs")" ;;
			esac
			token_check "$name-reads-host-token" "$TMP/mvfs"
			if [ -n "$file" ]; then
				echo "${file#from-guest-} $TOKEN" >"$TMP/mvfs/$file" && pass "$name-write" ||
					fail "$name-write" "cannot write $file"
			fi
			umount "$TMP/mvfs" || fail "$name-umount" "umount failed"
		else
			fail "$name" "exit $?: $(oneline "$TMP/e")"
		fi
	}
	vfsmount virtiofs-helper from-guest-virtiofs "$SBIN/mount.virtiofs" "$tag" "$TMP/mvfs"
	vfsmount virtiofs-mount-shared from-guest-mount-shared "$MS" -w 5 "$tag" "$TMP/mvfs"
	vfsmount virtiofs-mount-t-shared "" mount -t shared -o wait=5 "$tag" "$TMP/mvfs"
	"$MS" -w 0 nosuchtag "$TMP/mvfs" 2>"$TMP/e"
	rc=$?
	[ $rc = 32 ] && grep -q "no share with tag 'nosuchtag' found" "$TMP/e" && pass virtiofs-missing-tag ||
		fail virtiofs-missing-tag "exit $rc: $(oneline "$TMP/e")"
fi

# ---- vboxsf and virtiofs: the kernel parses every option string ------------
# kernel_parses NAME FS EXPECT-IN-DMESG-OR-EMPTY HELPER SOURCE DIR OPTS
kernel_parses() {
	name=$1 fs=$2 want=$3 helper=$4 src=$5 dir=$6 opts=$7
	dmesg -c >/dev/null 2>&1
	"$SBIN/$helper" "$src" "$dir" -v -o "$opts" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	dmesg >"$TMP/k" 2>/dev/null
	if [ $rc = 0 ]; then
		fail "$name" "mounted although no $fs device exists"
		umount "$dir"
	elif [ $rc != 32 ]; then
		fail "$name" "exit $rc (not a mount failure): $(oneline "$TMP/e")"
	elif grep -Eqi "unknown parameter|bad value|invalid|old binary" "$TMP/k"; then
		fail "$name" "kernel rejected the options: $(grep -Ei 'unknown parameter|bad value|invalid|old binary' "$TMP/k" | head -2 | tr '\n' '|') call: $(oneline "$TMP/o")"
	elif [ -n "$want" ] && ! grep -q "$want" "$TMP/k" "$TMP/e"; then
		fail "$name" "did not fail at the connect step ('$want'): $(oneline "$TMP/e") dmesg: $(oneline "$TMP/k")"
	else
		pass "$name"
	fi
}
if grep -qw vboxsf /proc/filesystems; then
	i=0
	for opts in "uid=0,gid=0,ttl=200,dmode=755,fmode=644,dmask=022,fmask=133,nls=utf8" \
		"iocharset=utf8,umask=027" "rw,nodev,nosuid,relatime,nofail,_netdev" \
		"dcachettl=10,inodettl=10,maxiopages=64,dirbuf=65536,cache=read,tag=t,uid=0" \
		"uid=4294967294,gid=4294967294,ttl=0,dmode=0,fmode=0,dmask=7777,fmask=7777"; do
		i=$((i + 1))
		kernel_parses vboxsf-options-$i vboxsf "cannot reach the VirtualBox guest device" mount.vboxsf share "$TMP/mvbox" "$opts"
	done
else
	skipt vboxsf-options "no vboxsf module in this kernel"
fi
if grep -qw virtiofs /proc/filesystems; then
	for opts in "" dax dax=always dax=never dax=inode "ro,relatime,nofail"; do
		kernel_parses "virtiofs-options-${opts:-none}" virtiofs "tag <nosuchtag> not found" mount.virtiofs nosuchtag "$TMP/mvfs" "$opts"
	done
else
	skipt virtiofs-options "no virtiofs module in this kernel"
fi
exit 0
