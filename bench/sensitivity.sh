#!/bin/bash
# Can compare tell a real 5% change from noise?  (issue 12)
#
# An A/A comparison taken on this machine: kbench run --suite $SUITE
# --runs $RUNS as label A, then the same again as label B, into one
# database; then
#   kbench compare A B --json                 -> how many figures are marked
#                                                significant (want 0)
#   the same on a copy of the database in which every figure of B (medians,
#   intervals, spread, samples, replicas; not the sentinel, which is the
#   machine's) is multiplied by 1.05       -> how many are marked (want at
#                                                least 80% of the unflagged)
# A figure is unflagged when neither side's run was busy or drifted; noisy
# is counted apart (on a drifting machine nearly every figure misses 1%).
# Prints Markdown.  KEEP=dir keeps the databases.
#
# usage: bench/sensitivity.sh   (KBENCH=..., SUITE=standard, RUNS=5,
#                                ARGS='extra run options', DB=existing A/A db
#                                to skip the measuring)
set -eu
. "$(dirname "$0")/lib.sh"
SUITE=${SUITE:-standard}
RUNS=${RUNS:-5}
ARGS=${ARGS:-}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; suite $SUITE, --runs $RUNS a side; extra options: '${ARGS}'; load average before: $(loadavg)"
echo
if [ -z "${DB:-}" ]; then
	DB="$OUT/aa.db"
	rm -f "$DB"*
	for side in A B; do
		t0=$(date +%s)
		# shellcheck disable=SC2086
		"$KBENCH" run --suite "$SUITE" --runs "$RUNS" --label "$side" --db "$DB" --quiet $ARGS \
			>/dev/null || true
		echo "side $side: $(( $(date +%s) - t0 )) s, load $(loadavg)" >&2
		echo "- side $side measured in $(( $(date +%s) - t0 )) s"
	done
fi
cp "$DB" "$OUT/scaled.db"
# Every figure of B, 5% larger: what a kernel that is 5% slower (or, for a
# rate, faster) at everything would have given on the same machine.
python3 "$ROOT/bench/scale_side.py" "$OUT/scaled.db" B 1.05
"$KBENCH" compare A B --db "$DB" --json >"$OUT/aa.json"
"$KBENCH" compare A B --db "$OUT/scaled.db" --json >"$OUT/scaled.json"
"$KBENCH" compare A B --db "$DB" >"$OUT/aa.txt" || true
"$KBENCH" export --db "$DB" >"$OUT/aa-export.json"

python3 - "$OUT/aa.json" "$OUT/scaled.json" "$OUT/aa-export.json" <<'PY'
import json, sys
aa, sc, ex = (json.load(open(p)) for p in sys.argv[1:4])
# Per instance: flagged when any run of either side was busy or drifted.
flag, noisy = {}, {}
for run in ex["runs"]:
    for r in run["results"]:
        k = (r["id"], r.get("placement"), r.get("parallel", 1))
        f = (r.get("interference") or 0) > 0.25 or bool(r.get("drifted"))
        flag[k] = flag.get(k, False) or f
        noisy[k] = noisy.get(k, False) or r["status"] == "noisy"
def rows(doc):
    for row in doc["rows"]:
        k = (row["id"], row["placement"], row["parallel"])
        c = row["cells"][1]
        if c["present"] and row["cells"][0]["present"]:
            yield k, row, c
def tally(doc):
    t = {"all": [0, 0], "unflagged": [0, 0], "unflagged, not noisy": [0, 0]}
    tests = {}
    for k, row, c in rows(doc):
        s = bool(c["significant"])
        tests[c["test"]] = tests.get(c["test"], 0) + 1
        t["all"][0] += s; t["all"][1] += 1
        if not flag.get(k):
            t["unflagged"][0] += s; t["unflagged"][1] += 1
            if not noisy.get(k):
                t["unflagged, not noisy"][0] += s; t["unflagged, not noisy"][1] += 1
    return t, tests
for name, doc in (("A/A as measured", aa), ("B x 1.05", sc)):
    t, tests = tally(doc)
    print("\n### %s\n" % name)
    print("| figures | marked significant | of | share |")
    print("|---|---|---|---|")
    for k, (s, n) in t.items():
        print("| %s | %d | %d | %s |" % (k, s, n, "%.0f%%" % (100.0 * s / n) if n else "-"))
    print("\ntests used: " + ", ".join("%s %d" % (k, v) for k, v in tests.items()))
for side in aa["sides"]:
    if side.get("sentinel_user_shift") is not None:
        print("\n- sentinel of %s against A: getppid %+.1f%%, adds %+.1f%%" % (
            side["name"], 100 * side["sentinel_sys_shift"], 100 * side["sentinel_user_shift"]))
print("\n- geometric means of the sections (A/A as measured): " + ", ".join(
    "%s %.3f" % (s["title"].split(" (")[0], s["geomean"]) for s in aa["sections"] if s.get("geomean")))
PY
echo
echo "load average after: $(loadavg)"
