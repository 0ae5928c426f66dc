#!/bin/sh
# Command-line tests of kbench ab, the selection measured under two
# conditions round by round: the switch commands run at every change of
# side and the restore once, at the end and after SIGINT and SIGKILL (the
# guard); a wrapper is what the worker runs through, once a replica of its
# side; the two sides are two runs of one set under two labels, compared
# at the end; a failing switch stops the session with one line, keeping
# what finished; bad input is one line, exit 2, nothing stored.  The
# restore against the terminal (two Ctrl-Cs), a removed private directory
# and a command that hangs; Ctrl-Z during a switch; the signals of what
# the switches, the restore and the guard start.  On both stores (db_for).
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB=$(db_for ab) || { echo "1..0 # SKIP $DB"; exit 0; }
L="$T/switch.log"
FAST="--max-time 0.05 --tmpdir $T/tmp"

# Two instances, four rounds, a command for each side and a restore.
kb ab --only sys.null,proc.fork --rounds 4 $FAST --seed 11 --db "$DB" \
	--a "echo A >>$L" --b "echo B >>$L" --restore "echo R >>$L" \
	--label-a "sys A" --label-b "sys B" --quiet
check "ab: exit 0" [ "$rc" = 0 ]
# Each switch only where the side changes: no two alike in a row, the restore last, once.
check "switches alternate, the first before anything is measured" \
	sh -c "head -1 '$L' | grep -qx '[AB]' && ! uniq -d '$L' | grep -q ."
check "the restore runs once, last" sh -c "[ \$(grep -c R '$L') = 1 ] && tail -1 '$L' | grep -qx R"
# Four rounds of two instances a side: 16 replicas, at most 16 switches, at least 4 (one a round).
check "between 4 and 16 switches" sh -c "s=\$(grep -c '[AB]' '$L'); [ \$s -ge 4 ] && [ \$s -le 16 ]"
check "the two sides' tables and the comparison are printed" \
	sh -c "grep -q 'sys B against sys A: gain [0-9.]*x (geometric mean' '$T/out'"
"$KB" runs --db "$DB" >"$T/runs"
check "two runs of one set, a label each" \
	sh -c "grep -q '2 runs in 1 set under 2 labels' '$T/runs'"
"$KB" export --db "$DB" >"$T/ab.json"
check "each side's results have a replica a round" python3 -c "
import json
d = json.load(open('$T/ab.json'))
runs = d['runs']
assert sorted(r['label'] for r in runs) == ['sys A', 'sys B'], [r['label'] for r in runs]
assert runs[0]['set'] == runs[1]['set']
for r in runs:
    assert len(r['results']) == 2
    for res in r['results']:
        assert len(res['replicas']) == 4, (res['id'], len(res['replicas']))
    # Each side's own timeline: around each of its replicas.
    assert len(r['sentinel']) == 2 * 8, len(r['sentinel'])
"

# The same seed draws the same order of sides; the switch log shows it.
cp "$L" "$T/first.log"
: >"$L"
kb ab --only sys.null,proc.fork --rounds 4 $FAST --seed 11 --no-store \
	--a "echo A >>$L" --b "echo B >>$L" --restore "echo R >>$L" --quiet
check "the same seed: the same switches" cmp -s "$L" "$T/first.log"

# A wrapper runs each of its side's workers, once a replica, and execs it.
W="$T/wrap.sh"
printf '#!/bin/sh\necho "$1" >>%s\nexec "$@"\n' "$T/wrapped" >"$W"
chmod +x "$W"
kb ab --only sys.null --rounds 3 $FAST --no-store --wrap-b "$W" --quiet --json
check "--wrap-b: exit 0, a document" sh -c "[ $rc = 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/out'"
check "--wrap-b: B's three replicas ran through it, A's not" \
	sh -c "[ \$(grep -c kbench-worker '$T/wrapped') = 3 ]"

# A switch that fails: one line naming it, exit 1, the finished rounds kept.
: >"$L"
kb ab --only sys.null --rounds 6 $FAST --seed 5 --db "$DB" --label-a "fail A" --label-b "fail B" \
	--a "echo A >>$L; [ \$(grep -c A $L) -lt 3 ]" --b "echo B >>$L" --restore "echo R >>$L"
check "failing switch: exit 1" [ "$rc" = 1 ]
check "failing switch: one line says which and why" \
	grep -q "ab: --a 'echo A.*' failed: exit status 1" "$T/err"
check "failing switch: the restore still runs" sh -c "tail -1 '$L' | grep -qx R"
"$KB" export --db "$DB" "fail A" >"$T/fail.json" 2>"$T/err2"
check "failing switch: the rounds measured before it are stored, said to be partial" python3 -c "
import json
d = json.load(open('$T/fail.json'))
res = d['runs'][0]['results'][0]
assert 1 <= len(res['replicas']) < 6, len(res['replicas'])
assert res['reason'].startswith('partial: '), res['reason']
"

