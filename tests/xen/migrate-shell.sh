#!/bin/bash
# SPDX-License-Identifier: MIT
# xen-migrate-shell: the commands xl 4.17 and 4.20 hand a shell for live
# migration are run (the receiving form reaches the wrapper's exec of
# /usr/lib/xen-VERSION/bin/xl: off Xen, its "Can't find hypervisor
# information" and exit 1 show it was accepted; the sending form execs
# SSHCMD with exactly its words), and everything else is refused: exit
# 126, the reason on stderr, nothing run.
. "$(dirname "$0")/../lib.sh"
need_applet xen-migrate-shell || exit 0
base=$(scratch migrate-shell)
trap 'rm -rf "$base"' EXIT
M=$base/xen-migrate-shell
ln -s "$FORKLESS" "$M"
NOXEN="ERROR:  Can't find hypervisor information in sysfs!"$'\n'
[ -e /sys/hypervisor/type ] && { skip migrate-shell "this machine runs on a hypervisor with sysfs: the receiving form would run its xl"; exit 0; }

# ---- accepted: xl's runes, word for word ---------------------------------
for c in "xl migrate-receive" "xl -t migrate-receive" "xl -t -T -vvv migrate-receive -e -d -p" \
	"xl migrate-receive -p" "xl migrate-receive -r " "xl migrate-receive -r  -e" \
	"xl migrate-receive --colo" \
	"xl migrate-receive --colo --coloft-script /etc/xen/scripts/colo-proxy-script --userspace-colo-proxy  -e"; do
	expect "migrate-shell/receive: $c" 1 "" "$NOXEN" -- "$M" -c "$c"
done
# the sending form: SSHCMD (here $base/bin/ssh, an absolute path to a
# program named ssh that prints its words) gets the words
mkdir "$base/bin"
printf '#!/bin/sh\necho "$@"\n' >"$base/bin/ssh"
chmod +x "$base/bin/ssh"
expect "migrate-shell/send: words" 0 "-p 2222 -o BatchMode=yes -i /root/.ssh/mig root@target xl -t migrate-receive -e"$'\n' "" -- \
	"$M" -c "exec $base/bin/ssh -p 2222 -o BatchMode=yes -i /root/.ssh/mig root@target xl -t migrate-receive -e"
expect "migrate-shell/send: remus" 0 "target xl migrate-receive -r -e"$'\n' "" -- \
	"$M" -c "exec $base/bin/ssh target xl migrate-receive -r  -e"
# ssh by name is found by PATH, as sh finds it
expect "migrate-shell/send: ssh by PATH" 0 "-q target xl migrate-receive"$'\n' "" -- \
	env PATH="$base/bin:/usr/bin:/bin" "$M" -c "exec ssh -q target xl migrate-receive"

expect "migrate-shell/send: no such SSHCMD" 127 "" \
	"xen-migrate-shell: /nonexistent/ssh: No such file or directory"$'\n' -- \
	"$M" -c "exec /nonexistent/ssh target xl migrate-receive"

# ---- refused: exit 126, nothing run --------------------------------------
refused() {   # NAME WHY COMMAND
	expect "migrate-shell/refused: $1" 126 "" "xen-migrate-shell: refused: $2: '$3'"$'\n' -- "$M" -c "$3"
}
refused semicolon "a byte a migration command never holds" "xl migrate-receive; touch $base/ran"
refused substitution "a byte a migration command never holds" 'xl $(touch '"$base"'/ran) migrate-receive'
refused pipe "a byte a migration command never holds" "xl migrate-receive | sh"
refused quote "a byte a migration command never holds" "xl 'migrate-receive'"
expect "migrate-shell/refused: newline, shown escaped" 126 "" \
	"xen-migrate-shell: refused: a byte a migration command never holds: 'xl migrate-receive\\012touch x'"$'\n' -- \
	"$M" -c $'xl migrate-receive\ntouch x'
