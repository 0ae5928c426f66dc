#!/bin/bash
# Do kbench's figures hold from one invocation to the next?  (issue 12)
#
# ROUNDS (5) invocations of
#   kbench run --suite $SUITE --json --quiet --db $WORK/cov.db --label inv$i
# with GAP seconds (60) between them, then, per figure (id and placement):
# - coverage: over every pair (i, j), i != j, whether invocation j's median
#   lies inside invocation i's 95% interval; for all figures and for the
#   figures no invocation flagged (noisy, busy or drift);
# - the median of the intervals' relative half-widths (the larger side);
# - the spread of the ROUNDS medians (max/min), and how many unflagged figures
#   stay within 1.15;
# - how many flags were right: a flag (one figure in one invocation) is right
#   when that invocation's median lies outside the range of the others'
#   medians widened by the precision asked for (1%), i.e. that invocation
#   really moved;
# - each invocation's wall time.
# Prints Markdown on stdout.  KEEP=dir keeps the database and JSON there.
#
# usage: bench/coverage.sh     (KBENCH=..., SUITE=standard, ROUNDS=5, GAP=60,
#                               ARGS='extra kbench run options')
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
GAP=${GAP:-60}
SUITE=${SUITE:-standard}
ARGS=${ARGS:-}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; suite $SUITE; $ROUNDS invocations ${GAP} s apart; extra options: '${ARGS}'; load average before: $(loadavg)"
echo
: >"$OUT/walls"
for i in $(seq 1 "$ROUNDS"); do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$KBENCH" run --suite "$SUITE" --json --quiet --db "$OUT/cov.db" --label "inv$i" $ARGS \
		>"$OUT/inv$i.json" || true
	t1=$(date +%s.%N)
	echo "$i $(echo "$t1 - $t0" | bc -l) $(loadavg | cut -d' ' -f1)" >>"$OUT/walls"
	echo "invocation $i done in $(echo "$t1 - $t0" | bc -l | cut -c1-6) s, load $(loadavg)" >&2
	[ "$i" = "$ROUNDS" ] || sleep "$GAP"
done

BENCH_DIR="$ROOT/bench" python3 - "$OUT" "$ROUNDS" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, os.environ["BENCH_DIR"])
from kbstats import ranks
from collections import OrderedDict
out, rounds = sys.argv[1], int(sys.argv[2])
med = statistics.median
figs = OrderedDict()
walls = [l.split() for l in open(out + "/walls")]
for i in range(1, rounds + 1):
    doc = json.load(open("%s/inv%d.json" % (out, i)))
    for run in doc["runs"]:
        for r in run["results"]:
            if r.get("median") is None or r["status"] in ("skip", "fail"):
                continue
            key = r["id"] + (" [%s]" % r["placement"] if r.get("placement") else "")
            flags = []
            if r["status"] == "noisy":
                flags.append("noisy")
            if (r.get("interference") or 0) > 0.25:
                flags.append("busy")
            if r.get("drift"):
                flags.append("drift")
            figs.setdefault(key, {}).setdefault(i, []).append((r["median"], r["ci_low"], r["ci_high"], flags))

# Several runs in one invocation (--runs N, as a stand-in for replicas): the
# median of their medians and its order-statistic interval, as summary does.
for key, f in figs.items():
    for i, v in list(f.items()):
        if len(v) == 1:
            f[i] = v[0]
            continue
        ms = sorted(x[0] for x in v)
        lo, hi = ranks(len(ms))
        f[i] = (med(ms), ms[lo], ms[hi], sorted({fl for x in v for fl in x[3]}))

def covered(f):
    hit = tot = 0
    for i, (m, lo, hi, _) in f.items():
        for j, (mj, _, _, _) in f.items():
            if i != j:
                tot += 1
                hit += lo <= mj <= hi
    return hit, tot

ha = ta = hq = tq = 0
widths, spreads_ok, unflagged, rows = [], 0, 0, []
flags_total = flags_right = 0
for key, f in figs.items():
    if len(f) < 2:
        continue
    h, t = covered(f)
    ha += h; ta += t
    anyflag = any(v[3] for v in f.values())
    if not anyflag:
        hq += h; tq += t
    for m, lo, hi, _ in f.values():
        widths.append(max(hi - m, m - lo) / m)
    ms = [v[0] for v in f.values()]
    sp = max(ms) / min(ms)
    for i, (m, _, _, fl) in f.items():
        if fl:
            flags_total += 1
            others = [v[0] for j, v in f.items() if j != i]
            flags_right += not (min(others) / 1.01 <= m <= max(others) * 1.01)
    if not anyflag:
        unflagged += 1
        spreads_ok += sp <= 1.15
    rows.append((key, f, sp, h, t, anyflag))

print("| figure | " + " | ".join("inv%d" % i for i in range(1, rounds + 1)) +
      " | max/min | covered | flags |")
print("|---" * (rounds + 4) + "|")
for key, f, sp, h, t, anyflag in rows:
    cells = []
    for i in range(1, rounds + 1):
        if i not in f:
            cells.append("-")
            continue
        m, lo, hi, fl = f[i]
        cells.append("%.4g +-%.1f%%%s" % (m, 100 * max(hi - m, m - lo) / m,
                                          "".join({"noisy": "~", "busy": "*", "drift": "d"}[x] for x in fl)))
    allfl = sorted({x for v in f.values() for x in v[3]})
    print("| %s | %s | %.2f | %d/%d | %s |" % (key, " | ".join(cells), sp, h, t, ",".join(allfl) or "-"))
print()
print("(~ noisy, * busy, d drift)")
print()
print("- coverage, all figures: %d of %d pairs = **%.0f%%**" % (ha, ta, 100.0 * ha / max(ta, 1)))
print("- coverage, figures no invocation flagged: %d of %d pairs = **%.0f%%**" % (hq, tq, 100.0 * hq / max(tq, 1)))
print("- median interval half-width: **%.2f%%** (of %d intervals)" % (100 * med(widths), len(widths)))
print("- figures: %d; not flagged in any invocation: %d, of which %d have max/min <= 1.15" % (len(rows), unflagged, spreads_ok))
print("- all figures with max/min <= 1.15: %d of %d" % (sum(r[2] <= 1.15 for r in rows), len(rows)))
print("- flags: %d (figure, invocation) flagged, of which %d right (that median outside the others' range +-1%%)" % (flags_total, flags_right))
print("- wall time per invocation (s): %s" % ", ".join("%.0f" % float(w[1]) for w in walls))
PY
echo
echo "load average after: $(loadavg)"
