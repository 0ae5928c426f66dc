#!/usr/bin/env python3
"""Does a control tell the machine's drift from a kernel's step?

A history measured in order meets the machine's drift between its labels
(bench/history_aa.py).  A control is a label measured again every few
labels (the series' first kernel, or a reference one): `kbench history
--by label --control LABEL` reads each other label against the control's
level at its time, drawn between the control's sittings either side.
From a database of sittings of one kernel (bench/sittings.sh, labels s1,
s2, ... in the order measured), every EVERY-th sitting from OFFSET on
(OFFSET = 0 .. EVERY-1, with the first and the last) becomes the control,
labelled 6.18.0, and the others a series 6.18.1, 6.18.2, ... in the order
measured.  Asked of each arrangement:
  - with nothing changed: the figures with a step, the series alone (the
    control's runs left out) and against the control (every step false);
  - with the labels from the middle on multiplied by 1 + STEP (5%, 10%;
    the stored levels, as bench/scale_side.py does; the control not): the
    figures whose step is found within one label of its place, the series
    alone and against the control.

usage: bench/history_control.py KBENCH DB [EVERY]
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

kb, src = sys.argv[1], sys.argv[2]
every = int(sys.argv[3]) if len(sys.argv) > 3 else 3
SCALED = ("median", "ci_low", "ci_high", "min", "max", "mean", "stddev", "p5", "p95", "aggregate")
work = tempfile.mkdtemp()
con = sqlite3.connect(src)
order = [r[0] for r in con.execute("SELECT label FROM runs WHERE label LIKE 's%' "
                                   "GROUP BY label ORDER BY min(id)")]
con.close()


def history(controls, series, step, with_control):
    """The figures (the sentinel's aside): whether a step was reported, and
    whether one within a label of the step's place (the series' middle)."""
    path = os.path.join(work, "c.db")
    shutil.copy(src, path)
    c = sqlite3.connect(path)
    keep = series + (controls if with_control else [])
    c.execute("DELETE FROM runs WHERE label NOT IN (%s)" % ",".join("?" * len(keep)), keep)
    at = len(series) // 2
    if step:
        cols = [d[0] for d in c.execute("SELECT * FROM results LIMIT 0").description]
        stepped = series[at:]
        c.execute("UPDATE results SET %s WHERE bench_id != 'cpu.mhz' AND run_id IN "
                  "(SELECT id FROM runs WHERE label IN (%s))" %
                  (", ".join("%s = %s * %r" % (x, x, 1 + step) for x in SCALED if x in cols),
                   ",".join("?" * len(stepped))), stepped)
    for lab in controls:
        c.execute("UPDATE runs SET label = '6.18.0' WHERE label = ?", (lab,))
    for i, lab in enumerate(series):
        c.execute("UPDATE runs SET label = ? WHERE label = ?", ("6.18.%d" % (i + 1), lab))
    c.commit()
    c.close()
    args = [kb, "history", "--by", "label", "--json", "--db", path]
    if with_control:
        args += ["--control", "6.18.0"]
    figs = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["figures"]
    out = []
    for f in figs:
        if f["sentinel"]:
            continue
        near = any(abs(int(ch["to_label"].split(".")[-1]) - 1 - at) <= 1 for ch in f["changes"])
        out.append((bool(f["changes"]), near))
    return out


print("%d sittings (%s); a control every %d sittings, labelled 6.18.0; the step at the series' middle"
      % (len(order), src, every))
print()
print("| control sittings | labels | figures | nothing changed: a step, alone | against the control "
      "| +5%: found, alone | against the control | +10%: found, alone | against the control |")
print("|---|---|---|---|---|---|---|---|---|")
tot = {}
for off in range(every):
    controls = order[off::every]
    for end in (order[0], order[-1]):
        if end not in controls:
            controls.append(end)
    controls.sort(key=order.index)
    series = [lab for lab in order if lab not in controls]
    row = []
    for step in (0.0, 0.05, 0.10):
        for wc in (False, True):
            r = history(controls, series, step, wc)
            k = sum(x[0] if not step else x[1] for x in r)
            t = tot.setdefault((step, wc), [0, 0])
            t[0] += k
            t[1] += len(r)
            row.append("%d of %d (%.1f%%)" % (k, len(r), 100.0 * k / len(r)))
    print("| %s | %d | %d | %s |" % (" ".join(controls), len(series), len(r), " | ".join(row)))
print("| all | | | %s |" % " | ".join("%.1f%%" % (100.0 * tot[k][0] / tot[k][1])
                                      for k in sorted(tot)))
shutil.rmtree(work)
