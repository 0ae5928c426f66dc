# Shared by the command-line tests that look at kbench's HTML pages (issue
# 17) in a real browser: Debian's headless Chromium, installed here when it
# is missing and we may.  Sourced after lib.sh; defines
#   browser_setup              BROWSER set to Chromium, or empty and
#                              BROWSER_WHY saying why (for skip)
#   browser_load FILE DIR NAME [print]
#                              DIR/NAME.dom, .png, .console and .ms; with
#                              print also NAME.pdf (A4) and NAME.width
#   browser_pdf PDF            each page's MediaBox, a line "W H" each
#   browser_blank PNG          status 0 when the screenshot shows nothing
#   browser_count DOM SELECTOR how many elements match (tag, tag.class,
#                              tag[attr=value], .class, [attr=value])
# It must not fetch anything but Debian's package, and leaves no profile,
# cache or process behind.  Variables of its own start with _b.
# apt.sh beside this file: the tests' directory (lib.sh exports it as
# KBENCH_TESTS; a script elsewhere, in bench/, sets it).
. "${KBENCH_TESTS:-$(dirname "$0")}/apt.sh"
BROWSER=${BROWSER:-}
BROWSER_WHY=${BROWSER_WHY:-}

# The switches every load runs with.  Needed: --headless (there is no
# display) and --no-sandbox (the tests run as root, where Chromium will not
# start its sandbox).  --disable-gpu (there is none) and
# --disable-dev-shm-usage (a container's /dev/shm is often too small, and
# Debian's launcher fails to test for it) cost nothing; the rest keep
# Chromium from doing anything the page did not ask for (updates, sync,
# metrics, extensions, first-run pages), so that a load is the page alone.
BROWSER_FLAGS="--headless --no-sandbox --disable-gpu --disable-dev-shm-usage
 --disable-background-networking --disable-component-update --disable-sync
 --no-first-run --disable-default-apps --metrics-recording-only
 --disable-extensions --mute-audio --hide-scrollbars"
# Even so Chromium 156 asks for components and accounts at start, so no
# host name resolves at all: nothing leaves the machine, and a page that
# refers to anything on the network shows it as a failed load.
BROWSER_NO_DNS="--host-resolver-rules=MAP * ~NOTFOUND"
# Python 3 for the helpers below, standard library only: the system's
# where there is one, as a version manager's shim in PATH costs 0.1 s a
# call and the tests make dozens.
BROWSER_PY=${BROWSER_PY:-$(command -v /usr/bin/python3 || command -v python3)}
# The longest a load may take before it counts as Chromium failing, in
# whole seconds.
BROWSER_TIMEOUT=${BROWSER_TIMEOUT:-60}

_browser_find() {
	for _b in chromium chromium-browser; do
		if _bp=$(command -v "$_b" 2>/dev/null) && [ -x "$_bp" ]; then
			BROWSER=$_bp
			BROWSER_WHY=
			return 0
		fi
	done
	return 1
}

# browser_setup: find Chromium, or install Debian's when missing and we are
# root with apt-get; a second call costs nothing.  Status 0 when BROWSER is
# set, 1 with BROWSER_WHY filled otherwise.
browser_setup() {
	if [ -z "$BROWSER_PY" ]; then
		BROWSER=
		BROWSER_WHY="no python3 to drive Chromium and read what it wrote"
		return 1
	fi
	[ -n "$BROWSER" ] && [ -x "$BROWSER" ] && return 0
	BROWSER=
	_browser_find && return 0
	_bt0=$(_browser_ms)
	if ! apt_install chromium; then
		BROWSER_WHY=$APT_WHY
		echo "browser.sh: $BROWSER_WHY" >&2
		return 1
	fi
	if _browser_find; then
		echo "browser.sh: installed $BROWSER in $(( ($(_browser_ms) - _bt0) / 1000 )) s" >&2
		return 0
	fi
	BROWSER_WHY="apt-get install chromium installed no chromium"
	echo "browser.sh: $BROWSER_WHY" >&2
	return 1
}

