#!/bin/sh
# Every way a contest can be stopped (issue 13): SIGINT, SIGTERM, SIGHUP,
# SIGKILL of kbench, SIGKILL of its whole process group, SIGTSTP then
# SIGCONT, and a --timeout.  After each: no process left (kbench, its
# janitor, the load, the job), no file left (in --tmpdir, and none in the
# user's $TMPDIR either: the job's temporary files, a compiler's cc*.s, go
# to the contest's private directory), the measurement that finished
# stored, and the run marked as it really ended (interrupted: no finish
# time).  The job is a script that, like cc, leaves a file in $TMPDIR; its
# first call (noload) returns at once, later ones sleep until stopped.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/c.db"
FAST="--settle 0.2 --load-scale 0.01 --tmpdir $T/tmp --quiet --timeout 600"
mkdir "$T/usertmp"
# Labels and sleeps of this run's own, should another run of this file go on beside it.
u=$$
cat >"$T/job.sh" <<'EOF'
# A cc-like temporary file in $TMPDIR, kept while the job runs; a line per start.
echo "$$" >>"$FLAG.starts"
tmp=${TMPDIR:-/tmp}
: >"$tmp/ccPROBE$$.s"
if [ -e "$FLAG" ]; then
	exec sleep "$LONG"
fi
: >"$FLAG"
rm -f "$tmp/ccPROBE$$.s"
EOF