# Bad input: one line, exit 2, nothing stored.
"$KB" export --db "$DB" >"$T/before.json"
bad() { # NAME TEXT ARGS...
	name=$1 want=$2
	shift 2
	kb ab --only sys.null $FAST --db "$DB" "$@"
	check "$name: exit 2, one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ]"
	check "$name: says '$want'" grep -qF -- "$want" "$T/err"
	"$KB" export --db "$DB" >"$T/now.json"
	check "$name: nothing stored" cmp -s "$T/now.json" "$T/before.json"
}
bad "no condition" "ab: no condition"
bad "--rounds 0" "--rounds: 0 is out of range" --rounds 0 --a true
bad "--rounds 1" "--rounds: 1 is out of range" --rounds 1 --a true
bad "a wrapper that runs nothing" "does not run a command after it" --wrap-a "nosuchcommand-kb -x"
bad "an empty switch" "--b: empty" --a true --b " "
bad "a wrap that backgrounds" "'&' ends the prefix, so the worker would not run through it" \
	--wrap-a "nice -n 5 &"
bad "a wrap with a second command" "';' ends the prefix" --wrap-b "nice -n 5; true"
printf '#!/bin/sh\n"$@"\nexit $?\n' >"$T/forks.sh"
chmod +x "$T/forks.sh"
bad "a wrap that forks what follows" "ran the command after it in another process, not by exec" \
	--wrap-a "$T/forks.sh"
bad "the same label twice" "both 'x'" --a true --label-a x --label-b x

# Ctrl-C and SIGKILL in the middle: the restore runs once (by kbench, then by the guard).
for sig in INT KILL; do
	: >"$L"
	"$KB" ab --only sys.null,proc.fork --rounds 50 --max-time 20 --tmpdir "$T/tmp" --no-store \
		--a "echo A >>$L" --b "echo B >>$L" --restore "echo R >>$L" --quiet \
		--label-a "ab_${sig}_$$" >/dev/null 2>&1 &
	p=$!
	# Both switches made: a round is under way, with a setting to restore.
	wait_for eval "grep -q A '$L' && grep -q B '$L'"
	kill -"$sig" "$p"
	wait "$p"
	rc=$?
	wait_for grep -q R "$L"
	wait_for eval "! pgrep -f '[a]b_${sig}_$$' >/dev/null"
	check "$sig: exit $(sig_exit "$sig")" [ "$rc" = "$(sig_exit "$sig")" ]
	check "$sig: the restore ran once, last" \
		sh -c "[ \$(grep -c R '$L') = 1 ] && tail -1 '$L' | grep -qx R"
	check "$sig: nothing left running" sh -c "! pgrep -f '[a]b_${sig}_$$' >/dev/null"
done

# --rounds 2 cannot be tested in pairs: a line under the comparison says why.
kb ab --only sys.null --rounds 2 $FAST --no-store --wrap-b "nice -n 1" --quiet
check "--rounds 2: a line says why no figure is compared in pairs" \
	sh -c "[ $rc = 0 ] && grep -q 'not compared in pairs: a paired test needs 3 rounds or more, and --rounds 2 gives 2' '$T/out'"

# What a switch leaves running is killed when it ends; what the restore
# leaves running is left running (putting the machine back may mean
# starting a daemon).
SW="leep 3208.$$" RS="leep 3209.$$"
kb ab --only sys.null --rounds 2 $FAST --no-store --quiet --a "s$SW >/dev/null 2>&1 &" \
	--restore "s$RS >/dev/null 2>&1 &"
# ([s]leep: the pattern must not match the check's own shell.)
check "a switch's daemon: killed once the switch ended" sh -c "[ $rc = 0 ] && ! pgrep -f '[s]$SW' >/dev/null"
check "the restore's daemon: still running after kbench ended" eval "pgrep -f '[s]$RS' >/dev/null"
pkill -f "[s]$RS"

S="$T/state" M="$T/restoring"
# Ctrl-Z while a switch runs: kbench and the switch stop; once continued,
# the switch runs again from its start and the session goes on.
: >"$L"
rm -f "$M"
"$KB" ab --only sys.null --rounds 2 $FAST --no-store --quiet --a "echo A >>$L; echo >$M; sleep 1" \
	--b "echo B >>$L" >"$T/out" 2>"$T/err" &
p=$!
wait_for test -e "$M"
kill -TSTP "$p"
wait_for grep -q '^State:.*T' "/proc/$p/status"
kill -CONT "$p"
wait "$p"
rc=$?
check "Ctrl-Z during a switch, then fg: the session goes on (exit 0)" [ "$rc" = 0 ]
check "Ctrl-Z during a switch: it ran again once continued" [ "$(grep -c A "$L")" -ge 2 ]

# The restore against the terminal: Ctrl-C twice (SIGINT to kbench's whole
# process group, as a terminal sends it), the second while the restore
# runs.  It runs on to its end in a session of its own, and says nothing
# failed.  S is the setting, M says the restore has begun.
rm -f "$S" "$M"
setsid "$KB" ab --only sys.null,sys.stat --rounds 50 --max-time 20 --tmpdir "$T/tmp" --no-store \
	--a "echo A >$S" --b "echo B >$S" --restore "echo >$M; sleep 1; echo ORIG >$S" --quiet \
	>"$T/out" 2>"$T/err" &
