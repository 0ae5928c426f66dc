#!/usr/bin/env python3
"""A real history in which nothing changed, in the order it was measured:
does kbench history find steps where the machine alone moved?

bench/history_steps.py draws its histories' labels in a random order, so
that a machine which drifts over hours spreads the labels but never lines
them up; a kernel developer's history is measured one label after the
other, and the machine's drift then falls between labels.  From a
database of sittings of one kernel (bench/sittings.sh, labels s1, s2, ...,
measured in that order), each window of LABELS consecutive sittings
becomes a history ("6.18.1", "6.18.2", ... in the order measured), and
`kbench history --by label --json` is asked for its steps.  Every step it
reports is false: the kernel, the settings and the suite were the same.

Prints, per window, the figures (the sentinel's aside) with a step and
those of them said to be the machine's (the sentinel stepped there too),
then each figure's steps over the windows.

usage: bench/history_aa.py KBENCH DB [LABELS]
"""
import os
import shutil
import sqlite3
import sys
import tempfile

from historylib import series_figures

kb, src = sys.argv[1], sys.argv[2]
labels = int(sys.argv[3]) if len(sys.argv) > 3 else 12
con = sqlite3.connect(src)
order = [r[0] for r in con.execute("SELECT label FROM runs WHERE label LIKE 's%' "
                                   "GROUP BY label ORDER BY min(id)")]
spans = {r[0]: (r[1], r[2]) for r in con.execute(
    "SELECT label, min(started), max(started) FROM runs GROUP BY label")}
con.close()
if len(order) < labels:
    sys.exit("%d sittings, a window needs %d" % (len(order), labels))
work = tempfile.mkdtemp()
print("%d sittings (%s, %s to %s); windows of %d in the order measured" %
      (len(order), src, spans[order[0]][0], spans[order[-1]][1], labels))
print()
print("| window | figures | with a step | of them the machine's | steps |")
print("|---|---|---|---|---|")
per_fig = {}
tot = [0, 0, 0]
for w in range(len(order) - labels + 1):
    win = order[w:w + labels]
    path = os.path.join(work, "aa.db")
    shutil.copy(src, path)
    figs = series_figures(kb, path, win)
    stepped = [f for f in figs if f["changes"]]
    machine = [f for f in stepped if all(c.get("machine") for c in f["changes"])]
    steps = []
    for f in stepped:
        name = f["id"] + (" [%s]" % f["placement"] if f["placement"] else "")
        for ch in f["changes"]:
            a, b = ch["sittings"]
            per_fig.setdefault(name, []).append("%s-%s %+.1f%%%s" % (a, b, 100 * ch["change"],
                                                                       " (machine)" if ch.get("machine") else ""))
            steps.append(a + "-" + b)
    tot[0] += len(figs)
    tot[1] += len(stepped)
    tot[2] += len(machine)
    where = sorted(set(steps), key=lambda s: (-steps.count(s), s))
    print("| %s..%s | %d | %d (%.1f%%) | %d | %s |" % (win[0], win[-1], len(figs), len(stepped),
                                                      100.0 * len(stepped) / len(figs), len(machine),
                                                      ", ".join("%s x%d" % (s, steps.count(s)) for s in where[:4])))
shutil.rmtree(work)
print("| all | %d | %d (%.1f%%) | %d | |" % (tot[0], tot[1], 100.0 * tot[1] / max(1, tot[0]), tot[2]))
print()
print("| figure | steps (the sittings either side, the change) |")
print("|---|---|")
for name in sorted(per_fig):
    print("| %s | %s |" % (name, "; ".join(per_fig[name])))
