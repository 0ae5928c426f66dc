#!/usr/bin/env python3
"""Does kbench history find a step, and only a step, in histories with this
machine's noise?

From a database of real sittings of one kernel (bench/sittings.sh keeps
one: SITTINGS sittings of RUNS runs each, labels s1, s2, ...), HISTORIES
synthetic histories of LABELS labels ("6.18.1", "6.18.2", ...) are made:
each label is one real sitting drawn at random, its RUNS runs drawn from
that sitting's with replacement (copies of the stored runs and their
results), so that labels differ as sittings here do and runs as runs do.
From label STEP_AT on, every figure but the sentinel's is multiplied by
1 + step (medians and intervals, as bench/scale_side.py does).  Then
`kbench history --by label --json`, and for each figure: found when a
change is reported within one label of the step's place; and, for step
0, any change reported at all.

Prints, per step size, the share of figures found (and placed within a
label) and, for no step, the share of figures with a step reported; the
targets: 10% found in 95%, 5% in 80%, none in under 5%.

usage: bench/history_steps.py KBENCH DB [HISTORIES [LABELS [STEP_AT]]]
"""
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import uuid

kb, src = sys.argv[1], sys.argv[2]
histories = int(sys.argv[3]) if len(sys.argv) > 3 else 40
labels = int(sys.argv[4]) if len(sys.argv) > 4 else 12
step_at = int(sys.argv[5]) if len(sys.argv) > 5 else labels // 2
rng = random.Random(20261204)
work = tempfile.mkdtemp()

con = sqlite3.connect(src)
sittings = {}
for rid, label in con.execute("SELECT id, label FROM runs ORDER BY id"):
    sittings.setdefault(label, []).append(rid)
sittings = [v for k, v in sorted(sittings.items()) if k.startswith("s")]
per = min(len(v) for v in sittings)
rcols = [d[0] for d in con.execute("SELECT * FROM results LIMIT 0").description]
ucols = [d[0] for d in con.execute("SELECT * FROM runs LIMIT 0").description]
con.close()
SCALED = ("median", "ci_low", "ci_high", "min", "max", "mean", "stddev", "p5", "p95", "aggregate")


def make(path, step):
    shutil.copy(src, path)
    c = sqlite3.connect(path)
    runs = {r[0]: r for r in c.execute("SELECT * FROM runs")}
    results = {}
    for r in c.execute("SELECT * FROM results"):
        results.setdefault(r[rcols.index("run_id")], []).append(r)
    # Only the copies stay: the real runs and everything hanging off them go.
    for t in ("samples", "result_points", "result_replicas", "result_values", "result_usage"):
        c.execute("DELETE FROM %s" % t)
    c.execute("DELETE FROM sentinels")
    c.execute("DELETE FROM results")
    c.execute("DELETE FROM runs")
    for i in range(labels):
        sit = rng.choice(sittings)
        set_uuid = uuid.uuid4().hex
        f = 1 + step if i >= step_at else 1.0
        for k in range(per):
            rid = rng.choice(sit)
            row = dict(zip(ucols, runs[rid]))
            row["id"] = None
            row["uuid"] = uuid.uuid4().hex if k else set_uuid
            row["set_uuid"] = set_uuid
            row["label"] = "6.18.%d" % (i + 1)
            cur = c.execute("INSERT INTO runs (%s) VALUES (%s)" % (",".join(ucols), ",".join("?" * len(ucols))),
                            [row[x] for x in ucols])
            for r in results[rid]:
                rr = dict(zip(rcols, r))
                rr["id"] = None
                rr["run_id"] = cur.lastrowid
                if rr["bench_id"] != "cpu.mhz":
                    for x in SCALED:
                        if rr.get(x) is not None:
                            rr[x] *= f
                c.execute("INSERT INTO results (%s) VALUES (%s)" % (",".join(rcols), ",".join("?" * len(rcols))),
                          [rr[x] for x in rcols])
    c.commit()
    c.close()


def judge(path):
    out = subprocess.run([kb, "history", "--by", "label", "--json", "--db", path],
                         capture_output=True, text=True, check=True).stdout
    figs = [f for f in json.loads(out)["figures"] if not f["sentinel"]]
    found = near = 0
    for f in figs:
        ch = f["changes"]
        found += bool(ch)
        near += any(abs(int(x["to"].split(".")[-1]) - 1 - step_at) <= 1 for x in ch)
    return len(figs), found, near


print("%d sittings of %d runs (%s); %d histories of %d labels a step size, the step at label %d"
      % (len(sittings), per, src, histories, labels, step_at + 1))
print()
print("| step | figures | with a step reported | found within a label |")
print("|---|---|---|---|")
for step in (0.0, 0.05, 0.10):
    tot = f_ = n_ = 0
    for h in range(histories):
        p = os.path.join(work, "h.db")
        make(p, step)
        a, b, c = judge(p)
        tot += a
        f_ += b
        n_ += c
    print("| %+.0f%% | %d | %d (%.1f%%) | %s |" % (100 * step, tot, f_, 100.0 * f_ / tot,
          "%d (%.1f%%)" % (n_, 100.0 * n_ / tot) if step else "-"))
shutil.rmtree(work)
