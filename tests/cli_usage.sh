#!/bin/sh
# Command-line tests of every command's --help: its usage line is made from
# the command's option table, so each option the help lists (every one the
# command accepts) appears in it, and it keeps within 80 columns.  And the
# run's output notes: by default the marks' few lines, with -v every
# figure's, on a database of one quick measurement (a few seconds).
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"

# usage_has_all CMD: each --option of CMD's help list is in its usage block.
usage_has_all() {
	"$KB" "$1" --help >"$T/help" 2>"$T/err" || return 1
	sed -n '1,/^$/p' "$T/help" >"$T/usage"
	opts=$(sed -n '/^$/,$p' "$T/help" | grep -oE '^  (-[a-z], )?--[a-z0-9-]+' |
		sed 's/.*--/--/' | grep -v -- '--help')
	[ -n "$opts" ] || return 1
	for o in $opts; do
		grep -qE -- "$o( |\\])" "$T/usage" || { echo "missing $o" >&2; return 1; }
	done
	! awk 'length > 80 { bad = 1 } END { exit !bad }' "$T/usage"
}

cmds=$("$KB" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
check "kbench --help lists the commands" [ "$(echo "$cmds" | wc -w)" -ge 12 ]
# examples_hold CMD: CMD's help fits 80 columns, ends with two examples or
# more, and every --option an example gives is one the help lists.
examples_hold() {
	"$KB" "$1" --help >"$T/help" 2>"$T/err" || return 1
	awk 'length > 80 { print; bad = 1 } END { exit bad }' "$T/help" || return 1
	sed -n '/^examples:$/,$p' "$T/help" | sed 1d >"$T/ex"
	[ "$(grep -cE "^  kbench $1( |\$)" "$T/ex")" -ge 2 ] || return 1
	for o in $(grep -oE -- ' --[a-z][a-z0-9-]+' "$T/ex" | sort -u); do
		grep -qE -- "^  (-[a-z], )?$o( |\$)" "$T/help" || { echo "example's $o not an option" >&2; return 1; }
	done
}
for c in $cmds; do
	check "$c --help: its usage line names every option it lists, within 80 columns" \
		usage_has_all "$c"
	check "$c --help: within 80 columns, with two examples whose options it lists" \
		examples_hold "$c"
done
kb --help
check "kbench --help fits 80 columns" awk 'length > 80 { bad = 1 } END { exit bad }' "$T/out"
# The man page's SYNOPSIS names each command's options as its --help does
# (both from one table would be better; this keeps them from drifting).
MAN="$(dirname "$0")/../doc/kbench.1"
synopsis_matches() {
	python3 - "$KB" "$MAN" <<'PY'
import re, subprocess, sys
kb, man = sys.argv[1], open(sys.argv[2]).read()
syn = man[man.index(".Sh SYNOPSIS"):man.index(".Sh DESCRIPTION")]
got = {}
for block in re.split(r"^\.Nm kbench\n", syn, flags=re.M)[1:]:
    m = re.match(r"\.Cm (\S+)", block)
    if not m:
        continue
    opts = {o.replace("\\-", "-") for o in re.findall(r"\\-((?:[a-z0-9]|\\-)+)", block)}
    got.setdefault(m.group(1), set()).update(opts)
bad = 0
for cmd, opts in got.items():
    out = subprocess.run([kb, cmd, "--help"], capture_output=True, text=True).stdout
    helped = set(re.findall(r"^  (?:-[a-z], )?--([a-z0-9-]+)", out.split("\n\n", 1)[1], re.M)) - {"help"}
    if helped != opts - {"help", "version"}:
        print(cmd, "man only:", sorted(opts - helped - {"help", "version"}),
              "help only:", sorted(helped - opts))
        bad = 1
sys.exit(bad)
PY
}
check "the man page's SYNOPSIS names every command's options as --help does" synopsis_matches
kb run --help
check "run's usage line names --precision and -v, which it once left out" \
	sh -c "sed -n '1,/^\$/p' '$T/out' | grep -q -- '--precision PCT' &&
	       sed -n '1,/^\$/p' '$T/out' | grep -q -- '-v|--verbose'"
kb time --help
check "time's usage line ends with the command after --" \
	sh -c "sed -n '1,/^\$/p' '$T/out' | grep -q -- '\\[-- COMMAND \\[ARG...\\]\\]\$'"

# --- the notes: marks by default, every figure's with -v -------------------
DB="$T/db.sqlite"
kb run --only 'sys.null,sys.read,sys.write,sys.stat,sys.fstat,sig.install' --replicas 4 \
	--max-time 0.2 --precision 0.01 --db "$DB" --tmpdir "$T" --quiet
check "a run of six figures measured" [ "$rc" = 0 ]
kb summary --db "$DB"
check "summary: the machine's line under the basic table" \
	grep -qE '^  run 1: intervals \+-[0-9.]+% typically' "$T/out"
check "summary: no figure's own noisy line by default" sh -c "! grep -q ': noisy' '$T/out'"
kb run --only 'sys.null,sys.read' --replicas 4 --max-time 0.2 --db "$T/two.db" --tmpdir "$T" --quiet
kb summary --db "$T/two.db"
check "summary of two figures: too few for a typical interval, the machine's spread said instead" \
	sh -c "grep -qE '^  run 1: too few figures \(2\) for a typical interval; the machine.s \+-[0-9.]+%$' '$T/out' && ! grep -q typically '$T/out'"
kb summary --db "$DB" -v
check "summary -v: every figure that missed 0.01% has its line" \
	[ "$(grep -c ': noisy' "$T/out")" -ge 5 ]
kb summary --db "$DB" --verbose
check "summary --verbose is -v" [ "$(grep -c ': noisy' "$T/out")" -ge 5 ]

# --- one format option, --json and --html its short forms ------------------
kb summary --db "$DB" --json;		cp "$T/out" "$T/json1"
kb summary --db "$DB" --format json
check "summary --format json is --json" cmp -s "$T/out" "$T/json1"
kb summary --db "$DB" --format text
check "summary --format text is the tables" grep -q '^Basic system parameters$' "$T/out"
kb show sys.null 1 --db "$DB" --format html
check "show --format html is a page" grep -q '<html' "$T/out"
kb summary --db "$DB" --format csv
check "summary --format csv: not one of its formats, one line, exit 2" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'one of text, json, html' '$T/err'"
kb summary --db "$DB" --format text --json
check "--format text with --json: one format at a time, exit 2" \
	sh -c "[ $rc = 2 ] && grep -q 'one output format at a time' '$T/err'"
kb summary --db "$DB" --format json --json
check "--format json with --json says the same: taken" [ "$rc" = 0 ]
kb export --db "$DB" --format html
check "export --format html: not one of its formats" sh -c "[ $rc = 2 ] && grep -q 'one of json, csv' '$T/err'"
echo "1..$n"
