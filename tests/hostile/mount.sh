#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile/mount.sh - the mount helpers and mount-shared against
# hostile input and a hostile environment: argc 0 and odd argv[0], --help
# anywhere, inputs that hold quotes, backslashes, control bytes or are
# very long (-v prints them whole, messages escape and cut them), closed
# fds 0-2, stdout on /dev/full or a pipe with no reader while SIGPIPE is
# ignored, RLIMIT_NOFILE of 3, and (in a private mount namespace, root
# only) a xenstore that never answers or answers slowly.
# Each check states the exit status and both streams (expect, tests/lib.sh).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/mount/lib-mount.sh"

need_applet mount.vboxsf mount.9p mount.virtiofs mount-shared || exit 0
T=$(scratch hostile-mount)
trap 'rm -rf "$T"' EXIT
for a in mount.vboxsf mount.9p mount.virtiofs mount-shared; do
	ln -s "$FORKLESS" "$T/$a"
done
M9=$T/mount.9p
MV=$T/mount.vboxsf
MS=$T/mount-shared
EXEC_ARGV=$T/exec-argv
if ! { musl-gcc -static -Os -o "$EXEC_ARGV" "$TOP/tests/xen/exec-argv.c" ||
	gcc -Os -o "$EXEC_ARGV" "$TOP/tests/xen/exec-argv.c"; } 2>"$T/cc.log"; then
	fail hostile/mount/exec-argv "cannot build tests/xen/exec-argv.c" "$(cat "$T/cc.log")"
	exit 0
fi
D9='"9p", 0, "trans=virtio,version=9p2000.L,msize=512000")'
nl=$'\n'

# ---- argc 0, odd argv[0] ----------------------------------------------------
# No argv[0] (or an empty one) names no applet: the dispatcher's business,
# but it must not crash and must not mount: no signal, nothing on stdout.
for case in argc0 empty-argv0; do
	if [ $case = argc0 ]; then run_capture "$EXEC_ARGV" "$M9"; else run_capture "$EXEC_ARGV" "$M9" "" t /d -f -v; fi
	[ "$RC" -gt 0 ] && [ "$RC" -lt 128 ] && [ -z "$OUT" ] && pass "hostile/mount/$case" ||
		fail "hostile/mount/$case" "exit $RC, stdout '$OUT'" "$ERR"
done
long0=$(printf 'dir/%.0s' $(seq 2000))mount.9p
# argv[0] -> expected outcome; the applet's messages name the applet, not argv[0].
expect hostile/mount/argv0-login-dash 0 "mount(\"t\", \"/d\", $D9$nl" "" -- "$EXEC_ARGV" "$M9" -mount.9p t /d -f -v
expect hostile/mount/argv0-long-path 0 "mount(\"t\", \"/d\", $D9$nl" "" -- "$EXEC_ARGV" "$M9" "$long0" t /d -f -v
expect hostile/mount/argv0-long-path-message 1 "" "mount.9p: unknown option -x (try mount.9p --help)$nl" -- \
	"$EXEC_ARGV" "$M9" "$long0" t /d -x
expect hostile/mount/argv0-only 1 "" "mount.9p: missing operand: expected TAG DIR (try mount.9p --help)$nl" -- \
	"$EXEC_ARGV" "$M9" mount.9p

# ---- --help in any position; exit 2 when it cannot be written -------------------
help9p=$("$FORKLESS" --help mount.9p; echo x) help9p=${help9p%x}
helpms=$("$FORKLESS" --help mount-shared; echo x) helpms=${helpms%x}
to_full() { "$@" >/dev/full; }
full_err() { echo "$1: cannot write to stdout: No space left on device"; }
expect hostile/mount/help-first 0 "$help9p" "" -- "$M9" --help
expect hostile/mount/help-after-operands 0 "$help9p" "" -- "$M9" tag mnt --help
expect hostile/mount/help-after-option 0 "$help9p" "" -- "$M9" -f --help
expect hostile/mount/help-shared-after-operands 0 "$helpms" "" -- "$MS" tag mnt --help
expect hostile/mount/help-after-dashdash-is-operand 1 "" \
	"mount.9p: too many operands: expected TAG DIR (try mount.9p --help)$nl" -- "$M9" t /d -- --help
