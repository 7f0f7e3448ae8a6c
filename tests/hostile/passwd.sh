#!/bin/bash
# SPDX-License-Identifier: MIT
# Hostile /etc/passwd and /etc/group, through mount.vboxsf's uid=NAME and
# gid=NAME (the lookup in libcommon/passwd.c): lines of any length, odd
# ids, files that are not regular files. In a chroot test root (the Xen
# one, tests/xen/lib-xen.sh, with forkless installed), each run under
# timeout so that a hang is a FAIL. -f -v: the mount(2) call is printed,
# not made.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/xen/lib-xen.sh"
need_root hostile-passwd || exit 0
need_applet mount.vboxsf || exit 0

base=$(scratch hostile-passwd)
trap 'kill $writer 2>/dev/null; rm -rf "$base"' EXIT
root=$base/root
make_root "$root" && install_impl "$root" forkless && mkdir -p "$root/etc" ||
	{ fail hostile-passwd/root "cannot build the test root"; exit 0; }

T=10
n=$'\n'
r() {
	timeout -s KILL $T env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin PWD=/ chroot "$root" "$@"
}
V='mount("s", "/d", "vboxsf", MS_NODEV, '
# mnt OPTS: mount.vboxsf s /d -o OPTS, faked and shown.
mnt() { r /usr/sbin/mount.vboxsf s /d -f -v -o "$1"; }

members=$(for i in $(seq 0 599); do printf 'user%04d,' $i; done)
gecos=$(printf 'g%.0s' $(seq 5000))
cat >"$root/etc/passwd" <<PW
root:x:0:0:root:/root:/bin/sh
long:x:1001:1001:$gecos:/home/long:/bin/sh
after:x:1002:1002::/home/after:/bin/sh
PW
cat >"$root/etc/group" <<GR
root:x:0:
users:x:100:${members%,}
after:x:102:
GR

# ---- lines of any length --------------------------------------------------
# Table: name, options, the mount data shown.
while IFS='|' read -r name opts data; do
	expect "passwd/$name" 0 "$V\"$data\")$n" "" -- mnt "$opts"
done <<'TABLE'
a group of 600 members|gid=users|gid=100
the group after it|gid=after|gid=102
a 5,000-byte GECOS|uid=long|uid=1001
the user after it|uid=after|uid=1002
both|uid=long,gid=users|uid=1001,gid=100
TABLE
# (mount.vboxsf's own wording of the message is its tests' business: here
# only the status and the reason.)
says() {   # says NAME RC TEXT OPTS
	run_capture mnt "$4"
	if [ "$RC" = "$2" ] && [[ $ERR == *"$3"* ]]; then
		pass "$1"
	else
		fail "$1" "exit $RC (expected $2, saying '$3')" "$ERR"
	fi
}
says "passwd/a member of a long line is no name" 1 "no such group in /etc/group" gid=user0599
# A 1 MiB line before the user.
{ printf 'big:x:7:7:'; head -c 1048576 /dev/zero | tr '\0' g; printf ':/:/bin/sh\nlate:x:8:8::/:/bin/sh\n'; } \
	>"$root/etc/passwd"
expect "passwd/after a 1 MiB line" 0 "$V\"uid=8\")$n" "" -- mnt uid=late

# ---- malformed ids: an error (exit 2), never a silent default -----------
# The file was read: the message names its line (it used to say "cannot
# read /etc/passwd or /etc/group: Invalid argument").
for id in 12a -5 "" 4294967295 99999999999999999999; do
	printf 'root:x:0:0::/:/bin/sh\nodd:x:%s:0::/:/bin/sh\n' "$id" >"$root/etc/passwd"
	run_capture mnt uid=odd
	check "passwd/id '$id' is refused, exit 2" 2 "$RC"
	check "passwd/id '$id': the message names the line" \
		"mount.vboxsf: option 'uid=odd': /etc/passwd line 2: malformed id (not a number up to 4294967294)" \
		"${ERR%$'\n'}"
done
{ printf 'root:x:0:0::/:/bin/sh\n'; for i in $(seq 2 6); do printf 'u%d:x:%d:0::/:/bin/sh\n' $i $i; done
  printf 'grp:x:0:\n'; printf 'staff:x:5o:\n'; } >"$root/etc/group"
expect "passwd/a malformed gid in /etc/group: its line" 2 "" \
	"mount.vboxsf: option 'gid=staff': /etc/group line 8: malformed id (not a number up to 4294967294)$n" -- mnt gid=staff

# ---- files that are not regular files: never a hang ---------------------
nonreg() {   # nonreg NAME [REASON]: /etc/passwd is set up; uid=root must fail, said
	expect "passwd/$1: refused, exit 2" 2 "" \
		"mount.vboxsf: option 'uid=root': cannot read /etc/passwd: ${2:-not a regular file}$n" -- mnt uid=root
}
rm -f "$root/etc/passwd"
mkfifo "$root/etc/passwd"
nonreg "a FIFO without a writer"
# A writer that holds the FIFO open and writes nothing.
sleep 60 >"$root/etc/passwd" &
writer=$!
nonreg "a FIFO with a silent writer"
kill $writer 2>/dev/null
wait $writer 2>/dev/null
rm -f "$root/etc/passwd"
mknod -m 444 "$root/etc/passwd" c 1 5   # /dev/zero: a stream without lines
nonreg "/dev/zero"
rm -f "$root/etc/passwd"
mknod -m 444 "$root/etc/passwd" c 1 9   # /dev/urandom: lines of noise, forever
nonreg "/dev/urandom"
rm -f "$root/etc/passwd"
mknod -m 444 "$root/etc/passwd" c 1 3   # /dev/null: an empty file
says "passwd//dev/null is an empty file" 1 "no such user in /etc/passwd" uid=root
rm -f "$root/etc/passwd"
mkdir "$root/etc/passwd"
nonreg "a directory" "Is a directory"
exit 0
