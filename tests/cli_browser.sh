#!/bin/sh
# Tests of tests/browser.sh, the headless-Chromium harness the HTML tests
# (issue 17) stand on: the screenshot and DOM checks against pages whose
# answers are known, first without a browser (PNGs made here, the fixture
# pages' own source), then each page of tests/fixtures/browser/ loaded in
# Chromium: a chart and a table that must draw with a silent console, a
# blank page that must read as blank, a console.error, a missing image and
# uncaught errors that must all be caught, and a page that never loads,
# which must fail in time.  Without Chromium (none can be installed) the
# loads skip, saying why.  What Chromium made stays in BUILD/html/browser/
# for a person to look at; load times are printed, never asserted.  TAP
# output like tests/cli.sh.
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

# A browser that cannot start must fail the load, not leave empty files
# that read as a silent page.
(BROWSER=/bin/false; browser_load "$FIX/ok.html" "$T/false" ok 2>"$T/err")
check "browser_load fails when Chromium does" [ $? != 0 ]

browser_setup 2>"$T/setup"
sed 's/^/# /' "$T/setup"
if [ -z "$BROWSER" ]; then
	skip "loading the fixtures in Chromium" "$BROWSER_WHY"
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
check "no profile left behind" sh -c "! ls -a '$OUT' | grep -q '^\.chromium'"
check "no Chromium left running" sh -c "! pgrep -f '$OUT/\.chromium' >/dev/null"

echo "1..$n"
