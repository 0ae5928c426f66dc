#!/usr/bin/env python3
"""Does kbench history find a step, and only a step, in histories with this
machine's noise?

From a database of real sittings of one kernel (bench/sittings.sh keeps
one: SITTINGS sittings of RUNS runs each, labels s1, s2, ...), HISTORIES
synthetic histories of LABELS labels ("6.18.1", "6.18.2", ...) are made
(copies of the stored runs and their results).  With at least LABELS
sittings, each label is a different real sitting, its runs as they were,
the sittings drawn without replacement in a random order: every history
is real A/A data, reordered, so labels differ as sittings here do and a
label's runs are fresh runs, as a user's are.  With fewer sittings (or
DRAW=resample), each label is one sitting drawn at random and its RUNS
runs drawn from that sitting's with replacement: labels then share
sittings and repeat runs, which understates a label's own spread and
makes two labels of one sitting alike (the sittings' levels, with their
runs' noise frozen, stand in for the spread between sittings).
From label STEP_AT on, every figure but the sentinel's is multiplied by
1 + step (medians and intervals, as bench/scale_side.py does).  Then
`kbench history --by label --json`, and for each figure: found when a
change is reported within one label of the step's place; and, for step
0, any change reported at all.

Prints, per step size, the share of figures found (and placed within a
label) and, for no step, the share of figures with a step reported; the
targets: 10% found in 95%, 5% in 80%, none in under 5%.  Beside each, what
an oracle finds: a test told where the step is and how widely a label's
level spreads (no method can do better), and the same split by that
spread, so that what the method loses and what the machine's noise
forbids are told apart.

With the step at the newest label (STEP_AT = LABELS - 1), also whether
the smallest step history says the newest label would show is honest:
of the figures whose detectable step, read in a history without a step,
is at most the step, the share found in the same history with it (want
about 80%, "4 times in 5").  Each history's draws are the same for every
step size.

SHAPE=hump moves labels STEP_AT to STEP_AT + WIDTH - 1 (WIDTH 4 by
default) and no others, a regression later fixed; SHAPE=spike the label
STEP_AT alone.  Such a shape is found when a change is reported within a
label of each of its two edges (both), and the oracle tests the moved
labels against the rest.

usage: bench/history_steps.py KBENCH DB [HISTORIES [LABELS [STEP_AT]]]
       (DRAW=sittings|resample, PER_FIGURE=1 for a table a figure,
        SHAPE=step|hump|spike, WIDTH=N)
"""
import json
import math
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
shape = os.environ.get("SHAPE", "step")
width = {"step": labels - step_at, "spike": 1}.get(shape, int(os.environ.get("WIDTH", "4")))
moved = range(step_at, min(labels, step_at + width))
# The places a change is looked for: the first moved label, and the one after the last.
edges = [step_at] + ([step_at + width] if shape != "step" and step_at + width < labels else [])
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
# The fast level (level, level_low, level_high) is what history reads by default.
SCALED = ("median", "ci_low", "ci_high", "min", "max", "mean", "stddev", "p5", "p95", "aggregate",
          "level", "level_low", "level_high")


mode = os.environ.get("DRAW") or ("sittings" if len(sittings) >= labels else "resample")
if mode == "sittings" and len(sittings) < labels:
    sys.exit("DRAW=sittings needs at least %d sittings, the database has %d" % (labels, len(sittings)))


def draw():
    """A history's draws: each label's sitting and its runs, shared by every step size."""
    if mode == "sittings":
        return [sit[:per] for sit in rng.sample(sittings, labels)]
    spec = []
    for i in range(labels):
        sit = rng.choice(sittings)
        spec.append([rng.choice(sit) for k in range(per)])
    return spec


def make(path, step, spec):
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
        set_uuid = uuid.uuid4().hex
        f = 1 + step if i in moved else 1.0
        for k in range(per):
            rid = spec[i][k]
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
    """Per figure (id, placement): its points' log levels, whether a change was
    reported, and whether one was within a label of the step's place."""
    out = subprocess.run([kb, "history", "--by", "label", "--json", "--db", path],
                         capture_output=True, text=True, check=True).stdout
    res = {}
    for f in json.loads(out)["figures"]:
        if f["sentinel"]:
            continue
        ch = f["changes"]
        # The places history names: each step's, and each it cannot tell about (a
        # label alone off: its two edges).
        ct = f.get("cannot_tell") or []
        places = [int(x["to_label"].split(".")[-1]) - 1 for x in ch]
        for x in ct:
            at = int(x["to_label"].split(".")[-1]) - 1
            places += [at, at + 1] if x.get("alone") else [at]
        near = all(any(abs(p - e) <= 1 for p in places) for e in edges)
        res[(f["id"], f["placement"])] = ([math.log(p["level"]) for p in f["points"]], bool(ch), near,
                                          f.get("detectable"), bool(ct))
    return res


def oracle(levels, sd):
    """The test that knows where the step is and each label's true spread:
    what no method can beat.  |z| over 1.96 at the true split."""
    if len(levels) != labels or not sd > 0:
        return False
    right = [v for i, v in enumerate(levels) if i in moved]
    left = [v for i, v in enumerate(levels) if i not in moved]
    d = sum(right) / len(right) - sum(left) / len(left)
    return abs(d) / (sd * math.sqrt(1.0 / len(left) + 1.0 / len(right))) > 1.959964


