#!/bin/sh
# What a newcomer meets: a fresh clone's `make test`, several times in a row,
# each run's last line ("N passed, N failed") and its wall time.  The clone
# goes into a directory made by mktemp -d (mode 0700, as root's home or a
# private tmp makes), so the tests that run kbench as another user meet a
# checkout closed to them.
#
#   sh bench/fresh_clone.sh [--runs N] [--load] [--fresh-packages] [--open] [REPO]
#
# --runs N          make test N times in the one clone (5)
# --load            one CPU-bound loop per CPU beside every run
# --fresh-packages  first remove (apt-get purge) the packages that make and
#                   the test set-up install (meson, ninja, the -dev libraries,
#                   postgresql, chromium, strace), so the first run installs
#                   them as on a new machine: root only
# --open            the clone in a directory every user may enter (0755)
# REPO              what to clone (this checkout by default)
# Prints one line per run and keeps each failing run's log beside the clone.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
runs=5 load=0 fresh=0 open=0 repo=$ROOT
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--load) load=1; shift ;;
	--fresh-packages) fresh=1; shift ;;
	--open) open=1; shift ;;
	-*) echo "usage: sh bench/fresh_clone.sh [--runs N] [--load] [--fresh-packages] [--open] [REPO]" >&2; exit 2 ;;
	*) repo=$1; shift ;;
	esac
done
base=$(mktemp -d "${TMPDIR:-/tmp}/kbench-fresh.XXXXXX") || exit 1
[ "$open" = 1 ] && chmod 755 "$base"
hogs=""
cleanup() {
	[ -n "$hogs" ] && kill $hogs 2>/dev/null
	echo "clone and logs: $base (remove it when done)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$fresh" = 1 ]; then
	[ "$(id -u)" = 0 ] || { echo "--fresh-packages needs root" >&2; exit 2; }
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq meson ninja-build libgsl-dev libjansson-dev \
		libcmocka-dev libtirpc-dev libpq-dev libsqlite3-dev 'postgresql*' chromium strace >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive apt-get autoremove -y -qq >/dev/null 2>&1
	echo "packages removed: $(dpkg -l meson libgsl-dev postgresql chromium strace 2>/dev/null | grep -c '^ii') of 5 left"
fi
git clone -q "$repo" "$base/kbench" || exit 1
echo "clone of $(git -C "$base/kbench" rev-parse --short HEAD) in $base (mode $(stat -c %a "$base")), $(nproc) CPUs, load: $([ $load = 1 ] && echo "a loop per CPU" || echo none)"
if [ "$load" = 1 ]; then
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		hogs="$hogs $!"
	done
fi
allpass=1
for r in $(seq "$runs"); do
	t0=$(date +%s)
	(cd "$base/kbench" && make test) >"$base/run$r.log" 2>&1
	rc=$?
	t1=$(date +%s)
	last=$(tail -n 1 "$base/run$r.log")
	echo "run $r: $last, exit $rc, $((t1 - t0)) s"
	if [ "$rc" != 0 ]; then
		allpass=0
		grep '^[a-z_]*\(\[pg\]\)\?: not ok' "$base/run$r.log" | head -20 | sed 's/^/  /'
	fi
done
[ "$allpass" = 1 ] && echo "every run passed" || echo "some runs failed: logs in $base"
