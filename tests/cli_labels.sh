#!/bin/sh
# Labels as a hostile user gives them (issue 13, defect 6, and item 9's
# summary --json of several hosts).  On the command line a label with a
# control character (newline, ESC, BEL, tab, DEL, C1, a bidirectional
# control), one that is not UTF-8, one that reads as a selector (digits: a
# run id; "set:" and digits: a set), an empty or a too long one is refused
# with exit 2 and one line saying why, by run, contest, import --label and
# runs rename, before any database is made.  Labels that arrive in someone
# else's export are printed escaped by summary, runs, compare and show
# (\n, \x1b, \u202e), so no row splits and no escape sequence reaches the
# terminal; UTF-8 labels line up by the columns they take on the screen.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/l.db"
FIX="$(dirname "$0")/fixtures/kernels.json"
FAST="--only sys.null --max-time 0.05 --tmpdir $T/tmp --quiet"

# FILE holds no control character but its newlines, no raw C1 control
# (U+0080-U+009F) and no bidirectional override: what a terminal would obey
clean() {
	! LC_ALL=C tr -d '\n' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]' &&
	! LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1" &&
	! LC_ALL=C grep -q "$(printf '\342\200[\252-\256]')" "$1"
}
# the last kb exited 2 with its reason (PATTERN) on its one line, nothing
# raw on stderr and no database made
refused() {
	[ "$rc" = 2 ] && grep -q -- "$1" "$T/err" && [ "$(lines "$T/err")" = 1 ] &&
	clean "$T/err" && [ ! -e "$DB" ]
}

