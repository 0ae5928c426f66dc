#!/bin/sh
# A figure's level, quiet and in slow spells of a known share: INVOCATIONS
# default runs of seven syscall, process and IPC figures with nothing else
# running, and as many while bench/ref/spells takes each CPU for BUSY ms of
# every PERIOD ms (30% by default), alternated (quiet, spells, quiet, ...)
# so that the machine's own moves of the hour fall on both.  Every run goes
# into one database (labels quiet and spells); bench/levels.py reads it:
# the levels' half-widths, how often one invocation's interval holds
# another's level, the spells' level against the quiet one, and the share
# of slow spells each names.
#
# PRIME invocations (2) labelled prime go first, not weighed: the host's
# history of a user who has run kbench before, from which each run widens
# its levels' intervals by the spread between sittings (without them the
# first invocations' intervals are their sitting's alone).
#
# usage: sh bench/levels.sh   (KBENCH=..., INVOCATIONS=4, BUSY=300, PERIOD=1000,
#                              ONLY=the seven, KEEP=dir keeps the database, PRIME=2)
set -eu
. "$(dirname "$0")/lib.sh"
INVOCATIONS=${INVOCATIONS:-4}
BUSY=${BUSY:-300}
PERIOD=${PERIOD:-1000}
ONLY=${ONLY:-sys.null,sys.stat,sys.open_close,sig.catch,proc.fork,ipc.pipe.lat,ipc.tcp.lat}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"
DB=$OUT/levels.db
rm -f "$DB" "$DB"-*
cc -O2 -o "$WORK/spells" "$ROOT/bench/ref/spells.c"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; ${PRIME:-2} priming, $INVOCATIONS invocations quiet and under spells of $BUSY ms in $PERIOD ms a CPU, alternated; $(lscpu | sed -n 's/^Model name: *//p'); load average before: $(loadavg)"
PRIME=${PRIME:-2}
for i in $(seq "$PRIME"); do
	"$KBENCH" run --only "$ONLY" --label prime --db "$DB" --tmpdir "$WORK" --quiet >/dev/null
	echo "priming invocation $i done"
done
for i in $(seq "$INVOCATIONS"); do
	for mode in quiet spells; do
		pid=
		if [ $mode = spells ]; then
			setsid "$WORK/spells" "$BUSY" "$PERIOD" &
			pid=$!
		fi
		"$KBENCH" run --only "$ONLY" --label "$mode" --db "$DB" --tmpdir "$WORK" --quiet >/dev/null
		if [ -n "$pid" ]; then
			kill -TERM "-$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
		fi
		echo "invocation $i $mode done"
	done
done
"$KBENCH" export --db "$DB" >"$OUT/levels.json"
python3 "$ROOT/bench/levels.py" "$OUT/levels.json"
