# Debian's packages for the tests that need a real component (PostgreSQL,
# Chromium, strace), installed by the test set-up when missing: sourced by
# tests/pg.sh, tests/browser.sh and the command-line tests.
#
# apt_install PACKAGE...: installed, quietly, as root or through sudo -n;
# status 0, or 1 with APT_WHY saying why not (no apt-get, neither root nor
# sudo, or apt-get's last line).  A fresh machine may have no package lists
# yet, so a failed install updates them once and tries again; another
# apt-get holding dpkg's lock (a second test installing at once) is waited
# for, not failed.
apt_install() {
	APT_WHY=
	if ! command -v apt-get >/dev/null 2>&1; then
		APT_WHY="no $* installed, and no apt-get to install it"
		return 1
	fi
	_apt_sudo=
	if [ "$(id -u)" != 0 ]; then
		if ! sudo -n true 2>/dev/null; then
			APT_WHY="no $* installed, and neither root nor sudo -n to install it"
			return 1
		fi
		_apt_sudo="sudo -n"
	fi
	echo "apt.sh: $* missing, installing Debian's (apt-get install $*)" >&2
	_apt_log=$(mktemp "${TMPDIR:-/tmp}/kbench-apt.XXXXXX") || { APT_WHY="cannot make a log file"; return 1; }
	if ! _apt_get "$@" >"$_apt_log" 2>&1; then
		# shellcheck disable=SC2086 # _apt_sudo is empty or two words
		$_apt_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >>"$_apt_log" 2>&1
		_apt_get "$@" >>"$_apt_log" 2>&1
	fi
	_apt_rc=$?
	[ "$_apt_rc" = 0 ] || APT_WHY="apt-get install $* failed: $(tail -n 1 "$_apt_log" | cut -c1-200)"
	rm -f "$_apt_log"
	return "$_apt_rc"
}

_apt_get() {
	# shellcheck disable=SC2086 # _apt_sudo is empty or two words
	$_apt_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o DPkg::Lock::Timeout=120 --no-install-recommends "$@"
}
