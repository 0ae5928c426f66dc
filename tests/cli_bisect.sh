#!/bin/sh
# Command-line tests of kbench kernels with more than two kernels, of
# kbench bisect and of export --format kcidb, on a fake qemu (build/fakeqemu as $KBENCH_QEMU) that boots
# nothing: it answers each request of the initramfs with a made-up figure,
# 100 us times the factor its kernel's release names ("+x1.30"), so the
# round schedule, the storing, the paired statistics and the halving are
# tested in seconds, under the sanitizers too, with answers known in
# advance.  Real boots are tests/cli_kernels.sh's.  Bad input: one line
# each and nothing stored.  No timing is asserted.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FQ=$(cd "$BUILD" && pwd)/fakeqemu
[ -x "$FQ" ] || { skip "kernels and bisect on a fake qemu" "no $BUILD/fakeqemu (built with the tests)"; echo "1..$n"; exit 0; }
# The guest's programs are never run by the fake: any file does where the build has none.
export KBENCH_QEMU="$FQ" KBENCH_GUEST_INIT="$FQ" KBENCH_GUEST_WORKER="$FQ" KBENCH_GUEST_TINY="$FQ"
FAST="--accel tcg --tmpdir $T/tmp --quiet --seed 5"
# Fake bzImages: a boot sector, the setup header, the version string its release is read from.
python3 - "$T" <<'EOF'
import sys
def img(path, rel):
    b = bytearray(0x400)
    b[0x1fe], b[0x1ff] = 0x55, 0xaa
    b[0x202:0x206] = b"HdrS"
    b[0x20e] = 0x80
    v = (rel + " (fake@kbench) #1").encode()
    b[0x280:0x280 + len(v)] = v
    open(path, "wb").write(bytes(b))
t = sys.argv[1]
for name, rel in [("v1", "6.1.1"), ("v2", "6.1.2"), ("v3", "6.1.3+x1.30"), ("v4", "6.1.4+x1.30"),
                  ("v5", "6.1.5+x1.30"), ("vn", "6.1.9-noisy"), ("vp", "6.1.9-panic")]:
    img(t + "/" + name, rel)
EOF
cd "$T" || exit 1
printf 'not a kernel\n' >notk

# ---- three kernels in one comparison ----
"$KB" kernels --accel tcg --tmpdir "$T/tmp" --seed 5 --rounds 3 --only sys.null --db k3.db v1 v2 v3 >"$T/out" 2>"$T/err3"
rc=$?
check "three kernels compared" sh -c "[ $rc = 0 ] && grep -q \"each kernel against the first, '6.1.1'\" '$T/out'"
check "each against the first: the slow one marked, the same one unchanged" sh -c \
	"grep -E '^sys.null .* = .* \\*' '$T/out' >/dev/null && grep -q regression '$T/out'"
check "each round boots every kernel once" python3 -c "
import re
rounds = {}
for l in open('$T/err3'):
    m = re.match(r'kernels: round (\d) of 3, (\S+) ', l)
    if m:
        rounds.setdefault(m.group(1), []).append(m.group(2))
assert sorted(rounds) == ['1', '2', '3'], rounds
for r, ks in rounds.items():
    assert sorted(ks) == ['6.1.1', '6.1.2', '6.1.3+x1.30'], (r, ks)
"
"$KB" export --db k3.db >k3.json
check "three runs stored, one set, a label each" python3 -c "
import json
runs = json.load(open('k3.json'))['runs']
assert sorted(r['label'] for r in runs) == ['6.1.1', '6.1.2', '6.1.3+x1.30'], runs
assert len(set(r['set'] for r in runs)) == 1
assert all(len(r['results'][0]['replicas']) == 3 for r in runs)
"
kb kernels $FAST --label a --label b --db bad.db v1 v2 v3
check "two labels for three kernels: a usage error" sh -c "[ $rc = 2 ] && grep -q 'one for each kernel, in order (3)' '$T/err'"
kb kernels $FAST --db bad.db v1 v2 notk
check "a third file that is not a kernel: one line, nothing stored" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"'notk' is not a kernel\" '$T/err' && [ ! -e bad.db ]"

kb kernels $FAST --boot kexec --db bad.db v1 v2
check "--boot kexec: designed, not built, said in one line" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'designed, not built' '$T/err' && [ ! -e bad.db ]"

