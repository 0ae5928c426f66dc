#!/bin/sh
# Command-line tests of AIM Suite IX (issue 16): its 60 rows under AIM9's
# names in AIM9's order, each with AIM9's factor and unit text (checked
# against the table below, written from AIM9's register_test calls and
# published runs, and the whole list --json against its golden file);
# aim9-short's four; a short run of aim9-short in AIM9's table, compare's
# section with its units; the disk tests leaving nothing behind, also after
# Ctrl-C.  The figures are not judged (the machine is shared).  TAP like cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.05 --replicas 1 --tmpdir $T/tmp --quiet"
DB="$T/a.db"

# AIM9's table: name|factor (ops one call counts for; the disk tests' at the
# default 5 MiB file)|unit text.
cat >"$T/want" <<'TABLE'
add_double|18000|Thousand Double Precision Additions/second
add_float|12000|Thousand Single Precision Additions/second
add_long|60000|Thousand Long Integer Additions/second
add_int|60000|Thousand Integer Additions/second
add_short|24000|Thousand Short Integer Additions/second
creat-clo|1000|File Creations and Closes/second
page_test|1700|System Allocations & Pages/second
brk_test|17000|System Memory Allocations/second
jmp_test|1000|Non-local gotos/second
signal_test|1000|Signal Traps/second
exec_test|5|Program Loads/second
fork_test|100|Task Creations/second
link_test|63|Link/Unlink Pairs/second
disk_rr|5120|Random Disk Reads (K)/second
disk_rw|5120|Random Disk Writes (K)/second
disk_rd|5120|Sequential Disk Reads (K)/second
disk_wrt|5120|Sequential Disk Writes (K)/second
disk_cp|5120|Disk Copies (K)/second
sync_disk_rw|2560|Sync Random Disk Writes (K)/second
sync_disk_wrt|2560|Sync Sequential Disk Writes (K)/second
sync_disk_cp|2560|Sync Disk Copies (K)/second
disk_src|75|Directory Searches/second
div_double|3000|Thousand Double Precision Divides/second
div_float|3000|Thousand Single Precision Divides/second
div_long|900|Thousand Long Integer Divides/second
div_int|900|Thousand Integer Divides/second
div_short|900|Thousand Short Integer Divides/second
fun_cal|512000|Function Calls (no arguments)/second
fun_cal1|512000|Function Calls (1 argument)/second
fun_cal2|512000|Function Calls (2 arguments)/second
fun_cal15|512000|Function Calls (15 arguments)/second
sieve|5|Integer Sieves/second
mul_double|12000|Thousand Double Precision Multiplies/second
mul_float|12000|Thousand Single Precision Multiplies/second
mul_long|240|Thousand Long Integer Multiplies/second
mul_int|240|Thousand Integer Multiplies/second
mul_short|300|Thousand Short Integer Multiplies/second
num_rtns_1|100|Numeric Functions/second
new_raph|200|Zeros Found/second
trig_rtns|10000|Trigonometric Functions/second
matrix_rtns|100|Point Transformations/second
array_rtns|20|Linear Systems Solved/second
string_rtns|100|String Manipulations/second
mem_rtns_1|30000|Dynamic Memory Operations/second
mem_rtns_2|100|Block Memory Operations/second
sort_rtns_1|10|Sort Operations/second
misc_rtns_1|10|Auxiliary Loops/second
dir_rtns_1|10000|Directory Operations/second
shell_rtns_1|1|Shell Scripts/second
shell_rtns_2|1|Shell Scripts/second
shell_rtns_3|1|Shell Scripts/second
series_1|100|Series Evaluations/second
shared_memory|100|Shared Memory Operations/second
tcp_test|90|TCP/IP Messages/second
udp_test|100|UDP/IP DataGrams/second
fifo_test|100|FIFO Messages/second
stream_pipe|100|Stream Pipe Messages/second
dgram_pipe|100|DataGram Pipe Messages/second
pipe_cpy|100|Pipe Messages/second
ram_copy|25020|Memory to Memory Copy/second
TABLE

kb list --suite aim9
check "list --suite aim9 exits 0" [ "$rc" = 0 ]
check "list --suite aim9: the 60, in AIM9's order" \
	[ "$(awk '/^[a-z0-9]+\./ { print $1 }' "$T/out" | tr '\n' ' ')" = "$(awk -F'|' '{ printf "aim9.%s ", $1 }' "$T/want")" ]
