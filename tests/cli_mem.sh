#!/bin/sh
# Command-line tests of the memory bandwidth benchmarks (mem.*.bw): each
# runs on a small buffer with its work validated and records the size
# asked; the full suite makes each a curve over sizes (series "size", in
# octaves from 4 KiB, ending at the row's own size), the other suites a
# single figure; a pass that does no work (KBENCH_TEST_MEM_SKIP) fails the
# run; sizes that are not sizes or do not fit in memory get one line and
# status 2.  TAP output like tests/cli.sh; timings are never asserted.
#
# The full suite's default sweep (4 KiB to 4x the last-level cache, 16
# points on a 32 MiB cache) takes about 10 s a row, too slow here: the
# point count is tested on small --size values instead, where the same
# code chooses the points.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
unset KBENCH_TEST_MEM_SKIP
FAST="--max-time 0.2 --tmpdir $T/tmp --quiet --no-store"
IDS='mem.bcopy_libc.bw,mem.bcopy_hand.bw,mem.read.bw,mem.write.bw'

# sane N: the run --json in $T/out has N results, all ok or noisy
sane() { "$JC" run <"$T/out" 2>/dev/null | grep -q "results $1 ok $1\$"; }
# curve ID N: the run --json in $T/out has a curve ID of N points, series size
# (jsoncheck may add more after the series, e.g. the largest x)
curve() { "$JC" run <"$T/out" 2>/dev/null | grep -q "^curve $1 points $2 series size\( \|\$\)"; }
# xs: the x of every point in $T/out, one line, in order
xs() { tr -d ' \n' <"$T/out" | grep -o '"x":[0-9.e+]*' | sed 's/"x"://; s/\.0$//' | tr '\n' ' '; }
# sized N: how many results in $T/out record the value size N (jansson
# may print N.0; sysinfo's caches have sizes too, hence "values")
sized() { tr -d ' \n' <"$T/out" | grep -o "\"values\":{\"size\":$1\(\.0\)\?[,}]" | wc -l | tr -d ' '; }

# --- every benchmark, small, validated -------------------------------------
kb run --only "$IDS" --size 1m --json $FAST
check "the four rows run on 1 MiB (exit 0)" [ "$rc" = 0 ]
check "the four rows are sane" sane 4
check "every row records the size asked" [ "$(sized 1048576)" = 4 ]
check "a single figure outside the full suite: no points" sh -c "! grep -q '\"series\"' '$T/out'"
kb run --only "$IDS" --size 1m $FAST
check "text report (exit 0)" [ "$rc" = 0 ]
check "the text report gives MB/s" grep -q 'MB/s' "$T/out"
kb run --only "$IDS" --size 5001 --json $FAST
check "a size that is no whole number of words (5001 bytes) works" sane 4
check "5001 bytes recorded as asked" [ "$(sized 5001)" = 4 ]
kb run --only 'mem.read.bw,mem.write.bw' --size 3m --json $FAST
check "a size above the huge-page alignment (3 MiB) works" sane 2
check "huge pages were asked for at 3 MiB" [ "$(grep -c '"huge_pages_asked": 1' "$T/out")" = 2 ]
kb run --only mem.read.bw --size 1m --parallel 2 --json $FAST
check "--parallel 2 runs a copy of the buffer each" sane 1
check "--parallel 2 gives an aggregate" grep -q '"aggregate": [0-9]' "$T/out"

# --- curves in the full suite ------------------------------------------------
kb run --suite full --only mem.read.bw --size 64k --json $FAST
check "full suite: mem.read.bw is sane" sane 1
check "full suite: 4k..64k is a curve of 5 points, series size" curve mem.read.bw 5
check "full suite: the points are the octaves, ending at the size" [ "$(xs)" = "4096 8192 16384 32768 65536 " ]
check "full suite: the result's size is the last point's" [ "$(sized 65536)" = 1 ]
kb run --suite full --only mem.bcopy_hand.bw --size 20000 --json $FAST
check "full suite: a size between octaves ends the curve (4 points)" curve mem.bcopy_hand.bw 4
check "full suite: 4k 8k 16k then the size itself" [ "$(xs)" = "4096 8192 16384 20000 " ]
kb run --suite full --only mem.write.bw --size 4k --json $FAST
check "full suite: the smallest size is a curve of one point" curve mem.write.bw 1
kb run --suite full --only mem.bcopy_libc.bw --size 64k --parallel 2 --json $FAST
check "full suite with --parallel 2: a skip, not a failure (exit 0)" [ "$rc" = 0 ]
check "full suite with --parallel 2: says why" grep -q 'a curve is measured one copy at a time' "$T/out"

# --- a pass that does no work is caught -------------------------------------
for id in bcopy_libc bcopy_hand write; do
	KBENCH_TEST_MEM_SKIP=3 "$KB" run --only mem.$id.bw --size 64k --json $FAST >"$T/out" 2>"$T/err"; rc=$?
	check "mem.$id.bw: a pass skipped fails the run (exit 1)" [ "$rc" = 1 ]
	check "mem.$id.bw: the failure names the pass" grep -q "pass 3 did not" "$T/out"
done
KBENCH_TEST_MEM_SKIP=3 "$KB" run --only mem.read.bw --size 64k --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "mem.read.bw: a sum not taken fails the run (exit 1)" [ "$rc" = 1 ]
check "mem.read.bw: the stale sum is reported" grep -q "pass 3 read a sum of" "$T/out"
KBENCH_TEST_MEM_SKIP=2 "$KB" run --suite full --only mem.read.bw --size 16k --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "a curve point that fails names its size" sh -c "[ $rc = 1 ] && grep -q '(at size 4096)' '$T/out'"

# --- bad sizes ---------------------------------------------------------------
kb run --only mem.read.bw --size 1t $FAST
check "--size 1t exits 2" [ "$rc" = 2 ]
check "--size 1t: one line and a hint" [ "$(lines "$T/err")" -le 2 ]
check "--size 1t: names it" grep -q "'1t'" "$T/err"
kb run --only mem.bcopy_libc.bw --size 1024g $FAST
check "--size larger than memory allows exits 2" [ "$rc" = 2 ]
check "--size larger than memory: says what is available" grep -q 'MiB available' "$T/err"
check "--size larger than memory: one line and a hint" [ "$(lines "$T/err")" -le 2 ]
kb run --only mem.read.bw --size 0 $FAST
check "--size 0 exits 2" sh -c "[ $rc = 2 ] && grep -q 'out of range' '$T/err'"
kb run --only mem.read.bw --size abc $FAST
check "--size abc exits 2 naming it" sh -c "[ $rc = 2 ] && grep -q \"'abc' is not a size\" '$T/err'"
check "nothing left in the temporary directory" [ -z "$(ls -A "$T/tmp")" ]

echo "1..$n"
