#!/bin/sh
# Tests of tests/browser.sh, the headless-Chromium harness the HTML tests
# (issue 17) stand on: the screenshot and DOM checks against pages whose
# answers are known, first without a browser (PNGs made here, the fixture
# pages' own source), then each page of tests/fixtures/browser/ loaded in
# Chromium: a chart and a table that must draw with a silent console, a
# blank page that must read as blank, a console.error, a missing image and
# uncaught errors that must all be caught, and a page that never loads,
# which must fail in time.  Then kbench's own pages of the fixture database
# (summary, compare, show of the curve, and summary and compare with long
# labels) printed as the issue says they print, on A4: a PDF of A4 pages,
# and nothing wider than the paper under print media (with a page made too
# wide to show that this is seen).
# Without Chromium (none can be installed) the loads skip, saying why.  What
# Chromium made stays in BUILD/html/browser/ for a person to look at; load
# times are printed, never asserted.  TAP output like tests/cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
FIX="$(cd "$(dirname "$0")" && pwd)/fixtures/browser"
mkdir -p "$BUILD/html/browser" || exit 1
OUT="$(cd "$BUILD/html/browser" && pwd)"

drawn() { browser_blank "$1"; [ $? = 1 ]; }
counts() { # DOM SELECTOR...: the counts, a space after each
	_f=$1; shift
	for _s; do printf '%s ' "$(browser_count "$_f" "$_s")"; done
}

