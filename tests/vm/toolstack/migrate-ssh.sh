# SPDX-License-Identifier: MIT
# tests/vm/toolstack/migrate-ssh.sh — a dom0 made a migration source and target for itself
# over ssh, as README's "Live migration without a shell" sets one up: sshd on 127.0.0.1,
# the uid-0 account xen-migrate whose login shell is xen-migrate-shell, root's key in its
# authorized_keys with `restrict`, localhost's host key in root's known_hosts. Sourced by
# dom0.sh (bash, in the root) and by noshell.sh (busybox sh, outside the root): POSIX sh,
# nothing runs on source.
#
# mig_ssh_setup ROOT RUN...: ROOT the root's path ("" from inside it); every file written
# under it, each key made by `RUN ssh-keygen` (RUN: "" in the root, `chroot ROOT` from
# outside). MB: the busybox that runs the tools from outside ("" inside: the root's own).
# 0, or 1 with the reason in MIG_WHY.
#
# mig_receiver TRACE: in a trace of sshd, the receiving side of a migration: sshd ran
# xen-migrate-shell -c "xl migrate-receive ...", which ran the real xl's migrate-receive
# (at /usr/lib/xen-X.Y/bin/xl). 0, or 1 with what is missing in MIG_WHY.
MIG_SSHD_CONFIG=/etc/ssh/sshd_config.vmtest
MIG_ACCOUNT=xen-migrate
MIG_HOST=$MIG_ACCOUNT@localhost
mig_receiver() {
	MIG_WHY=
	$MB grep -q 'execve("/usr/lib/xen-common/bin/xen-migrate-shell", \["xen-migrate-shell", "-c", "xl migrate-receive' \
		"$1" || MIG_WHY="; no xen-migrate-shell -c 'xl migrate-receive' by sshd"
	$MB grep -E 'execve\("/usr/lib/xen-[0-9.]+/bin/xl", ' "$1" | $MB grep -q '"migrate-receive"' ||
		MIG_WHY="$MIG_WHY; no exec of xl migrate-receive"
	MIG_WHY=${MIG_WHY#; }
	[ -z "$MIG_WHY" ]
}
mig_ssh_setup() {
	r=$1
	shift
	MIG_WHY=
	$MB mkdir -p "$r/run/sshd" "$r/var/lib/xen-migrate/.ssh" "$r/root/.ssh" "$r/etc/ssh" &&
		$MB chmod 755 "$r/run/sshd" && $MB chmod 700 "$r/var/lib/xen-migrate/.ssh" "$r/root/.ssh" ||
		{ MIG_WHY="mkdir in $r failed"; return 1; }
	# what openssh-server's postinst and the admin's useradd write; the name lookup of
	# localhost as netbase's /etc/hosts has it
	$MB grep -q '^sshd:' "$r/etc/passwd" ||
		echo 'sshd:x:100:65534::/run/sshd:/usr/sbin/nologin' >>"$r/etc/passwd"
	$MB grep -q "^$MIG_ACCOUNT:" "$r/etc/passwd" ||
		echo "$MIG_ACCOUNT:x:0:0:xl migrate-receive:/var/lib/xen-migrate:/usr/lib/xen-common/bin/xen-migrate-shell" >>"$r/etc/passwd"
	$MB grep -q localhost "$r/etc/hosts" 2>/dev/null || echo '127.0.0.1 localhost' >>"$r/etc/hosts"
	echo 'hosts: files' >"$r/etc/nsswitch.conf"
	$MB ip link set lo up || { MIG_WHY="ip link set lo up failed"; return 1; }
	$MB rm -f "$r/etc/ssh/ssh_host_ed25519_key" "$r/etc/ssh/ssh_host_ed25519_key.pub" \
		"$r/root/.ssh/id_ed25519" "$r/root/.ssh/id_ed25519.pub"
	"$@" /usr/bin/ssh-keygen -q -t ed25519 -N '' -C dom0 -f /etc/ssh/ssh_host_ed25519_key &&
		"$@" /usr/bin/ssh-keygen -q -t ed25519 -N '' -C root@dom0 -f /root/.ssh/id_ed25519 ||
		{ MIG_WHY="ssh-keygen failed"; return 1; }
	echo "restrict $($MB cat "$r/root/.ssh/id_ed25519.pub")" >"$r/var/lib/xen-migrate/.ssh/authorized_keys"
	echo "localhost $($MB cut -d ' ' -f 1,2 "$r/etc/ssh/ssh_host_ed25519_key.pub")" >"$r/root/.ssh/known_hosts"
	printf 'Host localhost\n\tBatchMode yes\n' >"$r/root/.ssh/config"
	$MB chmod 600 "$r/var/lib/xen-migrate/.ssh/authorized_keys" "$r/root/.ssh/config" "$r/root/.ssh/known_hosts"
	# Debian's sshd_config but for: 127.0.0.1 only, one host key, no PAM (no pam.d in the
	# root; keys only either way); PermitRootLogin prohibit-password is Debian's default
	# and what lets a uid-0 account in by key
	$MB cat >"$r$MIG_SSHD_CONFIG" <<-EOF
	ListenAddress 127.0.0.1
	HostKey /etc/ssh/ssh_host_ed25519_key
	PidFile /run/sshd.pid
	UsePAM no
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	EOF
	"$@" /usr/sbin/sshd -t -f $MIG_SSHD_CONFIG >/tmp/sshd-t.err 2>&1 ||
		{ MIG_WHY="sshd -t: $($MB head -c 300 /tmp/sshd-t.err)"; return 1; }
}
