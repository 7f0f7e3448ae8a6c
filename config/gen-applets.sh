#!/bin/sh
# SPDX-License-Identifier: MIT
# gen-applets.sh OUTDIR applets/FAMILY/*.c
#
# BusyBox-style: an applet describes itself in its own .c file, in comment
# lines the build collects here:
#   //config:...        a line of its Kconfig entry
#   //applet:SYMBOL NAME PATH MAIN FLAGS [early=FN] [links=STRSYM] [at=/DIR/BASE]
#                       its table entry: Kconfig symbol, argv[0] name,
#                       install path, entry point, and its properties:
#     FLAGS   0, or a comma-separated list of
#             ARGS_PASSTHROUGH  never intercept --help (it belongs to the
#                               program the applet execs)
#             OWN_HELP          the applet takes --help itself
#             FALLBACK          runs under any name that is not an applet
#                               (at most one applet)
#     early=FN    void FN(const char *name, char **argv, char **envp): the
#                 applet's success path, run from the ELF entry point
#                 before libc starts (raw sys_* calls only); it returns
#                 only when it could not exec, and main() starts over
#     links=STRSYM  a Kconfig string symbol: more install paths (space
#                 separated; a name without '/' goes to usr/sbin) that are
#                 links to this applet's PATH; `forkless NAME` runs the
#                 FALLBACK applet only for these names
#     at=/DIR/BASE  an argv[0] ending in /DIR/BASE runs this applet, whatever
#                 BASE alone runs (Debian's /etc/init.d/xen is xencommons,
#                 /usr/sbin/xen the xen applet); a path of at least two
#                 components, one at= per applet
#   //usage:TEXT        a line of the --help text of the last //applet: line
#                       above it
# and what a user relies on, of that same applet (docs/applets.md is made
# of these lines, config/gen-docs.sh; tests/exits.sh checks the codes):
#   //exit:CODE TEXT    an exit status and its meaning, one line each, in
#                       --help after the usage lines (an empty line,
#                       "Exit status:", "  CODE  TEXT" each); CODE is a number, 128+N (killed or
#                       stopped by signal N) or `other` (any code not
#                       listed: e.g. the exec'd tool's own)
#   //exit-untested:CODE WHY   a declared CODE no test brings about, and why
#   //replaces:TEXT     what it stands in for (markdown; one line or more)
#   //messages:TEXT     the form of its messages (markdown; one line or more)
#   //package:TEXT      where the Debian packages put it besides PATH
# Every applet has //exit:, //replaces: and //messages: lines.
# Every applet source lives in a family folder applets/FAMILY/, whose
# Config.in is the family's menu: it sources OUTDIR/applets/FAMILY/Config.in,
# which this script writes from the //config: lines of that folder's files,
# so an applet's entry lands in its family's menu wherever its file sorts.
# OUTDIR/Config.applets.in sources each family's menu, in folder order.
# Writes those, OUTDIR/applet_table.h and OUTDIR/contract (every applet's
# lines above, its --help as printed, plain), each only when its content
# changes, so an unchanged tree rebuilds nothing. A symbol of an
# //applet: line without a `config SYMBOL` entry in some //config: line is
# an error naming the file, line and symbol (a typo would otherwise build
# an applet that is never enabled).
set -eu
out=$1
shift
mkdir -p "$out"

update() {   # update FILE: move FILE.tmp over FILE if they differ
	if cmp -s "$1.tmp" "$1"; then rm -f "$1.tmp"; else mv "$1.tmp" "$1"; fi
}

