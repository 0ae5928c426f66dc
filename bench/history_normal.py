#!/usr/bin/env python3
"""Histories where nothing changed, drawn from a normal model and judged by
kbench history itself (bench/history_steps.py draws them from real
sittings; tests/unit/test_steps.c calls stats_steps alone): HISTORIES
histories of LABELS labels of RUNS runs, 8 figures each, each label's
sitting 1.5% off, its runs 1% apart, and with DRIFT the machine slower by
that share a label (0.001: 2% over 20 labels).  Prints the figures with a
step reported (each false) and the places history said it cannot tell
about, by kind (a label alone, a pair of adjacent labels).

usage: bench/history_normal.py KBENCH HISTORIES LABELS RUNS [DRIFT]
(run from the repository's root: it borrows tests/fixtures/fixturelib.py)"""
import json, subprocess, sys, os, random, collections
sys.path.insert(0, "tests/fixtures")
from fixturelib import replica, result, template, uuid
kb, n_hist, labels, runs_per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
drift = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
rng = random.Random(77)
ids = ["sys.null", "sys.read", "sys.write", "sys.stat", "mem.read.bw", "proc.fork", "proc.exec", "ipc.pipe.lat"]
base = {r["id"]: r["median"] for r in template["results"]}
import tempfile
work = tempfile.mkdtemp()
path_json, path_db = os.path.join(work, "h.json"), os.path.join(work, "h.db")
tot = steps = 0
kinds = collections.Counter()
for h in range(n_hist):
    runs = []
    lev = {rid: [1 + 0.015 * rng.gauss(0, 1) for i in range(labels)] for rid in ids}
    for i in range(labels):
        set_uuid = None
        for k in range(runs_per):
            u = uuid(rng); set_uuid = set_uuid or u
            out = []
            for rid in ids:
                f = base[rid] * lev[rid][i] * (1 + drift * i) * (1 + 0.01 * rng.gauss(0, 1))
                out.append(result(rid, [replica(round(f * (1 + 0.001 * rng.gauss(0, 1)), 6), 10.0 * j) for j in range(4)]))
            si = dict(template["sysinfo"]); si.update(release="6.18", host="testbox")
            runs.append({"uuid": u, "set": set_uuid, "label": "6.18.%d" % (i + 1), "host": "testbox", "os": "Linux 6.18",
                         "started": "2026-11-%02dT%02d:00:00Z" % (i + 1, 10 + k), "finished": "2026-11-%02dT%02d:02:00Z" % (i + 1, 10 + k),
                         "mhz": template["mhz"], "sysinfo": si, "results": out})
    json.dump({"format": "kbench-export", "version": 1, "kbench": "0.1.0", "runs": runs}, open(path_json, "w"))
    if os.path.exists(path_db):
        os.remove(path_db)
    subprocess.run([kb, "import", path_json, "--db", path_db], capture_output=True, check=True)
    d = json.loads(subprocess.run([kb, "history", "--by", "label", "--json", "--db", path_db], capture_output=True, text=True, check=True).stdout)
    for f in d["figures"]:
        if f["sentinel"]:
            continue
        tot += 1
        steps += bool(f["changes"])
        for x in f.get("cannot_tell") or []:
            kinds["alone" if x.get("alone") else "pair"] += 1
import shutil
shutil.rmtree(work)
print("%d figures: a step reported in %d (%.1f%%); cannot tell: %s" % (tot, steps, 100.0 * steps / tot, dict(kinds)))