# --- refused on the command line --------------------------------------------
NL=$(printf 'a\nb')
ESC=$(printf '\033[31mred')
BEL=$(printf 'bell\007')
TAB=$(printf 'tab\there')
DEL=$(printf 'del\177')
C1=$(printf 'csi\302\2332J')
RLO=$(printf 'rtl\342\200\256lmth.exe')
FF=$(printf 'bad\377')
LATIN1=$(printf 'noyau-\351')
OVERLONG=$(printf 'slash\300\257')
LONG=$(printf '%0128d' 0 | tr 0 a)
WIDE=$(printf '%043d' 0 | sed 's/0/カ/g')	# 43 characters, 129 bytes
nbad=0
for case in "NL:control character (\\\\n)" "ESC:control character (\\\\x1b)" \
	"BEL:control character (\\\\x07)" "TAB:control character (\\\\t)" \
	"DEL:control character (\\\\x7f)" "C1:control character (\\\\u009b)" \
	"RLO:control character (\\\\u202e)" "FF:is not UTF-8 (byte 4)" \
	"LATIN1:is not UTF-8 (byte 7)" "OVERLONG:is not UTF-8 (byte 6)" \
	"LONG:must be 1 to 127 bytes long (128 given)" \
	"WIDE:must be 1 to 127 bytes long (129 given)"; do
	var=${case%%:*}
	want=${case#*:}
	eval "label=\$$var"
	kb run $FAST --db "$DB" --label "$label"
	check "run --label $var is refused: $want" refused "run: --label .*$want"
	nbad=$((nbad + 1))
done
for case in "123:would be read as run 123 where runs are selected" \
	"007:would be read as run 007" "set:1:would be read as set 1 where runs are selected" \
	"set:0042:would be read as set 0042" ":must be 1 to 127 bytes long (0 given)"; do
	label=${case%:*}
	want=${case##*:}
	kb run $FAST --db "$DB" --label "$label"
	check "run --label '$label' is refused: $want" refused "run: --label .*$want"
	nbad=$((nbad + 1))
done
# Labels that show nothing: a blank, U+200B, U+FEFF, a combining mark alone.
for case in "SP: :U+0020" "ZWSP:$(printf '\342\200\213'):U+200B" "BOM:$(printf '\357\273\277'):U+FEFF" \
	"MARK:$(printf '\314\201'):U+0301" "BLANKS:$(printf ' \342\200\213 '):U+0020 U+200B U+0020"; do
	var=${case%%:*}
	rest=${case#*:}
	label=${rest%:*}
	want=${rest##*:}
	kb run $FAST --db "$DB" --label "$label"
	check "run --label $var is refused: it shows nothing ($want)" refused "run: --label shows nothing ($want)"
	nbad=$((nbad + 1))
done
kb run $FAST --db "$T/visible.db" --label "$(printf 'e\314\201t\342\200\213e')"
check "a label with a combining mark and a zero-width space among letters is taken" [ "$rc" = 0 ]
kb run $FAST --db "$DB" --label "$ESC"
check "the refusal shows the label escaped" grep -q "run: --label '\\\\x1b\[31mred' holds" "$T/err"
kb contest --workload true --loads noload --db "$DB" --label "$NL"
check "contest --label with a newline is refused" refused "contest: --label 'a\\\\nb' holds a control"
kb contest --workload true --loads noload --db "$DB" --label 12
check "contest --label 12 is refused" refused "contest: --label '12' would be read as run 12"
kb import "$FIX" --db "$DB" --label "$BEL"
check "import --label with a bell is refused" refused "import: --label 'bell\\\\x07' holds a control"
kb import "$FIX" --db "$DB" --label set:3
check "import --label set:3 is refused" refused "import: --label 'set:3' would be read as set 3"
kb runs rename 2.5.47 "$RLO" --db "$DB"
check "runs rename to a bidi override is refused" refused "runs: the new label 'rtl\\\\u202elmth.exe' holds"
kb runs rename 2.5.47 99 --db "$DB"
check "runs rename to digits is refused" refused "runs: the new label '99' would be read as run 99"
# "x" and "x  " would print as one row name.
for label in 'x  ' ' x'; do
	kb run $FAST --db "$DB" --label "$label"
	check "run --label '$label' is refused: a blank at an end" refused "run: --label '$label' starts or ends with a blank"
	nbad=$((nbad + 1))
done
nbad=$((nbad + 6))
echo "# $nbad bad labels refused on the command line"

# --- accepted: UTF-8, and what only looks like a selector -----------------------
for label in 'noyau-é' 'カーネル' 'set:x' 'v123' 'a\nb' '12a'; do
	kb run $FAST --db "$DB" --label "$label"
	# (named by its length: echo would read a backslash in it)
	check "run --label of ${#label} bytes, UTF-8 or selector-like, is accepted" [ "$rc" = 0 ]
done
# the part of each line of FILE before its started time takes COLS columns
lead_cols() {
	while IFS= read -r l; do
		[ "$(printf '%s\n' "${l%%20[0-9][0-9]-*}" | LC_ALL=C.UTF-8 wc -L)" = "$2" ] || return 1
	done <"$1"
}
kb runs --db "$DB"
sed -n '2,7p' "$T/out" >"$T/rows"
check "runs lines up UTF-8 labels by their columns" lead_cols "$T/rows" 23
kb summary 'a\nb' --db "$DB"
check "a typed backslash selects its label and prints as it is" grep -q ' a\\nb ' "$T/out"

# --- from someone else's export: escaped, aligned --------------------------------
# The fixture's three kernels renamed: a wide label, an accented one, and
# one with an escape sequence, a newline, a bell, a C1 CSI and an RLO; the
# host with a CSI to clear the screen.
sed -e 's/"label": "2\.5\.47"/"label": "カーネル"/' \
	-e 's/"label": "2\.5\.47-mm1"/"label": "noyau-é"/' \
	-e 's/"label": "2\.5\.48"/"label": "evil\\u001b[31m\\nrow\\u0007\\u009b2J\\u202e"/' \
	-e 's/"host": "testbox"/"host": "tb\\u001b[2J"/' "$FIX" >"$T/hostile.json"
EVIL=$(printf 'evil\033[31m\nrow\007\302\2332J\342\200\256')
HDB="$T/h.db"
kb import "$T/hostile.json" --db "$HDB"
check "an export with hostile labels imports" sh -c "[ $rc = 0 ] && grep -q 'imported 7 runs' '$T/err'"
# every line of FILE takes COLS columns on the screen
all_cols() {
	while IFS= read -r l; do
		[ "$(printf '%s\n' "$l" | LC_ALL=C.UTF-8 wc -L)" = "$2" ] || return 1
	done <"$1"
}
kb summary --db "$HDB"
check "summary of hostile labels exits 0" [ "$rc" = 0 ]
check "summary: nothing a terminal would obey" clean "$T/out"
# Its row in each of the seven lmbench tables and in Other results.
check "summary: the labels escaped and whole, each row one line" sh -c \
	"[ \$(grep -cF 'tb\\x1b[2J evil\\x1b[31m\\nrow\\x07\\u009b2J\\u202e ' '$T/out') = 8 ] && ! grep -q '^row' '$T/out'"
sed -n '/^Processor, Processes/,/^$/p' "$T/out" | sed -n '5,8p' >"$T/rows"
# lmbench's 78, and what the escaped label takes (35 columns) over its 13
check "summary: each row of a table as wide as its dashes" all_cols "$T/rows" $((78 + 35 - 13))
golden "summary of hostile labels is the golden text" labels_summary.txt
kb runs --db "$HDB"
check "runs of hostile labels: a line per run" sh -c "[ $rc = 0 ] && [ \$(wc -l <'$T/out') = 9 ]"
check "runs: nothing a terminal would obey" clean "$T/out"
sed -n '2,8p' "$T/out" >"$T/rows"
# 13 columns of run and set, the label's 35 (evil\x1b[31m\nrow\x07\u009b2J\u202e), 2 blanks
check "runs: the labels line up" lead_cols "$T/rows" 50
golden "runs of hostile labels is the golden text" labels_runs.txt
kb compare カーネル noyau-é "$EVIL" --db "$HDB"
check "compare by the hostile labels exits 0" [ "$rc" = 0 ]
check "compare: nothing a terminal would obey" clean "$T/out"
golden "compare of hostile labels is the golden text" labels_compare.txt
kb show sys.null "$EVIL" --db "$HDB"
check "show by the hostile label exits 0" [ "$rc" = 0 ]
check "show: the run's label and host escaped" grep -qF \
	"run 7 'evil\x1b[31m\nrow\x07\u009b2J\u202e' on tb\x1b[2J, started " "$T/out"
check "show: nothing a terminal would obey" clean "$T/out"
kb show sentinel 7 --db "$HDB"
check "show sentinel exits 0" [ "$rc" = 0 ]
check "show sentinel: nothing a terminal would obey" clean "$T/out"
kb export "$EVIL" --db "$HDB"
check "export of the hostile label is a valid export" sh -c "[ $rc = 0 ] && '$JC' export <'$T/out' >/dev/null"
check "export keeps the label as it is, escaped as JSON" grep -qF \
	'"label": "evil\u001B[31m\nrow\u0007' "$T/out"

# --- summary --json of two hosts: each run its own machine --------------------
"$KB" import "$FIX" --db "$T/k.db" >/dev/null 2>&1
kb export 2.5.48 --db "$T/k.db"
sed -e 's/"uuid": "[0-9a-f]*"/"uuid": "0123456789abcdef0123456789abcdef"/' \
	-e 's/"set": "[0-9a-f]*"/"set": "0123456789abcdef0123456789abcdef"/' \
	-e 's/"label": "2\.5\.48"/"label": "other"/' -e 's/testbox/otherbox/g' \
	-e 's/"cpu_model": "[^"]*"/"cpu_model": "Other CPU"/' "$T/out" >"$T/other.json"
"$KB" import "$T/other.json" --db "$T/k.db" >/dev/null 2>&1
kb summary 2.5.48 other --json --db "$T/k.db"
check "summary --json of two hosts exits 0" [ "$rc" = 0 ]
# A run's own keys are indented 6, its sysinfo's 8 (the document's own sysinfo 4).
check "summary --json: each run carries its own machine, not the first run's" sh -c \
	"[ \$(grep -c '^        \"host\": \"otherbox\"' '$T/out') = 1 ] &&
	 [ \$(grep -c '^        \"cpu_model\": \"Other CPU\"' '$T/out') = 1 ] &&
	 [ \$(grep -c '^        \"host\": \"testbox\"' '$T/out') = 1 ]"

echo "1..$n"