families=
for f in "$@"; do
	case $f in
	applets/*/*/*) ;;        # one level of folders only
	applets/*/*.c) fam=${f#applets/}; fam=${fam%%/*}
		case " $families " in *" $fam "*) ;; *) families="$families $fam" ;; esac
		continue ;;
	esac
	echo "$f: an applet source must be applets/FAMILY/NAME.c" >&2
	exit 1
done
: >"$out/Config.applets.in.tmp"
for fam in $families; do
	if [ ! -f "applets/$fam/Config.in" ]; then
		echo "applets/$fam/Config.in: missing (every family folder has its menu file)" >&2
		rm -f "$out/Config.applets.in.tmp"; exit 1
	fi
	echo "source \"applets/$fam/Config.in\"" >>"$out/Config.applets.in.tmp"
	mkdir -p "$out/applets/$fam"
	for f in "$@"; do
		case $f in "applets/$fam/"*) sed -n 's,^//config:,,p' "$f" ;; esac
	done >"$out/applets/$fam/Config.in.tmp"
done
# every entry, for the symbol check below
for fam in $families; do cat "$out/applets/$fam/Config.in.tmp"; done >"$out/entries.tmp"

awk -v symfile="$out/entries.tmp" '
BEGIN {
	while ((getline line < symfile) > 0)
		if (line ~ /^[ \t]*(menu)?config[ \t]+[A-Za-z0-9_]+/) {
			sub(/^[ \t]*(menu)?config[ \t]+/, "", line)
			sub(/[^A-Za-z0-9_].*/, "", line)
			known[line] = 1
		}
	err = 0
}
function bad(msg) {
	print FILENAME ":" FNR ": " msg > "/dev/stderr"
	err = 1
}
function bad_in(a, msg) {
	print file[a] ": " msg > "/dev/stderr"
	err = 1
}
function need_symbol(s, what) {
	if (!(s in known))
		bad(what " " s " has no //config: entry (config " s ")")
}
# A C string literal of s plus "\n". Character by character: the meaning
# of backslashes in gsub replacements differs between mawk and gawk.
function cstr(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\") out = out "\\\\"
		else if (c == "\"") out = out "\\\""
		else if (c == "\t") out = out "\\t"
		else out = out c
	}
	return "\"" out "\\n\""
}
/^\/\/applet:/ {
	line = $0
	sub(/^\/\/applet:/, "", line)
	n = split(line, f, " ")
	# (its //usage: lines then go nowhere: one message per mistake)
	if (n < 5) { bad("bad //applet: line: " line); cur = " bad"; next }
	cur = f[2]
	if (cur in sym) bad("applet " cur " declared twice")
	sym[cur] = f[1]; path[cur] = f[3]; fn[cur] = f[4]
	need_symbol(f[1], "//applet: symbol")
	flags[cur] = "0"
	if (f[5] != "0") {
		k = split(f[5], fl, ",")
		flags[cur] = ""
		for (i = 1; i <= k; i++) {
			if (fl[i] != "ARGS_PASSTHROUGH" && fl[i] != "OWN_HELP" && fl[i] != "FALLBACK")
				bad("unknown //applet: flag " fl[i])
			if (fl[i] == "FALLBACK") {
				if (fallback != "") bad("a second FALLBACK applet: " cur " (" fallback " is one)")
				fallback = cur
			}
			flags[cur] = flags[cur] (i > 1 ? " | " : "") "APPLET_" fl[i]
		}
	}
	early[cur] = "0"; links[cur] = ""; at[cur] = ""
	for (i = 6; i <= n; i++) {
		if (f[i] ~ /^early=[A-Za-z_][A-Za-z0-9_]*$/) early[cur] = substr(f[i], 7)
		else if (f[i] ~ /^links=[A-Za-z0-9_]+$/) {
			links[cur] = substr(f[i], 7)
			need_symbol(links[cur], "//applet: links=")
			if (cur != fallback) bad("links= without FALLBACK: " cur)
		} else if (f[i] ~ /^at=(\/[A-Za-z0-9._-]+)+\/[A-Za-z0-9._-]+$/) {
			if (at[cur] != "") bad("a second at= for " cur)
			at[cur] = substr(f[i], 4)
		} else bad("unknown //applet: field " f[i])
	}
	names[++count] = cur
	file[cur] = FILENAME
	next
}
/^\/\/usage:/ {
	if (cur == "") { bad("//usage: before //applet:"); next }
	if (cur == " bad") next
	sub(/^\/\/usage:/, "")
	usage[cur] = usage[cur] "\n\t\t" cstr($0)
	helptext[cur] = helptext[cur] "@help " $0 "\n"
}
/^\/\/(exit|exit-untested|replaces|messages|package):/ {
	kind = substr($0, 3); sub(/:.*/, "", kind)
	text = $0; sub(/^\/\/[a-z-]+:/, "", text)
	if (cur == "") { bad("//" kind ": before //applet:"); next }
	if (cur == " bad") next
	if (kind == "exit" || kind == "exit-untested") {
		code = text; sub(/ .*/, "", code)
		text = substr(text, length(code) + 2)
		if (code !~ /^([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5]|128\+N|other)$/)
			{ bad("//" kind ": CODE '" code "' is not 0-255, 128+N or other"); next }
		if (text == "") { bad("//" kind ":" code " without its meaning"); next }
		if (kind == "exit") {
			if ((cur SUBSEP code) in exitcode) bad("exit " code " of " cur " declared twice")
			exitcode[cur, code] = 1
			line = sprintf("  %-6s%s", code, text)
			if (length(line) > 79) bad("exit " code " of " cur ": the --help line is " length(line) " columns, over 79")
			exitlines[cur] = exitlines[cur] "\n\t\t" cstr(line)
			exithelp[cur] = exithelp[cur] "@help " line "\n"
			help[cur] = help[cur] "@exit " code " " text "\n"
		} else {
			untested[cur] = untested[cur] " " code
			help[cur] = help[cur] "@untested " code " " text "\n"
		}
		next
	}
	has[cur, kind] = 1
	help[cur] = help[cur] "@" kind " " text "\n"
}
END {
	for (i = 1; i <= count; i++) {
		a = names[i]
		if (exitlines[a] == "") bad_in(a, "applet " a ": no //exit: line")
		if (!((a SUBSEP "replaces") in has)) bad_in(a, "applet " a ": no //replaces: line")
		if (!((a SUBSEP "messages") in has)) bad_in(a, "applet " a ": no //messages: line")
		k = split(untested[a], u, " ")
		for (j = 1; j <= k; j++)
			if (!((a SUBSEP u[j]) in exitcode)) bad_in(a, "applet " a ": //exit-untested:" u[j] " is no //exit: code")
		usage[a] = usage[a] "\n\t\t" cstr("") "\n\t\t" cstr("Exit status:") exitlines[a]
	}
	if (err) exit 1
	# The contract, plain, for config/gen-docs.sh and tests/exits.sh
	for (i = 1; i <= count; i++) {
		a = names[i]
		print "@applet " a " " sym[a] " " path[a] " " file[a] " " (at[a] == "" ? "-" : at[a]) " " (links[a] == "" ? "-" : links[a]) > contract
		printf "%s@help \n@help Exit status:\n%s%s", helptext[a], exithelp[a], help[a] > contract
	}
	close(contract)
	# sort by name: --list and the table read alphabetically
	for (i = 1; i <= count; i++)
		for (j = i + 1; j <= count; j++)
			if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
	print "/* Generated by config/gen-applets.sh from the //applet: and //usage:"
	print " * lines of the applets/ sources. Do not edit. */"
	print "#define USAGE(text) (ENABLE_FORKLESS_HELP ? (text) : \"\")"
	for (i = 1; i <= count; i++) {
		a = names[i]
		print "#if ENABLE_" sym[a]
		print "applet_main_fn " fn[a] ";"
		if (early[a] != "0") print "applet_early_fn " early[a] ";"
		print "#endif"
	}
	# Early hooks and links by index: the columns only two applets and
	# one applet use stay out of every table entry (struct applet is
	# 40 bytes on x86_64, and the size of the binary is budgeted).
	print "static applet_early_fn *const early_hooks[] = {"
	print "\t0,"
	nhooks = 0
	for (i = 1; i <= count; i++) {
		a = names[i]
		if (early[a] == "0") { hook[a] = 0; continue }
		hook[a] = ++nhooks
		print "#if ENABLE_" sym[a]
		print "\tAPPLET_EARLY(" early[a] "),"
		print "#else"
		print "\t0,"
		print "#endif"
	}
	print "};"
	print "static const char fallback_links_symbol[] = \"" (fallback != "" ? links[fallback] : "") "\";"
	print "static const char fallback_links[] ="
	if (fallback != "" && links[fallback] != "") {
		print "#if ENABLE_" sym[fallback]
		print "\tCONFIG_" links[fallback] ";"
		print "#else"
		print "\t\"\";"
		print "#endif"
	} else
		print "\t\"\";"
	# Paths (at=): APPLETS_AT, one AT(BASE, "/DIR/", APPLET) per
	# enabled applet that has one (core/table.c defines AT)
	all = ""
	for (i = 1; i <= count; i++) {
		a = names[i]
		if (at[a] == "") continue
		base = at[a]; sub(/.*\//, "", base)
		m = "APPLET_AT_" sym[a]
		print "#if ENABLE_" sym[a]
		print "#define " m " AT(\"" base "\", \"" substr(at[a], 1, length(at[a]) - length(base)) "\", \"" a "\")"
		print "#else"
		print "#define " m
		print "#endif"
		all = all " " m
	}
	print "#define APPLETS_AT" all
	print "static const struct applet applets[] = {"
	for (i = 1; i <= count; i++) {
		a = names[i]
		print "#if ENABLE_" sym[a]
		print "\t{ \"" a "\", \"" path[a] "\", " fn[a] ","
		print "\t  USAGE(\"\"" usage[a] "), " flags[a] ", " hook[a] " },"
		print "#endif"
	}
	print "\t{ 0 }   /* sentinel; also keeps an allnoconfig table valid C */"
	print "};"
}' contract="$out/contract.tmp" "$@" >"$out/applet_table.h.tmp" || {
	rm -f "$out/contract.tmp"
	rm -f "$out/applet_table.h.tmp" "$out/Config.applets.in.tmp" "$out/entries.tmp"
	for fam in $families; do rm -f "$out/applets/$fam/Config.in.tmp"; done
	exit 1
}
rm -f "$out/entries.tmp"
for fam in $families; do update "$out/applets/$fam/Config.in"; done
update "$out/Config.applets.in"
update "$out/applet_table.h"
update "$out/contract"
