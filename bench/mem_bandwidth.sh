#!/bin/bash
# Memory bandwidth, MB/s (MB = 10^6 bytes), all tools on buffers of the
# same size (SIZE_MIB, default 256 MiB: kbench's default here, the larger
# of 4x the 32 MiB last-level cache and 256 MiB; see bench_buffer_size) and pinned to the same CPU (PIN, default 0; see lib.sh):
#
#   read   kbench mem.read.bw; stress-ng --memrate (read64, and the best of
#          its read methods); the plain loop bench/ref/mem_bw.c read, with
#          malloc'd buffers and with -H (huge pages, as kbench asks for)
#   copy   kbench mem.bcopy_libc.bw; perf bench mem memcpy (the glibc
#          memcpy it calls "default", and the best of all its functions,
#          which include the kernel's rep movsb/movsq copies); the plain
#          loop's memcpy, with and without -H
#          For information, not a competitor: kbench's row again with
#          glibc's non-temporal threshold set from the L3 size sysfs gives
#          (GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold, 3/4 of it,
#          glibc's own rule), see below
#   write  (for information, no target) kbench mem.write.bw; stress-ng
#          write64 and the best of its write methods (memset among them);
#          the plain loop's store loop
#
# ROUNDS rounds (default 5); in each round every tool runs once per
# operation, one after the other, in an order that rotates from round to
# round, so that a slow phase of the machine hits all of them alike.
# Prints each round's figures, then medians and kbench / best of the others
# (of medians, and the median of per-round ratios); target: kbench at least
# as high as the best of the others for read and copy.
#
# Units, read from the tools' sources (linux tools/perf/bench/mem-functions.c,
# stress-ng stress-memrate.c) and converted to MB/s of 10^6 bytes:
#  - perf bench mem memcpy -s 128MB: the size is 128 x 2^20 bytes; it copies
#    once untimed, then -l LOOPS times under gettimeofday, and prints bytes
#    copied / time in "GB/sec" of 2^30 bytes: x 1073.741824 gives MB/s.
#  - stress-ng --memrate --memrate-bytes 128M: 128 x 2^20 bytes; each method
#    passes over the whole buffer, and --metrics prints "<method> MB per
#    sec" as kilobytes / (seconds x 1024) with kilobytes of 1024 bytes, i.e.
#    MiB/s: x 1.048576 gives MB/s.  0.15.06 has no option to pick methods:
#    it cycles through all of them for SNG_TIME seconds (default 4) and one
#    run gives every read and write figure.  Its memrate has no copy method
#    (and its memcpy stressor copies a fixed 2 MB, its manual says): there
#    is no stress-ng copy figure.  Its reads are volatile loads, not summed.
#
# Why the copy column has that extra row: glibc (2.36 here) copies with
# non-temporal stores only above its non-temporal threshold, 3/4 of the L3
# it reads from CPUID.  This VM's CPUID reports 256 MiB of L3 (ld.so
# --list-diagnostics: shared_cache_size 0x10000000) where sysfs says
# 32 MiB, so the threshold is 192 MiB and a 128 MiB memcpy goes through the
# cache with plain vector stores, each destination line read before it is
# written; the kernel's rep movsb and movsq copies in perf are faster here
# (the CPU's string microcode can skip that read).  The extra row shows
# what the same memcpy does with the threshold glibc would have chosen
# from the real L3 (on the development VM, 5.4 GB/s became 8.0 at 128 MiB).
# This is why kbench's buffers are at least 256 MiB: above both views of
# the L3, a large copy is copied the way a large copy is.  SIZE_MIB=128
# shows the other regime.
#
# usage: bench/mem_bandwidth.sh   (KBENCH=path, ROUNDS=5, SIZE_MIB=256,
#                                  SNG_TIME=4, PERF_LOOPS=10, PASSES=20, PIN=0)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
SIZE_MIB=${SIZE_MIB:-256}
SNG_TIME=${SNG_TIME:-4}
PERF_LOOPS=${PERF_LOOPS:-10}
PASSES=${PASSES:-20}
L3_KIB=$(sed -n 's/K$//p' /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || true)
NT_THRESHOLD=$(( ${L3_KIB:-0} * 1024 * 3 / 4 ))

# The plain loop at its best: vectorised for this CPU, as kbench's sum is.
cc -O3 -march=native -o "$WORK/mem_bw" "$ROOT/bench/ref/mem_bw.c"
PERF=yes
perf bench mem memcpy -s 1MB -f default >/dev/null 2>&1 || PERF=no
SNG=yes
command -v stress-ng >/dev/null 2>&1 || SNG=no
SNG_VERSION=none
[ "$SNG" = no ] || SNG_VERSION=$(stress-ng --version | awk '{ print $3 }' | tr -d ,)

# A copy of kbench, so that a rebuild while the script runs cannot pull the
# binary from under it (the mem rows need nothing installed beside it).
cp "$KBENCH" "$WORK/kbench"

