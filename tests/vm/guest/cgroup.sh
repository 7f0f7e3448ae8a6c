# SPDX-License-Identifier: MIT
# tests/vm/guest/cgroup.sh - cgroup-resolve checks inside the VM guest (busybox sh).
#
# Run by guest/init.sh as `/bin/busybox sh /vmtest/guest.d/cgroup.sh`
# in both boots; prints VMTEST PASS/FAIL/INFO lines. On Debian 12's 6.1
# fanotify cannot watch cgroupfs (it needs 6.6), so watch mode takes its
# fallback, rescanning, for real; on Debian 13's 6.12 it watches with
# fanotify, silently. Each check's name says which path it saw.
pass() { echo "VMTEST PASS cgroup/$1"; }
fail() { n=$1; shift; echo "VMTEST FAIL cgroup/$n: $*"; }
info() { echo "VMTEST INFO cgroup: $*"; }
oneline() { tr '\n' '|' <"$1" | head -c 400; }
CR=/usr/bin/cgroup-resolve

if [ ! -x $CR ]; then
	info "cgroup-resolve is not built in: skipped"
	exit 0
fi
M=/sys/fs/cgroup
mkdir -p $M
if ! mount -t cgroup2 none $M 2>/tmp/cg.err; then
	fail mount "mount -t cgroup2: $(oneline /tmp/cg.err)"
	exit 0
fi
mkdir -p "$M/vm.slice/a b" "$M/vm.slice/-dash" "$M/vm.slice/deep/er/est"

id=$($CR -p "$M/vm.slice/a b" 2>/tmp/cg.err)
rc=$?
case $id in
'' | *[!0-9]*) fail path-to-id "exit $rc, got '$id', stderr [$(oneline /tmp/cg.err)]" ;;
*) pass path-to-id ;;
esac
out=$($CR "$id" 2>/tmp/cg.err)
[ "$out" = "$M/vm.slice/a b" ] && pass id-to-path || fail id-to-path "got '$out' [$(oneline /tmp/cg.err)]"
out=$($CR -r "$id" 2>/tmp/cg.err)
[ "$out" = "/vm.slice/a b" ] && pass id-to-path-relative || fail id-to-path-relative "got '$out'"
out=$($CR --walk "$id" 2>/tmp/cg.err)
[ "$out" = "$M/vm.slice/a b" ] && pass walk-mode || fail walk-mode "got '$out' [$(oneline /tmp/cg.err)]"

$CR -l >/tmp/cg.list 2>/tmp/cg.err
rc=$?
first=$(head -n 1 /tmp/cg.list | cut -f2)
n=$(grep -c "	$M/vm.slice" /tmp/cg.list)
[ $rc = 0 ] && [ "$first" = "$M" ] && [ "$n" = 6 ] && pass list ||
	fail list "exit $rc, first [$first], $n vm.slice lines: [$(oneline /tmp/cg.list)]"

out=$($CR 999999999 2>/tmp/cg.err)
rc=$?
[ $rc = 1 ] && [ -z "$out" ] && grep -q '999999999: no such cgroup' /tmp/cg.err && pass unknown-id ||
	fail unknown-id "exit $rc out [$out] err [$(oneline /tmp/cg.err)]"

# Watch mode: on a kernel before 6.6 the rescanning fallback, announced
# once on stderr; from 6.6 on fanotify, and nothing on stderr.
kv=$(uname -r)
kmaj=${kv%%.*} kmin=${kv#*.}
kmin=${kmin%%[!0-9]*}
if [ "$kmaj" -gt 6 ] || { [ "$kmaj" = 6 ] && [ "$kmin" -ge 6 ]; }; then how=fanotify notices=0
else how=fallback notices=1
fi
$CR -w -i 100 >/tmp/cg.watch 2>/tmp/cg.werr &
wpid=$!
sleep 1
mkdir "$M/vm.slice/new"
sleep 1
rmdir "$M/vm.slice/new"
sleep 1
kill -TERM $wpid
wait $wpid
rc=$?
grep -q "^+[0-9]*	$M/vm.slice/new\$" /tmp/cg.watch && grep -q "^-[0-9]*	$M/vm.slice/new\$" /tmp/cg.watch &&
	pass watch-$how-sees-create-and-remove ||
	fail watch-$how-sees-create-and-remove "exit $rc out [$(oneline /tmp/cg.watch)] err [$(oneline /tmp/cg.werr)]"
[ $rc = 0 ] && pass watch-sigterm-exit-0 || fail watch-sigterm-exit-0 "exit $rc"
[ "$(grep -c . /tmp/cg.werr)" = $notices ] && pass watch-$how-notices-$notices ||
	fail watch-$how-notices-$notices "stderr [$(oneline /tmp/cg.werr)]"
info "watch on $kv ($how): stderr [$(oneline /tmp/cg.werr)]"

rmdir "$M/vm.slice/deep/er/est" "$M/vm.slice/deep/er" "$M/vm.slice/deep" "$M/vm.slice/-dash" "$M/vm.slice/a b" "$M/vm.slice"
umount $M
