#!/bin/bash
# config/gen-applets.sh: a typo in an //applet: line is a build error
# naming the file, the line and the symbol (a misspelled Kconfig symbol
# used to build warning-free, and the applet was silently left out).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2
base=$(scratch gen)
trap 'rm -rf "$base"' EXIT

# typo NAME SED-EXPR EXPECTED-MESSAGE: applets/xen.c with the edit.
typo() {
	local name=$1 edit=$2 msg=$3 line
	sed "$edit" applets/xen.c >"$base/xen.c"
	line=$(diff applets/xen.c "$base/xen.c" | sed -n '1s/^\([0-9]*\)c.*/\1/p')
	expect "gen-applets/$name" 1 "" "$base/xen.c:$line: $msg"$'\n' \
		-- config/gen-applets.sh "$base/out" "$base/xen.c"
	[ ! -e "$base/out/applet_table.h" ] && pass "gen-applets/$name: no table written" ||
		fail "gen-applets/$name: no table written" "$(ls "$base/out")"
	rm -rf "$base/out"
}
typo "symbol without //config: entry" 's,^//applet:XEN_DIR ,//applet:XEN_DIRR ,' \
	"//applet: symbol XEN_DIRR has no //config: entry (config XEN_DIRR)"
typo "unknown flag" 's,^\(//applet:XEN_VERSION .*\) 0$,\1 ARGS_PASSTRHOUGH,' \
	"unknown //applet: flag ARGS_PASSTRHOUGH"
typo "links= symbol without //config: entry" 's,links=XEN_WRAPPED_TOOLS,links=XEN_WRAPED_TOOLS,' \
	"//applet: links= XEN_WRAPED_TOOLS has no //config: entry (config XEN_WRAPED_TOOLS)"
typo "too few fields" 's,^//applet:XEN_DIR xen-dir .*,//applet:XEN_DIR xen-dir xen_dir_main 0,' \
	"bad //applet: line: XEN_DIR xen-dir xen_dir_main 0"

# Through make: the build stops with the message.
mkdir -p "$base/tree"
git ls-files -z | xargs -0 cp --parents -t "$base/tree" 2>/dev/null || cp -r . "$base/tree"
sed -i 's,^//applet:XEN_DIR ,//applet:XEN_DIRR ,' "$base/tree/applets/xen.c"
run_capture make -C "$base/tree" -s
if [ "$RC" != 0 ] && grep -q "applets/xen.c:[0-9]*: //applet: symbol XEN_DIRR has no //config: entry" <<<"$ERR"; then
	pass "gen-applets/make stops at the typo"
else
	fail "gen-applets/make stops at the typo" "status $RC" "$ERR"
fi

# The real sources pass, and the table is what they declare.
run_capture config/gen-applets.sh "$base/ok" applets/*.c
check "gen-applets/the tree's own applets: exit 0, silent" "0 " "$RC $ERR"
exit 0