# kbench's median MB/s and status for mem.$1.bw, e.g. "9876.5 ok", or
# "nan fail" when it gave no figure.
kbench_bw() {
	local out
	out=$(pinned "$WORK/kbench" run --only "mem.$1.bw" --size "${SIZE_MIB}m" --no-store --json \
		--quiet 2>/dev/null | kbench_results |
		awk '$2 != "nan" { print $2, $5 ($6 != "nan" && $6 > 0.25 ? "/busy" : "") }')
	echo "${out:-nan fail}"
}

# perf's memcpy: "DEFAULT BEST BEST_FUNCTION" in MB/s.
perf_copy() {
	if [ "$PERF" = no ]; then
		echo "nan nan none"
		return
	fi
	pinned perf bench mem memcpy -s "${SIZE_MIB}MB" -l "$PERF_LOOPS" -f all 2>&1 |
		awk '/^# function/ { f = $3; gsub(/\047/, "", f) }
		     /GB\/sec/ { v = $1 * 1073.741824; if (f == "default") d = v
				 if (v > best) { best = v; bf = f } }
		     END { if (d == "") print "nan nan none"; else printf "%.1f %.1f %s\n", d, best, bf }'
}

# stress-ng's memrate: "READ64 BEST_READ BEST_READ_METHOD WRITE64 BEST_WRITE
# BEST_WRITE_METHOD" in MB/s.
sng_rates() {
	if [ "$SNG" = no ]; then
		echo "nan nan none nan nan none"
		return
	fi
	pinned stress-ng --memrate 1 --memrate-bytes "${SIZE_MIB}M" -t "$SNG_TIME" --metrics 2>&1 |
		awk '/MB per sec/ { for (i = 1; i <= NF; i++) if ($i == "MB") { v = $(i - 2) * 1.048576; m = $(i - 1) }
			    if (m ~ /^read/) { if (m == "read64") r64 = v; if (v > rb) { rb = v; rm = m } }
			    else { if (m == "write64") w64 = v; if (v > wb) { wb = v; wm = m } } }
		     END { if (r64 == "") print "nan nan none nan nan none"
			   else printf "%.1f %.1f %s %.1f %.1f %s\n", r64, rb, rm, w64, wb, wm }'
}

plain() {
	pinned "$WORK/mem_bw" "$@" || echo nan
}

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS rounds of ${SIZE_MIB} MiB buffers, pinned to CPU ${PIN:-none}"
echo "perf: $PERF ($(perf version 2>/dev/null || echo none)); stress-ng: $SNG_VERSION; plain loop: $PASSES passes, cc -O3 -march=native"
echo
: >"$WORK/rounds"
# The tools of a round, run in an order rotated by the round's number.
TOOLS=(kbench perf sng plain plainH)
for round in $(seq 1 "$ROUNDS"); do
	declare -A got=()
	for k in 0 1 2 3 4; do
		tool=${TOOLS[$(((k + round) % 5))]}
		case $tool in
		kbench)
			got[kb_read]=$(kbench_bw read)
			got[kb_copy]=$(kbench_bw bcopy_libc)
			got[kb_write]=$(kbench_bw write)
			got[kb_copy_nt]="nan none"
			[ "$NT_THRESHOLD" = 0 ] || got[kb_copy_nt]=$(GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=$NT_THRESHOLD kbench_bw bcopy_libc) ;;
		perf) got[perf]=$(perf_copy) ;;
		sng) got[sng]=$(sng_rates) ;;
		plain)
			got[pl_read]=$(plain read "$SIZE_MIB" "$PASSES")
			got[pl_copy]=$(plain copy "$SIZE_MIB" "$PASSES")
			got[pl_write]=$(plain write "$SIZE_MIB" "$PASSES") ;;
		plainH)
			got[plH_read]=$(plain -H read "$SIZE_MIB" "$PASSES")
			got[plH_copy]=$(plain -H copy "$SIZE_MIB" "$PASSES")
			got[plH_write]=$(plain -H write "$SIZE_MIB" "$PASSES") ;;
		esac
	done
	# round, kbench x3 (figure status), perf (3), stress-ng (6), plain x3,
	# plain -H x3, kbench copy with glibc's threshold (figure status), load
	echo "$round ${got[kb_read]} ${got[kb_copy]} ${got[kb_write]} ${got[perf]} ${got[sng]}" \
		"${got[pl_read]} ${got[pl_copy]} ${got[pl_write]} ${got[plH_read]} ${got[plH_copy]}" \
		"${got[plH_write]} ${got[kb_copy_nt]} $(loadavg | cut -d' ' -f1)" >>"$WORK/rounds"
	unset got
done

python3 - "$WORK/rounds" "$NT_THRESHOLD" <<'PY'
import math, statistics, sys
med = statistics.median
rows = []
for l in open(sys.argv[1]):
    f = l.split()
    num = lambda x: float(x)
    rows.append(dict(
        round=f[0],
        kb=dict(read=num(f[1]), copy=num(f[3]), write=num(f[5])),
        kbst=dict(read=f[2], copy=f[4], write=f[6]),
        perf_default=num(f[7]), perf_best=num(f[8]), perf_fn=f[9],
        sng_r64=num(f[10]), sng_rbest=num(f[11]), sng_rm=f[12],
        sng_w64=num(f[13]), sng_wbest=num(f[14]), sng_wm=f[15],
        plain=dict(read=num(f[16]), copy=num(f[17]), write=num(f[18])),
        plainH=dict(read=num(f[19]), copy=num(f[20]), write=num(f[21])),
        kb_nt=num(f[22]), kb_nt_st=f[23], load=f[24]))

