#!/bin/sh
# Check kbench's build dependencies and install what is missing.
#
# On Debian and Ubuntu the missing packages are installed with apt-get
# (through sudo when not root), only when something is missing, so a
# second `make` costs nothing.  Elsewhere this prints exactly what to
# install and fails.  The dependency list is DESIGN.md's; nothing else.
set -u

missing=""
need_pkg() { # debian-package check-command...
	pkg=$1; shift
	"$@" >/dev/null 2>&1 || missing="$missing $pkg"
}

need_pkg gcc          sh -c 'command -v cc'
need_pkg meson        sh -c 'command -v meson'
need_pkg ninja-build  sh -c 'command -v ninja'
need_pkg pkg-config   sh -c 'command -v pkg-config'
need_pkg libc6-dev    sh -c 'test -e /usr/include/stdio.h'
have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }
need_pkg libsqlite3-dev have_pc sqlite3
need_pkg libgsl-dev     have_pc gsl
need_pkg libjansson-dev have_pc jansson
need_pkg libtirpc-dev   have_pc libtirpc
need_pkg libcmocka-dev  have_pc cmocka
need_pkg libpq-dev      have_pc libpq

[ -z "$missing" ] && exit 0

if command -v apt-get >/dev/null 2>&1; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo="sudo"
		else
			echo "kbench: missing build dependencies:$missing" >&2
			echo "kbench: run as root: apt-get install -y$missing" >&2
			exit 1
		fi
	fi
	echo "kbench: installing missing build dependencies:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >&2 || exit 1
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >&2 || exit 1
	exit 0
fi

echo "kbench: missing build dependencies (Debian names):$missing" >&2
echo "kbench: install them with your system's package manager:" >&2
echo "  meson, ninja, pkg-config, a C compiler, sqlite3, gsl, jansson, libtirpc, cmocka, libpq (development files)" >&2
exit 1
