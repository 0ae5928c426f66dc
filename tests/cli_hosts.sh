#!/bin/sh
# Command-line tests of runs from several hosts in one database (issue 18):
# two hosts that both call their runs "2.5.47" (the fixture, and the same
# export as another host brought it), told apart as LABEL@HOST wherever a
# label goes; `kbench runs` shows each run's host and --host filters.
# Against the database db_for gives: a file, or with KBENCH_TEST_BACKEND=pg
# a database of the test server, so that both backends run this same code.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FIX="$(cd "$(dirname "$0")" && pwd)/fixtures/kernels.json"
DB=$(db_for hosts) || { skip "hosts" "$DB"; echo "1..$n"; exit 0; }

kb import "$FIX" --db "$DB"
check "the fixture imports" [ "$rc" = 0 ]
# The same runs as box2 measured them: other uuids, another host.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = [r for r in d["runs"] if r["label"] == "2.5.47"]
for r in d["runs"]:
    r["host"] = "box2"
    r["uuid"] = "b2" + r["uuid"][2:]
    r["set"] = "b2" + r["set"][2:]
json.dump(d, open(sys.argv[2], "w"))
' "$FIX" "$T/box2.json"
kb import "$T/box2.json" --db "$DB"
check "box2's runs import beside the fixture's" [ "$rc" = 0 ]

kb runs --db "$DB"
check "runs: each run's host" sh -c "grep -c ' box2, ' '$T/out' | grep -qx 3 && grep -c ' testbox, ' '$T/out' | grep -qx 7"
kb runs --db "$DB" --host box2
check "runs --host box2: box2's three runs alone" sh -c \
	"[ $rc = 0 ] && [ \$(grep -c ' box2, ' '$T/out') = 3 ] && ! grep -q testbox '$T/out' && grep -q '^3 runs in 1 set under 1 label' '$T/out'"
kb runs --db "$DB" --host nosuch
check "runs --host of no run: one line on stderr, exit 1, as a selector of nothing" sh -c \
	"[ $rc = 1 ] && grep -q \"no runs of host 'nosuch'\" '$T/err' && [ ! -s '$T/out' ]"
kb runs 2.5.47@box2 --db "$DB"
check "runs LABEL@HOST: that host's runs of the label" sh -c \
	"[ $rc = 0 ] && [ \$(grep -c ' box2, ' '$T/out') = 3 ] && ! grep -q testbox '$T/out'"
kb runs 2.5.47@nosuch --db "$DB"
check "runs LABEL@HOST of no host: one line, exit 1" sh -c \
	"[ $rc = 1 ] && grep -q \"no run or label '2.5.47@nosuch'\" '$T/err' && [ \$(wc -l <'$T/err') = 1 ]"
kb runs rename 2.5.47@box2 x --db "$DB" --host box2
check "runs rename with --host: refused, exit 2" [ "$rc" = 2 ]

kb compare 2.5.47@testbox 2.5.47@box2 --db "$DB"
check "compare LABEL@HOST LABEL@HOST: the two hosts' runs, nothing changed" sh -c \
	"[ $rc = 0 ] && grep -q '^Base 2.5.47@testbox;' '$T/out' && grep -Eq '^sys\.null .* [-+]0\.0%' '$T/out' && ! grep -Eq '[0-9]% +[*]' '$T/out'"
kb summary 2.5.47 --db "$DB"
check "summary of a label two hosts share: a row for each, LABEL@HOST" sh -c \
	"[ $rc = 0 ] && grep -q '2.5.47@testbox' '$T/out' && grep -q '2.5.47@box2' '$T/out'"
kb summary 2.5.47 --db "$DB" --json
check "summary --json: the tables' rows LABEL@HOST, the runs' labels as stored" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
labels = {r["label"] for r in d["runs"]}
# A row per host: its host, and the label qualified (cut to its column, as in the text).
rows = [r["cells"][:2] for t in d["tables"] if t["id"] == "basic" for r in t["rows"] if "cells" in r]
hosts = sorted(c[0] for c in rows)
sys.exit(0 if labels == {"2.5.47"} and hosts == ["box2", "testbox"] and all(c[1].startswith("2.5.47@") for c in rows) else 1)
' "$T/out"
kb summary 2.5.47-mm1 --db "$DB"
check "summary of a label of one host: as it was" sh -c "[ $rc = 0 ] && ! grep -q '@' '$T/out'"
kb import "$T/box2.json" --db "$DB"
check "importing box2's export again adds nothing" sh -c "[ $rc = 0 ] && grep -q 'imported 0 runs\|0 runs added' '$T/err'"
kb runs --db "$DB" --json
check "runs --json: 10 runs" python3 -c 'import json,sys; sys.exit(0 if len(json.load(open(sys.argv[1]))["runs"]) == 10 else 1)' "$T/out"
echo "1..$n"
