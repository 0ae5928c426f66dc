#!/bin/bash
# Stream bandwidth between two processes, MB/s (MB = 10^6 bytes): kbench's
# ipc.{pipe,unix,tcp}.bw against (a) a plain write/read loop with the same
# 64 KiB chunks, bench/ref/stream_bw.c (2000 MB per run, cc -O2), and (b)
# stress-ng where one of its stressors can be converted to MB/s honestly.
# Each is measured under three placements: none (the scheduler chooses),
# same (both ends on CPU 0: kbench --placement same, taskset -c 0 for the
# others) and spread (reader on CPU 0, writer on CPU 1: kbench --placement
# spread, stream_bw's own sched_setaffinity; stress-ng cannot be spread,
# its --taskset applies to both processes alike).  ROUNDS rounds (default
# 3); in each round every (channel, placement) cell runs its tools one after
# the other, kbench, plain loop, stress-ng, so slow phases of the machine hit
# all of them alike.  Prints each round's figures, a table of medians, and
# kbench / best of the others (medians, and median of per-round ratios);
# target: kbench at least as high as the best of the others.
#
# stress-ng, read from its manual and checked with strace on 0.15.06 (the
# Debian 12 package): it is installed here when missing (apt-get), as a
# measuring tool only, never something kbench needs.
#  - pipe: one bogo op is one write() to an O_DIRECT (packet mode) pipe.
#    0.15.06 refuses --pipe-data-size above 4K and ignores the value it
#    accepts: strace shows every write is 512 bytes whatever is asked.  Its
#    "MB per sec pipe write rate" (printed by --metrics) is the bytes write()
#    returned over the writer's time, in MiB: x 1.048576 gives MB/s.  Honest
#    MB/s, but of 512-byte writes, not 64 KiB ones.
#  - sock --sock-domain ipv4: one bogo op is one TCP connection on which the
#    server sends 511 messages of 16, 32, ... 8176 bytes (2 093 056 bytes,
#    counted with strace, identical at 10, 20 and 40 ops) and closes; so MB/s
#    = bogo ops/s (real time) x 2.093056.  Honest bytes, but of small sends
#    and with a connect/accept/close per 2 MB; only converted on 0.15.06,
#    where that count was checked.
#  - sock --sock-domain unix: fails on 0.15.06 ("socket failed, errno=93
#    Protocol not supported": it asks AF_UNIX for IPPROTO_TCP), so there is
#    no stress-ng figure for AF_UNIX; the column says why.
#
# usage: bench/ipc_bandwidth.sh   (KBENCH=path, ROUNDS=3, SNG_TIME=5, TOTAL_MB=2000)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-3}
SNG_TIME=${SNG_TIME:-5}
TOTAL_MB=${TOTAL_MB:-2000}
SOCK_BYTES_PER_OP=2093056

build_ref stream_bw
SNG=yes
if ! command -v stress-ng >/dev/null 2>&1; then
	echo "stress-ng missing: installing it (apt-get install -y stress-ng)" >&2
	apt-get install -y stress-ng >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && apt-get install -y stress-ng >/dev/null 2>&1; } ||
		SNG=no
fi
SNG_VERSION=none
[ "$SNG" = no ] || SNG_VERSION=$(stress-ng --version | awk '{ print $3 }' | tr -d ,)

# A command under placement $1: same -> taskset -c 0, anything else as is.
placed() {
	local place=$1
	shift
	if [ "$place" = same ]; then
		taskset -c 0 "$@"
	else
		"$@"
	fi
}

# kbench's median MB/s and flags for channel $1 under placement $2.
kbench_bw() {
	"$KBENCH" run --only "ipc.$1.bw" --placement "$2" --no-store --json --quiet >"$WORK/kb.json"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"][0]
if r.get("median") is None:
    sys.exit("kbench gave no result for %s: %s" % (r["id"], r["status"]))
flags = r["status"] + ("/busy" if (r.get("interference") or 0) > 0.25 else "")
print("%.1f %s" % (r["median"], flags))' "$WORK/kb.json"
}

# The plain loop's MB/s for channel $1 under placement $2.
plain_bw() {
	case $2 in
	spread) "$WORK/stream_bw" "$1" "$TOTAL_MB" 64 0 1 ;;
	*) placed "$2" "$WORK/stream_bw" "$1" "$TOTAL_MB" 64 ;;
	esac
}

