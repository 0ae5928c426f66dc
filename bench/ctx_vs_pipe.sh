#!/bin/bash
# Context switch against pipe round trip: ctx.2p.0k and ipc.pipe.lat, both
# with --placement same, in one kbench run (so both see the same moment of
# the machine), ROUNDS times (default 3).  Prints each run's figures, the
# raw (uncorrected) ctx figure and the overhead kbench subtracted from it
# when the JSON result carries them ("values": {"raw", "overhead_op"}), and
# the ratios.
#
# What to expect.  On one CPU a ring of 2 processes passing a token through
# two pipes is a pipe ping-pong: each hop is one write() of 8 bytes, one
# switch to the other process (woken by the write, while we block in our
# read()), and that process's read().  ctx.2p.0k's raw figure is one hop;
# its corrected figure subtracts what a hop costs without the switch (one
# process writing the token into a pipe and reading it back), leaving the
# switch alone.  A pipe round trip in ipc.pipe.lat is two such hops: two
# switches plus two write/read pairs (of 1 byte), plus a memcmp of the echo.
# So:
#   pipe.lat / ctx.2p.0k   = 2 + 2 x overhead / switch, above 2: how much
#                            above depends on how dear write+read is next to
#                            a switch (on this VM about a third: ~2.7);
#   pipe.lat / (2 x raw)   = close to 1: the same work counted two ways,
#                            a check that the two benchmarks agree.
# Without the raw figure only the first ratio is printed.
#
# usage: bench/ctx_vs_pipe.sh   (KBENCH=path, ROUNDS=3, PIN=0)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-3}

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS runs; pinned to CPU ${PIN:-none}"
echo
: >"$WORK/rounds"
for round in $(seq 1 "$ROUNDS"); do
	pinned "$KBENCH" run --only ctx.2p.0k,ipc.pipe.lat --placement same --no-store --json --quiet >"$WORK/kb.json"
	python3 - "$round" "$WORK/kb.json" >>"$WORK/rounds" <<'PY'
import json, sys
res = {r["id"]: r for x in json.load(open(sys.argv[2]))["runs"] for r in x["results"]}
for need in ("ctx.2p.0k", "ipc.pipe.lat"):
    if need not in res or res[need].get("median") is None:
        sys.exit("kbench gave no %s result" % need)
c, p = res["ctx.2p.0k"], res["ipc.pipe.lat"]
v = c.get("values") or {}
nan = float("nan")
flag = lambda r: r["status"] + ("/busy" if (r.get("interference") or 0) > 0.25 else "")
print(sys.argv[1], c["median"], v.get("raw", nan), v.get("overhead_op", nan), flag(c),
      p["median"], flag(p))
PY
done

python3 - "$WORK/rounds" <<'PY'
import math, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
have_raw = all(not math.isnan(float(r[2])) for r in rows)
print("| run | ctx.2p.0k (us/switch) | raw (us/hop) | overhead subtracted (us/hop) | ctx flags "
      "| ipc.pipe.lat (us) | pipe flags | pipe.lat / ctx.2p.0k |" + (" pipe.lat / (2 x raw) |" if have_raw else ""))
print("|---" * (9 if have_raw else 8) + "|")
ctx, raw, pipe, r1, r2 = [], [], [], [], []
for r in rows:
    c, rw, ov, p = float(r[1]), float(r[2]), float(r[3]), float(r[5])
    ctx.append(c); raw.append(rw); pipe.append(p); r1.append(p / c); r2.append(p / (2 * rw))
    line = "| %s | %.3f | %s | %s | %s | %.3f | %s | %.2f |" % (
        r[0], c, "n/a" if math.isnan(rw) else "%.3f" % rw,
        "n/a" if math.isnan(ov) else "%.3f" % ov, r[4], p, r[6], p / c)
    print(line + (" %.2f |" % (p / (2 * rw)) if have_raw else ""))
med = statistics.median
line = "| **median** | **%.3f** | %s | | | **%.3f** | | **%.2f** |" % (
    med(ctx), "**%.3f**" % med(raw) if have_raw else "n/a", med(pipe), med(r1))
print(line + (" **%.2f** |" % med(r2) if have_raw else ""))
print()
print("- pipe.lat / ctx.2p.0k: %.2f on the medians, %.2f median of per-run ratios -> expected above 2: %s"
      % (med(pipe) / med(ctx), med(r1), "yes" if med(r1) > 2 else "NO"))
if have_raw:
    print("- pipe.lat / (2 x raw ctx): %.2f on the medians, %.2f median of per-run ratios -> expected close to 1"
          % (med(pipe) / (2 * med(raw)), med(r2)))
else:
    print("- the JSON result has no \"values\": {\"raw\"}: only the corrected ctx figure is shown")
PY
echo
echo "load average after: $(loadavg)"
