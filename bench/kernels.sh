#!/bin/sh
# What kbench kernels costs under QEMU's TCG: each guest's time from qemu's
# start to its power-off with the results (boot-to-result), a plain boot
# of the same kernel (nothing measured: qemu's start, the kernel, the
# initramfs with the static worker), the cost of a round against that,
# and the whole comparison's wall time.
#
#   1. A/A:  one Debian kernel package against itself, ROUNDS rounds of
#            ONLY (the command-line test's comparison)
#   2. two:  two Debian kernels (KERNEL_A, KERNEL_B) against each other,
#            ROUNDS rounds of ONLY2
# The packages are fetched with apt-get download into $KDIR when missing.
# Figures come from kbench's own progress lines on stderr (one a boot);
# the wall times from date.  Prints Markdown.
#
# usage: bench/kernels.sh   (KBENCH=..., ROUNDS=3, ONLY=sys.null,
#                           ONLY2='sys.null,sys.read,proc.fork',
#                           KERNEL_A=linux-image-6.1.0-50-amd64,
#                           KERNEL_B=linux-image-6.1.0-47-amd64, KDIR=build/test-kernels)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-sys.null}
ONLY2=${ONLY2:-sys.null,sys.read,proc.fork}
KERNEL_A=${KERNEL_A:-linux-image-6.1.0-50-amd64}
KERNEL_B=${KERNEL_B:-linux-image-6.1.0-47-amd64}
KDIR=${KDIR:-$ROOT/build/test-kernels}
mkdir -p "$KDIR"
command -v qemu-system-x86_64 >/dev/null 2>&1 || {
	echo "no qemu-system-x86_64: apt-get install qemu-system-x86" >&2
	exit 1
}

deb_of() { # PACKAGE: its .deb in $KDIR, fetched when missing
	f=$(ls "$KDIR/$1"_*.deb 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		(cd "$KDIR" && apt-get download "$1" >/dev/null 2>&1) || {
			echo "cannot apt-get download $1" >&2
			exit 1
		}
		f=$(ls "$KDIR/$1"_*.deb | head -1)
	fi
	echo "$f"
}

now() { date +%s.%N; }

# session NAME A B ONLY LABEL...: one comparison timed, its stderr kept as $WORK/NAME.err
session() {
	name=$1 a=$2 b=$3 only=$4
	shift 4
	t0=$(now)
	"$KBENCH" kernels --accel tcg --rounds "$ROUNDS" --only "$only" --no-store "$@" "$a" "$b" \
		>"$WORK/$name.out" 2>"$WORK/$name.err" || {
		echo "kbench kernels failed:" >&2
		cat "$WORK/$name.err" >&2
		exit 1
	}
	t1=$(now)
	echo "$t0 $t1" >"$WORK/$name.wall"
}

# report NAME WHAT: the figures of one session as a Markdown row
report() {
	python3 - "$WORK/$1.err" "$WORK/$1.wall" "$2" "$ROUNDS" <<'PY'
import re, statistics, sys
err = open(sys.argv[1]).read()
t0, t1 = map(float, open(sys.argv[2]).read().split())
what, rounds = sys.argv[3], int(sys.argv[4])
plain = [float(x) for x in re.findall(r"boots under tcg: ([0-9.]+) s", err)]
boots = [float(x) for x in re.findall(r"powered off in ([0-9.]+) s", err)]
assert boots, err
med = statistics.median(boots)
round_s = 2 * med
print(f"| {what} | {rounds} | {', '.join(f'{p:.1f}' for p in plain)} | "
      f"{min(boots):.1f} / {med:.1f} / {max(boots):.1f} | {round_s:.1f} "
      f"({round_s / statistics.median(plain):.2f}x a plain boot) | {t1 - t0:.1f} |")
PY
}

DEB_A=$(deb_of "$KERNEL_A")
DEB_B=$(deb_of "$KERNEL_B")
session aa "$DEB_A" "$DEB_A" "$ONLY" --label A --label B
session two "$DEB_A" "$DEB_B" "$ONLY2"

echo "kbench kernels under TCG ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(qemu-system-x86_64 --version | head -1))"
echo
echo "| comparison | rounds | plain boot, s | boot-to-result min / median / max, s | a round (two boots), s | whole command, s |"
echo "|---|---|---|---|---|---|"
report aa "A/A of ${KERNEL_A#linux-image-}, --only $ONLY"
report two "${KERNEL_A#linux-image-} against ${KERNEL_B#linux-image-}, --only $ONLY2"
echo
echo "The second comparison's table:"
echo
echo '```'
cat "$WORK/two.out"
echo '```'