p=$!
wait_for eval "grep -q '[AB]' '$S' 2>/dev/null"
kill -INT -"$p"
wait_for test -e "$M"
kill -INT -"$p"
wait "$p"
rc=$?
check "Ctrl-C twice, the second during the restore: exit 130" [ "$rc" = 130 ]
check "Ctrl-C twice: the restore ran to its end, the setting is back" grep -qx ORIG "$S"
check "Ctrl-C twice: nothing said to have failed" sh -c "! grep -q failed '$T/err'"

# A switch that removes the private directory, log and all: the restore
# still runs, and one line says its output went nowhere.
rm -f "$S"
kb ab --only sys.null --rounds 2 $FAST --no-store --a "rm -rf \"\$(dirname \"\$TMPDIR\")\"; echo A >$S" \
	--b "echo B >$S" --restore "echo ORIG >$S"
check "the private directory removed: the restore runs all the same" grep -qx ORIG "$S"
check "the private directory removed: a line says its output was not kept" \
	grep -q "warning: --restore's output was not kept: cannot open '.*switch.log': no such file" "$T/err"

# A restore that hangs is killed at --timeout, then run again by the guard
# and killed again: one line says both, and nothing of it is left running.
HANG="sleep 3206.$$"
rm -f "$S"
kb ab --only sys.null --rounds 2 $FAST --no-store --a "echo A >$S" --restore "echo R >>$S; $HANG" \
	--timeout 1
check "a hanging restore: exit 1 and one line, its limit and the guard's try" \
	sh -c "[ $rc = 1 ] && grep -q \"ab: --restore 'echo R.*' failed: ran past its limit of 1 s and was killed; the guard ran it again, and that failed too\" '$T/err'"
check "a hanging restore: run twice, by kbench and by the guard" [ "$(grep -c R "$S")" = 2 ]
check "a hanging restore: nothing of it left running" wait_for eval "! pgrep -f '$HANG' >/dev/null"
# After SIGKILL of kbench the guard's run of it has the same limit, and the
# guard says on kbench's stderr that it failed.
rm -f "$S"
"$KB" ab --only sys.null --rounds 50 --max-time 20 --tmpdir "$T/tmp" --no-store --a "echo A >$S" \
	--restore "echo R >>$S; $HANG" --timeout 1 --quiet >"$T/out" 2>"$T/err" &
p=$!
wait_for eval "grep -q A '$S' 2>/dev/null"
kill -KILL "$p"
wait "$p" 2>/dev/null
check "SIGKILL, a hanging restore: the guard kills it at the limit and says so" \
	wait_for grep -q "kbench: guard: kbench is gone and the command that puts the machine back failed: .*ran past its limit of 1 s and was killed" "$T/err"
check "SIGKILL, a hanging restore: nothing of it left running" wait_for eval "! pgrep -f '$HANG' >/dev/null"

# What a switch, the restore and the guard's restore start has every signal
# at its default and none blocked, whatever kbench and the guard ignore.
# Signals 1 to 31: the C library keeps 32 and 33 for itself and refuses to
# set them (an environment that ignores them, as make's may, passes that on).
sigs() { # FILE: no signal of 1 to 31 ignored (SigIgn) or blocked (SigBlk)
	[ "$(grep -c '^Sig\(Ign\|Blk\):' "$1" 2>/dev/null)" = 2 ] || return 1
	for v in $(sed -n 's/^Sig\(Ign\|Blk\):[[:space:]]*//p' "$1"); do
		[ $((0x$v & 0x7fffffff)) = 0 ] || return 1
	done
}
if [ -r /proc/self/status ]; then
	G="grep -E '^Sig(Ign|Blk)' /proc/self/status"
	kb ab --only sys.null --rounds 2 $FAST --no-store --a "$G >$T/sig-a" --restore "$G >$T/sig-r" --quiet
	check "a switch's command: no signal ignored or blocked" sigs "$T/sig-a"
	check "the restore's command: no signal ignored or blocked" sigs "$T/sig-r"
	rm -f "$S"
	"$KB" ab --only sys.null --rounds 50 --max-time 20 --tmpdir "$T/tmp" --no-store --a "echo A >$S" \
		--restore "$G >$T/sig-g" --quiet >/dev/null 2>&1 &
	p=$!
	wait_for eval "grep -q A '$S' 2>/dev/null"
	kill -KILL "$p"
	wait "$p" 2>/dev/null
	wait_for test -s "$T/sig-g"
	check "the guard's restore, after SIGKILL: no signal ignored or blocked" sigs "$T/sig-g"
else
	for t in switch restore guard; do skip "$t: signals of what it starts" "no /proc/self/status"; done
fi

echo "1..$n"
