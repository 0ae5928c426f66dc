#!/bin/sh
# How long `kbench runs`, `kbench summary` and `kbench history` take over a store of many
# runs, on SQLite and on PostgreSQL.  The store is made from one real run
# (sys.null and sys.fstat, measured once) copied N-1 times in SQL, each copy
# a run of its own with its own uuid and set, its results copied with it,
# so that the store holds what N stored runs hold.  Each command is timed
# ROUNDS times (the median printed, with the peak resident size from GNU
# time when it is there); OLD=path of another kbench build times that one
# too (on stores of at most OLD_MAX runs, 10000: a quadratic listing of
# 50,000 takes minutes), each store made by the build that reads it.
#   sh bench/runs_speed.sh [N...]       KBENCH=... OLD=... OLD_MAX=... ROUNDS=3 PG=0|1
. "$(dirname "$0")/lib.sh"
SIZES=${*:-1000 10000}
ROUNDS=${ROUNDS:-3}
PG=${PG:-1}
GNUTIME=$(command -v /usr/bin/time || true)

# fill DB N: the store DB (a file, or a postgresql:// URI) grown to N runs.
fill_sqlite() {
	python3 - "$1" "$2" <<'EOF'
import sqlite3, sys, uuid
db, n = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db)
run = c.execute("SELECT * FROM runs ORDER BY id LIMIT 1").fetchone()
cols = [d[0] for d in c.execute("SELECT * FROM runs LIMIT 0").description]
res = c.execute("SELECT * FROM results WHERE run_id = ?", (run[0],)).fetchall()
rcols = [d[0] for d in c.execute("SELECT * FROM results LIMIT 0").description]
have = c.execute("SELECT count(*) FROM runs").fetchone()[0]
for i in range(n - have):
    row = dict(zip(cols, run))
    row["id"] = None
    row["uuid"] = row["set_uuid"] = uuid.uuid4().hex
    cur = c.execute("INSERT INTO runs (%s) VALUES (%s)" % (",".join(cols), ",".join("?" * len(cols))),
                    [row[k] for k in cols])
    rid = cur.lastrowid
    for r in res:
        rr = dict(zip(rcols, r))
        rr["id"] = None
        rr["run_id"] = rid
        c.execute("INSERT INTO results (%s) VALUES (%s)" % (",".join(rcols), ",".join("?" * len(rcols))),
                  [rr[k] for k in rcols])
c.commit()
EOF
}
fill_pg() {
	"${PG_BIN:+$PG_BIN/}psql" -q "$1" <<EOF >/dev/null
CREATE TEMP TABLE one AS SELECT * FROM runs ORDER BY id LIMIT 1;
CREATE TEMP TABLE made AS
  SELECT md5(random()::text || g::text) AS u FROM generate_series(1, $2 - (SELECT count(*) FROM runs)) g;
INSERT INTO runs (host_id, label, started, finished, os, mhz, sysinfo, uuid, set_uuid, pid)
  SELECT o.host_id, o.label, o.started, o.finished, o.os, o.mhz, o.sysinfo, m.u, m.u, o.pid FROM one o, made m;
INSERT INTO results (run_id, bench_id, unit, better, status, median, ci_low, ci_high, min, max, mean,
    stddev, cv, p5, p95, n, iterations, stop, wall_s, reason)
  SELECT r.id, x.bench_id, x.unit, x.better, x.status, x.median, x.ci_low, x.ci_high, x.min, x.max,
    x.mean, x.stddev, x.cv, x.p5, x.p95, x.n, x.iterations, x.stop, x.wall_s, x.reason
  FROM runs r JOIN results x ON x.run_id = (SELECT id FROM one) WHERE r.id <> (SELECT id FROM one);
ANALYZE;
EOF
}
# timeit KBENCH ARGS...: the median seconds of ROUNDS and the largest RSS (MB).
timeit() {
	k=$1
	shift
	: >"$WORK/t"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		if [ -n "$GNUTIME" ]; then
			"$GNUTIME" -f '%e %M' -o "$WORK/one" "$k" "$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; }
		else
			s=$(date +%s.%N)
			"$k" "$@" >/dev/null 2>"$WORK/err"
			echo "$(echo "$(date +%s.%N) - $s" | bc) 0" >"$WORK/one"
		fi
		cat "$WORK/one" >>"$WORK/t"
		i=$((i + 1))
	done
	sort -n "$WORK/t" | awk '{ s[NR] = $1; if ($2 > m) m = $2 } END { printf "%.2f s, %.0f MB", s[int((NR + 1) / 2)], m / 1024 }'
}

echo "runs_speed: $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $ROUNDS rounds, median"
echo
echo "| store | runs | build | \`kbench runs\` | \`kbench summary\` | \`kbench history\` |"
echo "|---|---|---|---|---|---|"
# history is this build's alone (an older one may not have it).
hist() { [ "$1" = new ] && timeit "$KBENCH" history --db "$2" || echo -; }
BASEDB="$WORK/base.db"
"$KBENCH" run --only sys.null,sys.fstat --replicas 1 --max-time 0.05 --db "$BASEDB" --quiet >/dev/null 2>&1 ||
	{ echo "cannot make the first run" >&2; exit 1; }
OLD_MAX=${OLD_MAX:-10000}
for n in $SIZES; do
	for who in ${OLD:+old} new; do
		[ $who = old ] && [ "$n" -gt "$OLD_MAX" ] && continue
		[ $who = old ] && k=$OLD || k=$KBENCH
		db="$WORK/s-$n-$who.db"
		if [ $who = old ]; then
			"$OLD" run --only sys.null,sys.fstat --replicas 1 --max-time 0.05 --db "$db" --quiet >/dev/null 2>&1
		else
			cp "$BASEDB" "$db"
		fi
		fill_sqlite "$db" "$n"
		echo "| SQLite | $n | $who | $(timeit "$k" runs --db "$db") | $(timeit "$k" summary --db "$db") | $(hist $who "$db") |"
	done
done
if [ "$PG" = 1 ]; then
	KBENCH_TEST_PG=
	T=$WORK
	. "$ROOT/tests/pg.sh"
	if pg_setup; then
		for n in $SIZES; do
			for who in ${OLD:+old} new; do
				[ $who = old ] && [ "$n" -gt "$OLD_MAX" ] && continue
				[ $who = old ] && k=$OLD || k=$KBENCH
				pg_psql "DROP SCHEMA public CASCADE; CREATE SCHEMA public" >/dev/null 2>&1
				"$k" run --only sys.null,sys.fstat --replicas 1 --max-time 0.05 --db "$KBENCH_TEST_PG" --quiet >/dev/null 2>&1
				fill_pg "$KBENCH_TEST_PG" "$n"
				echo "| PostgreSQL | $n | $who | $(timeit "$k" runs --db "$KBENCH_TEST_PG") | $(timeit "$k" summary --db "$KBENCH_TEST_PG") | $(hist $who "$KBENCH_TEST_PG") |"
			done
		done
		pg_teardown
	else
		echo "PostgreSQL: $PG_WHY" >&2
	fi
fi
