#!/bin/sh
# kbench clocks (issue 15): a row for the current clock source, stored ids
# the summary prints; as root, the clock source as it was after a normal
# end, after SIGINT and after SIGKILL of kbench mid-run (the guard's work);
# without root only the current source measured and every other said to
# need root; a bad --sources refused with one line.  The rows of the clock
# calls stay hidden from list and run.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"

CS=/sys/devices/system/clocksource/clocksource0
FAST="--tmpdir $T/tmp --max-time 0.05 --replicas 1 --quiet"
# The machine's clock source, and the name kbench gives it ("unknown" where
# its platform file cannot read it: the posix one).
before=$(cat "$CS/current_clocksource" 2>/dev/null)
cur=$before
if [ "$PLATFORM" = posix ] || [ -z "$cur" ]; then cur=unknown; fi
others=""
if [ "$PLATFORM" != posix ]; then
	for s in $(cat "$CS/available_clocksource" 2>/dev/null); do
		[ "$s" != "$cur" ] && others="$others $s"
	done
fi
other=$(echo $others | cut -d' ' -f1)
# nobody's directory: in /tmp, which every user may enter ($TMPDIR may be private).
NT=$(mktemp -d /tmp/kbench-clocks.XXXXXX)
chmod 1777 "$NT"
# Whatever happens to a test, the machine gets its clock source back.
restore() {
	if [ -n "$before" ] && [ -w "$CS/current_clocksource" ] &&
		[ "$(cat "$CS/current_clocksource")" != "$before" ]; then
		echo "$before" >"$CS/current_clocksource"
	fi
	rm -rf "$NT"
	lib_cleanup
}
trap restore EXIT
now() { cat "$CS/current_clocksource" 2>/dev/null; }
# back: wait (bounded) until the clock source is the one from before
back() { wait_for eval "[ \"\$(cat '$CS/current_clocksource' 2>/dev/null)\" = '$before' ]"; }
# A row of figures for source $1 in $T/out: its name, then a number.
row() { grep -qE "^$1 +[0-9]" "$T/out"; }

# --- the current source ---------------------------------------------------
kb clocks --no-store $FAST --sources "$cur"
check "--no-store --sources current: exit 0" [ "$rc" = 0 ]
check "a row of figures for the current source ($cur)" row "$cur"
check "a resolution table" grep -q '^Clock sources - resolution' "$T/out"
check "the clock source did not change" [ "$(now)" = "$before" ]
kb clocks --no-store $FAST --sources "$cur" --json
check "--json: valid as run --json" sh -c "\"$JC\" run <\"$T/out\" >/dev/null"
check "--json: clock.$cur.monotonic, how it was answered, calls/s" python3 -c "
import json
d = json.load(open('$T/out'))
r = {x['id']: x for x in d['runs'][0]['results']}['clock.$cur.monotonic']
assert r['unit'] == 'ns' and r['status'] in ('ok', 'noisy'), r
assert r['values']['answered'] in ('vdso', 'kernel'), r['values']
assert r['values']['calls_per_s'] > 0 and r['values']['res_ns'] > 0, r['values']
ids = sorted(x['id'] for x in d['runs'][0]['results'])
assert ids == sorted('clock.$cur.' + c for c in ('monotonic', 'realtime', 'monotonic_raw',
	'monotonic_coarse', 'gettimeofday', 'time')), ids
"
kb clocks --db "$T/c.db" $FAST --sources "$cur" --label clockslabel
check "stored: exit 0" [ "$rc" = 0 ]
kb summary --db "$T/c.db"
check "summary prints the clocks table" sh -c "grep -q '^Clock sources - ns per call' '$T/out' &&
	grep -q '^clockslabel \[1\]:' '$T/out' && grep -qE '^$cur +[0-9]' '$T/out'"
check "summary prints no lmbench table for them" sh -c "! grep -q 'Other results' '$T/out'"
kb clocks --db "$T/c.db" $FAST --sources "$cur" --label clocksother
kb compare --db "$T/c.db" clockslabel clocksother
check "compare gives the clock ids their section" sh -c "[ '$rc' = 0 ] &&
	grep -q '^Clock sources: ns per call' '$T/out' && grep -q 'clock.$cur.monotonic' '$T/out'"
kb export --db "$T/c.db"
check "export holds clock.$cur.time" grep -q "\"clock.$cur.time\"" "$T/out"
cp "$T/out" "$T/export.json"
kb import --db "$T/i.db" "$T/export.json"
check "import takes the clock ids back" [ "$rc" = 0 ]

# --- bad input: one line, exit 2, nothing switched ---------------------
kb clocks --no-store $FAST --sources nosuch
check "--sources nosuch: exit 2, one line naming it" sh -c "[ '$rc' = 2 ] && [ \$(wc -l <'$T/err') = 1 ] &&
	grep -q \"unknown clock source 'nosuch'\" '$T/err'"
