#!/bin/sh
# Command-line tests of the memory latency rows: the curve has its series
# and points, the cache levels read it from the same run (and a run that
# names only a level measures the curve first), the chase is validated,
# and what cannot be done (a curve with --parallel, a level the curve does
# not show) is a skip with its reason.  Small arrays, short budgets;
# timings are never asserted.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.2 --tmpdir $T/tmp --quiet --no-store"

# result ID FIELD: one field of one result of the run --json in $T/out
field() {
	tr -d ' \n' <"$T/out" | grep -o "\"id\":\"$1\"[^}]*" | grep -o "\"$2\":[^,]*" | head -1 |
		cut -d: -f2 | tr -d '"'
}

# --- the curve, small: up to 1 MiB, quick's octave steps --------------------
kb run --suite quick --only mem.lat.curve --size 1m --json $FAST
check "mem.lat.curve runs (exit 0)" [ "$rc" = 0 ]
"$JC" run <"$T/out" >"$T/jc" 2>&1
# jsoncheck also checks the curve's own figure is its last point's.
check "its JSON is sane, points included" grep -q "results 1 ok 1" "$T/jc"
# 512 B to 1 MiB in octaves: 12 sizes, for each of the two series.
check "the curve has the page and random series, 12 points each" \
	grep -qx "curve mem.lat.curve points 24 series page,random top 1048576" "$T/jc"
check "the curve records how many points were noisy" grep -q '"noisy_points"' "$T/out"
check "the curve records how many cache levels it shows" grep -q '"levels"' "$T/out"

# standard takes two points an octave; full adds lmbench's strides
kb run --suite standard --only mem.lat.curve --size 64k --max-time 0.1 --json --tmpdir "$T/tmp" --quiet --no-store
"$JC" run <"$T/out" >"$T/jc" 2>&1
# 512 B to 64 KiB by half octaves, lines below a page and pages above: 14
# sizes (5.8 KiB rounds to the 4 KiB page already there).
check "standard: half-octave steps (14 sizes a series)" \
	grep -qx "curve mem.lat.curve points 28 series page,random top 65536" "$T/jc"
kb run --suite full --only mem.lat.curve --size 64k --max-time 0.1 --json --tmpdir "$T/tmp" --quiet --no-store
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "full: strides between the page and random series" \
	grep -qx "curve mem.lat.curve points .* series page,stride64,stride256,stride1024,stride4096,random top 65536" "$T/jc"

# --- levels need the curve -----------------------------------------------
kb run --suite quick --only mem.lat.l1 --size 1m --json $FAST
check "a run of mem.lat.l1 alone exits 0" [ "$rc" = 0 ]
check "it measured mem.lat.curve first" sh -c "grep -o '\"id\": \"mem.lat[a-z0-9.]*\"' '$T/out' | tr '\n' ' ' | grep -q 'curve.*l1'"
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "both results are sane" grep -q "results 2 ok" "$T/jc"
# L1 is the first step on any machine kbench knows; its size is recorded with the OS's.
check "mem.lat.l1 was measured (status ok or noisy)" sh -c "[ '$(field mem.lat.l1 status)' = ok ] || [ '$(field mem.lat.l1 status)' = noisy ]"
check "mem.lat.l1 records the size it found" [ -n "$(field mem.lat.l1 detected)" ]
check "mem.lat.l1 records the size the OS gives" [ -n "$(field mem.lat.l1 os_size)" ]
# Sizes are whole bytes printed as JSON reals ("12288.0"): compare them as integers.
# The size is the OS's L1 halved where the OS gives one, the curve's otherwise:
# the same in every run, where the curve's steps move.
size=$(field mem.lat.l1 size); size=${size%.*}
found=$(field mem.lat.l1 detected); found=${found%.*}
os=$(field mem.lat.l1 os_size); os=${os%.*}
if [ "${os:-0}" -gt 0 ]; then
	check "mem.lat.l1 measured at half the L1 the OS gives" [ "$((size * 2))" -eq "$os" ]
else
	check "mem.lat.l1 measured at half the L1 found" [ "$((size * 2))" -le "${found:-0}" ]
fi

# L2 and L3 at twice the level below: past it, so every load misses it.
kb run --suite quick --only mem.lat.l2 --size 32m --json $FAST
check "mem.lat.l2 was measured (status ok or noisy)" sh -c "[ '$(field mem.lat.l2 status)' = ok ] || [ '$(field mem.lat.l2 status)' = noisy ]"
size=$(field mem.lat.l2 size); size=${size%.*}
os=$(field mem.lat.l2 os_size); os=${os%.*}
if [ "${os:-0}" -gt 0 ] && [ -r /sys/devices/system/cpu/cpu0/cache/index0/size ]; then
	l1=$(for d in /sys/devices/system/cpu/cpu0/cache/index*; do
		[ "$(cat $d/level)" = 1 ] && [ "$(cat $d/type)" != Instruction ] && cat $d/size; done | head -1)
	l1=${l1%K}
	check "mem.lat.l2 measured at twice the OS's L1" [ "$size" -eq "$((l1 * 2048))" ]
fi

# A level the curve does not reach is a skip with its reason, not a guess:
# a curve that stops at 8 KiB shows nothing at twice L2, where L3 is
# measured, nor main memory past it, however noisy the machine.
kb run --suite quick --only 'mem.lat.l3' --size 8k --json $FAST
check "a level beyond the curve: exit 0 (a skip is not a failure)" [ "$rc" = 0 ]
check "mem.lat.l3 skips on a curve that cannot show it" [ "$(field mem.lat.l3 status)" = skip ]
check "the skip says why" grep -Eq 'mem.lat.curve stops at 8 KiB, short of the [0-9]+ KiB L3 is measured at|mem.lat.curve shows [0-9] cache levels? and the OS gives no L2 size|no cache level found on mem.lat.curve and the OS gives no sizes' "$T/out"

# --- main memory ------------------------------------------------------------
kb run --only mem.lat.main --size 4m --json $FAST
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "mem.lat.main runs over the size asked" sh -c "grep -q 'results 1 ok 1' '$T/jc' && [ '$(field mem.lat.main size)' = 4194304.0 ]"
check "the loop overhead is measured and subtracted" grep -q '"overhead_op"' "$T/out"

# --- the watchdog gives a curve time for its points -------------------------
# 512 B to 8 KiB in octaves, two series: 10 points, so 1 s x (1 + 10/4) = 3.5 s.
KBENCH_TEST_HANG=mem.lat.curve "$KB" run --suite quick --only mem.lat.curve --size 8k \
	--watchdog 1 --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "a hung curve is killed by the watchdog (exit 1)" [ "$rc" = 1 ]
check "its limit counts the points: 3.5 s for 10 points at --watchdog 1" \
	grep -q '"reason": "watchdog: still running after 4 s, killed"' "$T/out"

# --- what cannot be done ----------------------------------------------------
kb run --only mem.lat.curve --size 64k --parallel 2 --json $FAST
check "a curve with --parallel skips" [ "$(field mem.lat.curve status)" = skip ]
check "the skip says why" grep -q 'a curve is measured one copy at a time' "$T/out"
kb run --only mem.lat.main --size 1000g $FAST
check "--size beyond memory is refused (exit 2)" [ "$rc" = 2 ]
check "--size beyond memory: says how much is available" sh -c "head -1 '$T/err' | grep -q 'more than half of the .* MiB available'"
check "nothing left in the temporary directory" [ -z "$(ls -A "$T/tmp")" ]

echo "1..$n"
