#!/bin/sh
# --cpus and --offline-cpus (issue 15): the affinity inherited by every
# process kbench starts and recorded with the run, bad lists refused, and
# CPUs taken offline brought back after a normal end, SIGINT and SIGKILL.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"

TK="--tmpdir $T/tmp"
ONLINE=/sys/devices/system/cpu/online
before=$(cat "$ONLINE" 2>/dev/null)
# Whatever happens to a test, the machine gets its CPUs back.
restore_cpus() {
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ -w "$f" ] && [ "$(cat "$f")" = 0 ] && echo 1 >"$f"
	done 2>/dev/null
	lib_cleanup
}
trap restore_cpus EXIT
jfield() { python3 -c "
import json, sys
d = json.load(open('$T/out'))
print(eval(sys.argv[1]))" "$1"; }

# --- runs on different CPUs are different rows ----------------------------
if [ "$PLATFORM" != posix ] && [ "$(nproc)" -ge 2 ]; then
	kb run --db "$T/c.db" $TK --quiet --only sys.null --max-time 0.05 --replicas 1 --cpus 0 --json
	check "the default label names the CPUs a run was held to" \
		sh -c "[ \"\$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"runs\"][0][\"label\"])' '$T/out')\" != '' ] && grep -q ' cpus 0\"' '$T/out'"
	for c in 0 1 all; do
		if [ $c = all ]; then
			kb run --db "$T/c.db" $TK --quiet --only sys.null --max-time 0.05 --replicas 1 --label L
		else
			kb run --db "$T/c.db" $TK --quiet --only sys.null --max-time 0.05 --replicas 1 --label L --cpus $c
		fi
	done
	kb summary L --db "$T/c.db"
	check "one label on cpu 0, cpu 1 and all of them: three rows, each named by its CPUs" \
		sh -c "grep -q '(L cpus 0) ran on cpus 0 only' '$T/out' && grep -q '(L cpus 1) ran on cpus 1 only' '$T/out' &&
		       grep -qE ' L cpus 0 +[0-9]+ ' '$T/out' && grep -qE ' L cpus 1 +[0-9]+ ' '$T/out' &&
		       grep -qE ' L cpus all +[0-9]+ ' '$T/out'"
else
	skip "the default label names the CPUs a run was held to" "needs CPU affinity and two CPUs"
	skip "one label on cpu 0, cpu 1 and all of them: three rows, each named by its CPUs" "as above"
fi

# --- affinity -----------------------------------------------------------
kb time --no-store $TK --runs 1 --cpus 0 --show-output -- sh -c 'grep Cpus_allowed_list /proc/self/status'
needs "CPU affinity" check "--cpus 0: inherited by the command (read back in it)" \
	grep -qE '^Cpus_allowed_list:[[:space:]]+0$' "$T/out"
kb run --no-store $TK --quiet --only sys.null --max-time 0.05 --replicas 1 --cpus 0 --json
needs "CPU affinity" check "run --cpus 0: recorded as cpus 0, affinity" \
	[ "$(jfield 'd["runs"][0]["sysinfo"]["cpus"], d["runs"][0]["sysinfo"]["cpus_mode"]')" = "('0', 'affinity')" ]
kb run --no-store $TK --quiet --only sys.null --max-time 0.05 --replicas 1 --json
needs "CPU affinity" check "without --cpus: cpus_mode all" \
	[ "$(jfield 'd["runs"][0]["sysinfo"]["cpus_mode"]')" = all ]
check "the boot command line is recorded" \
	[ "$(jfield '"cmdline" in d["runs"][0]["sysinfo"]')" = True ]
kb contest --no-store $TK --quiet --workload true --loads noload --cpus 0 --json
needs "CPU affinity" check "contest --cpus 0: recorded" [ "$(jfield 'd["runs"][0]["sysinfo"]["cpus"]')" = 0 ]

# --- bad input: one line, nothing written -------------------------------
bad() { # NAME STATUS ARGS...
	name=$1 want=$2
	shift 2
	rm -f "$T/bad.db"
	kb time --db "$T/bad.db" $TK "$@"
	check "$name: exit $want, one line, nothing written" \
		sh -c "[ '$rc' = '$want' ] && [ \$(wc -l <'$T/err') = 1 ] && [ ! -e '$T/bad.db' ]"
}
needs "CPU affinity" bad "--cpus 999 (no such CPU)" 2 --cpus 999 -- true
check "it names the CPU and what is allowed" grep -q 'cpu 999 does not exist or is not allowed (allowed: ' "$T/err"
bad "--cpus x" 2 --cpus x -- true
bad "--cpus 1-0" 2 --cpus 1-0 -- true
bad "--cpus -1" 2 --cpus -1 -- true
bad "--offline-cpus without --cpus" 2 --offline-cpus -- true
kb run --no-store $TK --only sys.null --cpus 9999 --quiet
check "run --cpus 9999: refused" [ "$rc" = 2 ]

# --- offline: root, a second CPU with a hotplug file ----------------------
if [ "$PLATFORM" != posix ] && [ "$(id -u)" = 0 ] && [ -w /sys/devices/system/cpu/cpu1/online ] &&
	[ "$(nproc)" -ge 2 ]; then
	kb time --no-store $TK --runs 1 --cpus 0 --offline-cpus --show-output --json -- cat "$ONLINE"
	check "--offline-cpus: only cpu0 online while it runs" grep -q '^0$' "$T/out"
	check "and back online after" [ "$(cat "$ONLINE")" = "$before" ]
	"$KB" time --no-store $TK --runs 1 --cpus 0 --offline-cpus --json -- true >"$T/out" 2>"$T/err"
	check "recorded as offline" [ "$(python3 -c "import json; print(json.load(open('$T/out'))['runs'][0]['sysinfo']['cpus_mode'])")" = offline ]

	"$KB" time --no-store $TK --runs 1000 --cpus 0 --offline-cpus -- sleep 0.2 >/dev/null 2>&1 &
	pid=$!
	wait_for eval "[ \"\$(cat $ONLINE)\" != '$before' ]"
	kill -INT $pid
	wait $pid
	rc=$?
	check "SIGINT: exit 130, the CPUs back online" sh -c "[ '$rc' = 130 ] && [ \"\$(cat $ONLINE)\" = '$before' ]"

	"$KB" time --no-store $TK --runs 1000 --cpus 0 --offline-cpus -- sleep 0.2 >/dev/null 2>&1 &
	pid=$!
	wait_for eval "[ \"\$(cat $ONLINE)\" != '$before' ]"
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_for eval "[ \"\$(cat $ONLINE)\" = '$before' ]"
	check "SIGKILL of kbench: the guard brings the CPUs back" [ "$(cat "$ONLINE")" = "$before" ]
else
	skip "--offline-cpus: only cpu0 online while it runs" "needs root, Linux and a second CPU with hotplug"
	skip "and back online after" "as above"
	skip "recorded as offline" "as above"
	skip "SIGINT: exit 130, the CPUs back online" "as above"
	skip "SIGKILL of kbench: the guard brings the CPUs back" "as above"
fi
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1 && ! kb_for_others; then
	skip "--offline-cpus without root: refused with its reason" "no copy of kbench nobody can run: $KBO_WHY"
elif [ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1; then
	chmod 755 "$T" "$T/tmp"
	runuser -u nobody -- "$KBO" time --no-store --tmpdir "$T/tmp" --cpus 0 --offline-cpus -- true \
		>"$T/out" 2>"$T/err"
	rc=$?
	check "--offline-cpus without root: refused with its reason" \
		sh -c "[ '$rc' = 1 ] && grep -q 'needs root' '$T/err' && [ \"\$(cat $ONLINE 2>/dev/null)\" = '$before' ]"
else
	skip "--offline-cpus without root: refused with its reason" "needs root and runuser to become nobody"
fi

echo "1..$n"
