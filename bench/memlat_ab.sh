#!/bin/bash
# Did a change to the memory-latency rows move their figures?  (issue 12)
#
# Alternates two kbench binaries, OLD and NEW, ROUNDS (4) times each, on
# mem.lat.main (its 8 replicas) and mem.lat.curve (its cache levels found,
# and the median width of its points' intervals), one invocation at a time,
# and prints one line per invocation, then each side's medians.  Alternating
# puts both sides in the same machine states as far as possible.
#
# usage: OLD=path/to/kbench NEW=path/to/kbench bench/memlat_ab.sh   (ROUNDS=4)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-4}
: "${OLD:?OLD=kbench binary before the change}" "${NEW:?NEW=kbench binary after it}"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); OLD $OLD; NEW $NEW; $ROUNDS rounds; load $(loadavg)"
for i in $(seq "$ROUNDS"); do
	for side in OLD NEW; do
		bin=${!side}
		t0=$(date +%s.%N)
		"$bin" run --only mem.lat.main,mem.lat.curve --no-store --json --quiet > "$WORK/$side.$i.json"
		echo "$side $i $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" >> "$WORK/walls"
	done
done
python3 - "$WORK" "$ROUNDS" <<'PY'
import json, statistics as st, sys
work, rounds = sys.argv[1], int(sys.argv[2])
walls = {}
for line in open(work + '/walls'):
    side, i, s = line.split()
    walls[(side, i)] = float(s)
agg = {}
print('| side | round | mem.lat.main ns | curve levels (bytes) | curve points, median CI half-width | wall s |')
print('|---|---|---|---|---|---|')
for i in range(1, rounds + 1):
    for side in ('OLD', 'NEW'):
        d = json.load(open('%s/%s.%d.json' % (work, side, i)))
        runs = d['runs'] if 'runs' in d else [d]
        r = {x['id']: x for x in runs[0]['results']}
        main, curve = r['mem.lat.main'], r['mem.lat.curve']
        v = curve['values']
        lv = '/'.join('%d' % v[k] for k in ('l1_detected', 'l2_detected', 'l3_detected') if k in v)
        hw = st.median([(p['ci_high'] - p['ci_low']) / 2 / p['y'] for p in curve['points'] if p['y'] > 0])
        agg.setdefault(side, []).append((main['median'], hw, walls[(side, str(i))]))
        print('| %s | %d | %.1f | %s | %.1f%% | %.1f |' % (side, i, main['median'], lv, 100 * hw,
                                                        walls[(side, str(i))]))
for side, v in agg.items():
    print('- %s: mem.lat.main median of medians %.1f ns; curve points %.1f%%; wall %.1f s'
          % (side, st.median(x[0] for x in v), 100 * st.median(x[1] for x in v),
             st.median(x[2] for x in v)))
PY
