#!/bin/sh
# Every JSON document kbench prints, against doc/kbench.schema.json: one of
# each kind (runs, summary, show, export, run-list, benchmarks, sysinfo,
# compare, history) from the kernels fixture and from small real runs,
# validated by python3-jsonschema (Debian's, installed here when missing);
# each key of one JSON type across all of them; no share in percent; and
# the schema is no rubber stamp: a document with a key it does not know, or
# a key of the wrong type, fails it.  Then --format gbench of run, ab and
# time read by Google Benchmark's own compare.py (Debian's
# libbenchmark-tools, with python3-scipy), its figures the JSON's.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$KBENCH_TESTS/apt.sh"
PY=/usr/bin/python3
SCHEMA="$(pwd)/doc/kbench.schema.json"
D="$T/docs"
mkdir -p "$D" "$T/tmp"

# --- the documents ----------------------------------------------------------
K="$T/k.db"
R="$T/r.db"
"$KB" import --db "$K" tests/fixtures/kernels.json >/dev/null 2>&1
FAST="--max-time 0.2 --tmpdir $T/tmp --quiet"
"$KB" sysinfo --json >"$D/sysinfo.json" 2>/dev/null
"$KB" list --json >"$D/benchmarks.json" 2>/dev/null
"$KB" runs --db "$K" --json >"$D/run-list.json" 2>/dev/null
"$KB" summary --db "$K" --json >"$D/summary.json" 2>/dev/null
"$KB" export --db "$K" >"$D/export-fixture.json" 2>/dev/null
"$KB" history --db "$K" --json >"$D/history.json" 2>/dev/null
"$KB" history --db "$K" --by label --json >"$D/history-label.json" 2>/dev/null
"$KB" compare --db "$K" 2.5.47 2.5.47-mm1 --json >"$D/compare.json" 2>/dev/null
"$KB" compare --db "$K" 2.5.47 2.5.47-mm1 2.5.48 --json >"$D/compare3.json" 2>/dev/null
"$KB" show sys.null 1 --db "$K" --json >"$D/show.json" 2>/dev/null
"$KB" show sentinel 1 --db "$K" --json >"$D/show-sentinel.json" 2>/dev/null
"$KB" run --db "$R" --only 'sys.null,mem.read.bw,wake.timer' --label one $FAST --json >"$D/runs.json" 2>/dev/null
"$KB" time --db "$R" --runs 2 --label one --json --quiet -- true >"$D/runs-time.json" 2>/dev/null
"$KB" ab --only sys.null --rounds 2 --a true --b true --no-store $FAST --json >"$D/runs-ab.json" 2>/dev/null
"$KB" contest --workload 'sleep 0.2' --loads noload --runs 1 --no-store --settle 0.2 \
	--load-scale 0.01 --tmpdir "$T/tmp" --quiet --json >"$D/runs-contest.json" 2>/dev/null
"$KB" export --db "$R" >"$D/export-runs.json" 2>/dev/null
check "every document was written" sh -c "for f in '$D'/*.json; do [ -s \"\$f\" ] || { echo \"\$f empty\"; exit 1; }; done"

# --- validated against the schema -------------------------------------------
if ! $PY -c 'import jsonschema' 2>/dev/null && ! apt_install python3-jsonschema; then
	skip "the documents against doc/kbench.schema.json" "$APT_WHY"
else
	$PY - "$SCHEMA" "$D" >"$T/v" 2>&1 <<'EOF'
import json, os, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
kinds, types, pct = set(), {}, []
def walk(x, where):
    if isinstance(x, dict):
        for k, y in x.items():
            t = {dict: "object", list: "array", str: "string", bool: "boolean",
                 int: "number", float: "number"}.get(type(y))
            if t:
                types.setdefault(k, {}).setdefault(t, where)
            if k.endswith("_pct"):
                pct.append("%s in %s" % (k, where))
            walk(y, where)
    elif isinstance(x, list):
        for y in x:
            walk(y, where)
for f in sorted(os.listdir(sys.argv[2])):
    doc = json.load(open(os.path.join(sys.argv[2], f)))
    for e in v.iter_errors(doc):
        print("%s: %s: %s" % (f, "/".join(map(str, e.absolute_path)), e.message[:200]))
        sys.exit(1)
    kinds.add(doc["document"])
    walk(doc, f)
print("kinds", " ".join(sorted(kinds)))
for k, t in sorted(types.items()):
    if len(t) > 1:
        print("key %s has types %s" % (k, t))
        sys.exit(1)
if pct:
    print("in percent:", pct[:3])
    sys.exit(1)
