#!/bin/sh
# Command-line tests of the scalability curves (scale.*): the rows a
# suite lists; a tiny run of every operation at 1 and 2 tasks, as
# processes and as threads, each checked by its own tasks (a status of
# ok or noisy); the curve table in text with its linear and efficiency
# columns, the JSON keys and the CSV columns; compare's line on where two
# curves part; and a task count of 0, beyond the limit or beyond
# --max-tasks refused in one line with nothing stored.  No figure is
# judged: the machine is shared.  TAP like cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.03 --replicas 1 --tmpdir $T/tmp --quiet"
DB="$T/s.db"
OPS='page_fault open pipe mmap fork futex unlink'
CPUS=$(nproc)
[ "$CPUS" -gt 64 ] && CPUS=64

kb list --suite scale
check "list --suite scale: each operation as processes and threads, 1 to the online CPUs" \
	[ "$(grep -Ec '^scale\.[a-z_]+\.(proc|thread)\.[0-9]+ +ops/s +higher +scale' "$T/out")" = $((7 * 2 * CPUS)) ]
check "... in the table's order, page_fault first" \
	[ "$(awk '/^scale\./ { split($1, w, "."); if (w[2] != last) printf "%s ", w[2]; last = w[2] }' "$T/out")" = "$OPS " ]
kb list --suite full
check "the full suite has none of them" sh -c "! grep -q '^scale\.' '$T/out'"

# Every operation at 1 and 2 tasks, both shapes: 28 points.
kb run --only 'scale.*' --max-tasks 2 --label S --db "$DB" $FAST
check "run --only 'scale.*' --max-tasks 2 exits 0" [ "$rc" = 0 ]
check "run prints the curve table" \
	grep -q '^Scalability - operations/s by tasks at once - bigger is better$' "$T/out"
check "... its columns: tasks, ops/s, interval, linear, efficiency" \
	grep -Eq '^tasks +ops/s +95% CI +linear +efficiency$' "$T/out"
for op in $OPS; do
	check "... $op: a curve of processes and one of threads" \
		[ "$(grep -Ec "^run [0-9]+: $op, (processes|threads)$" "$T/out")" = 2 ]
done
check "... every 1-task point at 100% of its line" \
	[ "$(grep -Ec '^ +1 +[0-9.]+ +[0-9.]+ to [0-9.]+ +[0-9.]+ +100%$' "$T/out")" = 14 ]
check "... every 2-task point with its linear and efficiency" \
	[ "$(grep -Ec '^ +2 +[0-9.]+ +[0-9.]+ to [0-9.]+ +[0-9.]+ +[0-9]+%$' "$T/out")" = 14 ]
check "... no point failed" sh -c "! grep -q 'scale\..*: fail' '$T/out'"
check "... none of them among Other results" sh -c "! sed -n '/^Other results/,\$p' '$T/out' | grep -q 'scale\.'"
check "... the table within 80 columns" \
	sh -c "sed -n '/^Scalability/,/^\$/p' '$T/out' | awk 'length > 80 { bad = 1 } END { exit bad }'"

kb run --only 'scale.pipe.*' --max-tasks 2 --json --no-store $FAST
check "run --json: valid, four points measured" \
	sh -c "[ $rc = 0 ] && \"$JC\" run <'$T/out' | grep -q 'results 4 ok 4'"
check "... in ops/s, bigger is better" [ "$(grep -c '"unit": "ops/s"' "$T/out")" = 4 ]
check "... each point's tasks" [ "$(grep -Ec '"tasks": [12],' "$T/out")" = 4 ]
check "... its linear and efficiency, numbers" \
	sh -c "[ \$(grep -Ec '\"linear\": [0-9]' '$T/out') = 4 ] && [ \$(grep -Ec '\"efficiency\": [0-9]' '$T/out') = 4 ]"
check "... the 1-task points at efficiency 1" [ "$(grep -Ec '"efficiency": 1(\.0)?,?$' "$T/out")" = 2 ]

kb export --db "$DB" --format csv
check "export --format csv ends with tasks, linear, efficiency" \
	sh -c "[ $rc = 0 ] && head -1 '$T/out' | grep -q ',p999,tasks,linear,efficiency\$'"
check "... a 2-task point's row has them" \
	grep -Eq ',scale\.futex\.thread\.2,.*,2,[0-9.e+]+,[0-9.e+-]+$' "$T/out"

# Two sides: the line under each curve says where they part, or that they do not.
kb run --only 'scale.futex.*' --max-tasks 2 --label T --db "$DB" $FAST
kb compare S T --db "$DB"
check "compare: a line under each curve on where the sides part" \
	[ "$(grep -Ec '^  futex\.(proc|thread): T (parts from the base at [12] tasks? \([-+][0-9.]+% \*\)|does not part from the base up to 2 tasks)$' "$T/out")" = 2 ]

# Bad input: one line, exit 2, nothing stored.
runs_before=$("$KB" runs --db "$DB" --json | grep -c '"run_id"')
kb run --only 'scale.pipe.*' --max-tasks 0 --db "$DB" $FAST
check "--max-tasks 0: refused in one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'max-tasks' '$T/err'"
kb run --only 'scale.pipe.*' --max-tasks 65 --db "$DB" $FAST
check "--max-tasks 65: beyond the limit, refused in one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q '1 to 64' '$T/err'"
kb run --only "scale.pipe.proc.$((CPUS + 1))" --db "$DB" $FAST
check "a point beyond the online CPUs without --max-tasks: refused in one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q -- '--max-tasks' '$T/err'"
kb run --only 'scale.pipe.proc.0' --db "$DB" $FAST
check "a point of 0 tasks: no such benchmark, one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'unknown benchmark' '$T/err'"
check "... and nothing stored by any of them" \
	[ "$("$KB" runs --db "$DB" --json | grep -c '"run_id"')" = "$runs_before" ]
check "... nor left in the private directory" [ -z "$(ls -A "$T/tmp")" ]

echo "1..$n"
