#!/bin/bash
# SPDX-License-Identifier: MIT
# config/gen-applets.sh: a typo in an //applet: line is a build error
# naming the file, the line and the symbol (a misspelled Kconfig symbol
# used to build warning-free, and the applet was silently left out).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 2
base=$(scratch gen)
trap 'rm -rf "$base"' EXIT

# typo NAME SED-EXPR EXPECTED-MESSAGE: applets/xen/xen.c with the edit, in
# a scratch tree of the family folder (the generator reads the family's
# menu file relative to the current directory).
mkdir -p "$base/t/applets/xen"
cp applets/xen/Config.in "$base/t/applets/xen/"
typo() {
	local name=$1 edit=$2 msg=$3 line
	sed "$edit" applets/xen/xen.c >"$base/t/applets/xen/xen.c"
	line=$(diff applets/xen/xen.c "$base/t/applets/xen/xen.c" | sed -n '1s/^\([0-9]*\)c.*/\1/p')
	expect "gen-applets/$name" 1 "" "applets/xen/xen.c:$line: $msg"$'\n' \
		-- sh -c 'cd "$1" && "$2" out applets/xen/xen.c' sh "$base/t" "$TOP/config/gen-applets.sh"
	[ ! -e "$base/t/out/applet_table.h" ] && pass "gen-applets/$name: no table written" ||
		fail "gen-applets/$name: no table written" "$(ls "$base/t/out")"
	rm -rf "$base/t/out"
}
typo "symbol without //config: entry" 's,^//applet:XEN_DIR ,//applet:XEN_DIRR ,' \
	"//applet: symbol XEN_DIRR has no //config: entry (config XEN_DIRR)"
typo "unknown flag" 's,^\(//applet:XEN_VERSION .*\) 0$,\1 ARGS_PASSTRHOUGH,' \
	"unknown //applet: flag ARGS_PASSTRHOUGH"
typo "links= symbol without //config: entry" 's,links=XEN_WRAPPED_TOOLS,links=XEN_WRAPED_TOOLS,' \
	"//applet: links= XEN_WRAPED_TOOLS has no //config: entry (config XEN_WRAPED_TOOLS)"
typo "at= not a path of two components" 's,^\(//applet:XEN_DIR .*\) 0$,\1 0 at=xen,' \
	"unknown //applet: field at=xen"
typo "a second at=" 's,^\(//applet:XEN_DIR .*\) 0$,\1 0 at=/init.d/x at=/init.d/y,' \
	"a second at= for xen-dir"
typo "too few fields" 's,^//applet:XEN_DIR xen-dir .*,//applet:XEN_DIR xen-dir xen_dir_main 0,' \
	"bad //applet: line: XEN_DIR xen-dir xen_dir_main 0"

# Through make: the build stops with the message.
mkdir -p "$base/tree"
git ls-files -z | xargs -0 cp --parents -t "$base/tree" 2>/dev/null || cp -r . "$base/tree"
sed -i 's,^//applet:XEN_DIR ,//applet:XEN_DIRR ,' "$base/tree/applets/xen/xen.c"
run_capture make -C "$base/tree" -s
if [ "$RC" != 0 ] && grep -q "applets/xen/xen.c:[0-9]*: //applet: symbol XEN_DIRR has no //config: entry" <<<"$ERR"; then
	pass "gen-applets/make stops at the typo"
else
	fail "gen-applets/make stops at the typo" "status $RC" "$ERR"
fi

# The layout: a source outside a family folder, or a family without its
# menu file, is an error naming it.
cp applets/xen/xen.c "$base/t/applets/loose.c"
expect "gen-applets/a source outside a family folder" 1 "" \
	"applets/loose.c: an applet source must be applets/FAMILY/NAME.c"$'\n' \
	-- sh -c 'cd "$1" && "$2" out applets/loose.c' sh "$base/t" "$TOP/config/gen-applets.sh"
mkdir -p "$base/t/applets/nomenu"
cp applets/xen/xen.c "$base/t/applets/nomenu/"
expect "gen-applets/a family without its menu file" 1 "" \
	"applets/nomenu/Config.in: missing (every family folder has its menu file)"$'\n' \
	-- sh -c 'cd "$1" && "$2" out applets/nomenu/xen.c' sh "$base/t" "$TOP/config/gen-applets.sh"

# The real sources pass, and the table is what they declare.
run_capture config/gen-applets.sh "$base/ok" applets/*/*.c
check "gen-applets/the tree's own applets: exit 0, silent" "0 " "$RC $ERR"

# Every applet's entry lands in its family's menu, wherever its file sorts:
# follow Config.in's source lines from the top, note the menu each config
# symbol is declared in, and compare with the folder of the file that
# declares it.
make -s build/gen/.applets.stamp >/dev/null 2>&1
menus=$(awk '
function walk(file,    line, f) {
	while ((getline line < file) > 0) {
		if (line ~ /^[ \t]*source[ \t]+"/) {
			f = line; sub(/^[ \t]*source[ \t]+"/, "", f); sub(/".*/, "", f)
			walk(f)
		} else if (line ~ /^[ \t]*menu[ \t]+"/) {
			m = line; sub(/^[ \t]*menu[ \t]+"/, "", m); sub(/".*/, "", m)
			menu[++depth] = m; menufile[depth] = file
		} else if (line ~ /^[ \t]*endmenu/) depth--
		else if (line ~ /^[ \t]*(menu)?config[ \t]+[A-Z0-9_]+/) {
			s = line; sub(/^[ \t]*(menu)?config[ \t]+/, "", s); sub(/[^A-Z0-9_].*/, "", s)
			print s, (depth ? menufile[depth] : "top")
		}
	}
	close(file)
}
BEGIN { walk("Config.in") }')
bad= n=0
for f in applets/*/*.c; do
	for sym in $(sed -n 's|^//config:[ \t]*config[ \t]\{1,\}\([A-Z0-9_]*\).*|\1|p' "$f"); do
		n=$((n + 1))
		want="$sym $(dirname "$f")/Config.in"
		grep -qxF "$want" <<<"$menus" || bad="$bad $sym ($f: in $(awk -v s="$sym" '$1 == s {print $2}' <<<"$menus"))"
	done
done
[ -z "$bad" ] && [ "$n" -gt 0 ] && pass "gen-applets/every applet's entry ($n) is in its family's menu" ||
	fail "gen-applets/every applet's entry is in its family's menu" "${bad:- no entries found}"
exit 0
