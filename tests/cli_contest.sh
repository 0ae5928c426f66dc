#!/bin/sh
# Command-line tests of kbench contest (issue 6), with a job of known length
# (sleep) and short loads, so each takes a second or two: the window
# accounting (a load working at a known rate yields rate x job time, and
# nothing when it is stopped during the job), the report, and that no
# process, file or directory is left after a normal end, a failing job, a
# timeout and SIGINT; bad input as one line.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/c.db"
FAST="--settle 0.2 --load-scale 0.01 --tmpdir $T/tmp --quiet"
# The Loads column of a load's row: the 5th field after the label (no [runs] here).
# The jobs' sleeps end in this run's pid, so another run of this file beside it is not seen.
u=$$
loads_of() { awk -v l="$1:" '$0 == l || index($0, l " ") == 1 {f = 1; next} f && /^L / {print $(NF - 2); exit}' "$T/out"; }

kb contest --workload 'sleep 1' --loads noload,tick_load --label L --db "$DB" $FAST
check "contest with a sleep job exits 0" [ "$rc" = 0 ]
check "a block per load, noload first" sh -c "grep -n '^noload:' '$T/out' | grep -q '^[0-9]*:' && \
	[ \$(grep -n '^noload:' '$T/out' | cut -d: -f1) -lt \$(grep -n '^tick_load' '$T/out' | cut -d: -f1) ]"
check "the header names the columns" grep -Eq '^Kernel \[runs\] +Time +CPU% +Loads +LCPU% +Ratio$' "$T/out"
check "the load's unit is stated" grep -q '^tick_load (Loads: ' "$T/out"
row=$(grep -A2 '^tick_load' "$T/out" | grep '^L ')
t=$(echo "$row" | awk '{print $2}')
loads=$(echo "$row" | awk '{print $(NF - 2)}')
check "the job's Time is the sleep's second ($t)" sh -c "awk 'BEGIN {exit !($t >= 0.99 && $t < 1.5)}'"
check "tick_load did one unit per 10 ms of the window: $loads for $t s" \
	sh -c "awk 'BEGIN {exit !($loads >= $t * 100 - 4 && $loads <= $t * 100 + 4)}'"
check "noload's Ratio is 1.00" sh -c "grep -A2 '^noload:' '$T/out' | grep -Eq '^L .* 1\.00 *\$'"
check "nothing left behind after a normal end" no_leftovers "$T/tmp"
kb summary L --db "$DB"
check "summary prints contest's tables for contest results" sh -c "grep -q '^tick_load (Loads: ticks):' '$T/out' && ! grep -q 'Other results' '$T/out'"
check "summary of contest results alone: no empty lmbench tables" sh -c "head -1 '$T/out' | grep -q '^contest: ' && ! grep -q 'Basic system parameters' '$T/out'"
cp "$T/out" "$T/text"
# One model: summary --json's tables hold contest's, row for row as the text prints them.
kb summary L --db "$DB" --json
check "summary --json: contest's tables, the text's rows" python3 -c '
import json, re, sys
doc = json.load(open(sys.argv[1]))
ids = [t["id"] for t in doc["tables"]]
text = [re.sub(r"\s", "", l) for l in open(sys.argv[2])]
rows = [re.sub(r"\s", "", "".join(r["cells"])) for t in doc["tables"] for r in t["rows"] if "cells" in r]
sys.exit(0 if "contest-legend" in ids and "contest.tick_load" in ids and rows and all(r in text for r in rows) else 1)
' "$T/out" "$T/text"
# A label of other results first (a timed job's) is none of contest's: L is the reference.
"$KB" time --runs 2 --label T --name job --db "$DB" -- sh -c 'exit 0' >/dev/null 2>&1
kb summary T L --db "$DB"
check "summary of a timed label then a contest one: Ratio against the contest label's noload" sh -c \
	"[ $rc = 0 ] && grep -q \"Ratio = Time / L's noload Time\" '$T/out' && grep -A2 '^noload:' '$T/out' | grep -Eq '^L .* 1\.00 *\$'"
kb show contest.tick_load --db "$DB"
check "stored as contest.tick_load with its values" sh -c "grep -q 'loads' '$T/out' && grep -q 'old_loads' '$T/out' && grep -q 'lcpu_share' '$T/out'"

"$KB" contest --workload 'sleep 0.3' --loads noload,tick_load --label M --db "$DB" $FAST >/dev/null 2>&1
kb compare L M --db "$DB"
check "compare knows contest's results: a section of their own" sh -c "[ $rc = 0 ] && grep -q '^contest: the job' '$T/out' && grep -Eq '^contest\.tick_load +1\.[0-9]+ .* -[0-9.]+%' '$T/out'"
kb summary L M --db "$DB"
check "summary of two labels: a contest row for each, Ratio against the first" sh -c \
	"grep -A3 '^tick_load' '$T/out' | grep -Eq '^M +0\.3[0-9]* .* 0\.3[0-9]\$'"

