#!/bin/sh
# Golden text for compare and summary on a fixture database: the export
# tests/fixtures/kernels.json (three kernels, figures chosen so the answers
# are known; see make_kernels.py) imported into an empty db, then the
# reports compared byte for byte with tests/golden/.  To accept a deliberate
# change of format: KBENCH_GOLDEN_UPDATE=1 sh tests/cli_fixture.sh build,
# then read the diff of tests/golden/ before committing it.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/k.db"
FIX="$(dirname "$0")/fixtures/kernels.json"

kb import "$FIX" --db "$DB"
check "the fixture imports" sh -c "[ $rc = 0 ] && grep -q 'imported 7 runs' '$T/err'"

kb compare 2.5.47 2.5.47-mm1 2.5.48 --db "$DB"
check "compare of the fixture exits 0" [ "$rc" = 0 ]
golden "compare text is the golden text" compare_kernels.txt
check "sys.null is significantly slower in both others" \
	grep -Eq '^sys\.null .* \+259\.5% \* .* \+186\.1% \*~$' "$T/out"
check "proc.fork, within noise, is not called a change" sh -c "grep '^proc\.fork' '$T/out' | grep -vq '\*'"
check "a figure that missed its precision, no looser than the rest, is not marked" \
	grep -Eq '^ipc\.tcp\.lat none .*[0-9] +-0\.3% [= ] ' "$T/out"
check "a skipped figure is a dash" grep -Eq '^ipc\.rpc_udp\.lat none .* -$' "$T/out"
check "three sides fit 80 columns" sh -c "! awk 'length(\$0) > 80' '$T/out' | grep -q ."
check "... LKP's word under a significant mark" sh -c "grep -A1 '^sys\.null ' '$T/out' | grep -q '^ *regression *regression\$'"
kb compare 1 4 7 2 --db "$DB"
check "four sides fit 80 columns, the others' changes alone" \
	sh -c "[ $rc = 0 ] && ! awk 'length(\$0) > 80' '$T/out' | grep -q . && grep -q 'the others. changes alone' '$T/out'"
kb compare 2.5.47 2.5.47-mm1 --threshold 20 --db "$DB"
check "--threshold 20: a 10% gain is no longer significant" sh -c "grep '^mem\.read\.bw' '$T/out' | grep -vq '\*'"
check "--threshold 20: a 260% loss still is" grep -Eq '^sys\.null .*\+259\.5% \*' "$T/out"

kb export --format csv 2.5.48 --db "$DB"
check "csv export of the fixture exits 0" [ "$rc" = 0 ]
golden "csv export is the golden text" export_kernels.csv
kb compare 2.5.47 2.5.47-mm1 --curves --db "$DB"
check "compare --curves: the latency curve point by point, all 38 points" sh -c \
	"[ $rc = 0 ] && [ \$(sed -n '/^mem.lat.curve (ns)/,\$p' '$T/out' | grep -Ec '^ +[0-9.]+[KMG]? +(page|random) ') = 38 ]"
kb compare 2.5.47 2.5.47-mm1 --json --db "$DB"
"$JC" compare <"$T/out" >"$T/jc" 2>&1
check "compare --json of the fixture: the same verdicts as the text" \
	grep -q '^base 2.5.47 sides 2 rows 27 significant 4 ancova 0 adjusted 0 welch 27 replicas 0 mw 0' "$T/jc"

kb summary --db "$DB"
check "summary of the fixture exits 0" [ "$rc" = 0 ]
golden "summary text is the golden text" summary_kernels.txt
check "one row per label, [runs] where more than one" sh -c \
	"grep -q '^testbox       2.5.47 \[3\] 2952 0.57 ' '$T/out' && grep -q '^testbox           2.5.48 2952 1.63 ' '$T/out'"
check "no label is cut: the OS column as wide as 2.5.47-mm1 [3]" \
	grep -q '^testbox   2.5.47-mm1 \[3\] 2940 2.05 ' "$T/out"
kb summary 2.5.47 --each --db "$DB"
check "summary --each: one row per run" sh -c \
	"[ \$(sed -n '/^Processor, Processes/,/^\$/p' '$T/out' | grep -c '^testbox          2.5.47 ') = 3 ]"

# --- kernels named as they are: whole labels that differ at their ends -------
# The fixture's kernels renamed 6.19.0-rc1-next-a, 6.19.0-rc1-next-b and
# 6.19.0-rc1-00042-gdeadbeef: every table names each whole, and its rows
# are 80 columns but what the longest label (with its [3]) takes over 13.
sed -e 's/"label": "2\.5\.47"/"label": "6.19.0-rc1-next-a"/' \
	-e 's/"label": "2\.5\.47-mm1"/"label": "6.19.0-rc1-next-b"/' \
	-e 's/"label": "2\.5\.48"/"label": "6.19.0-rc1-00042-gdeadbeef"/' "$FIX" >"$T/long.json"
