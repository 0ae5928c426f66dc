#!/bin/sh
# What the fuzzers of fuzz/ found (issue 13), on the command line: an error
# line that quotes the user's or a file's text shows it escaped, so a
# newline or an escape sequence neither splits the line nor reaches the
# terminal (import, the option parser, the selector); and set:N names the
# set numbered N, not the set of a later run N.  Their inputs are also in
# fuzz/corpus/, which the fuzz smoke run of .ci/run replays.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/r.db"
ESC=$(printf '\033')
NL='
'

"$KB" run --only sys.null --max-time 0.05 --runs 2 --label twice --db "$DB" --tmpdir "$T/tmp" \
	--quiet >/dev/null 2>&1
"$KB" export --db "$DB" >"$T/good.json"

# import: a status holding ESC [31m, as a hostile export could.
python3 - "$T/good.json" "$T/esc.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][0]["results"][0]["status"] = "\x1b[31mred\nline"
json.dump(d, open(sys.argv[2], "w"))
EOF
kb import "$T/esc.json" --db "$T/other.db"
check "import: a control character in the file is escaped in the one line" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && ! grep -q '$ESC' '$T/err' && grep -qF 'unknown status \"\\x1b[31mred\\nline\"' '$T/err'"
# jansson's own message quotes the bytes near the fault.
printf '{"format": "kbench-export", "version": 1, "runs": [\033]}' >"$T/esc2.json"
kb import "$T/esc2.json" --db "$T/other.db"
check "import: invalid JSON near an escape: one line, escaped" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && ! grep -q '$ESC' '$T/err' && grep -qF 'x1b' '$T/err'"

# The option parser: an unknown option and a value with a newline in them.
kb run "--max${NL}time" 1
check "an unknown option with a newline: the message is one line, escaped" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -qF \"unknown option '--max\\ntime'\" '$T/err'"
kb run --max-time "${NL}99999"
check "a number after a newline: no number (a blank before it is refused), one line, escaped" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -qF -- \"--max-time: '\\n99999' is not a number\" '$T/err'"
kb run --size "64k${ESC}[2J"
check "a size with an escape sequence: no escape reaches the terminal" \
	sh -c "[ $rc = 2 ] && ! grep -q '$ESC' '$T/err' && grep -qF \"'64k\\x1b[2J' is not a size\" '$T/err'"

# The selector: what matched nothing is quoted escaped.
kb summary "no${ESC}[31mrun" --db "$DB"
check "a selector with an escape sequence: one line, escaped" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -qF \"no run or label 'no\\x1b[31mrun'\" '$T/err'"
printf 'x\377y' >"$T/sel"
kb summary "$(cat "$T/sel")" --db "$DB"
check "a selector that is not UTF-8: one line, the byte escaped" \
	sh -c "[ $rc = 1 ] && grep -qF \"no run or label 'x\\xffy'\" '$T/err'"

# set:N is the set whose first run is N (kbench runs numbers it so): run 2
# is the second run of set 1, so set:2 is no set, as `kbench runs set:2` says.
kb summary set:1 --each --db "$DB"
check "set:1 names both runs of the set" sh -c "[ $rc = 0 ] && [ \$(grep -c '^[a-z]* *twice' '$T/out') -ge 2 ]"
kb summary set:2 --db "$DB"
check "set:2, a later run of set 1, is no set: one line, exit 1" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -qF \"no set or label 'set:2'\" '$T/err'"
kb export set:2 --db "$DB"
check "export set:2 agrees" sh -c "[ $rc = 1 ] && grep -qF \"no set or label 'set:2'\" '$T/err'"
kb runs set:2 --db "$DB"
check "and so does runs set:2" sh -c "[ $rc = 1 ]"

echo "1..$n"
