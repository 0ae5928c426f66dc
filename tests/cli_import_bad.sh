#!/bin/sh
# Command-line tests of what import refuses (issue 13, defect 7): each bad
# input, made from a good export by one edit, is one line naming the run,
# the result and the field, exit status 1, and the database exactly as it
# was.  Then what it must still accept: the same file again (a count, no
# word), the same run under another label, and a timed job's jobs and
# per-copy usage (issue 14), kept through import, export and csv.  The
# closing comment counts the bad inputs tried, for doc/performance.md.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/b.db"
G="$T/good.json"
FIX="$(dirname "$0")/fixtures/kernels.json"

"$KB" run --only sys.null --max-time 0.05 --label good --db "$T/g.db" --tmpdir "$T/tmp" \
	--quiet >/dev/null 2>&1
"$KB" export --db "$T/g.db" >"$G"
# The database the bad files are tried on holds other runs and the good one.
"$KB" import "$FIX" "$G" --db "$DB" >/dev/null 2>&1
"$KB" export --db "$DB" >"$T/before.json"
check "the good export imports" sh -c "[ \$(grep -c '\"uuid\"' '$T/before.json') = 8 ]"

# mutate NAME PYTHON: $T/NAME.json is the good export after the statement,
# which sees the document as d, its first run as run and that run's first
# result as res.
mutate() {
	python3 - "$G" "$T/$1.json" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
res = run["results"][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=2)
EOF
}