"$KB" import "$T/long.json" --db "$T/long.db" >/dev/null 2>&1
kb summary --db "$T/long.db"
check "summary of long labels exits 0" [ "$rc" = 0 ]
# each kernel's row in the seven tables that have its figures, and in Other results
for lab in '6.19.0-rc1-next-a \[3\]' '6.19.0-rc1-next-b \[3\]' '6.19.0-rc1-00042-gdeadbeef'; do
	check "summary: '$lab' whole in every table" sh -c \
		"[ \$(grep -c '^testbox  *$lab ' '$T/out') -ge 7 ]"
done
check "summary: no label cut" sh -c "! grep -q '6\.19\.0-rc \[3\]\|6\.19\.0-rc1-ne ' '$T/out'"
# the tables' lines (a note names a label in its own words, as long as it is)
grep -v '^  ' "$T/out" >"$T/tables"
widest() { LC_ALL=C.UTF-8 wc -L <"$1"; }
check "summary: 80 columns but what the longest label takes over lmbench's 13" \
	[ "$(widest "$T/tables")" -le $((80 + 26 - 13)) ]
golden "summary of long labels is the golden text" summary_long_labels.txt

# fixture_compare NAME RUNS GOLDEN WHAT: tests/fixtures/NAME.json imported into
# $T/NAME.db (RUNS runs), and `compare A B` of it the golden text GOLDEN.
fixture_compare() {
	kb import "$(dirname "$0")/fixtures/$1.json" --db "$T/$1.db"
	check "the $1 fixture imports" sh -c "[ $rc = 0 ] && grep -q 'imported $2 runs' '$T/err'"
	kb compare A B --db "$T/$1.db"
	check "compare of the $1 fixture exits 0" [ "$rc" = 0 ]
	golden "$4 is the golden text" "$3"
}

# --- the machine's states (tests/fixtures/states.json, see make_states.py) ---
SDB="$T/states.db"
fixture_compare states 8 compare_states.txt "compare in the machine's states"
check "a 5% change hidden by the states' mix is found in the state both share" \
	grep -Eq '^ipc\.pipe\.lat none .* \+5\.0% \*' "$T/out"
check "the same states without a change are not called one" \
	sh -c "grep '^ctx\.2p\.0k' '$T/out' | grep -vq '\*'"
check "a figure without states keeps the plain test: +10%" grep -Eq '^sys\.null .* \+10\.[0-9]% \*' "$T/out"
check "the note says how many figures were compared in a common state" \
	grep -q "^2 figures with replicas beyond 15% of a level both sides share (the$" "$T/out"
kb compare A B --db "$SDB" --json
"$JC" compare <"$T/out" >"$T/jc" 2>&1
check "compare --json: two rows in the common state, the same verdicts as the text" \
	grep -q '^base A sides 2 rows 3 significant 2 ancova 0 adjusted 0 welch 3 replicas 0 mw 0 state 2 ' "$T/jc"

# --- one kbench ab session (tests/fixtures/paired.json, see make_paired.py) ---
fixture_compare paired 2 compare_paired.txt "compare of an ab session, in pairs"
check "paired: a 5% change the runs' spread of 36% hides is found in the pairs" \
	grep -Eq '^sys\.null .* \+4\.9% \* ' "$T/out"
check "paired: no change, not called one" sh -c "grep '^ctx\.2p\.0k' '$T/out' | grep -vq '\*'"
check "paired: a 3% gain found" grep -Eq '^ipc\.pipe\.lat none .* -3\.0% \* ' "$T/out"
check "paired: the note says it, with the rounds, and the pairs a jump split" sh -c \
	"grep -q '^up to 10 rounds; each round' '$T/out' && grep -q '^3 pairs of rounds left out over the table' '$T/out'"
kb compare A B --db "$T/paired.db" --json
check "paired: --json says the test and the rounds tested of all" python3 -c "
import json
d = json.load(open('$T/out'))
cells = [c for r in d['rows'] for c in r['cells'][1:]]
assert len(cells) == 3, len(cells)
for c in cells:
    assert c['test'] == 'paired-log-rounds', c['test']
    assert c['pairs'] == {'tested': 9, 'rounds': 10, 'width': 0.15}, c['pairs']
assert [c['significant'] for c in cells] == [True, False, True]
"
kb compare A B --db "$T/paired.db" --html
check "paired: the page says it too" grep -q 'paired: the sides were measured round by round' "$T/out"