for h in --help -h; do
	expect "hostile/mount/help$h-to-full" 2 "" "$(full_err mount.9p)$nl" -- to_full "$M9" $h
	expect "hostile/mount/help$h-after-operands-to-full" 2 "" "$(full_err mount.vboxsf)$nl" -- to_full "$MV" s /d $h
	expect "hostile/mount/shared-help$h-to-full" 2 "" "$(full_err mount-shared)$nl" -- to_full "$MS" $h
done
expect hostile/mount/long-option-unknown 1 "" "mount.9p: unknown option --helpme (try mount.9p --help)$nl" -- "$M9" t /d --helpme
expect hostile/mount/option-letter-escaped 1 "" "mount.9p: unknown option -\\033 (try mount.9p --help)$nl" -- "$M9" t /d -$'\033'
expect hostile/mount/long-option-escaped 1 "" "mount.9p: unknown option --\\033[2J (try mount.9p --help)$nl" -- "$M9" t /d --$'\033[2J'

# ---- -v: SOURCE, DIR and data whole, escaped as strace does -----------------------
long5k=$(head -c 5000 /dev/zero | tr '\0' s)
expect hostile/mount/v-long-source 0 "mount(\"$long5k\", \"/d\", $D9$nl" "" -- "$M9" "$long5k" /d -f -v
expect hostile/mount/v-long-dir 0 "mount(\"t\", \"/$long5k\", $D9$nl" "" -- "$M9" t "/$long5k" -f -v
# `a\b` is "a\\b", a quote \", control bytes by name or \ooo, bytes >= 0x7f \ooo.
expect hostile/mount/v-escapes 0 \
	"mount(\"a\\\\b\\\"c\\n\\t\\033\\377\", \"/d\\\"\", $D9$nl" "" -- "$M9" $'a\\b"c\n\t\033\377' '/d"' -f -v
expect hostile/mount/v-data-quotes 0 \
	"mount(\"s\", \"/d\", \"vboxsf\", MS_NODEV, \"context=\\\"a,b\\\"\")$nl" "" -- "$MV" s /d -f -v -o 'context="a,b"'

# ---- long option strings ----------------------------------------------------------
aaa=$(head -c 100000 /dev/zero | tr '\0' a)
a252=${aaa:0:252}
expect hostile/mount/100k-unknown-option-cut 1 "" \
	"mount.9p: unknown 9p option '$a252...'; -s drops unknown options (try mount.9p --help)$nl" -- "$M9" t /d -f -o "$aaa"
expect hostile/mount/100k-of-fstab-words 0 "mount(\"t\", \"/d\", $D9$nl" "" -- \
	"$M9" t /d -f -v -o "$(printf 'nofail,%.0s' $(seq 14000))"
expect hostile/mount/option-control-bytes-escaped 1 "" \
	"mount.9p: unknown 9p option 'x\\033[2J'; -s drops unknown options (try mount.9p --help)$nl" -- "$M9" t /d -f -o $'x\033[2J'
opts=()
for _ in $(seq 33); do opts+=(-o ro); done
expect hostile/mount/33-options 1 "" "mount.9p: too many -o options (try mount.9p --help)$nl" -- "$M9" t /d -f "${opts[@]}"
expect hostile/mount/mount-error-escapes 32 "" \
	"mount.9p: mounting t\\033 on /nonexistent\\033: mount point /nonexistent\\033: No such file or directory$nl" -- \
	"$M9" $'t\033' $'/nonexistent\033' -o trans=virtio

