#!/bin/sh
# Run the libFuzzer harnesses of fuzz/ (import, the option and size parser,
# the selector grammar) one after another, SECONDS each (600 by default),
# under nice -n 19 since the CPUs are shared, and print per harness the
# seconds run, the executions, their rate, the code edges covered, the
# corpus reached and the crashes found.  Builds them first with clang in FUZZ_BUILD (build-fuzz):
# meson -Dfuzz=true, every file instrumented, ASan and UBSan on.
#
# Each harness starts from its seed corpus, fuzz/corpus/NAME/ (a copy: the
# repository's corpus changes only with MERGE=1, which folds into it the
# inputs that reach new code, minimised); with CORPUS=dir the copy is kept
# in dir/NAME/, so that a second run goes on from where the first stopped.  A crash does not end the run:
# the input is kept as OUT/NAME-crash-*, OUT/NAME-timeout-* (an input
# slower than 10 s) or OUT/NAME-oom-*, and fuzzing resumes for the time
# left.  Exit status 1 when any harness crashed, so CI can use it.
#
# usage: SECONDS=600 sh bench/fuzz.sh [NAME ...]
#        (FUZZ_BUILD=dir, OUT=dir for the crash inputs: FUZZ_BUILD/crashes,
#        CORPUS=dir, MERGE=1)
set -eu
# First: bash counts SECONDS up from its start; its value is wanted as given.
TIME=${1:-}
case $TIME in
'' | *[!0-9]*) TIME=${SECONDS:-600} ;;
*) shift ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FUZZ_BUILD=${FUZZ_BUILD:-$ROOT/build-fuzz}
OUT=${OUT:-$FUZZ_BUILD/crashes}
MERGE=${MERGE:-0}
NAMES=${*:-import opt select escape}

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
	exit 2
fi
if [ ! -f "$FUZZ_BUILD/build.ninja" ]; then
	(cd "$ROOT" && CC=clang meson setup "$FUZZ_BUILD" -Dfuzz=true -Dtests=false >/dev/null)
fi
for name in $NAMES; do
	nice -n 19 ninja -C "$FUZZ_BUILD" "fuzz/fuzz_$name" >/dev/null
done
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kbench-fuzz-run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'); $TIME s a harness; clang $(clang --version | sed -n 's/.*clang version \([0-9.]*\).*/\1/p;q')"
echo
echo "| harness | seconds | executions | exec/s | edges covered | corpus (inputs) | crashes |"
echo "|---|---|---|---|---|---|---|"
status=0
for name in $NAMES; do
	bin="$FUZZ_BUILD/fuzz/fuzz_$name"
	corpus="${CORPUS:-$WORK}/$name"
	mkdir -p "$corpus"
	cp "$ROOT/fuzz/corpus/$name/"* "$corpus/"
	before=$(ls "$OUT" | grep -c "^$name-" || true)
	start=$(date +%s)
	execs=0
	cov=
	left=$TIME
	# One libFuzzer session per crash: it stops at the first, this goes on.
	while [ "$left" -gt 0 ]; do
		rc=0
		# TMPDIR: a harness that crashes leaves its databases where this removes them.
		TMPDIR="$WORK" nice -n 19 "$bin" -max_total_time="$left" -timeout=10 -print_final_stats=1 \
			-dict="$ROOT/fuzz/$name.dict" -artifact_prefix="$OUT/$name-" \
			"$corpus" >"$WORK/log" 2>&1 || rc=$?
		e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/log" | tail -1)
		c=$(grep -a ' cov: ' "$WORK/log" | tail -1 | sed 's/.* cov: \([0-9]*\).*/\1/')
		cov=${c:-${cov:-?}}
		execs=$((execs + ${e:-0}))
		if [ "$rc" != 0 ]; then
			status=1
			grep -aE '^(fuzz:|SUMMARY|==[0-9]+==ERROR)' "$WORK/log" | head -3 | sed "s/^/# $name: /" >&2
		fi
		left=$((TIME - ($(date +%s) - start)))
		# A harness that dies at once (it cannot start) must not loop for the whole time.
		[ "$rc" = 0 ] || [ "${e:-0}" != 0 ] || break
	done
	secs=$(($(date +%s) - start))
	crashes=$(($(ls "$OUT" | grep -c "^$name-" || true) - before))
	echo "| $name | $secs | $execs | $((execs / (secs > 0 ? secs : 1))) | $cov | $(ls "$corpus" | wc -l) | $crashes |"
	if [ "$MERGE" = 1 ]; then
		nice -n 19 "$bin" -merge=1 -dict="$ROOT/fuzz/$name.dict" "$ROOT/fuzz/corpus/$name" \
			"$corpus" >/dev/null 2>&1
	fi
done
[ "$status" = 0 ] || echo "crash inputs in $OUT (replay one: $FUZZ_BUILD/fuzz/fuzz_NAME FILE)"
exit "$status"
