#!/bin/sh
# What the launcher did to `kbench time`: the median real of
# `kbench time --runs 20 -- /bin/true` for this build and for OLD (a build
# whose copies exec'd the job from a copy of kbench itself), beside
# `hyperfine -N --runs 20 /bin/true`, the three alternated ROUNDS times.
# Prints each round's three medians in ms and the medians of the ratios to
# hyperfine.  hyperfine is installed from Debian when missing.
#   sh bench/time_launcher.sh        KBENCH=... OLD=... ROUNDS=7
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-7}
[ -n "${OLD:-}" ] && [ -x "$OLD" ] || { echo "OLD= the kbench to compare with" >&2; exit 2; }
command -v hyperfine >/dev/null 2>&1 || apt-get install -y -q hyperfine >/dev/null 2>&1 ||
	{ echo "cannot install hyperfine" >&2; exit 1; }
kb_ms() {
	"$1" time --no-store --quiet --json --runs 20 -- /bin/true |
		python3 -c 'import json, sys; print("%.4f" % (json.load(sys.stdin)["runs"][0]["results"][0]["median"] * 1000))'
}
hf_ms() {
	hyperfine -N --runs 20 --export-json "$WORK/hf.json" /bin/true >/dev/null 2>&1
	python3 -c 'import json, sys; print("%.4f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$WORK/hf.json"
}
echo "time_launcher: $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $ROUNDS rounds"
echo
echo "| round | this build (ms) | OLD (ms) | hyperfine -N (ms) |"
echo "|---|---|---|---|"
: >"$WORK/r"
for r in $(seq 1 "$ROUNDS"); do
	# The order turns each round, so no side always follows another.
	case $((r % 3)) in
	0) n=$(kb_ms "$KBENCH"); o=$(kb_ms "$OLD"); h=$(hf_ms) ;;
	1) o=$(kb_ms "$OLD"); h=$(hf_ms); n=$(kb_ms "$KBENCH") ;;
	2) h=$(hf_ms); n=$(kb_ms "$KBENCH"); o=$(kb_ms "$OLD") ;;
	esac
	echo "| $r | $n | $o | $h |"
	echo "$n $o $h" >>"$WORK/r"
done
python3 - "$WORK/r" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print()
print("median this build / hyperfine: %.3f; OLD / hyperfine: %.3f; this build / OLD: %.3f" % (
    statistics.median(n / h for n, o, h in rows), statistics.median(o / h for n, o, h in rows),
    statistics.median(n / o for n, o, h in rows)))
PY