bad=0
# refused NAME EXPECTED-TEXT [FILE...]: import is one line saying it, exit
# 1, and the database's export is the same document as before.
refused() {
	bad_name=$1 want=$2
	shift 2
	[ $# -gt 0 ] || set -- "$T/$bad_name.json"
	bad=$((bad + 1))
	kb import "$@" --db "$DB"
	check "$bad_name: exit 1, one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
	check "$bad_name: says '$want'" grep -qF -- "$want" "$T/err"
	"$KB" export --db "$DB" >"$T/now.json"
	check "$bad_name: the database is unchanged" cmp -s "$T/now.json" "$T/before.json"
}

# Each uuid made new, so a refusal is the edit's and not the uuid's.
fresh='import uuid
for r in d["runs"]:
    r["uuid"] = r["set"] = uuid.uuid4().hex
'

# A timed job's keys (issue 14) on the good result: jobs, and one usage
# entry a sample, an unknown figure null.  sys.null stands in for a time.*
# id, which import knows only from the catalogue.
timed='def usage(n):
    return [dict(copy=1, wait_status=256 if i == 1 else 0, start=0.5 * i, user_s=1.25 + i, sys_s=0.5,
                 maxrss_kb=2048 + i, minflt=100 + i, majflt=0, nvcsw=10, nivcsw=2,
                 inblock=None if i == 0 else 8, oublock=0, orphans=0) for i in range(n)]
res["jobs"] = 4
res["usage"] = usage(res["n"])
'

mutate nosamples "$fresh
res['n'] = 25; res['samples'] = []; res['where'] = None"
refused nosamples 'run 1, result 1 (sys.null): no samples, but "n" is 25'

mutate where_cpu "$fresh
res['where'][1]['cpu'] = 'x'"
refused where_cpu "run 1, result 1 (sys.null): sample's place 2: \"cpu\" is of another type, not a whole number"

mutate where_short "$fresh
res['where'] = res['where'][:1]"
refused where_short 'run 1, result 1 (sys.null): "where" has 1 entries, but "n" is'

mutate value_escape "$fresh
res['values']['\\x1b]0;owned\\x07'] = 1.5"
refused value_escape 'is not named in lowercase words joined by'

mutate median_zero "$fresh
res['median'] = res['min'] = res['ci_low'] = res['level'] = res['level_low'] = 0"
refused median_zero 'but a median of 0, below any figure a benchmark gives'

mutate median_tiny "$fresh
res['median'] = res['min'] = res['ci_low'] = 1e-300"
refused median_tiny 'but a median of 1e-300, below any figure'

mutate sysinfo_huge "$fresh
run['sysinfo']['cpu_model'] = 'x' * 100000"
refused sysinfo_huge 'run 1: "sysinfo" is 10'

mutate sentinel_many "$fresh
run['sentinel'] = [dict(t=i * 0.001, cpu=0, sys_ns=100.0, user_ns=2.0) for i in range(200001)]"
refused sentinel_many 'run 1: "sentinel" has 200001 entries, more than 200000'

mutate yesterday "$fresh
run['started'] = 'yesterday'"
refused yesterday 'run 1: "started" is "yesterday", not a time'

mutate feb30 "$fresh
run['started'] = '2026-02-30T10:00:00Z'; run['finished'] = None"
refused feb30 'run 1: "started" is "2026-02-30T10:00:00Z", not a time'

mutate finished_word "$fresh
run['finished'] = 'later'"
refused finished_word 'run 1: "finished" is "later", not a time'

mutate backwards "$fresh
run['started'] = '2026-12-01T10:00:00Z'; run['finished'] = '2026-12-01T09:59:59Z'"
refused backwards 'run 1: "finished" (2026-12-01T09:59:59Z) is before "started" (2026-12-01T10:00:00Z)'

mutate stddev "$fresh
res['stddev'] = -0.5"
refused stddev 'run 1, result 1 (sys.null): "stddev" is -0.5, negative'

mutate huge "$fresh
for k in ('median', 'min', 'max', 'ci_low', 'ci_high', 'mean', 'p5', 'p95'): res[k] = 1e308"
refused huge 'run 1, result 1 (sys.null): "median" is 1e+308, beyond any figure a benchmark gives (under 1e+15)'

mutate cv "$fresh
res['cv'] = -1"
refused cv 'run 1, result 1 (sys.null): "cv" is -1, negative'

mutate sample "$fresh
res['samples'][2] = -res['samples'][2]"
refused sample 'run 1, result 1 (sys.null): sample 3 is -'

mutate zero_sample "$fresh
res['samples'][0] = 0"
refused zero_sample 'run 1, result 1 (sys.null): sample 1 is 0, not positive'

mutate wall "$fresh
res['wall_s'] = -3"
refused wall 'run 1, result 1 (sys.null): "wall_s" is -3, negative'

mutate mhz "$fresh
run['mhz'] = -2000"
refused mhz 'run 1: "mhz" is -2000, not positive or null'

mutate unknown_id "$fresh
res['id'] = 'sys.nosuch'"
refused unknown_id 'run 1, result 1 (sys.nosuch): unknown benchmark "sys.nosuch"'

mutate unknown_load "$fresh
res['id'] = 'contest.nosuch_load'; res['unit'] = 's'"
refused unknown_load 'run 1, result 1 (contest.nosuch_load): unknown benchmark "contest.nosuch_load"'

mutate unit "$fresh
res['unit'] = 'ms'"
refused unit 'run 1, result 1 (sys.null): "unit" is "ms", but sys.null is measured in us'

mutate better "$fresh
res['better'] = 'higher'"
refused better 'run 1, result 1 (sys.null): "better" is "higher", but sys.null is better lower'

mutate twice "$fresh
run['results'].append(json.loads(json.dumps(res)))"
refused twice 'run 1, result 2 (sys.null): the same instance as result 1'

mutate uuid_twice "$fresh
d['runs'].append(json.loads(json.dumps(run)))"
refused uuid_twice "run 2: uuid $(python3 -c "import json; print(json.load(open('$T/uuid_twice.json'))['runs'][0]['uuid'])") is also run 1's"

mutate jobs_zero "$fresh$timed
res['jobs'] = 0"
refused jobs_zero 'run 1, result 1 (sys.null): "jobs" is 0, outside 1 to 1000000'

mutate jobs_text "$fresh$timed
res['jobs'] = '4'"
refused jobs_text 'run 1, result 1 (sys.null): "jobs" is of another type, not a whole number'

mutate usage_object "$fresh$timed
res['usage'] = res['usage'][0]"
refused usage_object 'run 1, result 1 (sys.null): "usage" is of another type, not an array'

mutate usage_short "$fresh$timed
res['usage'] = res['usage'][:1]"
refused usage_short 'run 1, result 1 (sys.null): "usage" has 1 entries, but "n" is'

mutate usage_long "$fresh$timed
res['usage'].append(res['usage'][0])"
refused usage_long 'entries, but "n" is'

mutate usage_text "$fresh$timed
res['usage'][1]['user_s'] = '1.5'"
refused usage_text 'run 1, result 1 (sys.null): usage 2: "user_s" is of another type, not a number or null'

mutate usage_copy0 "$fresh$timed
res['usage'][0]['copy'] = 0"
refused usage_copy0 'run 1, result 1 (sys.null): usage 1: "copy" is 0, outside 1 to 1 ("parallel")'

mutate usage_status "$fresh$timed
res['usage'][2]['wait_status'] = None"
refused usage_status 'run 1, result 1 (sys.null): usage 3: "wait_status" is of another type, not a whole number'

mutate usage_entry "$fresh$timed
res['usage'][0] = 7"
refused usage_entry 'run 1, result 1 (sys.null): usage 1 is not an object'

mutate usage_negative "$fresh$timed
res['usage'][0]['majflt'] = -1"
refused usage_negative 'run 1, result 1 (sys.null): usage 1: "majflt" is -1, negative'

mutate usage_nosamples "$fresh$timed
res['samples'] = []; res['where'] = None; res['status'] = 'skip'; res['reason'] = 'x'
for k in ('median', 'ci_low', 'ci_high', 'min', 'max', 'mean', 'stddev', 'cv', 'p5', 'p95'): res[k] = None"
refused usage_nosamples 'run 1, result 1 (sys.null): "usage" without samples'

# The other lists a result or a run has (replicas, a curve's points, the
# sentinel) are read by the same table-driven reader as usage: each entry
# named in the message, each field checked as a result's are.
mutate replica_stop "$fresh
res['replicas'][1]['stop'] = 'sideways'"
refused replica_stop 'run 1, result 1 (sys.null): replica 2: unknown stop "sideways"'

mutate replica_huge "$fresh
res['replicas'][0]['median'] = 1e300"
refused replica_huge 'run 1, result 1 (sys.null): replica 1: "median" is 1e+300, beyond any figure a benchmark gives'

mutate replica_apart "$fresh
res['replicas'][0]['apart'] = 1.5"
refused replica_apart 'run 1, result 1 (sys.null): replica 1: "apart" is 1.5, not a share from 0 to 1'

mutate replica_n "$fresh
res['replicas'][0]['n'] = -1"
refused replica_n 'run 1, result 1 (sys.null): replica 1: "n" is -1, outside 0 to 1000000000'

mutate point_noisy "$fresh
res['points'] = [{'series': 'random', 'x': 4096, 'y': 1, 'ci_low': 1, 'ci_high': 1, 'noisy': 'no'}]"
refused point_noisy 'run 1, result 1 (sys.null): point 1: "noisy" is not true or false'

mutate sentinel_t "$fresh
run['sentinel'][1]['t'] = None"
refused sentinel_t 'run 1: sentinel point 2: "t" is of another type, not a number'

mutate jobs_twice "$fresh$timed
run['results'].append(json.loads(json.dumps(res)))"
refused jobs_twice 'run 1, result 2 (sys.null): the same instance as result 1 ("id", "placement", "parallel" and "jobs" alike)'

# The uuid the database holds, another figure: a hand edit on one side.
mutate edited "res['median'] = (res['median'] + min(res['ci_high'], res['max'])) / 2"
refused edited "run 1: uuid $(python3 -c "import json; print(json.load(open('$G'))['runs'][0]['uuid'])") is run 8 of db '$DB', with a different \"median\" of result 1 (sys.null)"

mutate edited_host "run['host'] = 'elsewhere'"
refused edited_host 'with a different "host"'

# Two files that disagree about one new run: refused before either is imported.
mutate one "$fresh"
mutate other "d['runs'][0]['uuid'] = json.load(open('$T/one.json'))['runs'][0]['uuid']
d['runs'][0]['set'] = d['runs'][0]['uuid']; d['runs'][0]['os'] = 'Plan 9'"
refused two_files "also run 1 of '$T/one.json', with a different \"os\"" "$T/one.json" "$T/other.json"

# Too large: refused from its size, before a byte is parsed (a sparse file
# costs no disk), and from standard input at the limit, not after reading all.
truncate -s 65M "$T/large.json"
refused large "cannot import '$T/large.json': 65.0 MiB, more than the 64 MiB a file may hold"
bad=$((bad + 1))
head -c 70000000 /dev/zero | "$KB" import - --db "$DB" >"$T/out" 2>"$T/err"
rc=$?
check "a large standard input: exit 1, one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
check "a large standard input: says so" grep -qF "cannot import '-': more than the 64 MiB a file may hold" "$T/err"
"$KB" export --db "$DB" >"$T/now.json"
check "a large standard input: the database is unchanged" cmp -s "$T/now.json" "$T/before.json"

mkdir "$T/directory.json"
refused directory "cannot import '$T/directory.json': is a directory"

# What must still go in: the same file again is a count and no complaint,
# also for a run renamed since (the label is the user's filing, not the run).
kb import "$G" --db "$DB"
check "the same file again: exit 0, counted as already there" sh -c "[ $rc = 0 ] && grep -q \"imported 0 runs from '$G' (1 already in the db)\" '$T/err'"
check "the same file again: no warning" sh -c "! grep -q 'warning\|different' '$T/err'"
"$KB" runs rename good renamed --db "$DB" >/dev/null 2>&1
kb import "$G" --db "$DB"
check "a run renamed since is still the same run" sh -c "[ $rc = 0 ] && grep -q '(1 already in the db)' '$T/err'"
kb import "$G" "$G" --db "$T/new.db"
check "one run in two files, alike: imported once" sh -c "[ $rc = 0 ] && grep -q '1 run added' '$T/err'"
kb import "$FIX" --db "$T/fix.db"
check "the fixture (every kind of result) still imports" sh -c "[ $rc = 0 ] && grep -q 'imported 7 runs' '$T/err'"
mutate finished_null "$fresh
run['finished'] = None"
kb import "$T/finished_null.json" --db "$T/new.db"
check "an interrupted run (finished null) still imports" sh -c "[ $rc = 0 ] && grep -q 'imported 1 run' '$T/err'"

# A timed job's jobs and usage survive import and export unchanged, and
# one job at two -j values is two instances, not the same one twice.
mutate timed "$fresh$timed
other = json.loads(json.dumps(res)); other['jobs'] = 8; run['results'].append(other)"
kb import "$T/timed.json" --db "$T/timed.db"
check "a timed job (jobs and usage) imports, at two -j values" sh -c "[ $rc = 0 ] && grep -q 'imported 1 run' '$T/err'"
"$KB" export --db "$T/timed.db" >"$T/timed.out" 2>"$T/err"
check "... and exports with the same jobs and usage" python3 -c "
import json, sys
a = json.load(open('$T/timed.json'))['runs'][0]['results']
b = json.load(open('$T/timed.out'))['runs'][0]['results']
sys.exit(not (len(a) == len(b) == 2 and all(x['jobs'] == y['jobs'] and x['usage'] == y['usage']
                                             for x, y in zip(a, b)) and b[1]['jobs'] == 8))"
check "... a whole export by jsoncheck, usage and all" sh -c "'$JC' export <'$T/timed.out' >/dev/null"
sed 's/"copy": 1,/"copy": 2,/' "$T/timed.out" | "$JC" export >/dev/null 2>"$T/jc"
check "... where jsoncheck finds a copy beyond the copies run" grep -q "usage entry's copy" "$T/jc"
"$KB" import "$T/timed.out" --db "$T/timed2.db" >/dev/null 2>&1
"$KB" export --db "$T/timed2.db" >"$T/timed2.out" 2>/dev/null
check "... export -> import -> export gives the same document" cmp -s "$T/timed.out" "$T/timed2.out"
kb export --format csv --db "$T/timed.db"
check "... and its csv has the jobs after parallel" sh -c "[ $rc = 0 ] &&
	head -1 '$T/out' | grep -q ',placement,parallel,jobs,level,' &&
	[ \"\$(cut -d, -f12,13 '$T/out' | sed 1d | tr '\n' ' ')\" = '1,4 1,8 ' ]"
kb export --format csv --db "$DB"
check "a result of no -j sweep: its jobs field is empty" sh -c "[ $rc = 0 ] &&
	[ \"\$(cut -d, -f13 '$T/out' | sed 1d | sort -u)\" = '' ]"

echo "# $bad bad inputs tried"
echo "1..$n"
