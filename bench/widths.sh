#!/bin/sh
# The widest line of each text output on the kernels fixture with its
# kernels named as kernels are (6.19.0-rc1-next-a, 6.19.0-rc1-next-b,
# 6.19.0-rc1-00042-gdeadbeef), beside the plain one: what a user pastes
# into a mail.  Prints a Markdown table: output, widest line (columns, as
# wc -L counts them in a UTF-8 locale), the widest with the plain labels.
# Usage: sh bench/widths.sh [KBENCH]   (from the repository root)
set -u
KB=${1:-./build/kbench}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
/usr/bin/python3 - tests/fixtures/kernels.json "$T/long.json" <<'EOF'
import json, sys, uuid
d = json.load(open(sys.argv[1]))
names = {"2.5.47": "6.19.0-rc1-next-a", "2.5.47-mm1": "6.19.0-rc1-next-b",
         "2.5.48": "6.19.0-rc1-00042-gdeadbeef"}
first = {}
for r in d["runs"]:
    r["label"] = names[r["label"]]
    r["uuid"] = uuid.uuid4().hex
    r["set"] = first.setdefault(r["label"], r["uuid"])
json.dump(d, open(sys.argv[2], "w"))
EOF
"$KB" import --db "$T/long.db" "$T/long.json" >/dev/null 2>&1
"$KB" import --db "$T/plain.db" tests/fixtures/kernels.json >/dev/null 2>&1
A=6.19.0-rc1-next-a B=6.19.0-rc1-next-b C=6.19.0-rc1-00042-gdeadbeef
widest() { # DB ARGS...: the widest line kbench prints
	db=$1
	shift
	"$KB" "$@" --db "$db" 2>&1 | LC_ALL=C.UTF-8 wc -L
}
echo "| output | widest, long labels | widest, 2.5.47 etc. |"
echo "|---|---|---|"
row() { # NAME LONG-ARGS / PLAIN-ARGS
	name=$1
	shift
	long=
	while [ "$1" != / ]; do long="$long $1"; shift; done
	shift
	# shellcheck disable=SC2086 # the arguments are words
	echo "| $name | $(widest "$T/long.db" $long) | $(widest "$T/plain.db" "$@") |"
}
row "summary" summary / summary
row "compare, 2 sides" compare $A $B / compare 2.5.47 2.5.47-mm1
row "compare, 3 sides" compare $A $B $C / compare 2.5.47 2.5.47-mm1 2.5.48
row "compare, 4 sides" compare 1 4 7 2 / compare 1 4 7 2
row "history --by label" history --by label / history --by label
row "history (by time)" history / history
row "runs" runs / runs
row "show sys.null 1" show sys.null 1 / show sys.null 1
echo "| list | $("$KB" list | LC_ALL=C.UTF-8 wc -L) | |"
echo "| --help (widest command) | $(for c in list run ab summary compare history show runs export import contest time clocks sysinfo; do "$KB" "$c" --help; done | LC_ALL=C.UTF-8 wc -L) | |"
