#!/bin/sh
# Command-line tests of the HTML page (issue 17): `kbench summary --html`
# of the fixture database against its golden page; the page self-contained
# (nothing fetched, no script to run), deterministic and small; the same
# tables as the text report; and, in headless Chromium (installed by
# tests/browser.sh when missing), loaded without a console error, holding
# the expected elements, its screenshot not blank (written under
# BUILD/html/ for a person to look at).  TAP like cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
DB="$T/f.db"
FIX="$(cd "$(dirname "$0")" && pwd)/fixtures/kernels.json"
mkdir -p "$BUILD/html"
SHOTS=$(cd "$BUILD/html" && pwd)

kb import "$FIX" --db "$DB"
check "the fixture imports" [ "$rc" = 0 ]

kb summary --db "$DB" --html
check "summary --html exits 0" [ "$rc" = 0 ]
cp "$T/out" "$T/summary.html"
golden "summary --html of the fixture: golden" summary.html
check "the page is HTML5 in UTF-8" sh -c "head -1 '$T/summary.html' | grep -qx '<!DOCTYPE html>' && grep -q '<meta charset=\"utf-8\">' '$T/summary.html'"
check "nothing is fetched: no src or href to anywhere" \
	sh -c "! grep -Eq '(src|href)=' '$T/summary.html'"
check "no script to run: only the inert JSON data block" \
	[ "$(grep -c '<script' "$T/summary.html")" = "$(grep -c '<script type="application/json" id="kbench-data">' "$T/summary.html")" ]
check "the data is embedded as JSON that parses" python3 -c '
import re, sys, json
page = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"kbench-data\">\n(.*?)</script>", page, re.S)
json.loads(m.group(1).replace("<\\/", "</"))
' "$T/summary.html"
check "at most 1 MB" [ "$(wc -c <"$T/summary.html")" -le 1048576 ]
# Text that would end the data block early, or keep it from ending: a
# label holding "<!--<script>" once did (the HTML parser's escaped script
# state, in which "</script>" no longer closes it); every "<" in the block
# is written \u003c, which JSON reads back as the same character.
BADDB="$T/bad.db"
kb import "$(dirname "$0")/fixtures/kernels.json" --label '<!--<script></script>--><b>' --db "$BADDB"
kb summary --db "$BADDB" --html
check "a label with <!--<script>: the block holds no '<', and parses back to the label" python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"kbench-data\">\n(.*?)</script>", page, re.S)
block = m.group(1)
assert "<" not in block, "a < in the data block"
labels = {r["label"] for r in json.loads(block)["runs"]}
assert labels == {"<!--<script></script>--><b>"}, labels
' "$T/out"
kb summary --db "$DB" --html
check "the same database gives the same bytes" cmp -s "$T/out" "$T/summary.html"
check "no two elements share an id" sh -c "[ -z \"\$(grep -o ' id=\"[^\"]*\"' '$T/summary.html' | sort | uniq -d)\" ]"
check "no NaN or inf anywhere in the page" sh -c "! grep -Eiq '>(-?nan|-?inf)<|\"(-?nan|-?inf)\"' '$T/summary.html'"

# The same tables as the text: every row of the text's tables is a row of the page's.
kb summary --db "$DB"
cp "$T/out" "$T/summary.txt"
texttables=$(grep -c '^\(Processor\|Context switching\|\*Local\*\|File & VM\|Memory latencies\|Basic system\|System call rates\|Other results\)' "$T/summary.txt")
check "the page has a heading for each of the text's tables ($texttables)" \
	[ "$(grep -c '<table class="model"' "$T/summary.html")" = "$texttables" ]
labels=$(sed -n '/^Basic system parameters$/,/^$/p' "$T/summary.txt" | sed '1,5d;/^$/d;/^  /d' | wc -l)
check "one system table, a column per label ($labels)" \
	sh -c "[ \$(grep -c '<table class=\"sys\">' '$T/summary.html') = 1 ] && [ \$(grep -o '<th class=\"label\">' '$T/summary.html' | wc -l) = $labels ]"
