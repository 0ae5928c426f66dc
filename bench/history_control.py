#!/usr/bin/env python3
"""Would a control tell the machine's drift from a kernel's step?  A
prototype, outside kbench, of a design kbench does not have yet.

A history measured in order meets the machine's drift between its labels
(bench/history_aa.py).  A control is a label measured again every few
labels (the series' first kernel, or a reference one): its sittings trace
each figure's drift, and the labels between them can be read against it.
From a database of sittings of one kernel (bench/sittings.sh, labels s1,
s2, ... in the order measured), every EVERY-th sitting from OFFSET on
(and the last) is taken as the control and the others as a series of
labels 6.18.1, 6.18.2, ... in the order measured.  Each figure's control
level at a label's time is drawn linearly between the control sittings
either side (by their runs' start times; the nearest beyond the ends),
and the label's runs' levels are divided by it over the controls' mean
(the stored levels rescaled, as bench/scale_side.py does).  Then `kbench
history --by label --json` on the series as measured and as corrected,
the control's runs left out of both.  Every step reported is false: the
kernel never changed.  The correction's own noise (a control sitting's
runs) is not added to the labels' variances, nor the correlation of
labels read against the same control sittings: this asks only whether
the drift is taken out.

usage: bench/history_control.py KBENCH DB [EVERY]
"""
import bisect
import math
import os
import shutil
import sqlite3
import sys
import tempfile
from datetime import datetime

from historylib import series_figures

kb, src = sys.argv[1], sys.argv[2]
every = int(sys.argv[3]) if len(sys.argv) > 3 else 3
SCALED = ("median", "ci_low", "ci_high", "min", "max", "mean", "stddev", "p5", "p95", "aggregate")
work = tempfile.mkdtemp()
con = sqlite3.connect(src)
order = [r[0] for r in con.execute("SELECT label FROM runs WHERE label LIKE 's%' "
                                   "GROUP BY label ORDER BY min(id)")]


def when(label):
    """A sitting's time: the median start of its runs, in seconds."""
    ts = sorted(datetime.strptime(r[0], "%Y-%m-%dT%H:%M:%SZ").timestamp()
                for r in con.execute("SELECT started FROM runs WHERE label = ?", (label,)))
    return ts[len(ts) // 2]


times = {lab: when(lab) for lab in order}
# (label, bench_id, placement) -> mean log fast level of the sitting's runs
levels = {}
for lab, bid, pl, better, p5, p95 in con.execute(
        "SELECT u.label, r.bench_id, r.placement, r.better, r.p5, r.p95 FROM results r "
        "JOIN runs u ON u.id = r.run_id WHERE r.status IN ('ok', 'noisy') AND u.label LIKE 's%'"):
    v = p5 if better == "lower" else p95
    if v and v > 0:
        levels.setdefault((lab, bid, pl), []).append(math.log(v))
con.close()
levels = {k: sum(v) / len(v) for k, v in levels.items()}


def drift(controls, bid, pl, t):
    """The control's log level at time t, over the controls' mean: linear between sittings."""
    pts = [(times[c], levels[(c, bid, pl)]) for c in controls if (c, bid, pl) in levels]
    if len(pts) < 2:
        return 0.0
    mean = sum(y for _, y in pts) / len(pts)
    xs = [x for x, _ in pts]
    i = bisect.bisect_left(xs, t)
    if i == 0:
        y = pts[0][1]
    elif i == len(pts):
        y = pts[-1][1]
    else:
        (x0, y0), (x1, y1) = pts[i - 1], pts[i]
        y = y0 + (y1 - y0) * (t - x0) / (x1 - x0)
    return y - mean


def history(controls, series, correct):
    """The figures' steps in series as measured, or against the control."""

    def divide(c):
        cols = [d[0] for d in c.execute("SELECT * FROM results LIMIT 0").description]
        rows = c.execute("SELECT r.id, r.bench_id, r.placement, u.label FROM results r "
                         "JOIN runs u ON u.id = r.run_id").fetchall()
        for rid, bid, pl, lab in rows:
            if bid == "cpu.mhz":
                continue
            f = math.exp(-drift(controls, bid, pl, times[lab]))
            c.execute("UPDATE results SET %s WHERE id = ?" %
                      ", ".join("%s = %s * ?" % (x, x) for x in SCALED if x in cols),
                      [f for x in SCALED if x in cols] + [rid])

    path = os.path.join(work, "c.db")
    shutil.copy(src, path)
    figs = series_figures(kb, path, series, divide if correct else None)
    named = ["%s %s-%s %+.1f%%" % (f["id"], ch["sittings"][0], ch["sittings"][1], 100 * ch["change"])
             for f in figs for ch in f["changes"]]
    return len(figs), sum(1 for f in figs if f["changes"]), named


print("%d sittings (%s); a control every %d sittings" % (len(order), src, every))
print()
print("| control sittings | labels | figures | steps as measured | steps against the control |")
print("|---|---|---|---|---|")
tot = [0, 0, 0]
detail = []
for off in range(every):
    controls = order[off::every]
    if order[-1] not in controls:
        controls.append(order[-1])
    if order[0] not in controls and off:
        controls.insert(0, order[0])
    series = [lab for lab in order if lab not in controls]
    n, raw, rn = history(controls, series, False)
    _, cor, cn = history(controls, series, True)
    tot[0] += n
    tot[1] += raw
    tot[2] += cor
    detail.append((controls, rn, cn))
    print("| %s | %d | %d | %d (%.1f%%) | %d (%.1f%%) |" % (" ".join(controls), len(series), n, raw,
                                                          100.0 * raw / n, cor, 100.0 * cor / n))
print("| all | | %d | %d (%.1f%%) | %d (%.1f%%) |" % (tot[0], tot[1], 100.0 * tot[1] / tot[0], tot[2],
                                                      100.0 * tot[2] / tot[0]))
shutil.rmtree(work)
print()
for controls, rn, cn in detail:
    print("- control %s: as measured: %s; against the control: %s" %
          (" ".join(controls), "; ".join(rn) or "none", "; ".join(cn) or "none"))