# Milliseconds of wall clock; GNU date's %N, else whole seconds.
_browser_ms() {
	_bn=$(date +%s%N)
	case $_bn in
	*[!0-9]*) echo $(($(date +%s) * 1000)) ;;
	*) echo $((_bn / 1000000)) ;;
	esac
}

# browser_version: Chromium's own version line, for a test's log.
browser_version() {
	[ -n "$BROWSER" ] && "$BROWSER" --version 2>/dev/null | head -n 1
}

# browser_load FILE OUTDIR NAME [print]: load FILE in one Chromium start,
# driven over DevTools on a pipe, and write OUTDIR/NAME.dom (the DOM after
# the load event), NAME.png (a 1280x2000 screenshot), NAME.console (what
# the page logged, its uncaught errors and the resources it failed to load,
# a line each) and NAME.ms (milliseconds from starting Chromium to the DOM
# in hand, as long as a --dump-dom run takes).  With print, the same start
# then prints the page as the issue says it must print, and writes
# NAME.pdf (Page.printToPDF on A4, 0.4 in margins, backgrounds, no header
# or footer) and NAME.width: a first line "SCROLL VIEWPORT", the page's
# document.documentElement.scrollWidth under print media in a viewport of
# A4's printable width (717 CSS px: 8.27 in less the margins, at 96 px an
# inch), then the outermost elements that stick out past it, a line
# "WHAT RIGHT" each, at most 5.  Status non-zero when Chromium could not
# run or the page did not load; NAME.log keeps Chromium's stderr then.  Why
# not --dump-dom and --screenshot: they need a start each, and with
# --enable-logging=stderr they show console calls but never a failed load,
# which Blink reports to DevTools alone.
browser_load() {
	[ -n "$BROWSER" ] || { echo "browser_load: no browser (browser_setup first)" >&2; return 2; }
	[ -f "$1" ] || { echo "browser_load: no file '$1'" >&2; return 2; }
	case ${4:-} in
	'' | print) ;;
	*) echo "browser_load: unknown step '$4' (print or nothing)" >&2; return 2 ;;
	esac
	mkdir -p "$2" || return 2
	_bf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	_bo=$(cd "$2" && pwd)/$3
	rm -f "$_bo.dom" "$_bo.png" "$_bo.console" "$_bo.ms" "$_bo.log" \
		"$_bo.pdf" "$_bo.width"
	# A profile of its own each run, with HOME and the XDG directories in
	# it, so nothing of a user's or of a previous run's is read or kept.
	_bprof=$(mktemp -d "$(dirname "$_bo")/.chromium-$3.XXXXXX") || return 2
	_brc=0
	# The helper keeps the time limit and ends all of Chromium's processes
	# itself; the outer timeout is there should the helper itself hang.
	# shellcheck disable=SC2086 # BROWSER_FLAGS is a list of words
	HOME=$_bprof XDG_CONFIG_HOME=$_bprof/config XDG_CACHE_HOME=$_bprof/cache \
		timeout -k 5 $((BROWSER_TIMEOUT + 10)) "$BROWSER_PY" - "$BROWSER_TIMEOUT" \
		"file://$_bf" "$_bo" "${4:-}" "$BROWSER" $BROWSER_FLAGS \
		"$BROWSER_NO_DNS" "--user-data-dir=$_bprof/profile" --window-size=1280,2000 \
		--remote-debugging-pipe about:blank 2>"$_bo.log" <<'EOF' || _brc=$?
import base64, json, os, select, signal, subprocess, sys, time

limit, url, out, step, argv = (float(sys.argv[1]), sys.argv[2], sys.argv[3],
                               sys.argv[4], sys.argv[5:])
t0 = time.monotonic()
deadline = t0 + limit

# Chromium reads DevTools commands from its fd 3 and writes answers and
# events to its fd 4, each a JSON text ended by a NUL.
to_r, to_w = os.pipe()
from_r, from_w = os.pipe()
def fds():
    # Through fresh numbers first: a pipe may itself be fd 3 or 4, and
    # dup2 onto itself would leave it closed on exec.
    r, w = os.dup(to_r), os.dup(from_w)
    os.dup2(r, 3)
    os.dup2(w, 4)
