#!/bin/sh
# How many note lines a run's tables carry: for every run of DB, the lines
# under the tables of `kbench summary RUN` (a run's own tables, as `run`
# prints them) that speak of a run or a label ("  run 12 ...", "  label
# ..."), counted for this kbench and, when OLD names another build's
# kbench, for that one on the same runs.  Also the marked figures: cells
# ending in the loose mark.  Prints one line a run and the medians.
#
# usage: bench/notes_count.sh DB      (KBENCH=..., OLD=kbench of another build)
set -eu
. "$(dirname "$0")/lib.sh"
DB=$1
count() { # KBENCH RUN: note lines, marked cells
	"$1" summary "$2" --db "$DB" >"$WORK/out"
	printf '%s %s\n' "$(grep -cE '^  (run|label) ' "$WORK/out" || true)" \
		"$(grep -oE '[0-9.]+! ' "$WORK/out" | wc -l)"
}
ids=$("$KBENCH" runs --db "$DB" --json | python3 -c 'import json, sys; print(" ".join(str(r["id"]) for r in json.load(sys.stdin)))')
echo "run  notes  marked  ${OLD:+notes-before}"
for id in $ids; do
	set -- $(count "$KBENCH" "$id")
	before=
	[ -n "${OLD:-}" ] && before=$(count "$OLD" "$id" | cut -d' ' -f1)
	echo "$id $1 $2 $before"
done | tee "$WORK/all"
python3 - "$WORK/all" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
med = lambda k: statistics.median(int(r[k]) for r in rows if len(r) > k)
print("median over %d runs: %g note lines, %g marked figures%s" % (len(rows), med(1), med(2),
      ", %g note lines before" % med(3) if all(len(r) > 3 for r in rows) else ""))
PY
