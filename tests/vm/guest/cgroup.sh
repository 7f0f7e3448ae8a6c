# tests/vm/guest/cgroup.sh - cgroup-resolve checks inside the VM guest (busybox sh).
#
# Run by guest/init.sh as `/bin/busybox sh /vmtest/guest.d/cgroup.sh`
# in both boots; prints VMTEST PASS/FAIL/INFO lines. The guest kernel is
# Debian 12's 6.1: fanotify cannot watch cgroupfs there (needs 6.6), so
# watch mode takes its fallback, rescanning, for real.
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

# Watch mode on 6.1: the rescanning fallback, announced once on stderr.
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
	pass watch-fallback-sees-create-and-remove ||
	fail watch-fallback-sees-create-and-remove "exit $rc out [$(oneline /tmp/cg.watch)] err [$(oneline /tmp/cg.werr)]"
[ $rc = 0 ] && pass watch-sigterm-exit-0 || fail watch-sigterm-exit-0 "exit $rc"
[ "$(grep -c . /tmp/cg.werr)" = 1 ] && pass watch-fallback-said-once ||
	fail watch-fallback-said-once "stderr [$(oneline /tmp/cg.werr)]"
info "watch fallback notice on $(uname -r): $(oneline /tmp/cg.werr)"

rmdir "$M/vm.slice/deep/er/est" "$M/vm.slice/deep/er" "$M/vm.slice/deep" "$M/vm.slice/-dash" "$M/vm.slice/a b" "$M/vm.slice"
umount $M
