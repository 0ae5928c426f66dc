#!/bin/bash
# What are the machine's states?  (issue 12, item 1)
#
# Runs bench/ref/states.c for SECONDS (300): one process per CPU, pinned,
# each timing back-to-back 100 ms windows of getppid, a dependent-add chain,
# a random pointer chase over 256 KiB and 8 MiB, with the CPU's steal time,
# the machine's interrupts and context switches, kdamond's CPU time,
# compactions and the TSC against CLOCK_MONOTONIC in each window.  Then, in
# one-second bins per CPU:
# - the states: a CPU's seconds split at the midpoint of the 10th and 90th
#   percentiles of getppid when those are more than 15% apart (else one
#   state), how long each state lasts (runs of seconds), how far apart the
#   states are on each measurement (which ones the states move);
# - whether both CPUs are in the same state at the same second;
# - what correlates with getppid (steal, interrupts, context switches,
#   kdamond, compactions, the TSC rate).
# Prints Markdown.  The machine should be otherwise idle: nothing of kbench's
# runs meanwhile.  KEEP=file keeps the raw windows.
#
# usage: bench/machine_states.sh [SECONDS]
set -eu
. "$(dirname "$0")/lib.sh"
SECS=${1:-300}
cc -O2 -o "$WORK/states" "$ROOT/bench/ref/states.c"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $SECS s, $(nproc) CPUs; load average before: $(loadavg)"
"$WORK/states" "$SECS" 100 >"$WORK/windows"
[ -z "${KEEP:-}" ] || cp "$WORK/windows" "$KEEP"
python3 - "$WORK/windows" <<'PY'
import collections, math, statistics as st, sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if len(l.split()) >= 13]
cols = ["t", "cpu", "getppid", "add", "l2", "l3", "steal", "irq", "ctxt", "tsc", "win", "kdamond", "compact"]
cpus = sorted({int(r[1]) for r in rows})
# One-second bins per CPU: the mean of each measurement; counts as rates per second.
bins = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    d = dict(zip(cols, r))
    b = bins[(int(d["cpu"]), int(d["t"]))]
    for k in ("getppid", "add", "l2", "l3", "tsc"):
        b[k].append(d[k])
    for k in ("steal", "irq", "ctxt", "kdamond", "compact"):
        b[k + "_rate"].append(d[k] / (d["win"] / 1000.0))
sec = {k: {m: st.mean(v) for m, v in b.items()} for k, b in bins.items()}

def corr(x, y):
    mx, my = st.mean(x), st.mean(y)
    sx = math.sqrt(sum((a - mx) ** 2 for a in x)); sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return float("nan") if sx == 0 or sy == 0 else sum((a - mx) * (b - my) for a, b in zip(x, y)) / (sx * sy)

print("\n### States per CPU (one-second means of getppid)\n")
print("| CPU | seconds | p10 ns | p50 ns | p90 ns | p90/p10 | states | fast ns | slow ns | slow/fast | share slow | runs | run length median / mean / max (s) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
state = {}
for c in cpus:
    ts = sorted(t for (cc, t) in sec if cc == c)
    g = [sec[(c, t)]["getppid"] for t in ts]
    q = st.quantiles(g, n=10)
    p10, p90 = q[0], q[8]
    two = p90 / p10 > 1.15
    cut = (p10 + p90) / 2
    cls = [int(x > cut) if two else 0 for x in g]
    for t, k in zip(ts, cls):
        state[(c, t)] = k
    runs, cur = [], 1
    for a, b in zip(cls, cls[1:]):
        if a == b:
            cur += 1
        else:
            runs.append(cur); cur = 1
    runs.append(cur)
    fast = [x for x, k in zip(g, cls) if k == 0]; slow = [x for x, k in zip(g, cls) if k == 1]
    print("| %d | %d | %.1f | %.1f | %.1f | %.2f | %d | %.1f | %s | %s | %.0f%% | %d | %.0f / %.1f / %d |" % (
        c, len(g), p10, st.median(g), p90, p90 / p10, 2 if two else 1, st.median(fast),
        "%.1f" % st.median(slow) if slow else "-", "%.2f" % (st.median(slow) / st.median(fast)) if slow else "-",
        100.0 * len(slow) / len(g), len(runs), st.median(runs), st.mean(runs), max(runs)))

print("\n### Which measurements the states move (median over the seconds of each state, slow / fast)\n")
print("| CPU | getppid | add chain | chase 256 KiB | chase 8 MiB | TSC per ns |")
print("|---|---|---|---|---|---|")
for c in cpus:
    cells = []
    for m in ("getppid", "add", "l2", "l3", "tsc"):
        f = [sec[k][m] for k in sec if k[0] == c and state.get(k) == 0]
        s = [sec[k][m] for k in sec if k[0] == c and state.get(k) == 1]
        cells.append("%.3f" % (st.median(s) / st.median(f)) if s and f else "-")
    print("| %d | %s |" % (c, " | ".join(cells)))

if len(cpus) >= 2:
    a, b = cpus[0], cpus[1]
    both = [t for (c, t) in sec if c == a and (b, t) in sec]
    same = sum(state[(a, t)] == state[(b, t)] for t in both)
    ga = [sec[(a, t)]["getppid"] for t in both]; gb = [sec[(b, t)]["getppid"] for t in both]
    print("\n- CPUs %d and %d in the same state: %d of %d seconds (%.0f%%); correlation of their one-second getppid: %.2f" % (
        a, b, same, len(both), 100.0 * same / max(len(both), 1), corr(ga, gb)))

print("\n### What moves with getppid (correlation over one-second bins)\n")
print("| CPU | add chain | chase 256 KiB | chase 8 MiB | steal/s | interrupts/s | switches/s | kdamond ms/s | compactions/s | TSC per ns |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c in cpus:
    ks = [k for k in sec if k[0] == c]
    g = [sec[k]["getppid"] for k in ks]
    cells = ["%.2f" % corr(g, [sec[k][m] for k in ks]) for m in
             ("add", "l2", "l3", "steal_rate", "irq_rate", "ctxt_rate", "kdamond_rate", "compact_rate", "tsc")]
    print("| %d | %s |" % (c, " | ".join(cells).replace("nan", "- (constant)")))
tot = collections.Counter()
for r in rows:
    d = dict(zip(cols, r)); tot["steal"] += d["steal"]; tot["kdamond"] += d["kdamond"]; tot["compact"] += d["compact"]
print("\n- totals over the probe: steal %.0f ms, kdamond %.0f ms of CPU, %d compactions" % (
    tot["steal"], tot["kdamond"] / len(cpus), tot["compact"] / len(cpus)))
PY
echo
echo "load average after: $(loadavg)"
