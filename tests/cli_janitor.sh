#!/bin/sh
# The janitor survives a SIGKILL of kbench's whole process group (issue 13):
# `timeout -s KILL`, a CI job cancelled or a systemd stop kill the group,
# and the janitor, which once shared it, died with kbench and left the
# private directory full (480 to 580 files of fs.create).  Here `kbench
# run` of a benchmark that makes many files, and `kbench contest`, each in
# a group of its own (as setsid or a job control shell put it), are killed
# with the whole group mid-way: soon after, no process of theirs is left
# and --tmpdir is empty.  The janitor still ends once it has cleaned up.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
u=$$

# The pattern for pgrep that finds MARK but not the shell of a check naming it.
pat() { echo "[${1%"${1#?}"}]${1#?}"; }
# gone MARK: wait (at most 10 s) until no process has MARK and --tmpdir is empty
gone() {
	i=0
	while { pgrep -f "$(pat "$1")" >/dev/null || [ -n "$(ls -A "$T/tmp")" ]; } && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

mark="JANRUN_$u"
setsid "$KB" run --only fs.create.0k --replicas 1 --max-time 5 --label "$mark" --no-store \
	--tmpdir "$T/tmp" --quiet >/dev/null 2>&1 &
i=0
# Until the benchmark has made files in its private directory.
while [ "$(find "$T/tmp" -type f 2>/dev/null | head -50 | wc -l)" -lt 50 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
files=$(find "$T/tmp" -type f | wc -l)
pgid=$(ps -o pgid= -p "$(pgrep -o -f "$(pat "$mark")")" | tr -d ' ')
check "run: the benchmark made files ($files) in its own process group ($pgid)" \
	sh -c "[ $files -ge 50 ] && [ -n '$pgid' ]"
sid=$(ps -o sid= -p "$(pgrep -o -f "$(pat "$mark")")" | tr -d ' ')
check "run: the janitor is in a session of its own" sh -c \
	"[ \$(ps -e -o sid=,args= | grep '$(pat "$mark")' | awk '{print \$1}' | sort -u | wc -l) -ge 2 ]"
kill -KILL "-$pgid"
wait 2>/dev/null
gone "$mark"
check "run: after a SIGKILL of the group, no process of kbench's is left" \
	sh -c "! pgrep -f '$(pat "$mark")' >/dev/null"
check "run: after a SIGKILL of the group, --tmpdir is empty" \
	sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"

mark="JANCONTEST_$u"
setsid "$KB" contest --workload "sleep 35.1$u" --loads dbench_load --label "$mark" --no-store \
	--settle 0.2 --load-scale 0.01 --timeout 600 --tmpdir "$T/tmp" --quiet >/dev/null 2>&1 &
i=0
while ! pgrep -f "^sleep 35\.1$u\$" >/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
pgid=$(ps -o pgid= -p "$(pgrep -o -f "$(pat "$mark")")" | tr -d ' ')
check "contest: the job runs under dbench_load, in its own group ($pgid)" \
	sh -c "pgrep -f '^sleep 35\.1$u\$' >/dev/null && [ -n '$pgid' ]"
kill -KILL "-$pgid"
wait 2>/dev/null
gone "$mark"
check "contest: after a SIGKILL of the group, no kbench, load or job is left" \
	sh -c "! pgrep -f '$(pat "$mark")' >/dev/null && ! pgrep -f '^sleep 35\.1$u\$' >/dev/null"
check "contest: after a SIGKILL of the group, --tmpdir is empty" \
	sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"

# Killed alone, kbench takes its janitor with it once the directory is clean.
mark="JANALONE_$u"
"$KB" run --only fs.create.0k --replicas 1 --max-time 5 --label "$mark" --no-store \
	--tmpdir "$T/tmp" --quiet >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(find "$T/tmp" -type f 2>/dev/null | head -50 | wc -l)" -lt 50 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -KILL "$pid"
wait 2>/dev/null
gone "$mark"
check "run: after a SIGKILL of kbench alone, no janitor and no file left" \
	sh -c "! pgrep -f '$(pat "$mark")' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\" ]"

echo "1..$n"
