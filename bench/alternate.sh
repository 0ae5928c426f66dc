#!/bin/bash
# Two kbench builds, measured alternately on the same machine: does a change
# of kbench itself move the figures or their precision?  (issue 12: the
# fresh process per replica)
#
# Runs `kbench run ARGS` with KB1, then KB2, ROUNDS times (alternating, so
# that the machine's drift falls on both alike), each into its own
# database, and prints per figure, in Markdown: each build's median of the
# run medians, and the median over runs of the replicas' spread (the
# second-largest against the second-smallest replica median, relative), the
# width the replicas' interval is made of; with the sentinel's spread for
# the machine each build saw.
#
# usage: KB1=old/kbench KB2=new/kbench bench/alternate.sh   (ROUNDS=4,
#        ARGS='--suite quick --only sys.*,cpu.mhz')
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-4}
ARGS=${ARGS:---suite quick --only sys.*,cpu.mhz}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"
rm -f "$OUT"/alt1.db* "$OUT"/alt2.db*
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); KB1 $KB1, KB2 $KB2; $ROUNDS rounds of 'kbench run $ARGS'; load $(loadavg)"
echo
for r in $(seq 1 "$ROUNDS"); do
	for k in 1 2; do
		kb=KB$k
		# shellcheck disable=SC2086
		"${!kb}" run $ARGS --label "build$k" --db "$OUT/alt$k.db" --quiet >/dev/null
	done
done
"$KB1" export --db "$OUT/alt1.db" >"$OUT/alt1.json"
"$KB2" export --db "$OUT/alt2.db" >"$OUT/alt2.json"
python3 - "$OUT/alt1.json" "$OUT/alt2.json" <<'PY'
import json, statistics as st, sys
def load(path):
    figs, sent = {}, []
    for run in json.load(open(path))["runs"]:
        for x in run["results"]:
            reps = sorted(r["median"] for r in x.get("replicas") or [])
            if len(reps) >= 4 and x.get("median"):
                k = x["id"] + ("[%s]" % x["placement"] if x.get("placement") else "")
                f = figs.setdefault(k, ([], []))
                f[0].append(x["median"])
                f[1].append((reps[-2] - reps[1]) / st.median(reps))
        s = sorted(p["sys_ns"] for p in run.get("sentinel") or [] if p.get("sys_ns"))
        if len(s) >= 4:
            sent.append((s[3 * len(s) // 4] - s[len(s) // 4]) / st.median(s))
    return figs, sent
(a, sa), (b, sb) = load(sys.argv[1]), load(sys.argv[2])
print("| figure | KB1 median | KB2 median | KB2 / KB1 | KB1 replica spread | KB2 replica spread |")
print("|---|---|---|---|---|---|")
for k in sorted(set(a) & set(b)):
    ma, mb = st.median(a[k][0]), st.median(b[k][0])
    print("| %s | %.4g | %.4g | %.3f | %.1f%% | %.1f%% |" % (k, ma, mb, mb / ma, 100 * st.median(a[k][1]),
                                                     100 * st.median(b[k][1])))
if sa and sb:
    print()
    print("The sentinel's getppid, interquartile range over median, median over runs: KB1 %.1f%%, KB2 %.1f%%."
          % (100 * st.median(sa), 100 * st.median(sb)))
PY
