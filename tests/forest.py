#!/usr/bin/env python3
"""Reads the forest plots of a kbench page (cli_html.sh's outlier tests):
each svg.chart.forest's title, the x of its zero line, and per row its
name, verdict (data-verdict), change and mark as written at its right, and
where its point is drawn (x, or the axis's end for a row off it, with the
change written beside the triangle); and the closing lines under it.

  forest.py readable PAGE     every row of +-1..2% at least 10 units (of
                              720) from 0 on its own side, of +-0.3..1% 4;
                              some row off the axis with its change beside
                              its triangle
  forest.py verdicts PAGE TEXT SIDE BASE
                              every row of the charts titled "SIDE against
                              BASE" shows the change and mark that compare's
                              TEXT prints for SIDE (its first other side)
  forest.py gains PAGE TEXT   every closing line of TEXT (gain ...) is the
                              foot of a chart, whole
  forest.py charts PAGE       the forest plots alone, for a golden file
Exits 1 saying what is wrong."""
import html
import re
import sys


def forests(page):
    out = []
    for svg in re.findall(r'<svg [^>]*class="chart forest".*?</svg>', page, re.S):
        title = html.unescape(re.search(r"<title>(.*?)</title>", svg).group(1))
        zero = float(re.search(r'<line class="zero" x1="([-0-9.]+)"', svg).group(1))
        rows = []
        for g in re.findall(r'<g class="row".*?</g>', svg, re.S):
            name = html.unescape(re.search(r'data-name="(.*?)"', g).group(1))
            verdict = re.search(r'data-verdict="(.*?)"', g)
            verdict = html.unescape(verdict.group(1)) if verdict else None
            value = re.search(r'<text class="value"[^>]*>(.*?)</text>', g)
            x, off = None, re.search(r'<path class="offscale"[^>]*d="M([-0-9.]+) ', g)
            if off:
                x = float(off.group(1))
                beside = re.search(r'<text class="offscale"[^>]*>(.*?)</text>', g).group(1)
            else:
                m = re.search(r'<circle cx="([-0-9.]+)"[^>]*class="point', g)
                r = re.search(r'<rect x="([-0-9.]+)"[^>]*class="point', g)
                p = re.search(r'<path d="M([-0-9.]+) [^"]*"[^>]*class="point', g)
                x = float(m.group(1)) if m else float(r.group(1)) + 3 if r else \
                    float(p.group(1)) if p else None
                beside = None
            rows.append({"name": name, "verdict": verdict,
                         "value": html.unescape(value.group(1)) if value else None,
                         "x": x, "off": bool(off), "beside": beside})
        foot = " ".join(html.unescape(t) for t in
                        re.findall(r'<text class="foot"[^>]*>(.*?)</text>', svg))
        out.append({"title": title, "zero": zero, "rows": rows, "foot": foot, "svg": svg})
    return out


def fail(msg):
    print(msg)
    sys.exit(1)


def readable(page):
    offs = 0
    fs = forests(page)
    if not fs:
        fail("no forest plot")
    for f in fs:
        for r in f["rows"]:
            if r["value"] is None or r["x"] is None:
                continue
            change = float(r["value"].split("%")[0])
            if r["off"]:
                offs += 1
                if r["beside"] != r["value"].split(" ")[0]:
                    fail("%s: %s off the axis, %s beside it" % (f["title"], r["name"], r["beside"]))
                continue
            if 0.3 <= abs(change) <= 2:
                d = r["x"] - f["zero"]
                if abs(d) < (10 if abs(change) >= 0.95 else 4) or (d > 0) != (change > 0):
                    fail("%s: %s (%s) drawn %.1f from 0" % (f["title"], r["name"], r["value"], d))
    if not offs:
        fail("no row off the axis")


def text_changes(text):
    """compare's text: each row's first other side's change and mark, by name."""
    got = {}
    for line in text.splitlines():
        m = re.match(r"([a-z0-9_.]+(?: (?:none|same|spread))?) +[0-9].*? ([+-][0-9]+\.[0-9]%) (.)",
                     line)
        if m:
            got[m.group(1)] = m.group(2) + ("" if m.group(3) == " " else " " + m.group(3))
    return got


def verdicts(page, text, side, base):
    want = text_changes(text)
    seen = 0
    for f in forests(page):
        if f["title"] != "%s against %s" % (side, base):
            continue
        for r in f["rows"]:
            seen += 1
            if want.get(r["name"]) != r["value"]:
                fail("%s: %s drawn %r (%s), the text says %r" % (f["title"], r["name"], r["value"],
                                                               r["verdict"], want.get(r["name"])))
    if not seen:
        fail("no chart titled %s against %s" % (side, base))


def gains(page, text):
    feet = {f["foot"] for f in forests(page)}
    # A gain line too long for 80 columns goes on as "gain ..." on the next.
    text = re.sub(r":\n +gain ", ": gain ", text)
    lines = [l.strip() for l in text.splitlines() if ": gain " in l]
    if not lines:
        fail("no gain line in the text")
    for g in lines:
        if not any(foot.startswith(g + " ") for foot in feet):
            fail("the text's %r is under no chart" % g)
    if "geometric mean of other / base" in page:
        fail("a chart still says the geometric mean of other / base")


def main():
    page = open(sys.argv[2], encoding="utf-8").read()
    if sys.argv[1] == "readable":
        readable(page)
    elif sys.argv[1] == "verdicts":
        verdicts(page, open(sys.argv[3], encoding="utf-8").read(), sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "gains":
        gains(page, open(sys.argv[3], encoding="utf-8").read())
    elif sys.argv[1] == "charts":
        sys.stdout.write("".join(f["svg"] + "\n" for f in forests(page)))


main()