# PNGs of 50x40 pixels, one per filter type and one cycling through all
# five: uniform (u-*), one pixel off in the last row's last place (d-*),
# one off in the first row's second pixel (e-*).  A blank check that read
# only the first rows, or unfiltered a filter wrongly, gets one wrong.
"$BROWSER_PY" - "$T" <<'EOF'
import struct, sys, zlib
def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)
def write(path, rows, bpp, ctype, kind):
    raw, above = b"", bytes(len(rows[0]))
    for y, row in enumerate(rows):
        f = kind if kind >= 0 else y % 5
        out = bytearray([f])
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b, c = above[i], (above[i - bpp] if i >= bpp else 0)
            out.append((x - [0, a, b, (a + b) // 2, paeth(a, b, c)][f]) & 255)
        raw, above = raw + bytes(out), row
    def chunk(k, d):
        return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
    hdr = struct.pack(">IIBBBBB", len(rows[0]) // bpp, len(rows), 8, ctype, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", hdr)
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
for ctype, bpp in ((2, 3), (6, 4)):
    for kind in (-1, 0, 1, 2, 3, 4):
        u = [bytes([250, 250, 250, 255][:bpp]) * 50 for _ in range(40)]
        write("%s/u-%d-%d.png" % (sys.argv[1], ctype, kind), u, bpp, ctype, kind)
        for name, y, i in (("d", -1, -1), ("e", 0, bpp)):
            rows = [bytearray(r) for r in u]
            rows[y][i] = 0
            write("%s/%s-%d-%d.png" % (sys.argv[1], name, ctype, kind),
                  [bytes(r) for r in rows], bpp, ctype, kind)
EOF
all_blank() { for f in "$T"/u-*.png; do browser_blank "$f" || return 1; done; }
none_blank() { for f in "$T"/d-*.png "$T"/e-*.png; do drawn "$f" || return 1; done; }
check "browser_blank: 12 uniform PNGs (RGB, RGBA, every filter) are blank" all_blank
check "browser_blank: 24 with one pixel off, first row or last, are not" none_blank
: >"$T/empty.png"
no_png() { browser_blank "$T/none.png" && browser_blank "$T/empty.png"; }
check "browser_blank: a missing or empty screenshot is blank" no_png
check "browser_count: ok.html's source has 1 svg, 2 path.series, 1 g.axis, 3 tr" \
	[ "$(counts "$FIX/ok.html" svg path.series g.axis tr)" = "1 2 1 3 " ]
check "browser_count: tag[attr=value], .class and [attr]" \
	[ "$(counts "$FIX/ok.html" 'path[class=series b]' .series '[d]')" = "1 2 2 " ]
browser_count "$FIX/ok.html" 'svg > path' >/dev/null 2>"$T/err"
check "browser_count: a selector it cannot read is refused" [ $? = 2 ]

# A PDF of two pages whose answers are known: the first takes A4 from the
# page tree's root, the second has a Letter box of its own.  A reader that
# took the first box it saw, or only a page's own, gets one wrong.
"$BROWSER_PY" - "$T/two.pdf" <<'EOF'
import sys
objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /MediaBox [0 0 595.28 841.89] /Count 2 /Kids [3 0 R 4 0 R] >>",
        b"<< /Type /Page /Parent 2 0 R >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]
out, at = b"%PDF-1.4\n", []
for i, o in enumerate(objs):
    at.append(len(out))
    out += b"%d 0 obj\n%s\nendobj\n" % (i + 1, o)
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
out += b"".join(b"%010d 00000 n \n" % a for a in at)
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%EOF\n" % (len(objs) + 1, xref)
open(sys.argv[1], "wb").write(out)
EOF
check "browser_pdf: a page's box inherited from the tree, and one of its own" \
	[ "$(browser_pdf "$T/two.pdf" | tr '\n' ,)" = "595.28 841.89,612 792," ]
browser_pdf "$FIX/ok.html" >"$T/out" 2>"$T/err"
check "browser_pdf: what is not a PDF is refused, saying so" \
	sh -c "[ $? = 2 ] && [ ! -s '$T/out' ] && grep -q 'no %PDF- header' '$T/err'"

# kbench's pages of the fixture database the HTML tests use (cli_html.sh),
# for printing below.
"$KB" import "$(dirname "$FIX")/kernels.json" --db "$T/f.db" >/dev/null 2>&1 &&
	"$KB" summary --db "$T/f.db" --html >"$T/summary.html" 2>"$T/err" &&
	"$KB" compare 2.5.47 2.5.47-mm1 2.5.48 --db "$T/f.db" --html >"$T/compare.html" 2>>"$T/err" &&
	"$KB" show mem.lat.curve --db "$T/f.db" --html >"$T/show.html" 2>>"$T/err"
check "kbench makes the fixture's summary, compare and show pages" [ $? = 0 ]
# The same with labels long and alike to their last character (outlier.json):
# a column per label in the systems table, a side's name over its columns.
"$KB" import "$(dirname "$FIX")/outlier.json" --db "$T/o.db" >/dev/null 2>&1 &&
	"$KB" summary --db "$T/o.db" --html >"$T/long-summary.html" 2>"$T/err" &&
	"$KB" compare 6.19.0-rc1-next-20251201-a 6.19.0-rc1-next-20251201-b \
		6.19.0-rc1-next-20251201-c --db "$T/o.db" --html >"$T/long-compare.html" 2>>"$T/err"
check "kbench makes the long labels' summary and compare pages" [ $? = 0 ]
# A page sure to be wider than A4's printable width under print media
# alone: on screen it fits, so only a measurement under print sees it.
cat >"$T/wide.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>wide</title>
<style>@media print{table{width:900px}}</style></head>
<body><table class="model" data-table="wide"><tr><td>x</td></tr></table></body></html>
EOF

# A browser that cannot start must fail the load, not leave empty files
# that read as a silent page.
(BROWSER=/bin/false; browser_load "$FIX/ok.html" "$T/false" ok 2>"$T/err")
check "browser_load fails when Chromium does" [ $? != 0 ]

browser_setup 2>"$T/setup"
sed 's/^/# /' "$T/setup"
if [ -z "$BROWSER" ]; then
	skip "loading the fixtures in Chromium" "$BROWSER_WHY"
	skip "printing kbench's pages on A4" "$BROWSER_WHY"
	echo "1..$n"
	exit 0
fi
echo "# $(browser_version)"
(BROWSER=; browser_setup 2>"$T/err" && [ ! -s "$T/err" ])
check "browser_setup a second time finds it, installing nothing" [ $? = 0 ]

# load NAME: NAME.html into $OUT, one Chromium after another
load() {
	browser_load "$FIX/$1.html" "$OUT" "$1" 2>"$T/err" || return 1
	echo "# load $1.html: DOM in $(cat "$OUT/$1.ms") ms" >>"$T/times"
}
for page in ok blank console_error missing uncaught; do
	check "$page.html loads" load "$page"
done
cat "$T/times" 2>/dev/null

check "ok.html: nothing on the console" [ "$(lines "$OUT/ok.console")" = 0 ]
check "ok.html: the DOM has 1 svg, 2 path.series and 1 g.axis" \
	[ "$(counts "$OUT/ok.dom" svg path.series g.axis)" = "1 2 1 " ]
check "ok.html: 1 table of 3 tr, in the tbody Chromium adds" \
	[ "$(counts "$OUT/ok.dom" table tr tbody)" = "1 3 1 " ]
check "ok.html: the screenshot is not blank" drawn "$OUT/ok.png"
check "ok.html: the screenshot is 1280x2000" \
	[ "$(od -An -tu1 -j16 -N8 "$OUT/ok.png" | tr -s ' ' | sed 's/^ //')" = "0 0 5 0 0 0 7 208" ]
check "ok.html: its load time is a number of ms" grep -Eqx '[0-9]+' "$OUT/ok.ms"
check "blank.html: the screenshot is blank" browser_blank "$OUT/blank.png"
check "blank.html: nothing on the console" [ "$(lines "$OUT/blank.console")" = 0 ]
check "console_error.html: console.error's boom is caught" \
	grep -q '^console.error: boom (file://.*console_error.html:6)$' "$OUT/console_error.console"
check "missing.html: the image it failed to load is named" \
	grep -q 'Failed to load resource: net::ERR_FILE_NOT_FOUND file://.*/nothere.png$' "$OUT/missing.console"
check "missing.html: and nothing else is on its console" [ "$(lines "$OUT/missing.console")" = 1 ]
check "uncaught.html: both uncaught errors are caught, with their lines" \
	[ "$(grep -Ec "^Uncaught (TypeError: Cannot read .*null.*uncaught.html:6|Error: bang .*uncaught.html:7)\)\$" "$OUT/uncaught.console")" = 2 ]
hangs() { BROWSER_TIMEOUT=2 browser_load "$FIX/hang.html" "$OUT" hang 2>"$T/err"; }
hangs
check "hang.html: a page that never loads fails after BROWSER_TIMEOUT" [ $? != 0 ]
check "hang.html: ... saying so" grep -q 'no answer from chromium within 2 s' "$OUT/hang.log"
# printed NAME FILE: FILE loaded and printed into $OUT/print-NAME.*
printed() {
	browser_load "$2" "$OUT" "print-$1" print 2>"$T/err" || return 1
	echo "# print $1: DOM in $(cat "$OUT/print-$1.ms") ms" >>"$T/ptimes"
}
# a4 PDF: one page at least, every one A4 (595x842 points, 1 of rounding:
# Chromium gives 595.92x841.92, whole CSS pixels)
a4() {
	browser_pdf "$1" >"$T/boxes" 2>"$T/err" && [ -s "$T/boxes" ] &&
		awk '{ w = $1 - 595; h = $2 - 842
			if (NF != 2 || w > 1 || w < -1 || h > 1 || h < -1) bad = 1 }
			END { exit bad }' "$T/boxes"
}
# fits NAME: the first line of print-NAME.width, its scroll width no more
# than the viewport's; a failure names what sticks out and how far
fits() {
	read -r _sw _vw <"$OUT/print-$1.width" && [ "$_sw" -le "$_vw" ] && return 0
	notok "$2" "scrollWidth $_sw > viewport $_vw; outermost elements past it, right edge in px:" \
		"$(sed 1d "$OUT/print-$1.width" | tr '\n' ';')"
	return 1
}
for page in summary compare show long-summary long-compare; do
	if ! printed "$page" "$T/$page.html"; then
		notok "the $page page prints to PDF" "$(head -c 400 "$T/err")"
		continue
	fi
	ok "the $page page prints to PDF"
	pdf=$OUT/print-$page.pdf
	check "$page: the PDF starts with %PDF-" [ "$(head -c 5 "$pdf")" = %PDF- ]
	check "$page: every page of the PDF is A4, $(browser_pdf "$pdf" 2>/dev/null | wc -l | tr -d ' ') of them ($pdf)" a4 "$pdf"
	name="$page: nothing wider than A4's printable width under print media"
	fits "$page" "$name" && ok "$name ($(cut -d' ' -f2 "$OUT/print-$page.width" | head -1) px)"
done
cat "$T/ptimes" 2>/dev/null
printed wide "$T/wide.html"
check "wide.html: a table wider than A4 under print media alone is seen" \
	sh -c "read -r sw vw <'$OUT/print-wide.width' && [ \$sw -gt \$vw ] && grep -q '^table.model\[data-table=wide\] ' '$OUT/print-wide.width'"
check "no profile left behind" sh -c "! ls -a '$OUT' | grep -q '^\.chromium'"
check "no Chromium left running" sh -c "! pgrep -f '$OUT/\.chromium' >/dev/null"

echo "1..$n"