check "a noisy figure no looser than the rest is not marked" \
	sh -c "! grep -q 'title=\"loose\"' '$T/summary.html'"
# The same runs with one figure's replicas +-50% apart in run 7: loose, marked.
cp "$DB" "$T/loose.db"
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE results SET status = ?, ci_low = median * 0.5, ci_high = median * 1.5 "
          "WHERE run_id = 7 AND bench_id = ?", ("noisy", "sys.stat"))
c.commit()' "$T/loose.db"
kb summary --db "$T/loose.db" --html
check "a loose figure's cell is marked, the table has the mark's legend" \
	sh -c "grep -q '<td class=\"num noisy\">[^<]*<sup class=\"mark\" title=\"loose\">!</sup>' '$T/out' && grep -q '<p class=\"legend\"><sup class=\"mark\">!</sup> loose' '$T/out'"
check "several labels: what differs, then each table with figures drawn, a forest plot per label after the first ($((7 * (labels - 1))))" \
	[ "$(grep -c '<svg [^>]*class="chart forest"' "$T/summary.html")" = "$((7 * (labels - 1)))" ]
check "the Processor table's chart: sys.null marked worse, as compare marks it" \
	sh -c "sed -n '/<h2 id=\"proc\">/,/<table/p' '$T/summary.html' | grep -q 'data-name=\"sys.null\" data-verdict=\"\\* worse\"'"
check "each label's system table names its clock source" grep -q '<th>Clock source</th><td>tsc</td>' "$T/summary.html"
curves=$(grep -c '^  .* mem.lat.curve: [0-9]* points' "$T/summary.txt")
series=$(python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r"id=\"kbench-data\">\n(.*?)</script>", page, re.S).group(1).replace("<\\/", "</"))
print(len({(r["label"], p["series"]) for r in data["runs"] for x in r["results"] if x["id"] == "mem.lat.curve" for p in x["points"]}))
' "$T/summary.html")
check "a memory-latency chart per label with a curve ($curves)" \
	[ "$(grep -c '<svg [^>]*class="chart curve"' "$T/summary.html")" = "$curves" ]
check "one line per series of each curve ($series)" \
	[ "$(grep -c '<path class="series"' "$T/summary.html")" = "$series" ]
check "the curve's size axis is labelled in binary sizes" grep -q '>4K</text>' "$T/summary.html"

# One model, three writers: summary --json carries the tables the text and the page show.
kb summary --db "$DB" --json
check "summary --json: the same tables as the page, row for row, cell for cell" python3 -c '
import html, json, re, sys
doc = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
want = []
for t in doc["tables"]:
    for r in t["rows"]:
        if "cells" in r:
            want.append(r["cells"])
