#!/bin/sh
# Command-line tests of reading a database that cannot be written (issue
# 13): summary, compare, runs, show and export of a database owned by
# another user in a directory they may not write (as root: run as nobody,
# since modes do not stop root; as anyone else: the modes) all work, write
# nothing -- the file byte-identical, no -shm or -wal made beside it -- and a
# command that must write says so in one line.  A zero-byte file given to a
# reader is refused in one line and left zero bytes.  Before, every reader
# failed with "attempt to write a readonly database" or "unable to open
# database file", and summary wrote the schema into the empty file.
# Prints TAP lines.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--only sys.null --max-time 0.05 --replicas 2 --tmpdir $T/tmp --quiet"
RO="$T/ro"
DB="$RO/results.db"

# kb_ro ARGS: kbench as a user who cannot write $RO; stdout, stderr and status as kb.
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	elif command -v runuser >/dev/null 2>&1 && id -un 65534 >/dev/null 2>&1; then
		AS="runuser -u $(id -un 65534) --"
	else
		AS=""
	fi
else
	AS="env"
fi
# As another user, the copy of kbench they can run (the checkout may be closed to them).
KRO=$KB
if [ "$(id -u)" = 0 ] && [ -n "$AS" ]; then
	kb_for_others && KRO=$KBO || AS=""
fi
kb_ro() { $AS "$KRO" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
one_line() { [ "$(lines "$T/err")" = 1 ]; }
# The labels (the OS cells) of the rows of the Processor, Processes table.
proc_labels() {
	sed -n '/^Processor, Processes/,/^$/p' "$T/out" |
		awk '{ c = substr($0, 11, 13); sub(/^ +/, "", c) } c == "A" || c == "B" { printf "%s%s", s, c; s = " " }'
}
no_sidecars() { [ ! -e "$1-shm" ] && [ ! -e "$1-wal" ] && [ ! -e "$1-journal" ]; }

mkdir "$RO"
kb run $FAST --db "$DB" --label A
kb run $FAST --db "$DB" --label B
check "two runs stored to read back" [ "$rc" = 0 ]
check "the database, closed, leaves no -shm or -wal" no_sidecars "$DB"
cp "$DB" "$T/copy.db"
chmod 444 "$DB"
# nobody must get through $T to $RO, and may not write $RO.
chmod 711 "$T"
chmod 555 "$RO"

if [ -z "$AS" ]; then
	echo "ok 3 # SKIP root without setpriv or runuser, or a copy of kbench they can run, cannot read as another user${KBO_WHY:+ ($KBO_WHY)}"
	n=3
else
	# First prove the reader really cannot write there.
	$AS sh -c ": >'$RO/probe'" 2>/dev/null
	check "the reader cannot write the directory" [ ! -e "$RO/probe" ]

	kb_ro summary --db "$DB"
	check "summary of a read-only database exits 0" [ "$rc" = 0 ]
	check "summary shows a row for each label" [ "$(proc_labels)" = "A B" ]
	check "summary says nothing on stderr" [ ! -s "$T/err" ]
	kb_ro summary --db "$DB" --json
	check "summary --json of a read-only database is a whole document" \
		sh -c "[ $rc = 0 ] && \"$JC\" run <\"$T/out\" | grep -q 'runs 2'"
	kb_ro compare A B --db "$DB"
	check "compare of a read-only database exits 0" [ "$rc" = 0 ]
	check "compare prints its table" grep -q 'sys.null' "$T/out"
	kb_ro runs --db "$DB"
	check "runs of a read-only database lists the two runs" \
		sh -c "[ $rc = 0 ] && tail -n 1 '$T/out' | grep -q '^2 runs in 2 sets under 2 labels'"
	kb_ro runs --json --db "$DB"
	check "runs --json of a read-only database" sh -c "[ $rc = 0 ] && [ \"\$(\"$JC\" runs-list <'$T/out')\" = 2 ]"
	kb_ro show sys.null --db "$DB"
	check "show of a read-only database exits 0" sh -c "[ $rc = 0 ] && grep -q 'sys.null' '$T/out'"
	kb_ro export --db "$DB"
	check "export of a read-only database is a whole export" \
		sh -c "[ $rc = 0 ] && \"$JC\" export <'$T/out' >/dev/null"
	kb_ro export --format csv --db "$DB"
	check "export --format csv of a read-only database" \
		sh -c "[ $rc = 0 ] && [ \"\$(grep -c sys.null '$T/out')\" = 2 ]"

	# What must write is refused in one line, the file as it was.
	kb_ro runs rename A C --db "$DB"
	check "runs rename of a read-only database is refused in one line" \
		sh -c "[ $rc = 1 ] && [ \"\$(wc -l <'$T/err')\" = 1 ] && grep -q 'cannot open db' '$T/err'"
	kb_ro runs delete B --db "$DB"
	check "runs delete of a read-only database is refused in one line" \
		sh -c "[ $rc = 1 ] && [ \"\$(wc -l <'$T/err')\" = 1 ]"

	check "nothing of it was written: the file is byte-identical" cmp -s "$DB" "$T/copy.db"
	check "and no -shm, -wal or -journal was made beside it" no_sidecars "$DB"
fi
chmod 755 "$RO"
chmod 700 "$T"

# Where it may be written, a reader leaves nothing beside the file either.
cp "$T/copy.db" "$T/mine.db"
kb summary --db "$T/mine.db"
check "summary of a database it may write exits 0" [ "$rc" = 0 ]
check "and leaves no -shm or -wal beside it" no_sidecars "$T/mine.db"
check "nor changes it" cmp -s "$T/mine.db" "$T/copy.db"

# A zero-byte file: refused by every reader and by rename, and left empty.
: >"$T/empty.db"
for cmd in "summary" "compare A B" "runs" "show sys.null" "export" "runs rename A C"; do
	kb $cmd --db "$T/empty.db"
	check "$cmd of a zero-byte file is refused in one line" \
		sh -c "[ $rc = 1 ] && [ \"\$(wc -l <'$T/err')\" = 1 ] &&
		       grep -q 'empty file, not a kbench database' '$T/err'"
done
check "the zero-byte file is still zero bytes" [ ! -s "$T/empty.db" ]
check "and nothing was made beside it" no_sidecars "$T/empty.db"

echo "1..$n"