# start MARK LONG ARGS...: kbench contest labelled MARK in a process group of
# its own, as a shell's job control puts a command (in this session, so that
# the group is not orphaned and SIGTSTP can stop it), with the user's
# TMPDIR elsewhere, until a job sleeps LONG (the first one does when
# $T/flag exists); sets $bg (the waiter) and $pid (kbench, the group's id).
start() {
	mark=$1 long=$2
	shift 2
	rm -f "$T/pid"
	FLAG="$T/flag" LONG=$long TMPDIR="$T/usertmp" perl -e \
		'setpgrp(0, 0); open(my $f, ">", shift) or die; print $f "$$\n"; close $f; exec @ARGV or die' \
		"$T/pid" "$KB" contest --workload "sh $T/job.sh" --label "$mark" --db "$DB" $FAST "$@" \
		>"$T/out" 2>"$T/err" &
	bg=$!
	wait_for pgrep -f "^sleep $long\$" >/dev/null
	pid=$(cat "$T/pid" 2>/dev/null)
}
# The pattern for pgrep that finds MARK but not the shell of a check naming it.
pat() { echo "[${1%"${1#?}"}]${1#?}"; }
# gone MARK LONG: wait (bounded) until nothing of the contest is left
left() {
	pgrep -f "$(pat "$1")" >/dev/null || pgrep -f "^sleep $2\$" >/dev/null ||
		[ -n "$(ls -A "$T/tmp")$(ls -A "$T/usertmp")" ]
}
gone() { wait_for eval "! left '$1' '$2'"; }

for how in INT TERM HUP KILL GROUP; do
	case $how in
	INT) long=34.1$u ;; TERM) long=34.2$u ;; HUP) long=34.3$u ;; KILL) long=34.4$u ;; GROUP) long=34.5$u ;;
	esac
	mark="SIG${how}_$u"
	rm -f "$T/flag"
	start "$mark" $long --loads noload,tick_load
	check "SIG$how: the second job started" sh -c "pgrep -f '^sleep $long\$' >/dev/null && [ -n '$pid' ]"
	case $how in
	GROUP) kill -KILL "-$pid" ;;
	*) kill -"$how" "$pid" ;;
	esac
	wait $bg 2>/dev/null
	rc=$?
	case $how in
	INT | TERM | HUP)
		want=$(sig_exit $how)
		check "SIG$how: exit $want (128 + the signal)" [ "$rc" = $want ]
		check "SIG$how: says it was interrupted" grep -q 'interrupted by signal' "$T/err"
		;;
	*) check "SIG$how: killed (137)" [ "$rc" = 137 ] ;;
	esac
	gone "$mark" $long
	check "SIG$how: no process left (kbench, janitor, load, job)" \
		sh -c "! pgrep -f '$(pat "$mark")' >/dev/null && ! pgrep -f '^sleep $long\$' >/dev/null"
	check "SIG$how: nothing left in --tmpdir" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"
	check "SIG$how: the job's temporary file was not left in the user's TMPDIR" \
		sh -c "[ -z \"\$(ls -A '$T/usertmp')\" ]"
	check "SIG$how: the finished noload measurement is stored" sh -c \
		"\"$KB\" show contest.noload '$mark' --db '$DB' >/dev/null 2>&1"
	check "SIG$how: the run is stored with its one result" sh -c "\"$KB\" runs --db '$DB' --json | \
		grep -A12 '\"label\": \"$mark\"' | grep -q '\"nresults\": 1,'"
	check "SIG$how: the run is marked interrupted (no finish time)" sh -c "\"$KB\" runs --db '$DB' --json | \
		grep -A12 '\"label\": \"$mark\"' | grep -q '\"finished\": null'"
	rm -f "$T/usertmp"/* 2>/dev/null
done

kb runs --db "$DB"
check "runs says the interrupted contest runs were interrupted" sh -c \
	"[ \$(grep -c 'interrupted' '$T/out') -ge 5 ]"

# An interrupt before anything was measured stores no empty run that looks complete.
: >"$T/flag"
start "SIGEARLY_$u" 34.6$u --loads tick_load
kill -INT "$pid"
wait $bg 2>/dev/null
rc=$?
gone "SIGEARLY_$u" 34.6$u
check "SIGINT before any result: exit 130" [ "$rc" = 130 ]
check "SIGINT before any result: no empty run stored" sh -c "! \"$KB\" runs --db '$DB' --json | grep -q '\"label\": \"SIGEARLY_$u\"'"

# A finished contest has its finish time, in runs and in its own --json.
FLAG="$T/flag" LONG=0.1 TMPDIR="$T/usertmp" "$KB" contest --workload "sh $T/job.sh" --loads noload \
	--label "DONE_$u" --db "$DB" $FAST >/dev/null 2>&1
check "a finished contest has a finish time" sh -c "\"$KB\" runs --db '$DB' --json | \
	grep -A12 '\"label\": \"DONE_$u\"' | grep -Eq '\"finished\": \"[0-9]{4}-'"
rm -f "$T/flag"
FLAG="$T/flag" LONG=0.1 TMPDIR="$T/usertmp" "$KB" contest --workload "sh $T/job.sh" --loads noload \
	--no-store --json $FAST >"$T/out" 2>"$T/err"
check "contest --json of a finished contest: finished is a time" grep -Eq '"finished": "[0-9]{4}-' "$T/out"

# Ctrl-Z: kbench stops, and so do the job and the load (nothing runs un-timed);
# SIGCONT resumes them, the job stopped in its window is measured again, and
# the contest ends as if nothing had happened.
# The job here always sleeps, the measurement taken again too.
: >"$T/flag"
rm -f "$T/flag.starts"
start "SIGTSTP_$u" 1.37$u --loads tick_load
kill -TSTP "$pid"
# The contest's processes in kbench's session: kbench, the load, the job
# (the janitor keeps a session of its own, asleep until kbench is done).
sid=$(ps -o sid= -p "$pid" | tr -d ' ')
contest_ps() {
	ps -e -o pid=,sid=,stat=,args= | grep -E "$(pat "SIGTSTP_$u")|[s]leep 1\.37$u\$" | awk -v s="$sid" '$2 == s' >"$T/ps"
}
# Until every one of them has stopped (kbench stops the others after itself).
wait_for eval "$(command -v ps) -e -o sid=,stat=,args= | grep -E '$(pat "SIGTSTP_$u")|[s]leep 1\.37$u\$' |
	awk -v s='$sid' '\$1 == s { n++; if (\$2 !~ /^T/) bad = 1 } END { exit !(n >= 3 && !bad) }'"
contest_ps
check "SIGTSTP: kbench is stopped" sh -c "[ \"\$(ps -o stat= -p $pid | cut -c1)\" = T ]"
check "SIGTSTP: the job is stopped too" sh -c "grep -E '^ *[0-9]+ +[0-9]+ T.* sleep 1\.37$u\$' '$T/ps' >/dev/null"
check "SIGTSTP: every process of the contest is stopped (the load's too)" sh -c \
	"[ \$(wc -l <'$T/ps') -ge 3 ] && ! awk '{print \$3}' '$T/ps' | grep -qv '^T'"
kill -CONT "$pid"
wait_for eval "! ps -e -o stat=,args= | grep -qE '^T.* [s]leep 1\.37$u\$'"
check "SIGCONT: the job runs again" sh -c "! ps -e -o stat=,args= | grep -E '^T.* [s]leep 1\.37$u\$'"
wait $bg 2>/dev/null
rc=$?
check "SIGTSTP then SIGCONT: the contest ends normally (exit 0)" [ "$rc" = 0 ]
gone "SIGTSTP_$u" 1.37$u
check "SIGTSTP then SIGCONT: no process, no file left" \
	sh -c "! pgrep -f '$(pat "SIGTSTP_$u")' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\$(ls -A '$T/usertmp')\" ]"
check "SIGTSTP then SIGCONT: the result is stored, ok" sh -c \
	"\"$KB\" show contest.tick_load 'SIGTSTP_$u' --db '$DB' | grep -q '^status: *ok,'"
check "SIGTSTP then SIGCONT: the job stopped in its window was run again (2 starts)" \
	[ "$(wc -l <"$T/flag.starts")" = 2 ]
check "SIGTSTP then SIGCONT: the run has its finish time" sh -c "\"$KB\" runs --db '$DB' --json | \
	grep -A12 '\"label\": \"SIGTSTP_$u\"' | grep -Eq '\"finished\": \"[0-9]{4}-'"

# --timeout: the job killed, its temporary file with it.
FLAG="$T/flag" LONG=34.7$u TMPDIR="$T/usertmp" "$KB" contest --workload "sh $T/job.sh" --loads tick_load \
	--no-store --settle 0.2 --load-scale 0.01 --tmpdir "$T/tmp" --quiet --timeout 0.5 >"$T/out" 2>"$T/err"
rc=$?
check "--timeout: the job is stopped (exit 1)" sh -c "[ $rc = 1 ] && grep -q 'timeout of 0.5 s' '$T/out' '$T/err'"
gone "NOSUCHMARK_$u" 34.7$u
check "--timeout: no job left, nothing in --tmpdir or the user's TMPDIR" \
	sh -c "! pgrep -f '^sleep 34\.7$u\$' >/dev/null && [ -z \"\$(ls -A '$T/tmp')\$(ls -A '$T/usertmp')\" ]"

# The real thing: the generated compile stopped by --timeout mid-way leaves
# cc's temporary files (cc*.s, cc*.o) in TMPDIR; they must go with the contest.
if command -v make >/dev/null && command -v cc >/dev/null; then
	TMPDIR="$T/usertmp" "$KB" contest --size 0.05 --loads noload --timeout 0.4 --no-store \
		--tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err"
	rc=$?
	check "a compile stopped at its timeout: exit 1, no cc temporary file left in TMPDIR or --tmpdir" \
		sh -c "[ $rc = 1 ] && [ -z \"\$(ls -A '$T/usertmp')\$(ls -A '$T/tmp')\" ]"
	rm -f "$T/usertmp"/*
else
	ok "# SKIP a compile stopped at its timeout: no make or cc"
fi

# The job and the loads are given TMPDIR inside the contest's private directory.
kb contest --workload 'case "$TMPDIR" in '"$T/tmp"'/kbench-contest.*/*) exit 0 ;; esac; echo "TMPDIR=$TMPDIR" >&2; exit 1' \
	--loads noload --no-store $FAST
check "the job's TMPDIR is in the private directory under --tmpdir" [ "$rc" = 0 ]
mkdir "$T/bin"
cat >"$T/bin/tar" <<EOF
#!/bin/sh
echo "\$TMPDIR" >>"$T/tar-tmpdir"
exec "$(command -v tar)" "\$@"
EOF
chmod +x "$T/bin/tar"
PATH="$T/bin:$PATH" TMPDIR="$T/usertmp" "$KB" contest --workload 'sleep 0.3' --loads ctar_load --no-store \
	$FAST >"$T/out" 2>"$T/err"
rc=$?
check "a load's programs (tar) get TMPDIR in the private directory too" sh -c \
	"[ $rc = 0 ] && [ -s '$T/tar-tmpdir' ] && ! grep -v '^$T/tmp/kbench-contest\.[^/]*/' '$T/tar-tmpdir'"

echo "1..$n"