# stress-ng's MB/s for channel $1 under placement $2, or "nan" (see above).
sng_bw() {
	if [ "$SNG" = no ] || [ "$2" = spread ] || [ "$1" = unix ]; then
		echo nan
		return
	fi
	case $1 in
	pipe)
		placed "$2" stress-ng --pipe 1 --pipe-data-size 4K -t "$SNG_TIME" --metrics 2>&1 |
			awk '/MB per sec pipe write rate/ { for (i = 1; i <= NF; i++) if ($i == "MB") v = $(i - 1) }
			     END { if (v == "") print "nan"; else printf "%.1f\n", v * 1.048576 }'
		;;
	tcp)
		if [ "$SNG_VERSION" != 0.15.06 ]; then
			echo nan
			return
		fi
		placed "$2" stress-ng --sock 1 --sock-domain ipv4 -t "$SNG_TIME" --metrics-brief 2>&1 |
			awk -v b="$SOCK_BYTES_PER_OP" '$4 == "sock" && $5 ~ /^[0-9]+$/ { v = $9 }
			     END { if (v == "") print "nan"; else printf "%.1f\n", v * b / 1e6 }'
		;;
	esac
}

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS rounds; stress-ng: $SNG_VERSION; plain loop: $TOTAL_MB MB per run"
echo
: >"$WORK/rounds"
for round in $(seq 1 "$ROUNDS"); do
	for ch in pipe unix tcp; do
		for place in none same spread; do
			kb=$(kbench_bw "$ch" "$place")
			pl=$(plain_bw "$ch" "$place")
			sn=$(sng_bw "$ch" "$place")
			echo "$round $ch $place $kb $pl $sn $(loadavg | cut -d' ' -f1)" >>"$WORK/rounds"
		done
	done
done

python3 - "$WORK/rounds" "$SNG" "$SNG_VERSION" <<'PY'
import math, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
sng, ver = sys.argv[2] == "yes", sys.argv[3]
med = statistics.median
f = lambda x: "n/a" if math.isnan(x) else "%.0f" % x

print("### Every round (MB/s)")
print()
print("| round | channel | placement | kbench | kbench flags | plain loop | stress-ng | load (1 min) |")
print("|---" * 8 + "|")
cells = {}
for r in rows:
    rnd, ch, pl, kb, fl, plain, sn, load = r[0], r[1], r[2], float(r[3]), r[4], float(r[5]), float(r[6]), r[7]
    print("| %s | %s | %s | %.0f | %s | %.0f | %s | %s |" % (rnd, ch, pl, kb, fl, plain, f(sn), load))
    cells.setdefault((ch, pl), []).append((kb, plain, sn, fl))
print()

def why_no_sng(ch, pl):
    if not sng:
        return "not installed"
    if pl == "spread":
        return "cannot spread"
    if ch == "unix":
        return "fails: errno 93"
    if ch == "tcp" and ver != "0.15.06":
        return "unchecked version"
    return "no figure"

print("### Medians over the rounds (MB/s)")
print()
print("| channel | placement | kbench | max/min | plain loop | max/min | stress-ng | best of others "
      "| kbench / best (medians) | kbench / best (median per round) | kbench noisy/busy | target |")
print("|---" * 12 + "|")
met_all = True
for (ch, pl), v in cells.items():
    kb = [x[0] for x in v]; plain = [x[1] for x in v]; sn = [x[2] for x in v]
    sn_ok = [x for x in sn if not math.isnan(x)]
    best = max(med(plain), med(sn_ok)) if sn_ok else med(plain)
    per = [k / max(p, s if not math.isnan(s) else 0) for k, p, s in zip(kb, plain, sn)]
    ratio = med(kb) / best
    met = ratio >= 1 and med(per) >= 1
    met_all &= met
    flagged = sum(x[3] != "ok" for x in v)
    print("| %s | %s | %.0f | %.2f | %.0f | %.2f | %s | %.0f | %.3f | %.3f | %d of %d | %s |"
          % (ch, pl, med(kb), max(kb) / min(kb), med(plain), max(plain) / min(plain),
             ("%.0f" % med(sn_ok)) if sn_ok else "n/a (%s)" % why_no_sng(ch, pl),
             best, ratio, med(per), flagged, len(v), "met" if met else "NOT met"))
print()
print("- stress-ng columns: pipe = 512-byte writes (its pipe-data-size is ignored), tcp = sock "
      "stressor, 16 B-8 KiB sends and a new connection per 2.09 MB; see the script's header")
print("- target kbench >= best of the others, on both ratios, in every cell: %s"
      % ("met" if met_all else "NOT met"))
PY
echo
echo "load average after: $(loadavg)"
