#!/bin/sh
# Linux-only interfaces stay in src/plat/ (issue 13, portability).  The
# posix build (make PLATFORM=posix, in CI) hides glibc's GNU extensions, so
# a GNU or Linux-only function outside src/plat/ does not compile there;
# this catches what glibc declares even so: Linux's own headers, and the
# OS conditionals STYLE.md keeps to src/plat/.  Reads the source only.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1

LINUX='#include <(linux/|asm/|sys/(prctl|epoll|inotify|sysinfo|signalfd|timerfd|eventfd|sendfile|personality|fsuid|vfs)\.h|mntent\.h)'
OSIF='^#(if|ifdef|ifndef|elif).*(__linux__|__gnu_linux__|__APPLE__|__FreeBSD__|__OpenBSD__|__NetBSD__|__sun)'
# Everything compiled: src/, the tests, the fuzz harnesses.
files=$(find src tests fuzz -name '*.[ch]' 2>/dev/null | grep -v '^src/plat/' | sort)
# A failure shows the lines found (check prints $T/err).
grep -nE "$LINUX" $files >"$T/err" 2>/dev/null
check "no Linux-only header outside src/plat/" sh -c "! [ -s '$T/err' ]"
grep -nE "$OSIF" $files >"$T/err" 2>/dev/null
check "no OS conditional outside src/plat/" sh -c "! [ -s '$T/err' ]"
# And the pattern finds what it looks for: src/plat/linux.c's own headers.
: >"$T/err"
check "the check finds src/plat/linux.c's Linux headers" grep -qE "$LINUX" src/plat/linux.c
echo "1..$n"
