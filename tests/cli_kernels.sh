#!/bin/sh
# Command-line tests of kbench kernels, two kernels compared in guests
# booted round by round.  Bad input first, one line each and nothing
# stored: too few kernels, a bad --accel or --label, a file that is not a
# kernel, qemu missing.  Then real boots of one Debian kernel under QEMU's
# TCG (the package fetched with apt-get download into the build directory,
# and qemu installed, when missing; skipped saying why where they cannot be
# had, and in the sanitizers' build, which has no static guest programs):
# KVM refused here in one line, or run where it works; an A/A of the
# package against itself, A and B, two rounds of sys.null, stored with
# both labels, the guest's release and the mark of emulation, and the
# table saying it is emulated; a boot that gives nothing by its deadline
# and a guest that panics, each one line with nothing stored; Ctrl-C while
# a guest runs: exit 130, no qemu and no file left, the finished boot's
# figure stored.  No timing is asserted.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$KBENCH_TESTS/apt.sh"
FAST="--tmpdir $T/tmp --max-time 0.2 --quiet"

# ---- bad input before any guest ----
printf 'not a kernel\n' >"$T/notk"
kb kernels --accel tcg $FAST --db "$T/bad.db" "$T/notk"
check "one kernel: a usage error" sh -c "[ $rc = 2 ] && grep -q 'give two kernels' '$T/err'"
kb kernels --accel qemu $FAST --db "$T/bad.db" "$T/notk" "$T/notk"
check "--accel neither kvm nor tcg: a usage error" \
	sh -c "[ $rc = 2 ] && grep -q \"'qemu' is neither kvm nor tcg\" '$T/err'"
kb kernels --accel tcg --label A $FAST --db "$T/bad.db" "$T/notk" "$T/notk"
check "one --label for two kernels: a usage error" sh -c "[ $rc = 2 ] && grep -q 'one for each kernel' '$T/err'"
kb kernels --accel tcg $FAST --db "$T/bad.db" "$T/notk" "$T/notk"
check "a file that is not a kernel: one line, exit 1, nothing stored" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"'$T/notk' is not a kernel\" '$T/err' && [ ! -e '$T/bad.db' ]"
kb kernels --accel tcg $FAST --db "$T/bad.db" /nonexistent/vmlinuz "$T/notk"
check "a kernel that is not there: one line, exit 1" \
	sh -c "[ $rc = 1 ] && grep -q \"cannot read kernel '/nonexistent/vmlinuz'\" '$T/err'"

# ---- the guests ----
STATIC_CHECKS=1
boots_skip() { # WHY: the rest skipped, saying why
	[ "$STATIC_CHECKS" = 1 ] && skip "the static worker is this build's" "$1" &&
		skip "the guest's programs link nothing at run time" "$1"
	for t in "qemu missing named" "kvm refused or run" "the A/A runs" \
		"the A/A marks nothing, two rounds cannot tell" "both sides stored" \
		"marked emulated" "the table says emulated" "nothing left after the A/A" \
		"a boot past its deadline" "a guest that panics" "ctrl-c while a guest runs"; do
		skip "$t" "$1"
	done
	echo "1..$n"
	exit 0
}
[ -x "$BUILD/kbench-init" ] && [ -x "$BUILD/kbench-worker-static" ] ||
	boots_skip "this build has no static guest programs (the sanitizers' build, or no static C library)"
# The guest's programs: static, and of this build (the worker's id is the one kbench checks).
check "the static worker is this build's" sh -c \
	"[ \"\$('$BUILD/kbench-worker-static' --build-id)\" = \"\$('$BUILD/kbench-worker' --build-id)\" ]"
check "the guest's programs link nothing at run time" sh -c \
	"for p in kbench-worker-static kbench-init; do readelf -d '$BUILD/'\$p | grep -q 'no dynamic section' || exit 1; done"
STATIC_CHECKS=0
command -v qemu-system-x86_64 >/dev/null 2>&1 || apt_install qemu-system-x86 || boots_skip "$APT_WHY"
# One Debian kernel package, kept in the build directory for the next run.
KDIR="$BUILD/test-kernels"
mkdir -p "$KDIR"
DEB=$(ls "$KDIR"/linux-image-*.deb 2>/dev/null | head -1)
if [ -z "$DEB" ]; then
	for p in linux-image-6.1.0-50-amd64 linux-image-6.1.0-47-amd64 linux-image-6.12.100+deb12-amd64; do
		(cd "$KDIR" && apt-get download "$p" >/dev/null 2>&1) && break
	done
	DEB=$(ls "$KDIR"/linux-image-*.deb 2>/dev/null | head -1)
fi
[ -n "$DEB" ] || boots_skip "no Debian kernel package could be had (apt-get download linux-image-6.1.0-50-amd64)"
# The package's own vmlinuz: with several packages kept, the image and the package must agree.
r=$(dpkg-deb -f "$DEB" Package)
VMLINUZ="$KDIR/boot/vmlinuz-${r#linux-image-}"
[ -f "$VMLINUZ" ] ||
	dpkg-deb --fsys-tarfile "$DEB" 2>/dev/null | tar -xf - -C "$KDIR" --occurrence=1 "./boot/vmlinuz-${r#linux-image-}"
