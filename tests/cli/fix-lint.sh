#!/bin/sh
# The fix lint (issue 18): every command a finding prints must exist in
# the catalogue and fit the machine. tests/tools/fixlint checks one JSON
# document; this test first shows it fails on commands known to be bogus,
# then replays every CLI test that builds fixture trees with FX_LINT_DIR
# set (fixture.sh and explain-common.sh keep each doctor and explain
# document there: every tree and every explain message, new ones too) and
# lints each document, one TAP line per document.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

: "${FIXLINT:?FIXLINT must name tests/tools/fixlint (make check sets it)}"

lint() {	# NAME FILE: fixlint's verdict on a document
	"$FIXLINT" --matrix "$FX_MATRIX" --name "$1" "$2"
}

fx_new
doc() {	# FIX-LINE [EVIDENCE]: a one-finding document in $FX/doc.json
	jq -n --arg l "$1" --arg e "${2:-}" '{findings: [{code: "TEST",
	    evidence: [$e], fix: ["# a comment is never checked", $l]}],
	    facts: {python_envs: [{packages: [{name: "torch", version: "2.5.1"}]}],
	    driver: {module_version: "550.54.14"}}}' > "$FX/doc.json"
}

# What the lint must reject: each was printed once (issue 18).
for bad in \
    "pip install 'nvidia-cudnn-cu12==7.*'" \
    "pip install 'nvidia-cudnn-cu12>=7.6.5,<8'" \
    "pip install nvidia-cuda-runtime-cu10" \
    "/opt/env/bin/python -m pip install 'nvidia-cudnn-cu12==7.*'" \
    "sudo apt-get install nvidia-driver-999" \
    "sudo apt-get install -y nvidia-driver-550" \
    "pip install torch==2.5.1" \
    "pip install torch --index-url https://download.pytorch.org/whl/cu999"; do
	doc "$bad"
	out=$(lint bogus "$FX/doc.json")
	rc=$?
	is "$rc" 1 "fixlint fails on: $bad"
	[ "$rc" = 1 ] || diag "fixlint said: $out"
done
doc "sudo ldconfig" "/usr/lib/x86_64-linux-gnu/libcuda.so is missing: the development link"
lint bogus "$FX/doc.json" > /dev/null
is "$?" 1 "fixlint fails on ldconfig for a non-soname alone"
doc "sudo ldconfig" "libcudart.so.12 is in /usr/local/cuda/lib64, newer than the cache"
lint good "$FX/doc.json" > /dev/null
is "$?" 0 "fixlint passes ldconfig for a soname"
jq '.findings[0].fix[0] = "# the cache already lists libcudart.so.12 as /usr/local/cuda/lib64/libcudart.so.12 and is newer than it: running ldconfig changes nothing"' \
    "$FX/doc.json" > "$FX/doc2.json"
lint bogus "$FX/doc2.json" > /dev/null
is "$?" 1 "fixlint fails on ldconfig in a fix that says it changes nothing"
doc "pip uninstall -y torch && pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121"
out=$(lint good "$FX/doc.json")
is "$?" 0 "fixlint passes a reinstall of the installed version after removing it"
[ -z "$out" ] || diag "$out"
doc "echo 'pip install nvidia-cudnn-cu12==7.5' ; ls"
out=$(lint good "$FX/doc.json")
is "$?" 0 "quoted words are one word, not a command"

# The documents of every CLI test that builds fixture trees: those this
# suite run left in FX_LINT_DIR (make check sets it; each test's TEST/.done
# newer than cudawiz and the test), else the test is replayed here, its own
# verdicts discarded (run alone, this replays them all, FIXLINT_JOBS at a
# time).
docs=${FX_LINT_DIR:-$FX/docs}
mkdir -p "$docs" "$FX/replay"
self=$(basename "$0" .sh)
: > "$FX/todo"
: > "$FX/names"
ntests=0
for t in "$TESTS_SRCDIR"/cli/*.sh; do
	n=$(basename "$t" .sh)
	case $n in
	"$self" | *-common) continue ;;
	esac
	grep -q 'lib/fixture.sh' "$t" || continue
	# The packages gate's tests (tests/packages.mk: make windows, Wine,
	# a Debian root …) are not the suite's and would be replayed in
	# every gate; their Linux reports come from fixture.sh's trees,
	# which the suite's own tests lint.
	grep -qx "PACKAGE_TESTS += tests/cli/$n.sh" "$TESTS_SRCDIR/packages.mk" &&
	    continue
	ntests=$((ntests + 1))
	printf '%s\n' "$n" >> "$FX/names"
	if [ -f "$docs/$n/.done" ] && [ "$docs/$n/.done" -nt "$CUDAWIZ" ] &&
	    [ "$docs/$n/.done" -nt "$t" ]; then
		continue
	fi
	printf '%s\n' "$t" >> "$FX/todo"
done
nreplay=$(wc -l < "$FX/todo")
diag "$ntests fixture tests; $nreplay replayed here"
# shellcheck disable=SC2016
FX_LINT_DIR=$FX/replay FX_MATRIX=$FX_MATRIX xargs -P "${FIXLINT_JOBS:-2}" -I{} \
    sh -c 'sh "$1" > /dev/null 2>&1 < /dev/null; :' sh {} < "$FX/todo"
ls "$FX/replay" > "$FX/replayed"
# The documents to lint, numbered: "I PATH NAME" a line.
: > "$FX/lintlist"
i=0
for d in "$docs"/*/*.json "$FX/replay"/*/*.json; do
	[ -f "$d" ] || continue
	n=$(basename "$(dirname "$d")")
	# Only the tests there are now (a removed test's documents stay behind).
	grep -qx "$n" "$FX/names" || continue
	# A test replayed here: its fresh documents, not the stale ones.
	case $d in
	"$docs"/*) grep -qx "$n" "$FX/replayed" && continue ;;
	esac
	i=$((i + 1))
	printf '%s %s %s\n' "$i" "$d" "$n/$(basename "$d" .json)" >> "$FX/lintlist"
done
# Linted FIXLINT_JOBS at a time (this test runs last and alone, so one
# worker left a core idle: 64 s of a plain -j2 run's wall time), each
# verdict in VERDICTS/I.rc and .out, then reported in order.
verdicts=$FX/verdicts
mkdir -p "$verdicts"
# shellcheck disable=SC2016
FIXLINT=$FIXLINT FX_MATRIX=$FX_MATRIX xargs -n 3 -P "${FIXLINT_JOBS:-2}" \
    sh -c 'jq -e ".findings" "$2" > /dev/null 2>&1 || {
		echo none > "$0/$1.rc"; exit 0; }
	"$FIXLINT" --matrix "$FX_MATRIX" --name "$3" "$2" > "$0/$1.out" 2>&1
	echo $? > "$0/$1.rc"' "$verdicts" < "$FX/lintlist"
ndocs=0
while read -r i d name; do
	rc=$(cat "$verdicts/$i.rc" 2>/dev/null) || rc="no verdict"
	[ "$rc" = none ] && continue	# no findings: nothing to lint
	ndocs=$((ndocs + 1))
	if [ "$rc" = 0 ]; then
		tap_result 0 "$name: every fix command is published and fits"
	else
		tap_result 1 "$name: every fix command is published and fits"
		diag "$d: fixlint: $rc"
		head -n 20 "$verdicts/$i.out" 2>/dev/null | sed 's/^/#   /'
	fi
done < "$FX/lintlist"
ok "the replay left documents to lint ($ndocs)" test "$ndocs" -gt 50
done_testing