# --- sittings that differ (tests/fixtures/sittings.json, see make_sittings.py) ---
fixture_compare sittings 22 compare_sittings.txt "compare across sittings, with the host's history"
check "sittings: a move of B's sitting alone is not called a change, with the history" \
	sh -c "grep '^sys\.null ' '$T/out' | grep -vq '\*'"
check "sittings: a 25% gain still is" grep -Eq '^mem\.read\.bw .* \+29\.1% \* ' "$T/out"
check "sittings: the note says what the history added" \
	grep -q '^between sittings: 2 figures tested with the spread' "$T/out"
kb compare A B --db "$T/sittings.db" --no-history
check "sittings: the runs alone call the sitting's move a change" \
	sh -c "grep -Eq '^sys\.null .* \+3\.3% \* ' '$T/out' && grep -q '(or --no-history)' '$T/out'"
kb compare A B --db "$T/sittings.db" --json
check "sittings: --json says the spread, its sittings, that it was added, and that runs cannot get there" python3 -c "
import json
d = json.load(open('$T/out'))
c = {r['id']: r['cells'][1] for r in d['rows']}
s = c['sys.null']['between_sittings']
assert 0.015 < s['spread'] < 0.03 and s['sittings'] == 4 and s['added'] and s['more_sittings'], s
assert c['sys.null']['verdict'] == 'cannot tell' and c['sys.null']['needed'] is None
assert c['mem.read.bw']['verdict'] == 'changed' and c['mem.read.bw']['sets'] == 1
"

# --- a machine whose clock moves (tests/fixtures/drift.json, see make_drift.py) ---
# A change's 95% interval, the last column: "+3.1..+7.6".
CI='[-+][0-9]+\.[0-9]\.\.[-+][0-9]+\.[0-9]'
# ci_holds ROW V [around]: the row's interval (in $T/out) holds V, and lies
# on one side of 0 (or, with around, on both).
ci_holds() {
	grep "^$1 " "$T/out" | awk -v v="$2" -v around="${3:-}" '{
		n = split($NF, a, /\.\./); lo = a[1] + 0; hi = a[2] + 0
		exit !(n == 2 && lo < v && hi > v && (around ? lo < 0 && hi > 0 : lo * hi > 0)) }'
}
DDB="$T/drift.db"
fixture_compare drift 10 compare_drift.txt "compare at equal machine speed"
check "a 5% slower kernel on a 4% faster machine: found at equal adds" \
	grep -Eq '^sys\.read .* \+5\.3% \*' "$T/out"
check "the machine's move alone is not called a change" \
	sh -c "grep '^sys\.null' '$T/out' | grep -Eq ' -0\.0% [= ] +$CI\$'"
check "cpu.mhz, the adds' own row, keeps its change as measured, not marked" \
	sh -c "grep '^cpu\.mhz' '$T/out' | grep -Eq ' \+3\.3% [= ] +$CI\$'"
check "the change's interval holds the +5.3% found, and not 0" ci_holds 'sys\.read' 5.3
check "the machine's move alone: an interval about 0" ci_holds 'sys\.null' 0 around
kb compare A B --db "$DDB" --json
"$JC" compare <"$T/out" >"$T/jc" 2>&1
check "compare --json: two rows at equal adds with their slopes, cpu.mhz by Welch" \
	grep -q '^base A sides 2 rows 3 significant 1 ancova 0 adjusted 2 welch 1 replicas 0 mw 0 state 0 ' "$T/jc"
# As measured, for a machine whose clock the kernel sets: the adds' move is the change.
kb compare A B --db "$DDB" --as-measured
check "compare --as-measured exits 0" [ "$rc" = 0 ]
golden "compare --as-measured is the golden text" compare_drift_measured.txt
check "as measured, the 4% faster machine hides most of the kernel's 5%: +1.5%, not marked" \
	sh -c "grep '^sys\.read' '$T/out' | grep -Eq ' \+1\.5% [= ] +$CI\$'"
check "as measured, the machine's -3.5% is counted: sys.null's -3.8% marked (at equal adds -0.0%)" \
	grep -Eq '^sys\.null .* -3\.8% \*' "$T/out"
check "as measured, nothing says the figures were moved to equal adds" \
	sh -c "! grep -q 'equal machine speed' '$T/out'"
kb compare A B --db "$DDB" --as-measured --json
"$JC" compare <"$T/out" >"$T/jc" 2>&1
check "compare --as-measured --json: no row at equal adds, and says so" \
	sh -c "grep -q ' adjusted 0 ' '$T/jc' && grep -q '\"as_measured\": true' '$T/out'"

echo "1..$n"