# The fds to keep are the child's 3 and 4, which fds() has just made.
# A session of its own, so that stop() can end every process of Chromium's.
proc = subprocess.Popen(argv, preexec_fn=fds, pass_fds=(3, 4), start_new_session=True,
                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
os.close(to_r)
os.close(from_w)
buf, seen, last, console = b"", [], [0], []

def stop(wait):
    """Chromium gone, and whatever it left (renderers, its crash handler)
    too, so that nothing writes into the profile the shell then removes."""
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    # SIGKILL is delivered, not yet obeyed: wait for the last to die (its
    # zombie, left for init to reap, can write nothing).
    for _ in range(40):
        if not alive(proc.pid):
            break
        time.sleep(0.05)

def alive(group):
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            with open("/proc/%s/stat" % pid) as f:
                state, _, pgrp = f.read().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(pgrp) == group and state != "Z":
            return True
    return False

def fail(why):
    sys.stderr.write("browser_load: %s\n" % why)
    stop(0)
    sys.exit(1)

def receive():
    global buf
    while b"\0" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            fail("no answer from chromium within %g s" % limit)
        if select.select([from_r], [], [], left)[0]:
            chunk = os.read(from_r, 1 << 20)
            if not chunk:
                fail("chromium exited (status %s) before the page loaded"
                     % proc.wait())
            buf += chunk
    msg, buf = buf.split(b"\0", 1)
    m = json.loads(msg)
    if "method" in m:
        event(m["method"], m.get("params", {}))
    return m

def where(url, line):
    return "(%s:%d)" % (url or "?", (line if line is not None else -1) + 1)

def event(kind, p):
    """Keep what the page said: its console, its errors, its failed loads."""
    seen.append(kind)
    if kind == "Runtime.consoleAPICalled":
        words = []
        for a in p.get("args", []):
            v = a.get("value", a.get("description", a.get("type")))
            words.append(v if isinstance(v, str) else json.dumps(v))
        f = ((p.get("stackTrace") or {}).get("callFrames") or [{}])[0]
        console.append("console.%s: %s %s" % (p.get("type"), " ".join(words),
                       where(f.get("url"), f.get("lineNumber"))))
    elif kind == "Runtime.exceptionThrown":
        d = p.get("exceptionDetails", {})
        text = (d.get("exception") or {}).get("description") or d.get("text") or "?"
        console.append("Uncaught %s %s" % (text.splitlines()[0],
                       where(d.get("url"), d.get("lineNumber"))))
    elif kind == "Log.entryAdded":
        e = p.get("entry", {})
        # Console calls come as Runtime's events above; verbose entries are
        # Chromium's performance hints ([Violation]), not the page's faults.
        if e.get("source") != "console-api" and e.get("level") != "verbose":
            console.append("%s %s: %s %s" % (e.get("source"), e.get("level"),
                           e.get("text"), e.get("url", "")))
    elif kind in ("Inspector.targetCrashed", "Target.targetCrashed"):
        fail("the page's renderer crashed")

def call(method, session=None, **params):
    last[0] += 1
    m = {"id": last[0], "method": method, "params": params}
    if session:
        m["sessionId"] = session
    os.write(to_w, json.dumps(m).encode() + b"\0")
    while True:
        a = receive()
        if a.get("id") == last[0]:
            if "error" in a:
                fail("%s: %s" % (method, a["error"].get("message")))
            return a.get("result", {})

pages = [t for t in call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
target = (pages[0]["targetId"] if pages
          else call("Target.createTarget", url="about:blank")["targetId"])
s = call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
for domain in ("Page", "Runtime", "Log"):
    call(domain + ".enable", s)
# --window-size counts the window's frame too: the page itself is given
# exactly 1280x2000 CSS pixels, at one device pixel each.
call("Emulation.setDeviceMetricsOverride", s, width=1280, height=2000,
     deviceScaleFactor=1, mobile=False)
del seen[:]
call("Page.navigate", s, url=url)
while "Page.loadEventFired" not in seen:
    receive()
root = call("DOM.getDocument", s, depth=0)["root"]["nodeId"]
dom = call("DOM.getOuterHTML", s, nodeId=root)["outerHTML"]
ms = int((time.monotonic() - t0) * 1000)
png = base64.b64decode(call("Page.captureScreenshot", s, format="png")["data"])
with open(out + ".dom", "w", encoding="utf-8") as f:
    f.write(dom + "\n")
with open(out + ".png", "wb") as f:
    f.write(png)
with open(out + ".console", "w", encoding="utf-8") as f:
    f.writelines(line + "\n" for line in console)
with open(out + ".ms", "w") as f:
    f.write("%d\n" % ms)

# A4 in inches, as Page.printToPDF takes it, and the margins all round.
A4_W, A4_H, MARGIN = 8.27, 11.69, 0.4
# What does not fit the printable width is cut off on paper, or shrunk
# until unreadable, and a PDF shows neither plainly; the layout does:
# under print media, in a viewport as wide as the paper less its margins,
# anything wider makes the document scroll sideways.
OVERFLOW = """(() => {
  const vw = window.innerWidth, out = [document.documentElement.scrollWidth + " " + vw];
  const past = e => e.getBoundingClientRect().right > vw + 0.5;
  for (const e of document.body.querySelectorAll("*")) {
    if (out.length > 5) break;
    if (!past(e) || (e.parentElement !== document.body && past(e.parentElement))) continue;
    let what = e.tagName.toLowerCase();
    if (e.id) what += "#" + e.id;
    const c = (e.getAttribute("class") || "").trim();
    if (c) what += "." + c.split(/\\s+/).join(".");
    if (e.dataset.table) what += "[data-table=" + e.dataset.table + "]";
    out.push(what + " " + Math.ceil(e.getBoundingClientRect().right));
  }
  return out.join("\\n");
})()"""
if step == "print":
    call("Emulation.setEmulatedMedia", s, media="print")
    call("Emulation.setDeviceMetricsOverride", s, width=int((A4_W - 2 * MARGIN) * 96),
         height=int((A4_H - 2 * MARGIN) * 96), deviceScaleFactor=1, mobile=False)
    r = call("Runtime.evaluate", s, expression=OVERFLOW, returnByValue=True)
    if "exceptionDetails" in r:
        fail("measuring the print layout: %s" % r["exceptionDetails"].get("text"))
    # Printing lays the page out anew on the paper; the emulation above
    # must not be what it prints.
    call("Emulation.clearDeviceMetricsOverride", s)
    call("Emulation.setEmulatedMedia", s, media="")
    pdf = base64.b64decode(call("Page.printToPDF", s, paperWidth=A4_W, paperHeight=A4_H,
                                marginTop=MARGIN, marginBottom=MARGIN, marginLeft=MARGIN,
                                marginRight=MARGIN, printBackground=True,
                                displayHeaderFooter=False, preferCSSPageSize=False)["data"])
    with open(out + ".width", "w") as f:
        f.write(r["result"]["value"] + "\n")
    with open(out + ".pdf", "wb") as f:
        f.write(pdf)
# Browser.close is answered or the pipe closes: either way Chromium is
# on its way out, and stop() waits for it.
os.write(to_w, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
os.close(to_w)
stop(10)
EOF
	rm -rf "$_bprof"
	if [ "$_brc" = 0 ] && [ -s "$_bo.dom" ] && [ -s "$_bo.png" ] &&
		{ [ -z "${4:-}" ] || { [ -s "$_bo.pdf" ] && [ -s "$_bo.width" ]; }; }; then
		rm -f "$_bo.log"
		return 0
	fi
	echo "browser_load: chromium failed on $_bf (status $_brc), see $_bo.log" >&2
	[ "$_brc" = 0 ] && _brc=1
	return "$_brc"
}

# browser_blank PNG: status 0 when every pixel is the same colour or there
# is no screenshot, 1 when something was drawn.  A file that cannot be
# decoded counts as blank (a person would see nothing) and says why.
browser_blank() {
	"$BROWSER_PY" - "$1" <<'EOF'
import struct, sys, zlib

def blank(path):
    try:
        data = open(path, "rb").read()
    except OSError:
        return True
    if not data:
        return True
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if hdr is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = hdr
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if channels is None or depth not in (8, 16) or interlace:
        raise ValueError("unsupported PNG (colour type %d, depth %d, interlace %d)"
                         % (ctype, depth, interlace))
    bpp = channels * depth // 8
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) < height * (stride + 1):
        raise ValueError("short image data")
    if width == 0 or height == 0:
        return True
    # Every filter leaves a first row's first pixel as it is (its left and
    # upper neighbours are zero), so that pixel is the colour a blank image
    # must have everywhere.  Unfiltering a row is a bijection given the row
    # above, so a row is that uniform row exactly when its filtered bytes
    # are what filtering the uniform row would give: 5 filters, 2 cases of
    # the row above (none, or uniform too), computed once each.
    uniform = raw[1:1 + bpp] * width
    zero = bytes(stride)
    memo = {}
    for y in range(height):
        row = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        above = zero if y == 0 else uniform
        key = (row[0], y == 0)
        if key not in memo:
            memo[key] = filtered(row[0], uniform, above, bpp)
        if memo[key] is None or row[1:] != memo[key]:
            return False
    return True

def filtered(kind, cur, above, bpp):
    out = bytearray(len(cur))
    for i, x in enumerate(cur):
        a = cur[i - bpp] if i >= bpp else 0
        b = above[i]
        c = above[i - bpp] if i >= bpp else 0
        if kind == 0:
            p = 0
        elif kind == 1:
            p = a
        elif kind == 2:
            p = b
        elif kind == 3:
            p = (a + b) // 2
        elif kind == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        else:
            return None
        out[i] = (x - p) & 0xFF
    return bytes(out)

try:
    sys.exit(0 if blank(sys.argv[1]) else 1)
except (ValueError, zlib.error, struct.error) as e:
    sys.stderr.write("browser_blank: %s: %s, taken as blank\n" % (sys.argv[1], e))
    sys.exit(0)
EOF
}

# browser_pdf PDF: print the MediaBox of each page of PDF, in page order, a
# line "WIDTH HEIGHT" (points) each; status 2, saying why, when it is not a
# PDF this can read.  It follows the file's own xref table from the trailer's
# Root through the page tree, a page taking its box from the nearest node
# that has one, as a viewer does: enough for what Chromium (Skia) writes,
# not for xref streams or compressed object streams, which it refuses.
browser_pdf() {
	"$BROWSER_PY" - "$1" <<'EOF'
import re, sys

def boxes(data):
    if not data.startswith(b"%PDF-"):
        raise ValueError("no %PDF- header")
    at = re.findall(rb"startxref\s+(\d+)", data[-1024:])
    if not at:
        raise ValueError("no startxref")
    xref = int(at[-1])
    m = re.match(rb"xref\s+", data[xref:])
    if not m:
        raise ValueError("no xref table at %d (an xref stream?)" % xref)
    pos, where = xref + m.end(), {}
    while True:
        m = re.match(rb"(\d+)\s+(\d+)\s+", data[pos:])
        if not m:
            break
        first, count = int(m.group(1)), int(m.group(2))
        pos += m.end()
        for i in range(count):
            e = re.match(rb"(\d{10}) (\d{5}) ([nf])\s*", data[pos:])
            if not e:
                raise ValueError("bad xref entry at %d" % pos)
            if e.group(3) == b"n":
                where[first + i] = int(e.group(1))
            pos += e.end()
    trailer = re.match(rb"trailer\s*<<(.*?)>>\s*startxref", data[pos:], re.S)
    if not trailer:
        raise ValueError("no trailer after the xref table")
    root = re.search(rb"/Root\s+(\d+)\s+\d+\s+R", trailer.group(1))
    if not root:
        raise ValueError("no /Root in the trailer")

    def obj(num):
        """An object's dictionary, up to its stream if it has one."""
        if num not in where:
            raise ValueError("object %d not in the xref table" % num)
        m = re.match(rb"\s*%d\s+\d+\s+obj\s*(.*?)(?:\bstream\b|\bendobj\b)" % num,
                     data[where[num]:], re.S)
        if not m:
            raise ValueError("object %d not at %d" % (num, where[num]))
        return m.group(1)

    def ref(d, key):
        m = re.search(rb"/" + key + rb"\s+(\d+)\s+\d+\s+R", d)
        return int(m.group(1)) if m else None

    def box(d):
        m = re.search(rb"/MediaBox\s*\[([^\]]*)\]", d)
        if not m:
            return None
        v = [float(x) for x in m.group(1).split()]
        if len(v) != 4:
            raise ValueError("a MediaBox of %d numbers" % len(v))
        return v[2] - v[0], v[3] - v[1]

    pages = ref(obj(int(root.group(1))), b"Pages")
    if pages is None:
        raise ValueError("no /Pages in the catalogue")
    out, seen = [], set()

    def walk(num, inherited):
        if num in seen:
            raise ValueError("page tree loops at object %d" % num)
        seen.add(num)
        d = obj(num)
        b = box(d) or inherited
        kind = re.search(rb"/Type\s*/(\w+)", d)
        kind = kind.group(1) if kind else b""
        if kind == b"Page":
            if b is None:
                raise ValueError("page object %d has no MediaBox" % num)
            out.append(b)
        elif kind == b"Pages":
            kids = re.search(rb"/Kids\s*\[([^\]]*)\]", d)
            if not kids:
                raise ValueError("pages object %d has no Kids" % num)
            for k in re.findall(rb"(\d+)\s+\d+\s+R", kids.group(1)):
                walk(int(k), b)
        else:
            raise ValueError("object %d in the page tree is a %s" % (num, kind.decode() or "?"))

    walk(pages, None)
    return out

try:
    with open(sys.argv[1], "rb") as f:
        found = boxes(f.read())
except (OSError, ValueError) as e:
    sys.stderr.write("browser_pdf: %s: %s\n" % (sys.argv[1], e))
    sys.exit(2)
for w, h in found:
    print("%g %g" % (w, h))
EOF
}

# browser_count DOM SELECTOR: print how many elements of the dumped DOM
# match one simple selector: a tag, and/or .class, and/or [attr=value]
# (or [attr]), as in svg, path.series, g[class=axis], .row.
browser_count() {
	"$BROWSER_PY" - "$1" "$2" <<'EOF'
import re, sys
from html.parser import HTMLParser

m = re.fullmatch(r"([a-zA-Z][\w-]*|\*)?((?:\.[\w-]+)*)"
                 r"(?:\[([\w:-]+)(?:=(?:\"([^\"]*)\"|'([^']*)'|([^\]]*)))?\])?",
                 sys.argv[2])
if not m or not any(m.group(i) for i in (1, 2, 3)):
    sys.stderr.write("browser_count: unsupported selector '%s'\n" % sys.argv[2])
    sys.exit(2)
tag = (m.group(1) or "*").lower()
classes = [c for c in m.group(2).split(".") if c]
attr = m.group(3).lower() if m.group(3) else None
value = next((v for v in m.group(4, 5, 6) if v is not None), None)

class Count(HTMLParser):
    n = 0
    def handle_starttag(self, name, attrs):
        if tag != "*" and name != tag:
            return
        got = dict(attrs)
        have = (got.get("class") or "").split()
        if any(c not in have for c in classes):
            return
        if attr is not None:
            if attr not in got:
                return
            if value is not None and (got[attr] or "") != value:
                return
        self.n += 1

p = Count(convert_charrefs=True)
try:
    p.feed(open(sys.argv[1], encoding="utf-8", errors="replace").read())
except OSError as e:
    sys.stderr.write("browser_count: %s\n" % e)
    sys.exit(2)
p.close()
print(p.n)
EOF
}
