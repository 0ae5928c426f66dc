#!/bin/sh
# The measuring process is kbench-worker, which maps the C library and libm
# and nothing else: no SQLite, libpq (and the dozen libraries behind it),
# GSL or jansson, which made a fork measured in kbench's own process cost
# 2.3 times a plain program's.  Checked in its dynamic section and in the
# maps of a live worker, beside kbench's, which does map them (so the check
# can see a library when there is one).  A worker that is missing, of
# another build or no worker at all: one line, exit 1, nothing stored.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
W=$(cd "$BUILD" && pwd)/kbench-worker

# The libraries a build may map in its worker: the C library, libm and the
# loader; a sanitized build adds its runtimes and the libtirpc it links
# (meson.build says why).
allowed='^(libc|libm|libdl|libpthread|librt|ld-linux[-a-z0-9_.]*|ld64|linux-vdso)\.so'
if grep -q '^#define KB_BUILD_TYPE "sanitize"' "$BUILD/config.h"; then
	allowed='^(libc|libm|libdl|libpthread|librt|ld-linux[-a-z0-9_.]*|ld64|linux-vdso|libasan|libubsan|libgcc_s|libstdc\+\+|libtirpc|libgssapi_krb5|libkrb5|libk5crypto|libcom_err|libkrb5support|libkeyutils|libresolv)\.so'
fi
# needed FILE: the shared libraries FILE's dynamic section names, one a line
needed() {
	if command -v readelf >/dev/null 2>&1; then
		readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
	else
		objdump -p "$1" | awk '$1 == "NEEDED" { print $2 }'
	fi
}
# mapped PID: the shared objects mapped in process PID, one a line (their names)
mapped() {
	awk '$6 ~ /\.so/ { n = split($6, p, "/"); print p[n] }' "/proc/$1/maps" | sort -u
}
# only_allowed NAME FILE: FILE lists libraries, none beyond the allowed
only_allowed() {
	check "$1: $(tr '\n' ' ' <"$2" 2>/dev/null)" sh -c "[ -s '$2' ] && ! grep -Ev '$allowed' '$2'"
}
# beyond_allowed NAME FILE: FILE lists a library beyond them (so the check can see one)
beyond_allowed() {
	check "$1 ($(wc -l <"$2" 2>/dev/null) libraries)" sh -c "grep -Evq '$allowed' '$2'"
}

if command -v readelf >/dev/null 2>&1 || command -v objdump >/dev/null 2>&1; then
	needed "$W" >"$T/worker.needed"
	needed "$KB" >"$T/kbench.needed"
	only_allowed "the worker's dynamic section names only the C library, libm and the loader" "$T/worker.needed"
	beyond_allowed "the front end's names more, which the check sees" "$T/kbench.needed"
else
	skip "the worker's dynamic section" "neither readelf nor objdump is installed"
	skip "the front end's dynamic section" "neither readelf nor objdump is installed"
fi

# A live worker: sys.null made to hang (the test hook), its maps read.
if [ -r /proc/self/maps ]; then
	mark="WORKMAPS_$$"
	KBENCH_TEST_HANG=sys.null "$KB" run --only sys.null --replicas 1 --no-store --quiet \
		--label "$mark" --tmpdir "$T/tmp" --watchdog 600 >/dev/null 2>&1 &
	kpid=$!
	# The preludes' workers come and go in milliseconds; the hanging one
	# stays, and says so with its file.
	wait_for eval "ls '$T'/tmp/*/hanging >/dev/null 2>&1"
	wpid=$(pgrep -f "^kbench-worker --kbench-worker .*$mark" | head -1)
	if [ -n "$wpid" ]; then
		mapped "$wpid" >"$T/worker.maps"
		mapped "$kpid" >"$T/kbench.maps"
	fi
	kill -INT "$kpid" 2>/dev/null
	wait "$kpid"
	only_allowed "a live worker maps only the C library, libm and the loader" "$T/worker.maps"
	beyond_allowed "kbench itself, measuring nothing, maps the store's libraries" "$T/kbench.maps"
else
	skip "a live worker's maps" "no /proc/PID/maps here"
	skip "kbench's maps" "no /proc/PID/maps here"
fi

KBENCH_WORKER="$T/nowhere/kbench-worker" kb run --only sys.null --replicas 1 --db "$T/missing.db" --tmpdir "$T/tmp"
check "a missing worker: one line naming it, exit 1, nothing stored" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'KBENCH_WORKER.*nowhere/kbench-worker' '$T/err'"
check "... and no database, no private directory left" sh -c "[ ! -e '$T/missing.db' ] && [ -z \"\$(ls -A '$T/tmp')\" ]"

# Another build's worker: the same program with another build id in it.
id=$("$W" --build-id)
other=$(echo "$id" | tr '0-9a-f' '1-9a-f0')
python3 - "$W" "$T/other-worker" "$id" "$other" <<'EOF'
import sys
src, dst, a, b = sys.argv[1:]
data = open(src, 'rb').read()
assert data.count(a.encode()) >= 1
open(dst, 'wb').write(data.replace(a.encode(), b.encode()))
EOF
chmod +x "$T/other-worker"
check "the build id is 64 hex digits, and the copy says another" \
	sh -c "echo '$id' | grep -Eq '^[0-9a-f]{64}$' && [ \"\$('$T/other-worker' --build-id)\" = '$other' ]"
KBENCH_WORKER="$T/other-worker" kb run --only sys.null --replicas 1 --db "$T/other.db" --tmpdir "$T/tmp"
check "another build's worker is refused: one line with both builds, exit 1, nothing stored" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"another build's (build $(echo "$other" | cut -c1-12), this kbench's $(echo "$id" | cut -c1-12))\" '$T/err' && [ ! -e '$T/other.db' ]"
KBENCH_WORKER="$T/other-worker" kb time --runs 1 --no-store -- true
check "... by time as well (its prelude measures the clock in the worker)" \
	sh -c "[ $rc = 1 ] && grep -q \"another build's\" '$T/err'"

# No worker at all: a program that exits at once.
KBENCH_WORKER=$(for f in /bin/true /usr/bin/true; do [ -x $f ] && echo $f && break; done) kb run --only sys.null --replicas 1 --db "$T/true.db" --tmpdir "$T/tmp"
check "a program that is no worker: one line, exit 1, nothing stored" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'before reporting a result' '$T/err' && [ ! -e '$T/true.db' ]"
check "... and nothing left in --tmpdir" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"

# The real worker named by KBENCH_WORKER, from elsewhere: it measures.
cp "$W" "$T/my-worker"
KBENCH_WORKER="$T/my-worker" kb run --only sys.null --replicas 2 --max-time 0.2 --db "$T/mine.db" --tmpdir "$T/tmp" --json
check "a worker named by KBENCH_WORKER measures" sh -c "[ $rc = 0 ] && grep -q '\"id\": \"sys.null\"' '$T/out'"

"$W" >"$T/out" 2>"$T/err"
rc=$?
check "kbench-worker run by hand: one line, exit 2" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'not to be run by hand' '$T/err'"
"$W" --kbench-worker 0 1 -1 1 >"$T/out" 2>"$T/err"
rc=$?
check "a worker whose parent is not its parent ends at once" sh -c "[ $rc = 1 ]"

echo "1..$n"