kb list --suite aim9 --json
check "list --suite aim9 --json exits 0" [ "$rc" = 0 ]
golden "list --suite aim9 --json: golden" aim9_list.json
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
want = [l.rstrip("\n").split("|") for l in open(sys.argv[2])]
got = [(r["id"][len("aim9."):], r["ops"], r["unit"], r["better"]) for r in rows]
bad = [(w, g) for w, g in zip(want, got) if (w[0], float(w[1]), w[2], "higher") != g]
sys.exit(1 if bad or len(got) != len(want) else 0)
' "$T/out" "$T/want"
check "every test's factor and unit text are AIM9's, bigger is better" [ $? = 0 ]

kb list --suite aim9-short
check "list --suite aim9-short: mmtests' four" \
	[ "$(awk '/^[a-z0-9]+\./ { print $1 }' "$T/out" | tr '\n' ' ')" = "aim9.page_test aim9.brk_test aim9.exec_test aim9.fork_test " ]
kb list --suite standard
check "list --suite standard has no aim9 row" sh -c "! grep -q '^aim9\.' '$T/out'"

kb run --suite aim9-short --label 6.18 --db "$DB" $FAST
check "a run of aim9-short exits 0" [ "$rc" = 0 ]
check "run prints AIM9's table" \
	grep -q '^AIM Independent Resource Benchmark - Suite IX - 6.18$' "$T/out"
kb run --suite aim9-short --label 6.19 --db "$DB" $FAST
check "a second label exits 0" [ "$rc" = 0 ]
kb summary --db "$DB"
check "summary exits 0" [ "$rc" = 0 ]
check "summary: a block per label" \
	[ "$(grep -c '^AIM Independent Resource Benchmark - Suite IX - 6.1[89]$' "$T/out")" = 2 ]
# Elapsed and count are '-' where a replica took one sample (fork_test under ASan).
check "summary: the four with AIM9's numbers, each with a rate and its unit below" \
	[ "$(grep -Ec '^ +(7 page_test|8 brk_test|11 exec_test|12 fork_test) +([0-9.]+|-) +([0-9]+|-) +[0-9.]+ +[0-9.]+' "$T/out")" = 8 ]
check "summary: the unit lines" \
	[ "$(grep -Ec '^     (System Allocations & Pages|System Memory Allocations|Program Loads|Task Creations)/second$' "$T/out")" = 8 ]
check "summary: the table fits 80 columns" [ "$(awk 'length > 80' "$T/out" | wc -l)" = 0 ]
check "summary: aim9 results are not among Other results" \
	sh -c "! sed -n '/^Other results/,\$p' '$T/out' | grep -q 'aim9\.'"
kb compare 6.18 6.19 --db "$DB"
check "compare exits 0" [ "$rc" = 0 ]
check "compare: AIM9 in a section of its own, each row ending with its unit" \
	[ "$(sed -n '/^AIM Suite IX/,/geometric mean/p' "$T/out" | grep -Ec '^aim9\.[a-z_]+ .*%.*  (System Allocations & Pages|System Memory Allocations|Program Loads|Task Creations)/second$')" = 4 ]
kb show aim9.fork_test --db "$DB"
check "show of an aim9 result names its unit" grep -q 'Task Creations/second' "$T/out"

# The disk tests: files in the private directory only, none left behind.
kb run --only 'aim9.disk_*,aim9.creat-clo,aim9.link_test,aim9.disk_src' --no-store --size 64K $FAST
check "the disk tests at --size 64K exit 0" [ "$rc" = 0 ]
check "the disk tests leave nothing in the private directory" [ -z "$(ls -A "$T/tmp")" ]
kb run --only aim9.disk_rr --no-store --size 5000 $FAST
check "a file size not in 1 KiB blocks: the test skips with its reason" \
	grep -q "aim9.disk_rr: skip: a file of 5000 bytes (--size) is not a whole number of AIM9's 1024-byte blocks" "$T/out"
"$KB" run --only 'aim9.sync_disk_*,aim9.disk_*' --no-store --tmpdir "$T/tmp" --quiet >"$T/out" 2>&1 &
pid=$!
# Under way: a disk test's file in its private directory.
wait_for eval "find '$T/tmp' -type f | grep -q ."
kill -INT "$pid"
wait "$pid"
rc=$?
check "Ctrl-C in the disk tests: exit 130" [ "$rc" = 130 ]
wait_for no_leftovers "$T/tmp"
check "Ctrl-C in the disk tests: nothing left behind" no_leftovers "$T/tmp"
echo "1..$n"
