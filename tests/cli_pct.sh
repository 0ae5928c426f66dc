#!/bin/sh
# Command-line tests of a distribution kept, compared and loaded: the
# fixture's wake.timer runs (tests/fixtures/make_wake_pct.py: "base" with a
# tail at 100 us, "tail" at 200 us, the same body) imported, then show's
# percentiles with their intervals over replicas and its histogram (a
# golden file), the export's histogram as stored, and compare, history
# and ab --percentile: the percentile named is what is tested, with its
# detectable change, and the events counted under it that moved with it; a
# figure that is no distribution is compared as usual and said once; a bad percentile is one line.  On both stores
# (db_for).  No figure measured here is judged.  TAP like cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FIX="$KBENCH_TESTS/fixtures/wake_pct.json"
DB=$(db_for pct) || { skip "a database for the test" "$DB"; echo "1..$n"; exit 0; }

kb import --db "$DB" "$FIX"
check "the fixture's six wake.timer runs import" [ "$rc" = 0 ]

# show: the known answers of run 1 (replica k's tail 100 (1 + k/100) us).
kb show wake.timer 1 --db "$DB"
check "show exits 0" [ "$rc" = 0 ]
check "show's p99 is 102 us, its interval over the 4 replicas 100 to 103" \
	grep -Eq '^p99 +102\.0 +100\.0 to 103\.0$' "$T/out"
check "show's p50 is 12.62 us, its interval 12.40 to 12.77 (the replicas' medians)" \
	grep -Eq '^p50 +12\.62 +12\.40 to 12\.77$' "$T/out"
check "show's histogram: the tail's 12 wakeups in the octave from 98.3 us" \
	grep -Eq '^ +98\.30 to 106\.5 +12 +100\.00%$' "$T/out"
golden "show's percentiles and histogram, as the golden file" show_wake_pct.txt

# The export carries the stored histogram, every wakeup counted once.
kb export 1 --db "$DB"
check "export has the histogram, 400 wakeups in it, and the intervals" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"][0]
assert sum(b["count"] for b in r["histogram"]) == 400, r["histogram"]
assert r["histogram"][-1]["lo"] >= 100 and r["histogram"][-1]["count"] == 3
p = {x["p"]: x for x in r["percentiles"]}
assert p[99]["value"] == 102 and p[99]["ci_low"] == 100 and p[99]["ci_high"] == 103, p
' "$T/out"

# compare at the tail: p99 twice as late, marked, its detectable change said.
kb compare base tail --db "$DB" --percentile 99
check "compare --percentile 99 exits 0" [ "$rc" = 0 ]
check "... its row is wake.timer p99, +100% and marked" \
	grep -Eq '^wake\.timer p99 +102\.2 .* 204\.4 .*\+100\.0% \*' "$T/out"
check "... a regression, in LKP's word" grep -q ' regression$' "$T/out"
check "... its detectable change said" \
	grep -Eq '^wake\.timer p99, tail: detectable change [0-9.]+% \(marked 4 times in 5\)$' "$T/out"
check "... the context switches that moved with it, a row under it" \
	grep -Eq '^  context_switches/op +1\.000 +2\.000 +\+100\.0%$' "$T/out"
check "... not the page faults, the same on both sides" sh -c "! grep -q page_faults '$T/out'"
check "... and nothing on stderr" [ ! -s "$T/err" ]
kb compare base tail --db "$DB" --percentile 50
check "compare --percentile 50: the same body, unchanged (=)" \
	grep -Eq '^wake\.timer p50 .* \+0\.0% = ' "$T/out"
check "... and no events under an unchanged figure" sh -c "! grep -q context_switches '$T/out'"
kb compare base tail --db "$DB"
check "compare without it: the median, unchanged, no percentile named" \
	sh -c "grep -Eq '^wake\.timer +12\.6' '$T/out' && ! grep -q ' p99' '$T/out'"
kb compare base tail --db "$DB" --percentile 99.9 --json
check "compare --json names the percentile tested, its detectable change and the events" python3 -c '
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
assert row["id"] == "wake.timer" and row["percentile"] == 99.9, row
assert row["cells"][1]["change"] == 1.0 and row["cells"][1]["detectable"] > 0, row["cells"][1]
assert row["events"] == [{"side": "tail", "event": "ev_context_switches", "base": 1.0, "value": 2.0,
                          "change": 1.0}], row.get("events")
' "$T/out"

# history at the tail names the step of the percentile.
kb history --db "$DB" --by label --percentile 99
check "history --percentile 99 notices the tail's step" \
	grep -q 'noticed a +100.0% regression of wake.timer p99' "$T/out"

# A figure that is no distribution: compared by its level, said once.
"$KB" import --db "$DB" "$KBENCH_TESTS/fixtures/kernels.json" >/dev/null 2>&1
kb compare 2.5.47 2.5.47-mm1 --db "$DB" --percentile 99
check "compare --percentile of levels alone exits 0, as usual" \
	sh -c "[ $rc = 0 ] && grep -Eq '^sys\.null ' '$T/out'"
check "... saying once that it applies to wake.* only, and that there is none" sh -c \
	"[ \$(grep -c 'applies to the wake.\* distributions only' '$T/err') = 1 ] && grep -q 'no distribution' '$T/err'"

# Bad percentiles: one line each, exit 2, before anything is read or run.
for p in 0 100.5 abc; do
	for c in "compare base tail" "history" "ab --only wake.timer --a true --b true"; do
		kb $c --db "$DB" --percentile "$p"
		check "$(echo "$c" | cut -d' ' -f1) --percentile $p: one line, exit 2" sh -c \
			"[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"'$p' is no percentile\" '$T/err' && [ ! -s '$T/out' ]"
	done
done

# ab at the tail: a short real session, stored nowhere (so once, not on each store); only
# that the percentile is what is compared.
if [ "${KBENCH_TEST_BACKEND:-sqlite}" = pg ]; then
	skip "ab --percentile 99 compares wake.timer p99" "stores nothing: its store's pass is the other"
	echo "1..$n"
	exit 0
fi
kb ab --only wake.timer --rounds 3 --max-time 0.3 --no-store --quiet --a true --b true \
	--percentile 99 --tmpdir "$T"
check "ab --percentile 99 compares wake.timer p99" \
	sh -c "[ $rc = 0 ] && grep -Eq '^wake\.timer p99 ' '$T/out' && grep -q 'detectable change' '$T/out'"

# Under one of contest's loads (the tests' light tick_load): said in the result and the table.
kb run --only wake.msg --load tick_load --max-time 0.2 --replicas 2 --no-store --tmpdir "$T"
check "run --load tick_load measures wake.msg under it, and says so under the table" \
	sh -c "[ $rc = 0 ] && grep -Eq 'wake\.msg: measured under tick_load \(run --load\)' '$T/out'"
check "... each percentile's interval over its 2 replicas under the table" \
	sh -c "grep -q 'wake.msg, 95% over its 2 replicas:' '$T/out' && grep -Eq '^    p50 [0-9.]+\.\.[0-9.]+, p90 ' '$T/out'"
check "... and leaves no load's directory behind" sh -c "! ls -d '$T'/kbench-load.* 2>/dev/null"
kb run --only wake.msg --load noload --no-store
check "run --load noload: one line, exit 2, nothing run" sh -c \
	"[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"'noload' is no load that runs\" '$T/err'"
echo "1..$n"