kb clocks --no-store $FAST --sources "$cur,$cur"
check "a source named twice: exit 2" [ "$rc" = 2 ]
kb clocks --no-store --db "$T/x.db" $FAST
check "--db with --no-store: exit 2" [ "$rc" = 2 ]
check "nothing switched by bad input" [ "$(now)" = "$before" ]

# --- the clock calls are no benchmark of list or run --------------------
kb list
check "list shows no clockcall row" sh -c "[ '$rc' = 0 ] && ! grep -q clockcall '$T/out'"
kb run --no-store $FAST --only 'clockcall.*'
check "run --only clockcall.*: unknown, exit 2" [ "$rc" = 2 ]
kb run --no-store $FAST --suite clocks
check "run --suite clocks: unknown, exit 2" [ "$rc" = 2 ]

# --- as root: switched, and back after an end, SIGINT, SIGKILL --------
if [ "$PLATFORM" = posix ] || [ "$(id -u)" != 0 ] || [ ! -w "$CS/current_clocksource" ] ||
	[ -z "$other" ]; then
	why="needs root, a writable $CS/current_clocksource and two clock sources"
	[ "$PLATFORM" = posix ] && why="the posix platform switches no clock source"
	for t in "all sources: a row each" "normal end: the source as before" \
		"SIGINT: exit 130" "SIGINT: the source as before" "SIGKILL: the guard puts it back" \
		"SIGKILL: no process left"; do
		skip "$t" "$why"
	done
else
	kb clocks --no-store $FAST
	ok_rows=1
	for s in $cur $others; do row "$s" || ok_rows=0; done
	check "all sources: a row each ($cur$others)" [ "$ok_rows" = 1 ]
	check "normal end: the source as before ($before)" [ "$(now)" = "$before" ]

	# Long enough to be caught mid-run: many replicas of each call under $other.
	for sig in INT KILL; do
		mark="clocks_${sig}_$$"
		"$KB" clocks --no-store --tmpdir "$T/tmp" --quiet --max-time 60 --replicas 100 \
			--sources "$other" --label "$mark" >"$T/out" 2>"$T/err" &
		pid=$!
		# Switched, and measuring under it: a worker of this run's is there.
		wait_for eval "[ \"\$(cat '$CS/current_clocksource')\" != '$before' ] && pgrep -f '[k]bench-worker.*$mark' >/dev/null"
		switched=$(now)
		kill -"$sig" $pid
		wait $pid 2>/dev/null
		rc=$?
		if [ "$sig" = INT ]; then
			check "SIGINT: exit 130 (it had switched to $switched)" \
				sh -c "[ '$rc' = 130 ] && [ '$switched' = '$other' ]"
			check "SIGINT: the source as before" [ "$(now)" = "$before" ]
		else
			back
			check "SIGKILL: the guard puts it back (it had switched to $switched)" \
				sh -c "[ '$rc' = 137 ] && [ '$switched' = '$other' ] && [ \"\$(cat $CS/current_clocksource)\" = '$before' ]"
			wait_for eval "! pgrep -f '[c]locks_${sig}_$$' >/dev/null"
			check "SIGKILL: no process left" sh -c "! pgrep -f '[c]locks_${sig}_$$' >/dev/null"
		fi
		back >/dev/null || echo "$before" >"$CS/current_clocksource"
	done
fi

# --- without root: the current source alone, the others with why ------
asuser=""
if [ "$(id -u)" = 0 ]; then
	if runuser -u nobody -- true 2>/dev/null; then
		asuser="runuser -u nobody --"
	elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
fi
if [ "$(id -u)" = 0 ] && [ -z "$asuser" ]; then
	skip "without root: the current source measured" "neither runuser nor setpriv can run as nobody"
	skip "without root: the others need root" "neither runuser nor setpriv can run as nobody"
elif [ "$(id -u)" = 0 ] && ! kb_for_others; then
	skip "without root: the current source measured" "no copy of kbench nobody can run: $KBO_WHY"
	skip "without root: the others need root" "as above"
else
	# As nobody, the copy nobody can run (the checkout may be closed to it).
	kbn=$KB
	[ "$(id -u)" = 0 ] && kbn=$KBO
	HOME="$NT" $asuser "$kbn" clocks --no-store --tmpdir "$NT" --max-time 0.05 --replicas 1 \
		--quiet >"$T/out" 2>"$T/err"
	rc=$?
	check "without root: the current source measured" sh -c "[ '$rc' = 0 ] && grep -qE '^$cur +[0-9]' '$T/out'"
	if [ -z "$other" ]; then
		skip "without root: the others need root" "only one clock source is offered here"
	else
		need=1
		for s in $others; do grep -qE "^$s +skip: needs root\$" "$T/out" || need=0; done
		check "without root: the others need root ($others)" [ "$need" = 1 ]
	fi
	check "without root: the source as before" [ "$(now)" = "$before" ]
fi

echo "1..$n"