got = []
for tr in re.findall(r"<tr class=\"row\">(.*?)</tr>", page):
    got.append([html.unescape(re.sub(r"<sup.*?</sup>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)])
sys.exit(0 if want and want == got else 1)
' "$T/out" "$T/summary.html"
check "summary --json: the tables have the text's titles" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
sys.exit(0 if all(t["title"] + "\n" in text for t in doc["tables"]) and doc["tables"] else 1)
' "$T/out" "$T/summary.txt"
kb summary --db "$DB" --html --json
check "--html with --json: refused with one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ]"

# compare --html: the text's rows, a forest plot per section and other side.
kb compare 2.5.47 2.5.47-mm1 2.5.48 --db "$DB" --html
check "compare --html exits 0" [ "$rc" = 0 ]
cp "$T/out" "$T/compare.html"
golden "compare --html of the fixture: golden" compare.html
kb compare 2.5.47 2.5.47-mm1 2.5.48 --db "$DB"
cp "$T/out" "$T/compare.txt"
rows=$(grep -Ec '^[a-z0-9]+\.[a-z0-9_.-]+( [a-z]+)? ' "$T/compare.txt")
check "compare --html: a table row per compared figure ($rows)" \
	[ "$(grep -c '<tr class="row">' "$T/compare.html")" = "$rows" ]
marked=$(grep -o '% \*' "$T/compare.txt" | wc -l)
check "compare --html: a forest row per figure and other side, and one per marked change ($((2 * rows + marked)))" \
	[ "$(grep -c '<g class="row"' "$T/compare.html")" = "$((2 * rows + marked))" ]
check "compare --html leads with what changed: its chart before any table" \
	sh -c "[ \$(grep -n '<h2 id=\"marked\">What changed</h2>' '$T/compare.html' | cut -d: -f1) -lt \$(grep -n '<table' '$T/compare.html' | head -1 | cut -d: -f1) ]"
check "compare --html: the text's changes, cell for cell" python3 -c '
import re, sys
text = open(sys.argv[1]).read()
page = open(sys.argv[2]).read()
want = re.findall(r"(?<![+-])[+-][0-9]+\.[0-9]%", text)
got = re.findall(r"<td class=\"num(?: sig)?\">([+-][0-9]+\.[0-9]%)</td>", page)
sys.exit(0 if want == got and want else 1)
' "$T/compare.txt" "$T/compare.html"
check "compare --html: self-contained, no NaN" \
	sh -c "! grep -Eq '(src|href)=' '$T/compare.html' && ! grep -Eiq '>(-?nan|-?inf)<' '$T/compare.html'"
# --curves in the page and the JSON too: the text's curve table, row for row.
kb compare 2.5.47 2.5.48 --db "$DB" --curves
sed -n '/^mem.lat.curve (ns): each point/,$p' "$T/out" | grep -Ec '^ +[0-9]+[KMG]? ' >"$T/npts"
kb compare 2.5.47 2.5.48 --db "$DB" --curves --html
check "compare --curves --html: the curve's table, a row per point ($(cat "$T/npts"))" sh -c \
	"[ \$(sed -n '/data-table=\"curve\"/,/<\\/table>/p' '$T/out' | grep -c '<tr class=\"row\">') = $(cat "$T/npts") ] && [ $(cat "$T/npts") -gt 0 ]"
kb compare 2.5.47 2.5.48 --db "$DB" --curves --json
check "compare --curves --json: the curve's table among the tables" python3 -c '
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["tables"] if t["id"] == "curve"]
sys.exit(0 if len(t) == 1 and len(t[0]["rows"]) == int(sys.argv[2]) else 1)
' "$T/out" "$(cat "$T/npts")"
kb compare 2.5.47 2.5.48 --db "$DB" --html --json
check "compare --html with --json: refused with one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ]"

# Charts that survive an outlier and agree with the text, on the outlier
# fixture: kernels.json's runs under labels alike to their last character,
# sys.null +259% beside rows of +-1%, and a run whose sys.null has 158
# samples in 4 replicas, one of them 5.5 us among the 1.6s.
ODB="$T/outlier.db"
OA=6.19.0-rc1-next-20251201-a OB=6.19.0-rc1-next-20251201-b OC=6.19.0-rc1-next-20251201-c
FOREST="$(dirname "$0")/forest.py"
kb import "$(dirname "$0")/fixtures/outlier.json" --db "$ODB"
check "the outlier fixture imports" [ "$rc" = 0 ]
kb compare "$OA" "$OB" "$OC" --db "$ODB"
cp "$T/out" "$T/ocompare.txt"
kb compare "$OA" "$OB" "$OC" --db "$ODB" --html
cp "$T/out" "$T/ocompare.html"
kb summary --db "$ODB" --html
cp "$T/out" "$T/osummary.html"
python3 "$FOREST" charts "$T/ocompare.html" >"$T/out"
golden "compare --html with an outlier and long labels: its charts, golden" compare_outlier.svg
check "compare's charts: the axis the +-1% rows', each clear of 0; +259.5% at the axis's end, its change beside" \
	python3 "$FOREST" readable "$T/ocompare.html"
check "summary's charts: the same, each row clear of 0 and the outlier at the end" \
	python3 "$FOREST" readable "$T/osummary.html"
check "one verdict: compare's charts show each row's change and mark as its text prints them" \
	python3 "$FOREST" verdicts "$T/ocompare.html" "$T/ocompare.txt" "$OB" "$OA"
check "one verdict: the summary's charts too (proc.exec +0.8% =, proc.shell -0.5% =)" \
	python3 "$FOREST" verdicts "$T/osummary.html" "$T/ocompare.txt" "$OB" "$OA"
check "one geomean form: the text's 'gain 0.891x (geometric mean, above 1 is better)' under its chart" \
	python3 "$FOREST" gains "$T/ocompare.html" "$T/ocompare.txt"
check "the summary opens with what differs: its heading before the systems and any table" \
	sh -c "[ \$(grep -n '<h2' '$T/osummary.html' | head -1 | grep -c 'id=\"differs\">What differs') = 1 ] && [ \$(grep -n 'id=\"systems\"' '$T/osummary.html' | cut -d: -f1) -lt \$(grep -n '<table class=\"model\"' '$T/osummary.html' | head -1 | cut -d: -f1) ]"
check "what differs: each label's marked changes, as compare counts them" \
	grep -q "<p class=\"differs\"><b>$OB</b> against <b>$OA</b>: 3 better, 1 worse, 20 unchanged, 3 cannot tell</p>" "$T/osummary.html"
awk '/<h2 id="systems">/ { s = 1 } s && /<h2 / && !/id="systems"/ { exit } { print }' "$T/osummary.html" >"$T/out"
golden "the summary's head, what differs and the systems, with long labels: golden" summary_outlier_head.html
kb show sys.null --db "$ODB" --html
cp "$T/out" "$T/oshow.html"
golden "show --html of 158 samples in 4 replicas with an outlier: golden" show_outlier.html
check "show: a column per replica, in order, numbered" python3 -c '
import re, sys
svg = re.search(r"<svg [^>]*class=\"chart strip\".*?</svg>", open(sys.argv[1]).read(), re.S).group(0)
axis = re.search(r"<g class=\"axis x\">.*?</g>", svg, re.S).group(0)
ticks = re.findall(r"<text class=\"tick\"[^>]*>([^<]*)<", axis)
sys.exit(0 if ticks == ["1", "2", "3", "4"] and "158 samples in 4 replicas" in svg else 1)
' "$T/oshow.html"
check "show: the 5.5 us sample off the axis, its value beside; the axis the 1.6s'" python3 -c '
import re, sys
svg = re.search(r"<svg [^>]*class=\"chart strip\".*?</svg>", open(sys.argv[1]).read(), re.S).group(0)
axis = re.search(r"<g class=\"axis y\">.*?</g>", svg, re.S).group(0)
ticks = [float(t) for t in re.findall(r"<text class=\"tick\"[^>]*>([^<]*)<", axis)]
ok = svg.count("<path class=\"offscale\"") == 1 and ">5.500</text>" in svg and max(ticks) < 2
sys.exit(0 if ok else 1)
' "$T/oshow.html"
check "show: the sentinel's 1146 ns off its axis, the others' readable" python3 -c '
import re, sys
svgs = re.findall(r"<svg [^>]*class=\"chart strip\".*?</svg>", open(sys.argv[1]).read(), re.S)
axis = re.search(r"<g class=\"axis y\">.*?</g>", svgs[1], re.S).group(0)
ticks = [float(t) for t in re.findall(r"<text class=\"tick\"[^>]*>([^<]*)<", axis)]
sys.exit(0 if ">1146</text>" in svgs[1] and max(ticks) < 200 else 1)
' "$T/oshow.html"

# show --html: a curve's lines, a figure's samples, a skipped figure's reason.
kb show mem.lat.curve --db "$DB" --html
check "show --html of a curve exits 0" [ "$rc" = 0 ]
cp "$T/out" "$T/curve.html"
golden "show mem.lat.curve --html of the fixture: golden" show_curve.html
check "show of a curve: one chart, a line per series" \
	sh -c "[ \$(grep -c '<svg [^>]*class=\"chart curve\"' '$T/curve.html') = 1 ] && [ \$(grep -c '<path class=\"series\"' '$T/curve.html') -ge 2 ]"
check "show of a curve: the text show prints, preformatted" grep -q '<pre class="text">mem.lat.curve ' "$T/curve.html"
kb show sys.null --db "$DB" --html
check "show --html of a figure: its samples as a strip with the median" \
	sh -c "[ $rc = 0 ] && grep -q 'class=\"chart strip\"' '$T/out' && grep -q '<line class=\"median\"' '$T/out'"
cp "$T/out" "$T/strip.html"
kb show ipc.rpc_udp.lat 7 --db "$DB" --html
check "show --html of a skipped figure: no chart, its reason instead" \
	sh -c "[ $rc = 0 ] && ! grep -q '<svg' '$T/out' && grep -q '<p class=\"nochart\">no RPC support' '$T/out'"
check "show --html: no NaN" sh -c "! grep -Eiq '>(-?nan|-?inf)<' '$T/out' '$T/strip.html' '$T/curve.html'"
kb show sys.null --db "$DB" --html --json
check "show --html with --json: refused with one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ]"

# The other tables and their charts: contest's Ratio, the rates per call.
DB2="$T/more.db"
"$KB" contest --workload 'sleep 0.2' --loads noload,tick_load --label A --db "$DB2" \
	--settle 0.2 --load-scale 0.01 --tmpdir "$T/tmp" --quiet >/dev/null 2>&1
"$KB" contest --workload 'sleep 0.2' --loads noload,tick_load --label B --db "$DB2" \
	--settle 0.2 --load-scale 0.01 --tmpdir "$T/tmp" --quiet >/dev/null 2>&1
"$KB" run --only 'rate.getppid,rate.time' --label A --db "$DB2" --max-time 0.05 --replicas 1 \
	--tmpdir "$T/tmp" --quiet >/dev/null 2>&1
"$KB" time --runs 2 --jobs 1,2 --name nap --db "$DB2" --tmpdir "$T/tmp" --quiet -- sh -c 'sleep 0.0{jobs}' \
	>/dev/null 2>&1
kb summary --db "$DB2" --html
cp "$T/out" "$T/more.html"
check "summary --html with contest and rates exits 0" [ "$rc" = 0 ]
check "with contest, timed jobs and rates: no two elements share an id" \
	sh -c "[ -z \"\$(grep -o ' id=\"[^\"]*\"' '$T/more.html' | sort | uniq -d)\" ]"
check "contest: its Ratio drawn, a bar per load and label (4)" \
	[ "$(sed -n '/<h2 id="contest">/,/<\/svg>/p' "$T/more.html" | grep -c '<rect class="bar"')" = 4 ]
check "contest: its tables, a row per label under each load's heading" \
	sh -c "grep -q '<h2 id=\"contest.tick_load\">tick_load (Loads: ticks):</h2>' '$T/more.html' && [ \$(sed -n '/<h2 id=\"contest.tick_load\">/,/<\/table>/p' '$T/more.html' | grep -c '<tr class=\"row\">') = 2 ]"
check "timed jobs: the real time drawn, a bar per -j (2)" \
	[ "$(sed -n '/<h2 id="timed-chart">/,/<\/svg>/p' "$T/more.html" | grep -c '<rect class="bar"')" = 2 ]
check "timed jobs: their table, a row per -j" \
	[ "$(sed -n '/<h2 id="timed">Timed jobs - [a-z]*seconds/,/<\/table>/p' "$T/more.html" | grep -c '<tr class="row">')" = 2 ]
check "timed jobs: the -j sweep's scaling table" grep -q '<h2 id="timed-scaling">Scaling of time.nap -j1' "$T/more.html"
check "rates: a chart per call (2)" \
	[ "$(sed -n '/<h2 id="rates-chart">/,/<h2 id="contest">/p' "$T/more.html" | grep -c '<svg ')" = 2 ]

# In a real browser.
browser_setup
if [ -z "$BROWSER" ]; then
	skip "Chromium loads the summary page" "$BROWSER_WHY"
	skip "no console error" "$BROWSER_WHY"
	skip "the DOM holds the tables" "$BROWSER_WHY"
	skip "the screenshot is not blank" "$BROWSER_WHY"
	skip "Chromium loads the compare page" "$BROWSER_WHY"
else
	browser_load "$T/summary.html" "$SHOTS" summary
	check "Chromium loads the summary page" [ $? = 0 ]
	check "no console error" [ ! -s "$SHOTS/summary.console" ]
	check "the DOM holds the tables" [ "$(browser_count "$SHOTS/summary.dom" table.model)" = "$texttables" ]
	check "the DOM holds a path per curve series" [ "$(browser_count "$SHOTS/summary.dom" path.series)" = "$series" ]
	check "the DOM holds the labels' forest plots" \
		[ "$(browser_count "$SHOTS/summary.dom" svg.forest)" = "$((7 * (labels - 1)))" ]
	if browser_blank "$SHOTS/summary.png"; then
		notok "the screenshot is not blank ($SHOTS/summary.png)"
	else
		ok "the screenshot is not blank ($SHOTS/summary.png)"
	fi
	browser_load "$T/curve.html" "$SHOTS" curve
	check "show of a curve loads without a console error" \
		sh -c "[ $? = 0 ] && [ ! -s '$SHOTS/curve.console' ]"
	check "show of a curve: the DOM holds its axes and a line per series" \
		sh -c "[ $(browser_count "$SHOTS/curve.dom" g.axis) -ge 1 ] && [ $(browser_count "$SHOTS/curve.dom" path.series) = $(grep -c '<path class="series"' "$T/curve.html") ]"
	browser_load "$T/compare.html" "$SHOTS" compare
	check "Chromium loads the compare page" [ $? = 0 ]
	check "compare: no console error" [ ! -s "$SHOTS/compare.console" ]
	check "compare: the DOM holds a forest row per figure and side, and per marked change" \
		[ "$(browser_count "$SHOTS/compare.dom" g.row)" = "$((2 * rows + marked))" ]
	check "compare: an axis per forest plot" [ "$(browser_count "$SHOTS/compare.dom" g.axis)" -ge 2 ]
	if browser_blank "$SHOTS/compare.png"; then
		notok "compare: the screenshot is not blank ($SHOTS/compare.png)"
	else
		ok "compare: the screenshot is not blank ($SHOTS/compare.png)"
	fi
fi
# What a page carries of many runs: the Systems table's first labels, and
# no embedded data beyond 8 MiB (--json writes it).
python3 -c '
import json, sys, uuid
d = json.load(open(sys.argv[1]))
runs = []
for i in range(200):
    r = json.loads(json.dumps(d["runs"][i % len(d["runs"])]))
    r["uuid"] = r["set"] = uuid.uuid4().hex
    r["label"] = "6.18.%d" % i
    runs.append(r)
d["runs"] = runs
json.dump(d, open(sys.argv[2], "w"))
' tests/fixtures/kernels.json "$T/many.json"
"$KB" import --db "$T/many.db" "$T/many.json" >/dev/null 2>&1
kb summary --db "$T/many.db" --html
check "200 labels: the Systems table names its first 16 and counts the rest" \
	sh -c "[ $rc = 0 ] && grep -q 'The first 16 of 200; summary --json describes each' '$T/out' && [ \$(grep -o '<th class=\"label\">' '$T/out' | wc -l) = 16 ]"
check "... and the page carries no data past 8 MiB, saying so" \
	sh -c "grep -q 'MiB of JSON, is not in it: more than the 8 MiB a page carries' '$T/out' && ! grep -q 'id=\"kbench-data\"' '$T/out' && [ \$(wc -c <'$T/out') -lt 8388608 ]"
echo "1..$n"
