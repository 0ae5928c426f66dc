#!/bin/sh
# Command-line tests of kbench ab, the selection measured under two
# conditions round by round: the switch commands run at every change of
# side and the restore once, at the end and after SIGINT and SIGKILL (the
# guard); a wrapper is what the worker runs through, once a replica of its
# side; the two sides are two runs of one set under two labels, compared
# at the end; a failing switch stops the session with one line, keeping
# what finished; bad input is one line, exit 2, nothing stored.  On both
# stores (db_for).
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB=$(db_for ab) || { echo "1..0 # SKIP $DB"; exit 0; }
L="$T/switch.log"
FAST="--max-time 0.05 --tmpdir $T/tmp"

# Two instances, four rounds, a command for each side and a restore.
kb ab --only sys.null,proc.fork --rounds 4 $FAST --seed 11 --db "$DB" \
	--a "echo A >>$L" --b "echo B >>$L" --restore "echo R >>$L" \
	--label-a "sys A" --label-b "sys B" --quiet
check "ab: exit 0" [ "$rc" = 0 ]
# Each switch only where the side changes: no two alike in a row, the restore last, once.
check "switches alternate, the first before anything is measured" \
	sh -c "head -1 '$L' | grep -qx '[AB]' && ! uniq -d '$L' | grep -q ."
check "the restore runs once, last" sh -c "[ \$(grep -c R '$L') = 1 ] && tail -1 '$L' | grep -qx R"
# Four rounds of two instances a side: 16 replicas, at most 16 switches, at least 4 (one a round).
check "between 4 and 16 switches" sh -c "s=\$(grep -c '[AB]' '$L'); [ \$s -ge 4 ] && [ \$s -le 16 ]"
check "the two sides' tables and the comparison are printed" \
	sh -c "grep -q 'sys B against sys A: gain [0-9.]*x (geometric mean' '$T/out'"
"$KB" runs --db "$DB" >"$T/runs"
check "two runs of one set, a label each" \
	sh -c "grep -q '2 runs in 1 set under 2 labels' '$T/runs'"
"$KB" export --db "$DB" >"$T/ab.json"
check "each side's results have a replica a round" python3 -c "
import json
d = json.load(open('$T/ab.json'))
runs = d['runs']
assert sorted(r['label'] for r in runs) == ['sys A', 'sys B'], [r['label'] for r in runs]
assert runs[0]['set'] == runs[1]['set']
for r in runs:
    assert len(r['results']) == 2
    for res in r['results']:
        assert len(res['replicas']) == 4, (res['id'], len(res['replicas']))
    # Each side's own timeline: around each of its replicas.
    assert len(r['sentinel']) == 2 * 8, len(r['sentinel'])
"

# The same seed draws the same order of sides; the switch log shows it.
cp "$L" "$T/first.log"
: >"$L"
kb ab --only sys.null,proc.fork --rounds 4 $FAST --seed 11 --no-store \
	--a "echo A >>$L" --b "echo B >>$L" --restore "echo R >>$L" --quiet
check "the same seed: the same switches" cmp -s "$L" "$T/first.log"

# A wrapper runs each of its side's workers, once a replica, and execs it.
W="$T/wrap.sh"
printf '#!/bin/sh\necho "$1" >>%s\nexec "$@"\n' "$T/wrapped" >"$W"
chmod +x "$W"
kb ab --only sys.null --rounds 3 $FAST --no-store --wrap-b "$W" --quiet --json
check "--wrap-b: exit 0, a document" sh -c "[ $rc = 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/out'"
check "--wrap-b: B's three replicas ran through it, A's not" \
	sh -c "[ \$(grep -c kbench-worker '$T/wrapped') = 3 ]"

# A switch that fails: one line naming it, exit 1, the finished rounds kept.
: >"$L"
kb ab --only sys.null --rounds 6 $FAST --seed 5 --db "$DB" --label-a "fail A" --label-b "fail B" \
	--a "echo A >>$L; [ \$(grep -c A $L) -lt 3 ]" --b "echo B >>$L" --restore "echo R >>$L"
check "failing switch: exit 1" [ "$rc" = 1 ]
check "failing switch: one line says which and why" \
	grep -q "ab: --a 'echo A.*' failed: exit status 1" "$T/err"
check "failing switch: the restore still runs" sh -c "tail -1 '$L' | grep -qx R"
"$KB" export --db "$DB" "fail A" >"$T/fail.json" 2>"$T/err2"
check "failing switch: the rounds measured before it are stored, said to be partial" python3 -c "
import json
d = json.load(open('$T/fail.json'))
res = d['runs'][0]['results'][0]
assert 1 <= len(res['replicas']) < 6, len(res['replicas'])
assert res['reason'].startswith('partial: '), res['reason']
"

# Bad input: one line, exit 2, nothing stored.
"$KB" export --db "$DB" >"$T/before.json"
bad() { # NAME TEXT ARGS...
	name=$1 want=$2
	shift 2
	kb ab --only sys.null $FAST --db "$DB" "$@"
	check "$name: exit 2, one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ]"
	check "$name: says '$want'" grep -qF -- "$want" "$T/err"
	"$KB" export --db "$DB" >"$T/now.json"
	check "$name: nothing stored" cmp -s "$T/now.json" "$T/before.json"
}
bad "no condition" "ab: no condition"
bad "--rounds 0" "--rounds: 0 is out of range" --rounds 0 --a true
bad "--rounds 1" "--rounds: 1 is out of range" --rounds 1 --a true
bad "a wrapper that runs nothing" "does not run a command after it" --wrap-a "nosuchcommand-kb -x"
bad "an empty switch" "--b: empty" --a true --b " "
bad "the same label twice" "both 'x'" --a true --label-a x --label-b x

# Ctrl-C and SIGKILL in the middle: the restore runs once (by kbench, then by the guard).
for sig in INT KILL; do
	: >"$L"
	"$KB" ab --only sys.null,proc.fork --rounds 50 --max-time 20 --tmpdir "$T/tmp" --no-store \
		--a "echo A >>$L" --b "echo B >>$L" --restore "echo R >>$L" --quiet \
		--label-a "ab_${sig}_$$" >/dev/null 2>&1 &
	p=$!
	# Both switches made: a round is under way, with a setting to restore.
	wait_for eval "grep -q A '$L' && grep -q B '$L'"
	kill -"$sig" "$p"
	wait "$p"
	rc=$?
	wait_for grep -q R "$L"
	wait_for eval "! pgrep -f '[a]b_${sig}_$$' >/dev/null"
	check "$sig: exit $(sig_exit "$sig")" [ "$rc" = "$(sig_exit "$sig")" ]
	check "$sig: the restore ran once, last" \
		sh -c "[ \$(grep -c R '$L') = 1 ] && tail -1 '$L' | grep -qx R"
	check "$sig: nothing left running" sh -c "! pgrep -f '[a]b_${sig}_$$' >/dev/null"
done

echo "1..$n"
