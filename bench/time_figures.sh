#!/bin/bash
# The figures issue 14 names for `kbench time`, each against a peer measured
# in the same run, alternated so that a machine that drifts hits both:
#   1. overhead: `kbench time --runs 20 -- /bin/true` against
#      `hyperfine -N --runs 20 /bin/true`, ROUNDS times each, alternated;
#      target: kbench's median real at most 1.1x hyperfine's
#   2. accuracy: `sleep 1` reads 1.00 s within 1%; a CPU-bound job's
#      user+sys agrees with GNU time's within 2% (alternated, ROUNDS each);
#      a job whose orphaned child burns CPU counts that child's CPU
#   3. copies: a CPU-bound job as 1, 2 and 4 copies at once on this 2-CPU
#      machine: the spread of the ends and the throughput against one copy
#      (target: 2 copies close to 2x, 4 copies close to 2x, not 4x)
# hyperfine and GNU time come from Debian (installed here when missing, as
# the peers are: kbench never depends on them).  Prints Markdown.
#
# usage: bench/time_figures.sh      (KBENCH=path, ROUNDS=5, BURN=awk loop count)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
BURN=${BURN:-20000000}

need() { # COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 || apt-get install -y -q "$2" >/dev/null 2>&1 ||
		{ echo "cannot install $2 for $1" >&2; exit 1; }
}
need hyperfine hyperfine
[ -x /usr/bin/time ] || need /usr/bin/time time

# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The figures of a `kbench time --json` document: real (median), user+sys
# (median of the runs' sums), per configuration (jobs copies real cpu makespan spread).
kb_json() {
	python3 -c '
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
for run in doc["runs"]:
    for r in run["results"]:
        v = r.get("values") or {}
        cpu = statistics.median(u["user_s"] + u["sys_s"] for u in r["usage"])
        print(r.get("jobs") or 0, r["parallel"], "%.6f" % r["median"], "%.6f" % cpu,
              "%.6f" % (v.get("makespan_s") or 0), "%.6f" % (v.get("spread_s") or 0))
' "$1"
}

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS rounds"
echo

echo "## 1. Overhead: /bin/true, 20 runs each, alternated"
echo
echo "| round | kbench median real (ms) | hyperfine median (ms) | ratio |"
echo "|---|---|---|---|"
: >"$WORK/ratios"
for r in $(seq 1 "$ROUNDS"); do
	"$KBENCH" time --no-store --quiet --json --runs 20 -- /bin/true >"$WORK/kb.json"
	k=$(kb_json "$WORK/kb.json" | awk '{ print $3 * 1000 }')
	hyperfine -N --runs 20 --export-json "$WORK/hf.json" /bin/true >/dev/null 2>&1
	h=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"] * 1000)' "$WORK/hf.json")
	ratio=$(awk -v k="$k" -v h="$h" 'BEGIN { printf "%.3f", k / h }')
	echo "$ratio" >>"$WORK/ratios"
	printf '| %d | %.3f | %.3f | %s |\n' "$r" "$k" "$h" "$ratio"
done
echo
echo "median ratio kbench/hyperfine: $(median <"$WORK/ratios") (target: at most 1.1)"
echo

echo "## 2. Accuracy"
echo
"$KBENCH" time --no-store --quiet --json --runs 5 -- sleep 1 >"$WORK/sleep.json"
s=$(kb_json "$WORK/sleep.json" | awk '{ print $3 }')
echo "sleep 1, median of 5 runs: $(awk -v s="$s" 'BEGIN { printf "%.4f s, error %+.2f%% (target: within 1%%)", s, (s - 1) * 100 }')"
echo
BURNCMD="awk 'BEGIN { for (i = 0; i < $BURN; i++) s += i; exit s == 0 }'"
echo "CPU-bound job: \`sh -c \"$BURNCMD\"\`, user+sys, kbench (median of 3 runs) and GNU time (median of 3), alternated"
echo
echo "| round | kbench user+sys (s) | GNU time user+sys (s) | ratio |"
echo "|---|---|---|---|"
: >"$WORK/cpu"
for r in $(seq 1 "$ROUNDS"); do
	"$KBENCH" time --no-store --quiet --json --runs 3 -- sh -c "$BURNCMD" >"$WORK/cpu.json"
	k=$(kb_json "$WORK/cpu.json" | awk '{ print $4 }')
	kburn=$k
	g=$(for i in 1 2 3; do /usr/bin/time -f '%U %S' sh -c "$BURNCMD" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }'; done | median)
	ratio=$(awk -v k="$k" -v g="$g" 'BEGIN { printf "%.4f", k / g }')
	echo "$ratio" >>"$WORK/cpu"
	printf '| %d | %.3f | %.3f | %s |\n' "$r" "$k" "$g" "$ratio"
done
echo
echo "median ratio: $(median <"$WORK/cpu") (target: within 2%, 0.98 to 1.02)"
echo
# The orphan: an inner shell starts the burn in the background and exits at
# once, so the burn's parent is gone; the job then sleeps while it runs.
printf '%s\n' "sh -c \"$BURNCMD &\"" 'sleep 4' >"$WORK/orphan.sh"
"$KBENCH" time --no-store --quiet --json --runs 1 -- sh "$WORK/orphan.sh" >"$WORK/orph.json"
k=$(kb_json "$WORK/orph.json" | awk '{ print $4 }')
g=$(/usr/bin/time -f '%U %S' sh "$WORK/orphan.sh" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }')
echo "orphaned child: the job starts a shell that starts the burn in the background and exits at"
echo "once (the burn is orphaned), then sleeps 4 s: user+sys kbench $k s, GNU time $g s"
echo "(the burn alone, in the last round above: $kburn s)"
echo

echo "## 3. Copies of a CPU-bound job on $(nproc) CPUs, 3 runs each"
echo
"$KBENCH" time --no-store --quiet --json --runs 3 --copies 1,2,4 -- sh -c "$BURNCMD" >"$WORK/copies.json"
echo "| copies | median real of a copy (s) | makespan (s) | ends spread (s) | throughput vs one copy |"
echo "|---|---|---|---|---|"
kb_json "$WORK/copies.json" | awk '
	$2 == 1 { one = $3 }
	{ k[NR] = $2; real[NR] = $3; mk[NR] = $5; sp[NR] = $6 }
	END { for (i = 1; i <= NR; i++) printf "| %d | %.3f | %.3f | %.3f | %.2fx |\n", k[i], real[i], mk[i], sp[i], k[i] * one / mk[i] }'
echo
echo "load average after: $(loadavg)"