KBENCH_INJECT=load-stop "$KB" contest --workload 'sleep 0.5' --loads tick_load --label S --no-store $FAST >"$T/out" 2>"$T/err"
check "a load stopped during the job counts nothing" sh -c "grep -A2 '^tick_load' '$T/out' | grep -Eq '^[^ ]+ +0\.5[0-9]* .* 0 +[0-9]+ +- *\$'"

kb contest --workload 'sleep 0.2' --loads noload,tick_load --json --no-store $FAST
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "contest --json: a run --json document, every result whole" grep -q '^runs 1 results 2 ok 2' "$T/jc"
check "contest --json: the metrics as values" sh -c "grep -q '\"time_s\"' '$T/out' && grep -q '\"old_loads\"' '$T/out'"

# A daemon the job started, and its child: neither outlives the measurement.
kb contest --workload "setsid sh -c 'sleep 31.8$u; true' & sleep 0.2" --loads noload --no-store $FAST
needs "list of its children" check "a job's setsid daemon and its child: exit 0, none left" sh -c "[ $rc = 0 ] && ! pgrep -f 'sleep 31\.8$u' >/dev/null"
pkill -f "sleep 31\.8$u" 2>/dev/null

kb contest --workload 'echo compiling; echo cc: error: no such file >&2; exit 3' --loads noload --no-store $FAST
check "a failing job: exit 1, one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
check "a failing job: says why, with its last output" grep -q 'noload: the job failed: exit status 3: cc: error: no such file' "$T/err"
check "a failing job: nothing left" no_leftovers "$T/tmp"

kb contest --workload "sleep 31.7$u" --loads tick_load --timeout 0.5 --no-store $FAST
check "a job past its timeout is stopped and reported (exit 1)" sh -c "[ $rc = 1 ] && grep -q 'timeout of 0.5 s' '$T/out' '$T/err'"
check "after a timeout: no process (sleep killed), nothing left" sh -c "! pgrep -f '^sleep 31\.7$u\$' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\" ]"

"$KB" contest --workload "sleep 32.3$u" --loads tick_load --db "$DB" $FAST >"$T/out" 2>"$T/err" &
pid=$!
# The job itself, not kbench, whose command line holds the same words.
wait_for pgrep -f "^sleep 32\.3$u\$" >/dev/null
kill -INT $pid
wait $pid
rc=$?
check "SIGINT during the job: exit 130" [ "$rc" = 130 ]
wait_for eval "! pgrep -f '^sleep 32\.3$u\$' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\" ]"
check "SIGINT: the job is killed" sh -c "! pgrep -f '^sleep 32\.3$u\$' >/dev/null"
check "SIGINT: no load process, no file left" no_leftovers "$T/tmp"

# SIGKILL leaves kbench no chance: its janitor kills the job and the load and removes the files.
"$KB" contest --workload "sleep 33.1$u" --loads tick_load --no-store $FAST >/dev/null 2>&1 &
pid=$!
wait_for pgrep -f "^sleep 33\.1$u\$" >/dev/null
kill -KILL $pid
wait $pid 2>/dev/null
# Until the janitor is done: the job, the load and the files gone.
wait_for eval "! pgrep -f '^sleep 33\.1$u\$' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\" ] && ! pgrep -f '$T/tmp' >/dev/null"
check "SIGKILL of kbench: the job is killed" sh -c "! pgrep -f '^sleep 33\.1$u\$' >/dev/null"
check "SIGKILL of kbench: no load process, no file left" no_leftovers "$T/tmp"

kb contest --loads nosuch --no-store $FAST
check "an unknown load: exit 2, one line naming it" sh -c "[ $rc = 2 ] && grep -q \"unknown load 'nosuch'\" '$T/err'"
kb contest --workload '  ' --no-store $FAST
check "an empty workload: exit 2" sh -c "[ $rc = 2 ] && grep -q 'workload is empty' '$T/err'"
kb contest --workload 'true' --loads noload --tmpdir /proc --no-store --quiet
check "a --tmpdir that takes no files (/proc): exit 1, one line that says so" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'takes no new directories' '$T/err'"
mkdir "$T/full"
if mount -t tmpfs -o size=8k tmpfs "$T/full" 2>/dev/null; then
	dd if=/dev/zero of="$T/full/fill" bs=4k count=100 2>/dev/null
	kb contest --size 0.001 --loads noload --tmpdir "$T/full" --no-store --quiet
	check "a full --tmpdir: exit 1, one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -qi 'no space left' '$T/err'"
	rm -f "$T/full/fill"
	check "a full --tmpdir: nothing left in it" sh -c "[ -z \"\$(ls -A '$T/full')\" ]"
	umount "$T/full"
else
	ok "# SKIP a full --tmpdir: cannot mount a small tmpfs here"
fi

# The generated compile, tiny, under a real load: the whole path with make and cc.
if command -v make >/dev/null && command -v cc >/dev/null; then
	kb contest --size 0.005 --loads noload,cacherun,process_load --db "$DB" --label tree $FAST
	check "the generated compile runs under noload, cacherun and process_load" sh -c "[ $rc = 0 ] && grep -q '^process_load' '$T/out'"
	check "after the compile: nothing left" no_leftovers "$T/tmp"
else
	ok "# SKIP the generated compile: no make or cc"
fi

echo "1..$n"