def fmt(x):
    return "n/a" if math.isnan(x) else "%.0f" % x

# The others for each operation: (column name, figure of a round).
others = {
    "read": [("stress-ng read64", lambda r: r["sng_r64"]),
             ("stress-ng best read", lambda r: r["sng_rbest"]),
             ("plain loop", lambda r: r["plain"]["read"]),
             ("plain loop -H", lambda r: r["plainH"]["read"])],
    "copy": [("perf default (glibc)", lambda r: r["perf_default"]),
             ("perf best function", lambda r: r["perf_best"]),
             ("plain memcpy", lambda r: r["plain"]["copy"]),
             ("plain memcpy -H", lambda r: r["plainH"]["copy"])],
    "write": [("stress-ng write64", lambda r: r["sng_w64"]),
              ("stress-ng best write", lambda r: r["sng_wbest"]),
              ("plain loop", lambda r: r["plain"]["write"]),
              ("plain loop -H", lambda r: r["plainH"]["write"])],
}
ids = {"read": "mem.read.bw", "copy": "mem.bcopy_libc.bw", "write": "mem.write.bw"}

def best_other(op, r):
    v = [g(r) for _, g in others[op] if not math.isnan(g(r))]
    return max(v) if v else float("nan")

print("### Every round (MB/s)")
print()
for op in ("read", "copy", "write"):
    names = [n for n, _ in others[op]]
    print("| %s | round | kbench %s | status | %s | kbench / best other | load (1 min) |"
          % (op, ids[op], " | ".join(names)))
    print("|---" * (6 + len(names)) + "|")
    for r in rows:
        b = best_other(op, r)
        print("| | %s | %.0f | %s | %s | %.3f | %s |"
              % (r["round"], r["kb"][op], r["kbst"][op],
                 " | ".join(fmt(g(r)) for _, g in others[op]), r["kb"][op] / b, r["load"]))
    print()
nt = int(sys.argv[2])
if nt:
    v = [r["kb_nt"] for r in rows if not math.isnan(r["kb_nt"])]
    print("For information: kbench %s with GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=%d "
          "(3/4 of the L3 sysfs gives), per round: %s; median %s; / perf's best function (medians): %s"
          % (ids["copy"], nt, " ".join(fmt(x) for x in v), fmt(med(v)) if v else "n/a",
             ("%.3f" % (med(v) / med([r["perf_best"] for r in rows]))) if v else "n/a"))
    print()
print("perf's best function per round: %s" % ", ".join(r["perf_fn"] for r in rows))
print("stress-ng's best read method per round: %s; best write method: %s"
      % (", ".join(r["sng_rm"] for r in rows), ", ".join(r["sng_wm"] for r in rows)))
print()

print("### Medians over the rounds (MB/s)")
print()
print("| operation | tool | median | max/min | kbench / tool (medians) |")
print("|---" * 5 + "|")
for op in ("read", "copy", "write"):
    kb = [r["kb"][op] for r in rows]
    print("| %s | kbench %s | %.0f | %.2f | |" % (op, ids[op], med(kb), max(kb) / min(kb)))
    for name, g in others[op]:
        v = [g(r) for r in rows if not math.isnan(g(r))]
        if v:
            print("| | %s | %.0f | %.2f | %.3f |" % (name, med(v), max(v) / min(v), med(kb) / med(v)))
        else:
            print("| | %s | n/a | | |" % name)
print()
print("### kbench / the best of the others")
print()
print("| operation | kbench | best other (medians) | ratio of medians | ratio per round "
      "(kbench / best other that round) | median ratio | target |")
print("|---" * 7 + "|")
verdict = {}
for op in ("read", "copy", "write"):
    kb = med([r["kb"][op] for r in rows])
    meds = [(med(v), name) for name, g in others[op]
            for v in [[g(r) for r in rows if not math.isnan(g(r))]] if v]
    best, bname = max(meds)
    per = [r["kb"][op] / best_other(op, r) for r in rows]
    met = kb / best >= 1 and med(per) >= 1
    verdict[op] = "none (information)" if op == "write" else ("met" if met else "NOT met")
    print("| %s | %.0f | %.0f (%s) | %.3f | %s | %.3f | %s |"
          % (op, kb, best, bname, kb / best, " ".join("%.3f" % x for x in per), med(per),
             verdict[op]))
print()
print("- target: kbench >= the best of the others, on the ratio of medians and the median "
      "per-round ratio, for read and copy: read %s, copy %s" % (verdict["read"], verdict["copy"]))
PY
echo
echo "load average after: $(loadavg)"