# ---- fds 0-2 closed, /dev/full, no reader with SIGPIPE ignored ---------------------
closed012() { "$@" <&- >&- 2>&-; }
expect hostile/mount/fds-closed-v 2 "" "" -- closed012 "$M9" t /d -f -v
expect hostile/mount/fds-closed-bad-option 1 "" "" -- closed012 "$M9" t /d -f -o nosuch
expect hostile/mount/fds-closed-fake 0 "" "" -- closed012 "$M9" t /d -f
expect hostile/mount/stderr-full-bad-option 1 "" "" -- eval '"$M9" t /d -f -o nosuch 2>/dev/full'
expect hostile/mount/v-to-full 2 "" "$(full_err mount.9p)$nl" -- to_full "$M9" t /d -f -v
no_reader() ( trap '' PIPE; { sleep 0.3; "$@"; } | true; exit "${PIPESTATUS[0]}" )
run_capture no_reader "$M9" t /d -f -v
[ "$RC" = 2 ] && [ -z "$OUT" ] && [[ $ERR == "mount.9p: cannot write to stdout: "* ]] && pass hostile/mount/v-epipe ||
	fail hostile/mount/v-epipe "exit $RC" "$ERR"
run_capture no_reader "$M9" --help
[ "$RC" = 2 ] && [[ $ERR == "mount.9p: cannot write to stdout: "* ]] && pass hostile/mount/help-epipe ||
	fail hostile/mount/help-epipe "exit $RC" "$ERR"

# ---- RLIMIT_NOFILE 3: no fd can be opened ------------------------------------------
# (A sanitized build is dynamic: with 3 fds its loader cannot open libasan.)
nofile3() ( ulimit -n 3 && exec "$@" )
if [ -n "${FORKLESS_SANITIZED:-}" ]; then
	skip hostile/mount/nofile "a sanitized (dynamic) binary cannot load its libraries with RLIMIT_NOFILE 3"
else
expect hostile/mount/nofile-numeric-uid 0 "mount(\"s\", \"/d\", \"vboxsf\", MS_NODEV, \"uid=1\")$nl" "" -- \
	nofile3 "$MV" s /d -f -v -o uid=1
expect hostile/mount/nofile-user-name 2 "" \
	"mount.vboxsf: option 'uid=root': cannot read /etc/passwd: No file descriptors available$nl" -- \
	nofile3 "$MV" s /d -f -v -o uid=root
fi

# ---- mount-shared: a private namespace with stand-ins --------------------------------
need_root hostile/mount/shared || exit 0
export T TOP FORKLESS MS
cat >"$T/ns.sh" <<'NS'
. "$TOP/tests/lib.sh"
. "$TOP/tests/mount/lib-mount.sh"
nl=$'\n'
sysfs_standin hostile/mount/shared || exit 0
mkdir -p /sys/bus/virtio/drivers/9pnet_virtio/virtio3
printf 'hostshare\n' >/sys/bus/virtio/drivers/9pnet_virtio/virtio3/mount_tag
M=$T/mnt
mkdir -p "$M"
present="; the tags present are (TAG TYPE WHERE):${nl}hostshare	9p	virtio:virtio3$nl"

# TAG in the message: escaped, cut (shown_input), never raw.
expect hostile/mount/shared-tag-escaped 32 "" \
	"mount-shared: no share with tag 'x\\033[2J' found$present" -- "$MS" -w 0 $'x\033[2J' "$M"
t300=$(head -c 300 /dev/zero | tr '\0' t)
expect hostile/mount/shared-long-tag-cut 32 "" \
	"mount-shared: no share with tag '${t300:0:252}...' found$present" -- "$MS" -w 0 "$t300" "$M"
expect hostile/mount/shared-bad-type-escaped 1 "" \
	"mount-shared: -t \\033: not a type mount-shared handles (9p, virtiofs, vboxsf, as configured in) (try mount-shared --help)$nl" -- "$MS" -t $'\033' x "$M"
