#!/bin/bash
# How often does compare call an A/A difference real?  (issue 12)
#
# DB holds 2N runs of one kernel (bench/sensitivity.sh's aa.db: 5 runs as A,
# then 5 as B).  Every split of them into two sets of N (the first run
# always in the first set: C(2N-1, N-1) splits, 126 for 10 runs) is
# relabelled X and Y in a copy, optionally Y's figures scaled by SCALE,
# and `kbench compare X Y --json` counts the figures marked significant.
# Under A/A every mark is a false one: the share of splits with any mark is
# the rate the table's false discovery rate (5%) promises to bound.  The
# runs are exchangeable only if the machine did not drift between them;
# a split that puts the earlier runs on one side is the real A/A again.
# Prints Markdown.
#
# usage: DB=aa.db bench/aa_splits.sh     (KBENCH=..., SCALE=1.0, THRESHOLD=2)
set -eu
. "$(dirname "$0")/lib.sh"
: "${DB:?DB=an A/A database of bench/sensitivity.sh}"
SCALE=${SCALE:-1.0}
THRESHOLD=${THRESHOLD:-2}
ids=$(sqlite3 "$DB" "SELECT id FROM runs ORDER BY id" | tr '\n' ' ')
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; database $DB (runs $ids); Y scaled by $SCALE; --threshold $THRESHOLD"
echo
python3 - "$WORK" "$KBENCH" "$DB" "$SCALE" "$THRESHOLD" "$ROOT/bench/scale_side.py" $ids <<'PY'
import itertools, json, shutil, sqlite3, subprocess, sys
work, kb, db, scale, thr, scaler = sys.argv[1:7]
ids = [int(x) for x in sys.argv[7:]]
n = len(ids) // 2
marks, tests = [], {}
for rest in itertools.combinations(ids[1:], n - 1):
    x = [ids[0]] + list(rest)
    copy = work + "/split.db"
    shutil.copy(db, copy)
    con = sqlite3.connect(copy)
    con.execute("UPDATE runs SET label = CASE WHEN id IN (%s) THEN 'X' ELSE 'Y' END, set_uuid = NULL"
                % ",".join(map(str, x)))
    con.commit()
    con.close()
    if float(scale) != 1.0:
        subprocess.run(["python3", scaler, copy, "Y", scale], check=True)
    out = subprocess.run([kb, "compare", "X", "Y", "--db", copy, "--json", "--threshold", thr],
                         check=True, capture_output=True, text=True).stdout
    doc = json.loads(out)
    k = 0
    for row in doc["rows"]:
        c = row["cells"][1]
        if c["present"] and row["cells"][0]["present"]:
            k += bool(c["significant"])
            tests[c["test"]] = tests.get(c["test"], 0) + 1
    marks.append((x, k))
real = [k for x, k in marks if x == ids[:n]]
print("| splits | with a figure marked | figures marked in all | the real split (first %d runs against the rest) |" % n)
print("|---|---|---|---|")
print("| %d | %d (%.1f%%) | %d | %s |" % (len(marks), sum(1 for _, k in marks if k),
      100.0 * sum(1 for _, k in marks if k) / len(marks), sum(k for _, k in marks),
      real[0] if real else "-"))
print("\ntests used: " + ", ".join("%s %d" % kv for kv in sorted(tests.items(), key=lambda kv: str(kv[0]))))
PY