print("%d sittings of %d runs (%s); %d histories of %d labels a step size, %s at label %d;"
      " a label is %s" % (len(sittings), per, src, histories, labels,
                          {"step": "the step", "spike": "a spike"}.get(shape, "a hump of %d" % width),
                          step_at + 1,
                          "a sitting, its runs as they were" if mode == "sittings"
                          else "a sitting drawn at random, its runs drawn with replacement"))
print()
# STEPS=0 for the false share alone (a quicker run).
runs = {float(x): [] for x in os.environ.get("STEPS", "0,0.05,0.10").split(",")}
for h in range(histories):
    spec = draw()
    for step in runs:
        p = os.path.join(work, "h.db")
        make(p, step, spec)
        runs[step].append(judge(p))
shutil.rmtree(work)

# Each figure's true spread of a label's level: the labels' spread in the
# histories without a step (pooled over them).
sd = {}
for key in set(k for r in runs[0.0] for k in r):
    ss = df = 0
    for r in runs[0.0]:
        if key in r and len(r[key][0]) > 1:
            x = r[key][0]
            m = sum(x) / len(x)
            ss += sum((v - m) ** 2 for v in x)
            df += len(x) - 1
    sd[key] = math.sqrt(ss / df) if df else float("nan")

CLASSES = ((0, 0.02, "under 2%"), (0.02, 0.04, "2-4%"), (0.04, 1e9, "over 4%"))
print("| step | figures | with a step reported | cannot tell | found within a label (steps or cannot tell) | the oracle finds |")
print("|---|---|---|---|---|---|")
for step in runs:
    tot = f_ = n_ = o_ = u_ = 0
    for r in runs[step]:
        for key, (x, found, near, _, untold) in r.items():
            tot += 1
            f_ += found
            n_ += near
            u_ += untold
            o_ += oracle(x, sd.get(key, float("nan")))
    print("| %+.0f%% | %d | %d (%.1f%%) | %d (%.1f%%) | %s | %s |" % (
        100 * step, tot, f_, 100.0 * f_ / tot, u_, 100.0 * u_ / tot,
        "%d (%.1f%%)" % (n_, 100.0 * n_ / tot) if step else "-",
        "%.1f%%" % (100.0 * o_ / tot) if step else "-"))
print()
print("By a label's spread (the labels' standard deviation in the step-free histories):")
print()
print("| a label's spread | figures | false | 5%% found | oracle | 10%% found | oracle |".replace("%%", "%"))
print("|---|---|---|---|---|---|---|")
for lo, hi, name in CLASSES:
    keys = [k for k in sd if lo <= sd[k] < hi]
    row = [name, str(len(keys))]
    for step in (0.0, 0.05, 0.10):
        if step not in runs:
            row += ["-", "-"] if step else ["-"]
            continue
        tot = f_ = o_ = 0
        for r in runs[step]:
            for k in keys:
                if k in r:
                    tot += 1
                    f_ += r[k][2] if step else r[k][1]
                    o_ += oracle(r[k][0], sd[k])
        row.append("%.1f%%" % (100.0 * f_ / tot) if tot else "-")
        if step:
            row.append("%.1f%%" % (100.0 * o_ / tot) if tot else "-")
    print("| " + " | ".join(row) + " |")

# The detectable step at the newest label, read off each history without a
# step, held against the same history with one (meaningful when the step is
# at the newest label: STEP_AT = LABELS - 1).
if step_at == labels - 1:
    print()
    print("The detectable step the newest label would show, read where nothing stepped:")
    print()
    print("| step | figures whose detectable is at most the step | found within a label | the rest: found |")
    print("|---|---|---|---|")
    for step in [s for s in runs if s]:
        k_ = f_ = r_ = rf_ = 0
        for h in range(histories):
            for key, (x, found, near, det, _) in runs[step][h].items():
                d0 = runs[0.0][h].get(key, (0, 0, 0, None, 0))[3]
                if d0 is not None and d0 <= step + 1e-12:
                    k_ += 1
                    f_ += near
                else:
                    r_ += 1
                    rf_ += near
        print("| %+.0f%% | %d | %s | %s |" % (100 * step, k_, "%.1f%%" % (100.0 * f_ / k_) if k_ else "-",
                                           "%d of %d" % (rf_, r_)))

if os.environ.get("PER_FIGURE"):
    print()
    print("| figure | a label's spread | false | 5% found | oracle | 10% found | oracle |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(sd, key=lambda k: sd[k]):
        row = ["%s%s" % (k[0], " [%s]" % k[1] if k[1] else ""), "%.2f%%" % (100 * sd[k])]
        for step in (0.0, 0.05, 0.10):
            rs = [r[k] for r in runs.get(step, []) if k in r]
            if not rs:
                row += ["-", "-"] if step else ["-"]
                continue
            row.append("%.0f%%" % (100.0 * sum(x[2] if step else x[1] for x in rs) / len(rs)))
            if step:
                row.append("%.0f%%" % (100.0 * sum(oracle(x[0], sd[k]) for x in rs) / len(rs)))
        print("| " + " | ".join(row) + " |")