# ---- modules into the initramfs ----
mkdir -p mods/kernel/fs/fake mods/kernel/lib
printf 'kernel/fs/fake/fakefs.ko: kernel/lib/crc-fake.ko kernel/lib/base-fake.ko\nkernel/lib/crc-fake.ko: kernel/lib/base-fake.ko\nkernel/lib/base-fake.ko:\n' >mods/modules.dep
for m in fs/fake/fakefs lib/crc-fake lib/base-fake; do echo module >"mods/kernel/$m.ko"; done
FAKEQEMU_LIST="$T/list" "$KB" kernels $FAST --rounds 2 --only sys.null --db mod.db --modules mods --modprobe fakefs v1 v2 >"$T/out" 2>"$T/err"
rc=$?
check "--modprobe: the module and what it needs, loaded in order" sh -c "[ $rc = 0 ] &&
	grep -qx 'lib/modules/kbench/kernel/fs/fake/fakefs.ko' list &&
	[ \"\$(grep '^/lib/modules' list | tr '\n' ' ')\" = '/lib/modules/kbench/kernel/lib/base-fake.ko /lib/modules/kbench/kernel/lib/crc-fake.ko /lib/modules/kbench/kernel/fs/fake/fakefs.ko ' ]"
kb kernels $FAST --db bad.db --modules mods --modprobe nosuchfs v1 v2
check "--modprobe of a module the tree lacks: one line, nothing stored" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"no module 'nosuchfs'\" '$T/err' && [ ! -e bad.db ]"
kb kernels $FAST --db bad.db --modules "$T/tmp" v1 v2
check "--modules that is no module tree: one line" sh -c "[ $rc = 1 ] && grep -q 'has no modules.dep' '$T/err' && [ ! -e bad.db ]"

# ---- bisect over a list ----
printf '# oldest first\nv1\nv2\n\nv3\nv4\nv5\n' >images
kb bisect $FAST --only sys.null --db b.db --images images v1 v5
check "bisect finds the first bad image" sh -c "[ $rc = 0 ] &&
	grep -q '^first bad: v3 (6.1.3+x1.30): sys.null 1[23][0-9.]* us against [0-9.]* us in GOOD .6.1.1., +[23][0-9.]*% (' '$T/out' &&
	grep -q '^last good: v2 (6.1.2): sys.null' '$T/out'"
check "bisect boots only what halving needs" sh -c "[ \$(grep -c ': good$\|: bad$' '$T/out') = 3 ]"
"$KB" runs --db b.db >runs.txt 2>&1
check "each comparison stored, two runs a set" sh -c "[ \$(grep -c '6.1.1' runs.txt) -ge 3 ]"
kb bisect $FAST --only sys.null --db b2.db v1 v2 vn v4
check "cannot tell stops the search in one line" sh -c "[ $rc = 4 ] &&
	[ \$(grep -c '^cannot tell: ' '$T/out') = 1 ] && grep -q \"after '6.1.2' and at or before '6.1.4+x1.30'\" '$T/out'"
kb bisect $FAST --only sys.null --db b3.db v1 v2
check "BAD not worse than GOOD: nothing to bisect" sh -c "[ $rc = 4 ] && grep -q '^nothing to bisect' '$T/out'"

# ---- bisect's bad input: one line, nothing stored ----
kb bisect $FAST --only sys.null --db bad.db --images images v5 v1
check "GOOD after BAD: a usage error" sh -c "[ $rc = 2 ] && grep -q 'comes after BAD' '$T/err' && [ ! -e bad.db ]"
kb bisect $FAST --only sys.null --db bad.db --images images v2 v2
check "GOOD == BAD: a usage error" sh -c "[ $rc = 2 ] && grep -q 'same image' '$T/err' && [ ! -e bad.db ]"
kb bisect $FAST --only sys.null --db bad.db --images images v1 v9
check "BAD not in the list: one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"BAD 'v9' is not in\" '$T/err'"
printf 'v1\n' >one
kb bisect $FAST --only sys.null --db bad.db --images one v1 v1
check "a list of one image: one line" sh -c "[ $rc = 1 ] && grep -q 'lists 1 image:' '$T/err' && [ ! -e bad.db ]"
kb bisect $FAST --only sys.null --db bad.db v1 notk v5
check "an image that is not a kernel: one line, nothing stored" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"'notk' is not a kernel\" '$T/err' && [ ! -e bad.db ]"
kb bisect $FAST --only 'sys.*' --db bad.db v1 v5
check "more than one figure: one line" sh -c "[ $rc = 1 ] && grep -q 'follows one figure' '$T/err' && [ ! -e bad.db ]"
kb bisect $FAST --db bad.db v1 v5
check "no --only: a usage error" sh -c "[ $rc = 2 ] && grep -q -- '--only ID' '$T/err'"

# ---- --run-step, for git bisect run: 0 good, 1 bad, 125 no boot, 128 stop ----
kb bisect $FAST --only sys.null --db r.db --run-step v1 v2
r_good=$rc
kb bisect $FAST --only sys.null --db r.db --run-step v1 v4
r_bad=$rc
kb bisect $FAST --only sys.null --db r.db --run-step v1 vp
r_skip=$rc
check "run-step: good 0, bad 1, a candidate that panics 125" sh -c \
	"[ $r_good = 0 ] && [ $r_bad = 1 ] && [ $r_skip = 125 ] && grep -q 'git bisect skips it' '$T/err'"
kb bisect $FAST --only sys.null --db r.db --run-step v1 vn
check "run-step: cannot tell stops git bisect (128)" sh -c "[ $rc = 128 ] && grep -q 'git bisect run stops here' '$T/out'"
kb bisect $FAST --only sys.null --db r.db --run-step v1
check "run-step: bad usage stops git bisect, never marks a commit" sh -c "[ $rc = 128 ]"
kb bisect $FAST --only sys.null --db r.db --run-step vp v1
check "run-step: GOOD that does not boot stops git bisect" sh -c "[ $rc = 128 ] && [ \$(wc -l <'$T/err') = 1 ]"

# ---- the comparisons in KernelCI's KCIDB format ----
kb export --format kcidb --db k3.db
check "export --format kcidb: KCIDB 5.3, a test a figure, linked, no nulls" python3 -c "
import json
d = json.load(open('$T/out'))
assert d['version'] == {'major': 5, 'minor': 3}, d['version']
def nonull(x):
    assert x is not None
    for v in (x.values() if isinstance(x, dict) else x if isinstance(x, list) else []):
        nonull(v)
nonull(d)
co = {c['id'] for c in d['checkouts']}
bu = {b['id']: b for b in d['builds']}
assert len(co) == 3 and len(bu) == 3, (co, bu)
assert all(b['checkout_id'] in co and b['origin'] == 'kbench' for b in bu.values())
assert len(d['tests']) == 3
for t in d['tests']:
    assert t['id'].startswith('kbench:') and t['origin'] == 'kbench' and t['build_id'] in bu
    assert t['path'] == 'kbench.sys.null' and t['status'] == 'PASS', t
    m = t['misc']
    assert t['number']['unit'] == m['unit'] == 'us' and m['emulated'] is True
    assert m['interval'][0] <= t['number']['value'] <= m['interval'][1], m
    assert m['kernel_release'] in ('6.1.1', '6.1.2', '6.1.3+x1.30')
slow = [t for t in d['tests'] if t['misc']['kernel_release'] == '6.1.3+x1.30'][0]
assert 125 < slow['number']['value'] < 135, slow
"
kb export --format kcidb --origin 'Bad Lab' --db k3.db
check "export --origin outside KCIDB's pattern: a usage error" sh -c "[ $rc = 2 ] && grep -q 'a-z, 0-9 and _' '$T/err'"
# LAVA's side: the test definition's helper turns the report into lava-test-case calls.
mkdir -p lava
printf '#!/bin/sh\necho "$@" >>"%s/lava.log"\n' "$T" >lava/lava-test-case
chmod +x lava/lava-test-case
"$KB" export --format kcidb --db k3.db >k3.kcidb
PATH="$T/lava:$PATH" python3 "$KBENCH_TESTS/../contrib/lava/kbench-lava.py" k3.kcidb >/dev/null 2>"$T/err"
rc=$?
check "contrib/lava: a lava-test-case a figure, measured, marked emulated" sh -c "[ $rc = 0 ] &&
	[ \$(grep -c '^kbench.sys.null-emulated --result pass --measurement [0-9.]* --units us$' lava.log) = 3 ]"
check "contrib/lava/kbench.yaml is a LAVA test definition" python3 -c "
import sys
try:
    import yaml
except ImportError:
    sys.exit(0)
d = yaml.safe_load(open('$KBENCH_TESTS/../contrib/lava/kbench.yaml'))
assert d['metadata']['format'] == 'Lava-Test Test Definition 1.0'
assert any('kbench-lava.py' in s for s in d['run']['steps'])
"
check "nothing left behind" no_leftovers "$T/tmp/kbench-kernels"
echo "1..$n"
