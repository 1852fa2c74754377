#!/bin/sh
# The fleet commands on the command line (issue 22): spec's subcommand,
# fleet's words, and the options that belong to doctor, spec and fleet
# only, refused elsewhere with the sentence that names their commands.
. "$TESTS_SRCDIR/lib/tap.sh"

work=$(mktemp -d "$FX_TMP/fleet-cli.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

run() {	# ARG...: status, then stderr, in $work
	"$CUDAWIZ" "$@" > "$work/out" 2> "$work/err"
	echo $? > "$work/rc"
}

run spec
is "$(cat "$work/rc")" 2 "spec with no subcommand: usage (2)"
like "$(cat "$work/err")" "spec needs a subcommand: export" "... saying which"
run spec export extra
is "$(cat "$work/rc")" 2 "spec export takes no more words"
run spec import
is "$(cat "$work/rc")" 2 "an unknown subcommand of spec"
like "$(cat "$work/err")" "unknown subcommand 'import'" "... named"
run fleet
is "$(cat "$work/rc")" 2 "fleet with no report: usage (2)"
like "$(cat "$work/err")" "usage: cudawiz fleet REPORT.json" "... its usage line"

run why --baseline x.json libcudart.so.12
is "$(cat "$work/rc")" 2 "--baseline is not an option of why"
like "$(cat "$work/err")" "--baseline is an option of 'doctor' and 'fleet'" "... said so"
run doctor --max-age 3
is "$(cat "$work/rc")" 2 "--max-age is fleet's alone"
like "$(cat "$work/err")" "--max-age is an option of 'fleet'" "... said so"
run verify -o "$work/x"
is "$(cat "$work/rc")" 2 "-o is not an option of verify"
like "$(cat "$work/err")" "-o/--output is an option of 'env', 'doctor', 'spec export' and 'fleet'" \
    "... the sentence names the four"
run fleet --max-age 0 "$work"
is "$(cat "$work/rc")" 2 "--max-age 0 is refused"
like "$(cat "$work/err")" "not a number of hours" "... as not a number of hours"
run fleet --max-age 1e9 "$work"
is "$(cat "$work/rc")" 2 "--max-age past a year is refused"
run why --format prometheus libcudart.so.12
is "$(cat "$work/rc")" 2 "--format prometheus is doctor's alone"
like "$(cat "$work/err")" "--format prometheus is for 'doctor'" "... said so"
run doctor --format yaml
like "$(cat "$work/err")" "not one of text, json, html, prometheus" \
    "an unknown format: the list names prometheus"
run spec export --format html
is "$(cat "$work/rc")" 2 "spec has no HTML page"

done_testing
