#!/bin/sh
# Sequential sides that do not cry wolf, and a detectable change that is
# honest.  Measures SITTINGS sittings of the same kernel, one after the
# other: `kbench run --suite $SUITE --runs $RUNS --label sK` (DB=file to
# reuse sittings measured before), then, for every pair of sittings i < j,
# on a copy of the database in which the other sittings are labelled H
# (the host's history of that kernel; a pair never learns from itself):
#   before: kbench compare si sj --no-history --threshold $THRESHOLD
#   after:  kbench compare si sj --threshold $THRESHOLD   (the history used)
# and counts, over the pairs, the figures marked (want 0: nothing differs)
# and the verdicts, changed / unchanged / cannot tell.  Then honesty: sj's
# figures multiplied by 1 + d (bench/scale_side.py; d = 5, 10, 20%): of the
# figures whose printed detectable change is at most d, the share marked
# (want at least 80%), and of the rest, how many were called unchanged
# (want 0), and the median detectable change of the A/A cells.  With
# OLD=an earlier kbench (one whose store is version 10,
# before levels), the same pairs once more through its compare, on a copy
# of each pair's database marked version 10: the medians' figures beside
# the levels' on the same sittings.  Prints Markdown.  KEEP=dir keeps the
# databases.
#
# usage: bench/sittings.sh   (KBENCH=..., SUITE=quick, RUNS=5, SITTINGS=5,
#                             THRESHOLD=5, DB=existing sittings db, OLD=kbench)
set -eu
. "$(dirname "$0")/lib.sh"
SUITE=${SUITE:-quick}
RUNS=${RUNS:-5}
SITTINGS=${SITTINGS:-5}
THRESHOLD=${THRESHOLD:-5}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; suite $SUITE, --runs $RUNS a sitting, $SITTINGS sittings; threshold $THRESHOLD%; load average before: $(loadavg)"
echo
if [ -z "${DB:-}" ]; then
	DB="$OUT/sittings.db"
	rm -f "$DB"*
	for k in $(seq "$SITTINGS"); do
		t0=$(date +%s)
		"$KBENCH" run --suite "$SUITE" --runs "$RUNS" --label "s$k" --db "$DB" --quiet >/dev/null
		echo "sitting $k: $(($(date +%s) - t0)) s, load $(loadavg)" >&2
	done
fi
for kb in "$KBENCH" ${OLD:+"$OLD"}; do
echo "### compare of $kb"
echo
python3 - "$kb" "$DB" "$WORK" "$THRESHOLD" "$(dirname "$0")/scale_side.py" "${OLD:-}" <<'PY'
import itertools, json, shutil, sqlite3, subprocess, sys
kb, db, work, thr, scale, old = sys.argv[1:7]
labels = [r[0] for r in sqlite3.connect(db).execute(
    "SELECT label FROM runs GROUP BY label ORDER BY min(id)")]
labels = [l for l in labels if l.startswith("s")]

def pair_db(a, b, shift=None):
    path = "%s/pair.db" % work
    shutil.copy(db, path)
    c = sqlite3.connect(path)
    c.execute("UPDATE runs SET label = 'H' WHERE label NOT IN (?, ?)", (a, b))
    c.commit()
    c.close()
    if shift:
        subprocess.run(["python3", scale, path, b, str(1 + shift)], check=True)
    if kb == old:
        # The earlier kbench reads version 10; the level columns it does not know stay unread.
        c = sqlite3.connect(path)
        c.execute("PRAGMA user_version = 10")
        c.commit()
        c.close()
    return path

def cells(path, a, b, *extra):
    out = subprocess.run([kb, "compare", a, b, "--db", path, "--threshold", thr, "--json", *extra],
                         check=True, capture_output=True, text=True).stdout
    for r in json.loads(out)["rows"]:
        c = r["cells"][1]
        if c["present"] and r["id"] != "cpu.mhz":
            yield (r["id"], r["placement"] or ""), c

pairs = list(itertools.combinations(labels, 2))
print("## A/A pairs of sittings: figures marked and verdicts (%d pairs, threshold %s%%)" % (len(pairs), thr))
print()
print("| pair | history | figures | marked | marked figures | changed | unchanged | cannot tell |")
print("|---|---|---|---|---|---|---|---|")
tot = {}
dets = {}
for a, b in pairs:
    path = pair_db(a, b)
    for name, extra in (("none (before)", ["--no-history"]), ("H: the other sittings (after)", [])):
        cs = list(cells(path, a, b, *extra))
        marked = [k for k, c in cs if c["significant"]]
        dets.setdefault(name, []).extend(c["detectable"] for k, c in cs if c.get("detectable") is not None)
        v = {x: sum(c["verdict"] == x for k, c in cs) for x in ("changed", "unchanged", "cannot tell")}
        t = tot.setdefault(name, [0, 0, 0, 0, 0])
        for i, x in enumerate((len(cs), len(marked), v["changed"], v["unchanged"], v["cannot tell"])):
            t[i] += x
        print("| %s-%s | %s | %d | %d | %s | %d | %d | %d |" % (a, b, name, len(cs), len(marked),
              ", ".join(" ".join(k).strip() for k in marked) or "-", v["changed"], v["unchanged"],
              v["cannot tell"]))
for name, t in tot.items():
    print("| all | %s | %d | %d (%.1f%%) | | %d | %d | %d |" % (name, t[0], t[1], 100.0 * t[1] / t[0], t[2], t[3], t[4]))
print()
for name, d in dets.items():
    d.sort()
    if d:
        print("detectable, history %s: %d cells, median %.1f%%, %d detect 10%%, %d detect 20%%" % (
            name, len(d), 100 * d[len(d) // 2] if len(d) % 2 else 50 * (d[len(d) // 2 - 1] + d[len(d) // 2]),
            sum(x <= 0.10 for x in d), sum(x <= 0.20 for x in d)))
print()
print("## Honesty: a known change applied to the second sitting of each pair (with the history)")
print()
print("| change applied | figures | detectable at most the change | of them marked | detectable above it | of them called unchanged |")
print("|---|---|---|---|---|---|")
for shift in (0.05, 0.10, 0.20):
    n = small = small_marked = big = big_unchanged = 0
    for a, b in pairs:
        for k, c in cells(pair_db(a, b, shift), a, b):
            n += 1
            d = c["detectable"]
            if d is not None and d <= shift:
                small += 1
                small_marked += c["significant"] and c["change"] > 0
            else:
                big += 1
                big_unchanged += c["verdict"] == "unchanged"
    print("| +%.0f%% | %d | %d | %d (%.0f%%) | %d | %d |" % (100 * shift, n, small, small_marked,
          100.0 * small_marked / small if small else 0, big, big_unchanged))
PY
done
