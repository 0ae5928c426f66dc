#!/bin/sh
# What run --events costs a figure, and whether its counts are what the
# loop does: sys.null and ipc.pipe.lat (placement same) measured with and
# without --events, alternated, ROUNDS rounds (3); kbench's level each time
# and the counts per operation (a pipe round trip on one CPU is two
# context switches; getppid none).
#   sh bench/events_cost.sh [ROUNDS]        KBENCH=...
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
echo "events: $ROUNDS rounds, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -r), load $(loadavg)"
i=0
while [ $i -lt "$ROUNDS" ]; do
	for ev in "" --events; do
		"$KBENCH" run --only sys.null,ipc.pipe.lat --placement same --no-store --quiet --json $ev 2>/dev/null |
			python3 -c '
import json, sys
ev = sys.argv[1]
for r in json.load(sys.stdin)["runs"][0]["results"]:
    v = r["values"]
    f = lambda k: "-" if k not in v else "%.4f" % v[k]
    print("  %-13s %-9s level %-8.4g us  switches/op %-7s migrations/op %-7s faults/op %s" % (
          r["id"], ev or "plain", r["level"], f("ev_context_switches"), f("ev_migrations"),
          f("ev_page_faults")))' "$ev"
	done
	i=$((i + 1))
done
