#!/bin/sh
# Command-line tests of the file and VM benchmarks (fs.*, vm.*): each runs
# on small sizes with its work validated and its side figures recorded (the
# file system type, pages per fault), a fault injected half-way through
# (write, open, unlink, a short or corrupted read) makes it fail with the
# reason, and nothing is left in the temporary directory either way.
# TAP output like tests/cli.sh; timings are never asserted.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.2 --quiet --no-store"

# A tmpfs of our own where mounting is allowed (root), to see fs_type follow
# the directory; unmounted before lib.sh's clean-up removes $T.
MNT=
if mkdir "$T/mnt" && mount -t tmpfs -o size=256m kbench-fsvm "$T/mnt" 2>/dev/null; then
	MNT=$T/mnt
	trap 'umount "$MNT"; lib_cleanup' EXIT
fi

# sane N: the run --json in $T/out has N results, all ok or noisy
sane() { "$JC" run <"$T/out" 2>/dev/null | grep -q "results $1 ok $1\$"; }
# valof ID KEY: the value KEY that ID recorded in the run --json in $T/out
valof() {
	awk -v id="\"$1\"," -v key="\"$2\":" '
		$1 == "\"id\":" { cur = $2 == id }
		cur && $1 == key { v = $2; gsub(/[",]/, "", v); print v; exit }' "$T/out"
}
# is ID KEY VALUE: ID recorded exactly VALUE for KEY
is() { [ "$(valof "$1" "$2")" = "$3" ]; }
# within ID KEY LO HI: ID recorded a number for KEY between LO and HI
within() {
	awk -v x="$(valof "$1" "$2")" -v lo="$3" -v hi="$4" \
		'BEGIN { exit !(x != "" && x + 0 >= lo && x + 0 <= hi) }'
}
# failed ID TEXT: exit status 1, ID failed, and its reason holds TEXT
failed() {
	[ "$rc" = 1 ] && is "$1" status fail && grep '"reason":' "$T/out" | grep -q "$2"
}
empty() { [ -z "$(ls -A "$T/tmp")" ]; }
# the type df gives for $T/tmp, e.g. ext4 (stat -f says "ext2/ext3" for it)
fstype() { df -PT "$1" | awk 'NR == 2 { print $2 }'; }

# --- every benchmark, small, validated ---------------------------------------
# The deletes run below, on the tmpfs where there is one: their untimed
# preparation creates every file they delete, which on a busy ext4 without
# a journal costs a millisecond a file.
kb run --only 'fs.create.*,fs.reread.bw,vm.*' --size 4m --json --tmpdir "$T/tmp" $FAST
check "fs.create, fs.reread.bw and vm.* run and are sane (exit $rc)" sane 9
check "exit status 0" [ "$rc" = 0 ]
TYPE=$(fstype "$T/tmp")
needs "file system types" check "fs.create.0k records the type of its directory's file system ($TYPE)" is fs.create.0k fs_type "$TYPE"
needs "file system types" check "fs.reread.bw records it too" is fs.reread.bw fs_type "$TYPE"
check "fs.create.0k records its file size" within fs.create.0k file_size 0 0
check "fs.create.10k records its file size" within fs.create.10k file_size 10240 10240
check "fs.reread.bw rereads a file of --size" within fs.reread.bw file_size 4194304 4194304
check "vm.mmap_reread.bw sums a file of --size" within vm.mmap_reread.bw file_size 4194304 4194304
check "vm.mmap maps a file of --size" within vm.mmap size 4194304 4194304
check "vm.page_fault maps at least a page per fault" within vm.page_fault pages_per_fault 1 1000
check "vm.page_fault records its advice" is vm.page_fault advice normal
check "vm.page_fault_random maps about one page per fault" within vm.page_fault_random pages_per_fault 0.9 1.1
check "vm.page_fault_random records its advice" is vm.page_fault_random advice random
check "vm.page_fault_anon takes a fault per page" within vm.page_fault_anon pages_per_fault 0.9 1.1
check "vm.page_fault_anon records the page size" within vm.page_fault_anon page_size 4096 1048576
check "nothing left in the temporary directory" empty

DIR=${MNT:-$T/tmp}
kb run --only 'fs.create.0k,fs.delete.*' --json --tmpdir "$DIR" $FAST
check "fs.delete.0k and fs.delete.10k run and are sane" sane 3
if [ -n "$MNT" ]; then
	needs "file system types" check "on a tmpfs, fs_type is tmpfs" is fs.create.0k fs_type tmpfs
	needs "file system types" check "fs.delete.10k records tmpfs too" is fs.delete.10k fs_type tmpfs
	check "nothing left on the tmpfs" [ -z "$(ls -A "$MNT")" ]
fi
check "fs.delete.10k records its file size" within fs.delete.10k file_size 10240 10240

kb run --only vm.mmap --json --tmpdir "$T/tmp" $FAST
check "vm.mmap maps 8 MiB by default, as lmbench does" within vm.mmap size 8388608 8388608
kb run --only 'fs.create.0k,vm.page_fault_anon' --parallel 2 --json --tmpdir "$T/tmp" $FAST
check "--parallel 2: a directory and a fault count per copy" sane 2
check "--parallel 2: faults are still counted" within vm.page_fault_anon pages_per_fault 0.9 1.1

# --- injected faults half-way ---------------------------------------------------
# KBENCH_INJECT fails the Nth call after the start of the instance, so the
# fault lands in a timed run, in the middle of its files.
inject() { # SPEC ID [OPTIONS]: run ID with the fault SPEC armed
	spec=$1 id=$2
	shift 2
	KBENCH_INJECT=$spec "$KB" run --only "$id" --json --tmpdir "$T/tmp" $FAST "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
inject write:eio:30 fs.create.10k
check "fs.create.10k: a failed write fails the run (exit 1)" failed fs.create.10k 'writing 10240 bytes into file .*Input/output error'
check "fs.create.10k: the files made before it are gone" empty
inject write:short:30 fs.create.10k
check "fs.create.10k: a short write is caught" failed fs.create.10k 'returned 5120'
inject open:eio:30 fs.create.0k
# The 30th open is a file's create or, where the calibration made fewer files a
# sample, the next sample's directory: which one is the machine's speed's to say.
check "fs.create.0k: a failed open fails the run" failed fs.create.0k "cannot \(create file [0-9]* ('\|open the directory '\)"
check "fs.create.0k: nothing left behind" empty
inject unlink:eio:30 fs.delete.0k
check "fs.delete.0k: a failed unlink fails the run" failed fs.delete.0k "cannot remove file [0-9]* ('"
check "fs.delete.0k: the files it did not remove are gone" empty
inject write:eio:5 fs.delete.10k
check "fs.delete.10k: a failure making its files fails the run" failed fs.delete.10k 'Input/output error'
check "fs.delete.10k: nothing left behind" empty
inject read:corrupt:100 fs.reread.bw --size 4m
check "fs.reread.bw: a corrupted read fails the run" failed fs.reread.bw 'arrived damaged'
check "fs.reread.bw: nothing left behind" empty
inject read:short:100 fs.reread.bw --size 4m
check "fs.reread.bw: a short read fails the run" failed fs.reread.bw 'read of 65536 bytes at offset .* returned 32768'
inject read:eio:0 fs.reread.bw --size 4m
check "fs.reread.bw: a failed read while caching the file fails the run" failed fs.reread.bw 'Input/output error'
inject write:corrupt:10 vm.mmap_reread.bw --size 4m
check "vm.mmap_reread.bw: a file damaged on the way fails the sum" failed vm.mmap_reread.bw 'damaged on the way'
inject write:eio:10 vm.page_fault
check "vm.page_fault: a failed write making its file fails the run" failed vm.page_fault 'Input/output error'
inject read:corrupt:0 vm.mmap
check "vm.mmap: a byte that does not read back fails the run" failed vm.mmap 'reads back'
check "after all the failures, nothing left behind" empty
KBENCH_INJECT=write:eio:30 "$KB" run --only fs.create.10k --tmpdir "$T/tmp" $FAST >"$T/out" 2>"$T/err"; rc=$?
check "the text summary gives the reason" sh -c "[ $rc = 1 ] && grep -q 'fs.create.10k: fail: writing 10240 bytes' '$T/out'"

# --- bad input -------------------------------------------------------------------
kb run --only fs.reread.bw --size 1t --tmpdir "$T/tmp" $FAST
check "--size 1t exits 2" [ "$rc" = 2 ]
check "--size 1t: one line naming it, and a hint" sh -c "[ \$(wc -l <'$T/err') -le 2 ] && grep -q \"'1t' is not a size\" '$T/err'"
kb run --only vm.mmap_reread.bw --size 512g --tmpdir "$T/tmp" $FAST
check "--size larger than memory allows exits 2" sh -c "[ $rc = 2 ] && grep -q 'MiB available' '$T/err'"
check "nothing left in the temporary directory" empty

# --- the full suite sweeps the rereads' sizes, like the memory bandwidths ---
kb run --suite full --only 'fs.reread.bw,vm.mmap_reread.bw' --size 64k --max-time 0.1 --json \
	--tmpdir "$T/tmp" --quiet --no-store
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "full: fs.reread.bw is a curve from 4 KiB to the size (5 points)" \
	grep -qx "curve fs.reread.bw points 5 series size top 65536" "$T/jc"
check "full: vm.mmap_reread.bw is a curve from 4 KiB to the size (5 points)" \
	grep -qx "curve vm.mmap_reread.bw points 5 series size top 65536" "$T/jc"
check "full: the curves are sane and leave nothing behind" \
	sh -c "grep -q 'results 2 ok 2' '$T/jc' && [ -z \"\$(ls -A '$T/tmp')\" ]"

# --- Ctrl-C in the middle of a file benchmark ----------------------------------
# Interrupted while a sample's directory is full of files: none of them, and
# no process, may stay behind.
MARK="fsint-$$"
"$KB" run --only 'fs.create.10k,fs.delete.10k' --label "$MARK" --max-time 3 --precision 0.01 \
	--tmpdir "$T/tmp" --quiet --no-store >/dev/null 2>"$T/err" &
pid=$!
# A sample's directory with files in it.
wait_for eval "[ \$(find '$T/tmp' -type f 2>/dev/null | head -20 | wc -l) -ge 20 ]"
kill -INT "$pid"
wait "$pid"; rc=$?
check "SIGINT in a file benchmark exits 130" [ "$rc" = 130 ]
wait_for no_leftovers "$MARK"
check "SIGINT in a file benchmark leaves no process and no file" no_leftovers "$MARK"

echo "1..$n"