refused another-xl-command "not xl migrate-receive, nor xl migrate's ssh command" "xl destroy 1"
refused flag-twice "not xl migrate-receive, nor xl migrate's ssh command" "xl migrate-receive -e -e"
refused unknown-flag "not xl migrate-receive, nor xl migrate's ssh command" "xl migrate-receive -x"
refused extra-word "not xl migrate-receive, nor xl migrate's ssh command" "xl migrate-receive extra"
refused colo-script "not xl migrate-receive, nor xl migrate's ssh command" \
	"xl migrate-receive --colo --coloft-script /tmp/x"
refused other-program "not xl migrate-receive, nor xl migrate's ssh command" "/bin/sh"
refused ssh-proxycommand "an ssh option that is not one of those that choose how to connect" \
	"exec ssh -oProxyCommand=/tmp/x target xl migrate-receive"
refused ssh-o-proxycommand "an ssh option that is not one of those that choose how to connect" \
	"exec ssh -o ProxyCommand=/tmp/x target xl migrate-receive"
refused ssh-config-file "an ssh option that is not one of those that choose how to connect" \
	"exec ssh -F /tmp/cfg target xl migrate-receive"
refused ssh-remote-command "an ssh option that is not one of those that choose how to connect" \
	"exec ssh target touch x target xl migrate-receive"
refused ssh-by-name "the ssh command is not ssh" "exec sh -c x target xl migrate-receive"
refused ssh-other-program "the ssh command is not ssh" "exec /bin/rm -i x / xl migrate-receive"
refused ssh-suffix "the ssh command is not ssh" "exec /usr/bin/notssh target xl migrate-receive"
expect "migrate-shell/refused: interactive login" 126 "" \
	"xen-migrate-shell: refused: an interactive login (this account runs xl migrate-receive only)"$'\n' -- "$M"
# sshd's interactive login: argv[0] "-xen-migrate-shell", no arguments
expect "migrate-shell/refused: login shell" 126 "" \
	"xen-migrate-shell: refused: an interactive login (this account runs xl migrate-receive only)"$'\n' -- \
	bash -c 'exec -a -xen-migrate-shell "$0"' "$FORKLESS"
expect "migrate-shell/refused: not -c" 126 "" "xen-migrate-shell: refused: not -c COMMAND: '-i'"$'\n' -- "$M" -i
long=$(printf 'x%.0s' {1..5000})
expect "migrate-shell/refused: too long" 126 "" "@any" -- "$M" -c "$long"
# ---- the refusal in syslog: authpriv.warning (<84>), uid and SSH_CLIENT --
# (in a mount namespace whose /dev is a tmpfs with null and a sink at
# /dev/log: tests/hotplug/syslog-sink.py)
mkdir "$base/log"
unshare -m --propagation private bash -c '
	mount -t tmpfs none /dev && mknod -m 666 /dev/null c 1 3 || exit 1
	python3 "$1/tests/hotplug/syslog-sink.py" /dev/log "$2/syslog" & sink=$!
	for i in $(seq 100); do [ -e "$2/syslog.ready" ] && break; sleep 0.05; done
	SSH_CLIENT="192.0.2.7 40022 22" "$3" -c "xl destroy 1" 2>/dev/null
	echo "status $?" >"$2/status"
	for i in $(seq 100); do [ -s "$2/syslog" ] && break; sleep 0.05; done
	kill $sink' - "$TOP" "$base/log" "$M"
check "migrate-shell/syslog: the refusal logged" \
	"status 126|<84>TIME xen-migrate-shell[PID]: refused for uid $(id -u) from 192.0.2.7 40022 22: not xl migrate-receive, nor xl migrate's ssh command: 'xl destroy 1'" \
	"$(cat "$base/log/status")|$(sed -E 's/^(<[0-9]+>)... .. ..:..:.. /\1TIME /; s/\[[0-9]+\]:/[PID]:/' "$base/log/syslog")"
check "migrate-shell/nothing ran" "bin log xen-migrate-shell" "$(ls "$base" | tr '\n' ' ' | sed 's/ $//')"
