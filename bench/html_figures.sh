#!/bin/bash
# The figures issue 17 names for the HTML page: the page of the fixture
# database (tests/fixtures/kernels.json) at most 1 MB, and rendered by
# headless Chromium within 2 s here.  Each page is loaded ROUNDS times
# (tests/browser.sh's browser_load: Chromium started, the page loaded, its
# DOM read; the time counts Chromium's start too, about 0.5 s) and the
# median is reported.  Prints Markdown.
#
# usage: bench/html_figures.sh      (KBENCH=path, ROUNDS=5)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
# browser.sh is written for the tests' TAP helpers; only its loader is used here.
T=$WORK
KBENCH_TESTS="$ROOT/tests" . "$ROOT/tests/browser.sh"
browser_setup
if [ -z "$BROWSER" ]; then
	echo "skip: no browser: $BROWSER_WHY"
	exit 0
fi
DB="$WORK/f.db"
"$KBENCH" import "$ROOT/tests/fixtures/kernels.json" --db "$DB" >/dev/null 2>&1
"$KBENCH" summary --db "$DB" --html >"$WORK/summary.html"
"$KBENCH" compare 2.5.47 2.5.47-mm1 2.5.48 --db "$DB" --html >"$WORK/compare.html"
"$KBENCH" show mem.lat.curve --db "$DB" --html >"$WORK/show.html" 2>/dev/null || rm -f "$WORK/show.html"

echo "load average before: $(loadavg); $("$BROWSER" --version 2>/dev/null | head -1); $ROUNDS loads a page"
echo
echo "| page | bytes | median load (ms) | loads (ms) | target |"
echo "|---|---|---|---|---|"
for p in summary compare show; do
	[ -f "$WORK/$p.html" ] || continue
	: >"$WORK/$p.times"
	for r in $(seq 1 "$ROUNDS"); do
		browser_load "$WORK/$p.html" "$WORK/out" "$p" >/dev/null 2>&1 || { echo "| $p | load failed | | | |"; continue 2; }
		cat "$WORK/out/$p.ms" >>"$WORK/$p.times"
		echo >>"$WORK/$p.times"
	done
	med=$(sort -n "$WORK/$p.times" | awk 'NF { v[++n] = $1 } END { print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }')
	all=$(awk 'NF { printf "%s%s", s, $1; s = " " }' "$WORK/$p.times")
	echo "| $p | $(wc -c <"$WORK/$p.html") | $med | $all | at most 1 MB, 2000 ms |"
done
echo
echo "load average after: $(loadavg)"
