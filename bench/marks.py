#!/usr/bin/env python3
"""Does a mark predict something?  Over a database of several sittings of
the same kernel (sets of runs, one invocation each, as bench/sittings.sh
makes them), every figure of every run is checked against the next
sitting's runs: how often their medians fall outside the figure's
interval (a miss), and how far they land (|log next / this|).  The
figures a rule marks should miss more, and land farther, than those it
leaves unmarked; a mark that predicts nothing is noise on the page.

Rules compared (kbench's own is "loose", the one the tables use):
  noisy      the figure missed the precision asked for (the stored status)
  loose      noisy, and its interval over twice the run's typical figure's
             (the median half-width of the run's figures): kbench's mark
  loose3     the same at three times
  floor2     its interval over twice the machine's spread (the sentinel's)
  drift      the sentinel moved more than the precision over its replicas

usage: bench/marks.py KBENCH DB      prints Markdown
"""
import json
import math
import statistics
import subprocess
import sys


def rel_hw(r):
    if not r["median"] or r["ci_low"] is None or r["ci_high"] is None or r["median"] <= 0:
        return None
    return max(r["median"] - r["ci_low"], r["ci_high"] - r["median"]) / r["median"]


def rules(run):
    hws = [h for h in (rel_hw(r) for r in run["results"]) if h is not None]
    bar = statistics.median(hws) if hws else None
    out = {}
    for r in run["results"]:
        h = rel_hw(r)
        if h is None or r["status"] not in ("ok", "noisy"):
            continue
        v = r.get("values") or {}
        mp = v["machine_share"] * 100 if "machine_share" in v else v.get("machine_pct")
        noisy = r["status"] == "noisy"
        out[(r["id"], r["placement"])] = (r, {
            "noisy": noisy,
            "loose": noisy and h > 2 * bar,
            "loose3": noisy and h > 3 * bar,
            "floor2": mp is not None and h > 2 * mp / 100,
            "drift": bool(r.get("drifted")),
        })
    return out


def main():
    kb, db = sys.argv[1:3]
    runs = json.loads(subprocess.run([kb, "export", "--db", db, "--format", "json"], check=True,
                                     capture_output=True, text=True).stdout)["runs"]
    sets = []
    for run in sorted(runs, key=lambda r: r["started"]):
        if not sets or sets[-1][0]["set"] != run["set"]:
            sets.append([])
        sets[-1].append(run)
    names = ("noisy", "loose", "loose3", "floor2", "drift")
    tally = {n: {m: [0, 0, []] for m in (True, False)} for n in names}
    for k in range(len(sets) - 1):
        for run in sets[k]:
            for key, (r, marks) in rules(run).items():
                for nxt in sets[k + 1]:
                    o = next((x for x in nxt["results"] if (x["id"], x["placement"]) == key), None)
                    if not o or not o["median"] or o["median"] <= 0:
                        continue
                    miss = not (r["ci_low"] <= o["median"] <= r["ci_high"])
                    far = abs(math.log(o["median"] / r["median"]))
                    for n in names:
                        t = tally[n][marks[n]]
                        t[0] += 1
                        t[1] += miss
                        t[2].append(far)
    print("%d sittings, %d runs; each run's figures against the next sitting's runs" %
          (len(sets), len(runs)))
    print()
    print("| rule | marked | marked: next outside | unmarked: next outside "
          "| marked: median distance | unmarked: median distance |")
    print("|---|---|---|---|---|---|")
    for n in names:
        m, u = tally[n][True], tally[n][False]
        tot = m[0] + u[0]

        def pct(t):
            return "%.1f%%" % (100.0 * t[1] / t[0]) if t[0] else "-"

        def dist(t):
            return "%.1f%%" % (100 * math.expm1(statistics.median(t[2]))) if t[2] else "-"
        print("| %s | %.1f%% | %s | %s | %s | %s |" % (n, 100.0 * m[0] / tot if tot else 0, pct(m),
              pct(u), dist(m), dist(u)))


main()