print("valid")
EOF
	check "every document is valid against doc/kbench.schema.json" grep -q '^valid$' "$T/v"
	check "... one of each of the schema's documents" \
		grep -qx 'kinds benchmarks compare export history run-list runs show summary sysinfo' "$T/v"
	[ -s "$T/v" ] && grep -v '^valid$\|^kinds' "$T/v" | head -3 | sed 's/^/# /'
	# The schema refuses what it does not describe: a result's unknown key, a
	# figure as text, a header of another schema, a compare cell's old "better".
	for edit in \
		'd["runs"][0]["results"][0]["speed"] = 1' \
		'd["runs"][0]["results"][0]["median"] = "fast"' \
		'd["schema"] = 1' \
		'd["runs"][0]["results"][0]["where"] = {"t": [], "cpu": []}'; do
		$PY -c "
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
$edit
sys.exit(0 if list(jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).iter_errors(d)) else 1)
" "$D/runs.json" "$SCHEMA"
		check "the schema refuses: $edit" [ $? = 0 ]
	done
	$PY -c "
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
d['rows'][0]['cells'][1]['better'] = True
sys.exit(0 if list(jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).iter_errors(d)) else 1)
" "$D/compare.json" "$SCHEMA"
	check "the schema refuses a compare cell's boolean 'better'" [ $? = 0 ]
fi

# --- Google Benchmark's shape, read by its own compare.py -------------------
CMP=/usr/share/benchmark/compare.py
if { [ -f "$CMP" ] && $PY -c 'import scipy' 2>/dev/null; } ||
	apt_install libbenchmark-tools python3-scipy; then
	"$KB" run --db "$R" --only 'sys.null,mem.read.bw' --label g1 $FAST --format gbench >"$T/g1.json" 2>/dev/null
	rc1=$?
	"$KB" run --no-store --only 'sys.null,mem.read.bw' $FAST --format gbench >"$T/g2.json" 2>/dev/null
	check "run --format gbench exits 0" [ "$rc1" = 0 ]
	(cd /usr/share/benchmark && $PY compare.py --no-color benchmarks "$T/g1.json" "$T/g2.json") \
		>"$T/cmp" 2>&1
	check "compare.py reads two runs' gbench: sys.null's rows and their geomean" \
		sh -c "grep -q '^sys.null_level ' '$T/cmp' && grep -q '^mem.read.bw_median ' '$T/cmp' && grep -q '^OVERALL_GEOMEAN' '$T/cmp'"
	# The level aggregate is the stored figure: a time as it is, a rate inverted.
	"$KB" export --db "$R" >"$T/g1-export.json" 2>/dev/null
	$PY - "$T/g1.json" "$T/g1-export.json" >"$T/lv" 2>&1 <<'EOF'
import json, sys
all = json.load(open(sys.argv[1]))["benchmarks"]
g = {b["name"]: b for b in all}
run = [r for r in json.load(open(sys.argv[2]))["runs"] if r["label"] == "g1"][0]
lv = {r["id"]: r["level"] for r in run["results"]}
t = g["sys.null_level"]
assert t["time_unit"] == "us" and abs(t["real_time"] - lv["sys.null"]) <= 1e-12 * lv["sys.null"], (t, lv)
b = g["mem.read.bw_level"]
assert b["time_unit"] == "ns" and abs(b["real_time"] - 1e9 / lv["mem.read.bw"]) <= 1e-9 * b["real_time"], (b, lv)
reps = [x for x in all if x["run_name"] == "sys.null" and x["run_type"] == "iteration"]
assert len(reps) == reps[0]["repetitions"] >= 2, reps
assert [x["repetition_index"] for x in reps] == list(range(len(reps))), reps
print("agree")
EOF
	check "gbench's level aggregates are the stored levels (us; MB/s as ns a MB)" grep -q '^agree$' "$T/lv"
	[ -s "$T/lv" ] && grep -v '^agree$' "$T/lv" | tail -2 | sed 's/^/# /'
	"$KB" ab --only sys.null --rounds 2 --a true --b true --no-store $FAST --format gbench >"$T/gab.json" 2>/dev/null
	(cd /usr/share/benchmark && $PY compare.py --no-color filters "$T/gab.json" '^A/' '^B/') >"$T/cmp" 2>&1
	check "ab --format gbench: compare.py filters A/ against B/" grep -q 'sys.null_level ' "$T/cmp"
	"$KB" time --no-store --runs 2 --quiet --format gbench -- true >"$T/gt.json" 2>/dev/null
	check "time --format gbench: a job's runs as repetitions, in seconds" \
		$PY -c "
import json, sys
b = json.load(open(sys.argv[1]))['benchmarks']
sys.exit(0 if [x['time_unit'] for x in b if x['run_type'] == 'iteration'] == ['s', 's'] else 1)
" "$T/gt.json"
	kb run --no-store --only sys.null --format html
	check "run --format html: one line, exit 2" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'text, json, gbench' '$T/err'"
else
	skip "--format gbench read by Google Benchmark's compare.py" "$APT_WHY"
fi
echo "1..$n"
