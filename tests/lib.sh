# Shared by the command-line test files (sourced, with BUILD set): a private
# temporary directory $T with an empty $T/tmp for kbench's --tmpdir, a
# clean environment, and TAP helpers.  Each file ends with: echo "1..$n".
set -u
KB=$(cd "$BUILD" && pwd)/kbench
JC=$(cd "$BUILD" && pwd)/jsoncheck
T=$(mktemp -d "${TMPDIR:-/tmp}/kbench-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir "$T/tmp"
unset KBENCH_DB KBENCH_INJECT KBENCH_INJECT_PEER KBENCH_TEST_HANG KBENCH_TEST_MEM_SKIP
export HOME="$T/home" XDG_DATA_HOME=""

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# skip NAME REASON: a test of what this build's platform lacks, neither
# passed nor failed; PLATFORM is the platform file built (linux, posix)
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
PLATFORM=$(sed -n 's/^#define KB_PLATFORM "\(.*\)"$/\1/p' "$BUILD/config.h" 2>/dev/null)
# needs WHAT check NAME CONDITION...: the check, or under the posix platform,
# which offers no WHAT (CPU affinity, file system types), a skip saying so
needs() {
	what=$1; shift
	if [ "$PLATFORM" = posix ]; then skip "$2" "the posix platform has no $what"; else "$@"; fi
}
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check NAME CONDITION...: the condition is a shell command; a failure shows
# what kbench said, and the status and reason lines of its JSON if any
check() {
	name=$1; shift
	if "$@"; then
		ok "$name"
	else
		notok "$name" "failed: $*" "stderr: $(head -c 400 "$T/err" 2>/dev/null)" \
			"stdout: $(grep -m3 -E '"(status|reason)"' "$T/out" 2>/dev/null | tr '\n' ' ')"
	fi
}
# run kbench, capturing stdout, stderr and status
kb() { "$KB" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
lines() { wc -l <"$1" | tr -d ' '; }
no_leftovers() { # MARK: no process with MARK in its command line, tmp dir empty
	! pgrep -f "$1" >/dev/null 2>&1 && [ -z "$(ls -A "$T/tmp")" ]
}
# The golden files, and golden NAME FILE: $T/out compared with FILE there
# (KBENCH_GOLDEN_UPDATE=1 writes it instead, for an intended change).
GOLD="$(cd "$(dirname "$0")" && pwd)/golden"
golden() { # NAME GOLDEN-FILE: compare $T/out with it (or write it when updating)
	if [ "${KBENCH_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$T/out" "$GOLD/$2"
	fi
	if cmp -s "$T/out" "$GOLD/$2"; then
		ok "$1"
	else
		notok "$1" "$(diff "$GOLD/$2" "$T/out" | head -20)"
	fi
}
