#!/bin/sh
# What the fault-injection table (issue 13) costs the timed paths: kbench
# built from OLD (a commit before the table, default 551645d) against this
# tree's build, alternating A B A B ROUNDS times on the instances whose
# timed loop goes through the table, then `kbench compare OLD NEW`.
#
# usage: bench/inject_overhead.sh   (OLDKB=path to the old kbench, ROUNDS=3,
#        ONLY=instances, KBENCH=path)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-sys.read,sys.write,sys.select_tcp,ipc.pipe.lat,vm.mmap}
: "${OLDKB:?set OLDKB to a kbench built before the table (git worktree add /tmp/old 551645d)}"
DB="$WORK/o.db"
# The old kbench has an older schema: its runs go in a db of their own and
# are brought over by export and import.
for r in $(seq 1 "$ROUNDS"); do
	"$OLDKB" run --only "$ONLY" --max-time 1 --label old --db "$WORK/old.db" --quiet >/dev/null
	"$KBENCH" run --only "$ONLY" --max-time 1 --label new --db "$DB" --quiet >/dev/null
done
"$OLDKB" export --db "$WORK/old.db" >"$WORK/old.json"
"$KBENCH" import "$WORK/old.json" --db "$DB" >/dev/null
"$KBENCH" compare old new --db "$DB"
