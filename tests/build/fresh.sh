#!/bin/bash
# SPDX-License-Identifier: MIT
# The newcomer's path, on a machine without the build tools: the first
# `make` installs musl-gcc and kconfig-conf (through a stand-in apt-get
# that puts them back on PATH: the real one must not run in a test) and
# builds exactly the binary a normal build makes, byte for byte, with the
# ELF entry point at forkless_start. `make check` installs the test
# dependencies the same way.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2
need_root build/fresh || exit 0
base=$(scratch fresh)
trap 'rm -rf "$base"' EXIT

# Two copies of the source tree (the files git knows, and new ones).
for d in fresh normal; do
	mkdir -p "$base/$d"
	git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$base/$d"
done

# A PATH with everything of this machine's but the two build tools.
bin=$base/bin
mkdir -p "$bin"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	for f in "$d"/*; do
		n=${f##*/}
		case $n in musl-gcc|kconfig-conf|kconfig-mconf|apt-get) continue ;; esac
		[ -x "$f" ] && [ ! -e "$bin/$n" ] && ln -s "$f" "$bin/$n"
	done
done
cat >"$bin/apt-get" <<EOS
#!/bin/sh
echo "apt-get \$*" >>"$base/apt.log"
[ "\$1" = install ] || exit 0
for p; do
	case \$p in
	musl-tools) ln -sf "$(command -v musl-gcc)" "$bin/musl-gcc" ;;
	kconfig-frontends-nox) ln -sf "$(command -v kconfig-conf)" "$bin/kconfig-conf" ;;
	esac
done
EOS
chmod 755 "$bin/apt-get"
if PATH=$bin command -v musl-gcc >/dev/null || PATH=$bin command -v kconfig-conf >/dev/null; then
	fail "fresh/the tools are hidden" "$(PATH=$bin command -v musl-gcc kconfig-conf)"
fi

run_capture env PATH="$bin" make -C "$base/fresh" -s
check "fresh/first make: exit 0" "0" "$RC"
[ "$RC" = 0 ] || fail "fresh/first make: output" "$OUT$ERR"
check "fresh/first make: says what it installs" \
	"forkless build: installing kconfig-frontends-nox with apt-get (needed to build)
forkless build: installing musl-tools with apt-get (needed to build)" \
	"$(grep '^forkless build:' <<<"$ERR")"
check "fresh/first make: the apt-get calls" \
	"apt-get install -y -q --no-install-recommends kconfig-frontends-nox
apt-get install -y -q --no-install-recommends musl-tools" "$(cat "$base/apt.log" 2>&1)"

make -C "$base/normal" -s >"$base/normal.log" 2>&1 || fail "fresh/normal make" "$(cat "$base/normal.log")"
if cmp -s "$base/fresh/forkless" "$base/normal/forkless"; then
	pass "fresh/the first build is the normal build, byte for byte ($(stat -c %s "$base/fresh/forkless") bytes)"
else
	fail "fresh/the first build is the normal build, byte for byte" \
		"$(stat -c '%n %s' "$base/fresh/forkless" "$base/normal/forkless" 2>&1)"
fi
# The entry point is forkless_start (an unstripped build names it).
if [ "$(uname -m)" = x86_64 ]; then
	make -C "$base/normal" -s STRIP= BIN=unstripped >/dev/null 2>&1
	sym=$(nm "$base/normal/unstripped" 2>/dev/null | awk '$3 == "forkless_start" {print $1}')
	entry=$(readelf -h "$base/fresh/forkless" | awk '/Entry point/ {print $4}')
	if [ -n "$sym" ] && [ "$((16#$sym))" = "$((entry))" ]; then
		pass "fresh/the ELF entry point is forkless_start ($entry)"
	else
		fail "fresh/the ELF entry point is forkless_start" "entry $entry, forkless_start ${sym:-missing}"
	fi
fi
run_capture env PATH="$bin" make -C "$base/fresh"
check "fresh/a second make does nothing" "0 make: Nothing to be done for 'all'." \
	"$RC $(grep -v '^make: \(Entering\|Leaving\)' <<<"$OUT")"

# make check: the test dependencies, installed the same way.
check "check/make check first installs the test dependencies" "1" \
	"$(make -n check | grep -c '^config/need-tools.sh --for tests strace dash .*qemu-system-x86_64 .*pkg:libclang-rt-dev\( \|$\)')"
tb=$(scratch tools)
for t in id sh cat; do ln -s "$(command -v $t)" "$tb/$t"; done
# dpkg-query: libclang-rt-dev is not installed. apt-get: no package
# lists yet, so the first install fails until an update.
printf '#!/bin/sh\nexit 0\n' >"$tb/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >>"%s/calls"\ncase $1 in update) : >"%s/lists" ;; install) [ -e "%s/lists" ] ;; esac\n' \
	"$tb" "$tb" "$tb" >"$tb/apt-get"
chmod 755 "$tb/apt-get" "$tb/dpkg-query"
run_capture env PATH="$tb" /bin/sh config/need-tools.sh --for tests strace pkg:libclang-rt-dev
check "check/missing test dependencies as root: says it installs them" \
	"0 forkless check: installing strace libclang-rt-dev with apt-get (needed by the tests)" "$RC $(grep '^forkless' <<<"$ERR")"
check "check/package not found: one apt-get update, then install" \
	"apt-get install -y -q --no-install-recommends strace libclang-rt-dev
apt-get update -q
apt-get install -y -q --no-install-recommends strace libclang-rt-dev" "$(cat "$tb/calls" 2>&1)"
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod 755 "$tb"
	run_capture setpriv --reuid=nobody --regid=nogroup --clear-groups env PATH="$tb" \
		/bin/sh config/need-tools.sh --for tests strace pkg:libclang-rt-dev
	check "check/missing test dependencies as non-root: exact apt-get command, exit 1" \
		"1 forkless check: missing test dependencies. Run:
    sudo apt-get install strace libclang-rt-dev" "$RC ${ERR%$'\n'}"
fi
# apt-get failing is a failure, not a silent success.
printf '#!/bin/sh\nexit 100\n' >"$tb/apt-get"
run_capture env PATH="$tb" /bin/sh config/need-tools.sh --for tests strace
check "check/apt-get fails: exit 1, saying so" \
	"1 forkless check: apt-get could not install strace" "$RC $(grep '^forkless' <<<"$ERR" | tail -1)"
rm -rf "$tb"
exit 0