[ -f "$VMLINUZ" ] || boots_skip "no vmlinuz in $DEB"
REL=${VMLINUZ##*/vmlinuz-}

mkdir -p "$T/nobin"
ln -s "$(command -v dpkg-deb)" "$T/nobin/dpkg-deb" 2>/dev/null
PATH="$T/nobin" "$KB" kernels --accel tcg $FAST --db "$T/bad.db" "$VMLINUZ" "$VMLINUZ" >"$T/out" 2>"$T/err"
rc=$?
check "qemu missing named" sh -c "[ $rc = 1 ] && grep -q 'apt-get install qemu-system-x86' '$T/err' && [ ! -e '$T/bad.db' ]"

# KVM: where it cannot run (here: nested guests stop after the decompression) one line naming
# --accel tcg; where it runs, a comparison not marked emulated.
kb kernels --timeout 15 --rounds 2 --only sys.null --label A --label B $FAST --db "$T/kvm.db" "$VMLINUZ" "$VMLINUZ"
check "kvm refused or run" sh -c "if [ $rc = 0 ]; then ! grep -q emulated '$T/out'; else
	[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q -- '--accel tcg' '$T/err' && [ ! -e '$T/kvm.db' ]; fi"

# An A/A under TCG: the package as both kernels.
DB="$T/k.db"
kb kernels --accel tcg --rounds 2 --only sys.null --label A --label B $FAST --db "$DB" "$DEB" "$DEB"
check "the A/A runs" sh -c "[ $rc = 0 ] && grep -q 'B against A' '$T/out'"
# Each round boots anew: two rounds give no pairs, and a boot's replicas
# say nothing of how far boots differ, so nothing is marked.
check "the A/A marks nothing, two rounds cannot tell" sh -c \
	"grep -q '0 better, 0 worse' '$T/out' && grep -q 'each round boots anew, so they cannot tell' '$T/out'"
"$KB" export --db "$DB" >"$T/k.json"
check "both sides stored" python3 -c "
import json
d = json.load(open('$T/k.json'))
runs = d['runs']
assert sorted(r['label'] for r in runs) == ['A', 'B'], [r['label'] for r in runs]
assert runs[0]['set'] == runs[1]['set']
for r in runs:
    assert '$REL' in r['os'], r['os']
    assert len(r['results']) == 1 and r['results'][0]['id'] == 'sys.null'
    assert len(r['results'][0]['replicas']) == 2, r['results'][0]
"
check "marked emulated" python3 -c "
import json
for r in json.load(open('$T/k.json'))['runs']:
    assert r['sysinfo']['virt'] == 'tcg (emulated)', r['sysinfo']['virt']
    assert r['sysinfo']['release'] == '$REL', r['sysinfo']['release']
"
check "the table says emulated" sh -c "[ \$(grep -c \"^emulated: .*emulation's, never a kernel's\" '$T/out') = 2 ]"
check "nothing left after the A/A" no_leftovers "$T/tmp"

# A boot that gives nothing by its deadline: one line, nothing stored.
kb kernels --accel tcg --timeout 1 --only sys.null $FAST --label A --label B --db "$T/late.db" "$VMLINUZ" "$VMLINUZ"
check "a boot past its deadline" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] &&
	grep -q 'no result within 1 s' '$T/err' && [ ! -e '$T/late.db' ] && [ -z \"\$(ls -A '$T/tmp')\" ]"
# A guest that panics (no init it can run): one line with the panic's, nothing stored.
kb kernels --accel tcg --append rdinit=/nonexistent --only sys.null $FAST --label A --label B \
	--db "$T/panic.db" "$VMLINUZ" "$VMLINUZ"
check "a guest that panics" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] &&
	grep -q 'the guest panicked: Kernel panic - not syncing' '$T/err' && [ ! -e '$T/panic.db' ]"

# Ctrl-C during the second boot of the first round: the first boot's figure is stored.
"$KB" kernels --accel tcg --rounds 2 --only sys.null --tmpdir "$T/tmp" --max-time 0.2 \
	--label A --label B --db "$T/int.db" "$VMLINUZ" "$VMLINUZ" >"$T/out" 2>"$T/err" &
pid=$!
wait_for grep -q 'round 1 of 2, .*powered off' "$T/err" &&
	wait_for pgrep -f "$T/tmp/kbench-kernels.*initramfs" >/dev/null
kill -INT $pid
wait $pid
rc=$?
wait_for no_leftovers "$T/tmp"
left=$?
"$KB" export --db "$T/int.db" >"$T/int.json" 2>/dev/null
check "ctrl-c while a guest runs" sh -c "[ $rc = 130 ] && [ $left = 0 ] && python3 -c \"
import json
runs = json.load(open('$T/int.json'))['runs']
assert len(runs) == 1 and len(runs[0]['results']) == 1, runs
\""
echo "1..$n"
