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
# gone MARK: wait (bounded) until no process has MARK and --tmpdir is empty
gone() { wait_for eval "! pgrep -f '$(pat "$1")' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\" ]"; }
# made: the benchmark has made 50 files in its private directory
made() { [ "$(find "$T/tmp" -type f 2>/dev/null | head -50 | wc -l)" -ge 50 ]; }

mark="JANRUN_$u"
setsid "$KB" run --only fs.create.0k --replicas 1 --max-time 5 --label "$mark" --no-store \
	--tmpdir "$T/tmp" --quiet >/dev/null 2>&1 &
# Until the benchmark has made files in its private directory.
wait_for made
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
wait_for pgrep -f "^sleep 35\.1$u\$" >/dev/null
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
wait_for made
kill -KILL "$pid"
wait 2>/dev/null
gone "$mark"
check "run: after a SIGKILL of kbench alone, no janitor and no file left" \
	sh -c "! pgrep -f '$(pat "$mark")' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\" ]"

# --- SIGKILL at each step -------------------------------------------------
# A SIGKILL may land at any instant, and a window between making something
# and handing it to the janitor leaves it behind for good (a private
# directory made before the janitor was started, a probe directory made
# and removed).  strace's fault injection kills kbench on entry to the K-th
# call of one system call (inject=SYSCALL:signal=KILL:when=K), as a SIGKILL
# landing at that instant would.  kbench is traced once to find its calls
# that make or undo something (a process, a pipe or one of its ends, a file
# or directory, a process group, a signal sent, a child reaped, a line
# written), from its first look at --tmpdir to its exit; then it is killed
# at each of them in turn, and after each nothing of it may be left: no
# process bearing its mark, nothing in --tmpdir, no cgroup of kbench's.
. "$KBENCH_TESTS/apt.sh"
STRACE_WHY=
if ! command -v strace >/dev/null 2>&1 && ! apt_install strace; then
	STRACE_WHY=$APT_WHY
fi
[ -z "$STRACE_WHY" ] && ! strace -o /dev/null true 2>/dev/null && STRACE_WHY="strace cannot trace here (ptrace refused)"
# The calls a trace of kbench shows, each as "SYSCALL K" (its K-th call).
steps() {
	awk '
	{ name = $0; sub(/\(.*/, "", name); k[name]++ }
	/O_TMPFILE|^mkdir\(/ { on = 1 }
	!on { next }
	name == "pipe2" { fds = $0; sub(/^pipe2\(\[/, "", fds); sub(/\].*/, "", fds)
		split(fds, f, ", "); pipe[f[1]] = 1; pipe[f[2]] = 1 }
	name ~ /^(mkdir|rmdir|unlink|unlinkat|clone|clone3|fork|vfork|pipe2|setpgid|setsid|kill|wait4|write|prctl|fcntl|dup2|dup3)$/ {
		print name, k[name]; next }
	name == "openat" && /O_CREAT|O_TMPFILE/ { print name, k[name]; next }
	name == "close" { fd = $0; sub(/^close\(/, "", fd); sub(/\).*/, "", fd)
		if (fd in pipe) { print name, k[name]; delete pipe[fd] } }
	' "$1"
}
kb_cgroups() { find /sys/fs/cgroup -maxdepth 6 -type d -name 'kbench-*' 2>/dev/null | sort; }
# sweep NAME MARK ARGS...: kbench ARGS killed at each of its steps; a check
# that nothing was left after any, naming the steps that left something.
sweep() {
	what=$1 mark=$2
	shift 2
	strace -o "$T/trace" "$KB" "$@" >/dev/null 2>&1
	steps "$T/trace" >"$T/steps"
	kb_cgroups >"$T/cg-before"
	: >"$T/left"
	while read -r call k; do
		# Three steps that left something say enough, and each waited the bound.
		[ "$(lines "$T/left")" -ge 3 ] && break
		strace -o /dev/null -e "inject=$call:signal=KILL:when=$k" "$KB" "$@" >/dev/null 2>&1
		clean() { ! pgrep -f "$(pat "$mark")" >/dev/null && [ -z "$(ls -A "$T/tmp")" ] &&
			kb_cgroups | cmp -s - "$T/cg-before"; }
		if ! wait_for clean; then
			echo "$call#$k: $(pgrep -f "$(pat "$mark")" | wc -l) processes, tmp: $(ls "$T/tmp" | tr '\n' ' ')" >>"$T/left"
			clear_leftovers "$(pat "$mark")"
			kb_cgroups | comm -13 "$T/cg-before" - | while read -r c; do rmdir "$c"; done
		fi
	done <"$T/steps"
	check "$what: killed at each of its $(lines "$T/steps") steps, nothing left" \
		sh -c "[ $(lines "$T/steps") -ge 10 ] && [ ! -s '$T/left' ]"
	[ -s "$T/left" ] && head -5 "$T/left" | sed 's/^/# /'
}
if [ -n "$STRACE_WHY" ]; then
	skip "time: killed at each of its steps, nothing left" "$STRACE_WHY"
	skip "run: killed at each of its steps, nothing left" "$STRACE_WHY"
else
	# The job's daemon escapes every process group: only the cgroup reaches it.
	if [ "$(id -u)" = 0 ] && grep -q ' cgroup2 ' /proc/mounts; then
		job="setsid sh -c 'sleep 36.1$u; true' & sleep 0.05"
	else
		job="sleep 0.05; : 36.1$u"
	fi
	sweep time "36\.1$u" time --no-store --tmpdir "$T/tmp" --runs 1 -- sh -c "$job"
	sweep run "JANSTEP_$u" run --only sys.null --replicas 1 --max-time 0.05 --label "JANSTEP_$u" \
		--no-store --tmpdir "$T/tmp" --quiet
fi

echo "1..$n"