expect hostile/mount/shared-bad-wait-escaped 1 "" \
	"mount-shared: -w wants a number of seconds (0..86400), not 1\\033 (try mount-shared --help)$nl" -- "$MS" -w $'1\033' x "$M"
# What is not visible is named by the kind looked for; a 9p share is there.
expect hostile/mount/shared-kind-virtiofs 32 "" \
	"mount-shared: no share with tag 'x' found; no virtiofs share is visible (are the modules loaded?)$nl" -- \
	"$MS" -w 0 -t virtiofs x "$M"
expect hostile/mount/shared-kind-trans-xen 32 "" \
	"mount-shared: no share with tag 'x' found; no virtiofs, Xen 9pfs or VirtualBox share is visible (are the modules loaded?)$nl" -- \
	"$MS" -w 0 -o trans=xen x "$M"
closed012() { "$@" <&- >&- 2>&-; }
expect hostile/mount/shared-fds-closed-list 2 "" "" -- closed012 "$MS" -l
# RLIMIT_NOFILE 3: a walk that cannot open sysfs is an error, not "no shares".
nofile3() ( ulimit -n 3 && exec "$@" )
if [ -z "${FORKLESS_SANITIZED:-}" ]; then
	expect hostile/mount/shared-nofile-list 2 "" \
		"mount-shared: cannot read /sys/fs/virtiofs: No file descriptors available$nl" -- nofile3 "$MS" -l
	expect hostile/mount/shared-nofile-mount 2 "" \
		"mount-shared: cannot read /sys/fs/virtiofs: No file descriptors available$nl" -- nofile3 "$MS" -w 0 hostshare "$M"
fi

# A xenstore that never answers: the whole run is bounded by -w plus one
# reply timeout (1 s), and xenstore is reported once, by name.
# timed NAME MAX-MS RC STDOUT STDERR CMD...: expect, within MAX-MS.
timed() {
	local name=$1 max=$2 start ms
	shift 2
	start=$(date +%s%N)
	expect "$name" "$@" || return
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	[ "$ms" -lt "$max" ] && pass "$name/time" || fail "$name/time" "took $ms ms, more than $max"
}
noanswer="mount-shared: /dev/xen/xenbus: xenstore did not answer within 1 s; Xen 9pfs tags are not looked for$nl"
if xenstore_standin hostile/mount/shared-xen-silent "$T" --silent; then
	for w in 0 1 2; do
		after=; [ $w != 0 ] && after=" after waiting $w s"
		timed hostile/mount/shared-xen-silent-w$w $(( w * 1000 + 1800 )) 32 "" \
			"${noanswer}mount-shared: no share with tag 'x' found$after$present" -- "$MS" -w $w x "$M"
	done
	timed hostile/mount/shared-xen-silent-list 1800 0 "hostshare	9p	virtio:virtio3$nl" "$noanswer" -- "$MS" -l
	# found before xenstore is asked
	timed hostile/mount/shared-xen-silent-found 900 0 "" "" -- "$MS" -f hostshare "$M"
	xenstore_standin_stop "$T"
fi
# A xenstore that answers, slowly (0.4 s a reply, 0.8 s a walk): the wait
# is still bounded by -w, not by a count of polls.
if xenstore_standin hostile/mount/shared-xen-slow "$T" --delay=0.4 0=xenshare; then
	timed hostile/mount/shared-xen-slow-w1 2800 32 "" \
		"mount-shared: no share with tag 'x' found after waiting 1 s$present""xenshare	9p	xen:0$nl" -- "$MS" -w 1 x "$M"
	timed hostile/mount/shared-xen-slow-found 1800 0 "" "" -- "$MS" -f -w 1 xenshare "$M"
	xenstore_standin_stop "$T"
fi
NS
unshare -m bash "$T/ns.sh" </dev/null || fail hostile/mount/shared "the namespace script exited with status $?"
exit 0
