#!/bin/sh
# The command line: help, version, usage errors, JSON shape, --root.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

out=$("$CUDAWIZ" --help); rc=$?
is "$rc" 0 "--help exits 0"
like "$out" '^Usage: cudawiz' "--help prints usage"
like "$out" 'doctor' "--help lists doctor"
out=$("$CUDAWIZ" --version)
like "$out" '^cudawiz [0-9]+\.[0-9]+' "--version prints the version"
"$CUDAWIZ" --bogus >/dev/null 2>&1; rc=$?
is "$rc" 2 "an unknown option exits 2"
"$CUDAWIZ" frobnicate >/dev/null 2>&1; rc=$?
is "$rc" 2 "an unknown command exits 2"
err=$("$CUDAWIZ" doctor --root /nonexistent/dir 2>&1 >/dev/null); rc=$?
is "$rc" 2 "a missing --root exits 2"
like "$err" '/nonexistent/dir' "the error names the missing root"

fx_new
fx_doctor
ok "doctor --json on an empty tree is valid JSON" jq -e . "$FX_OUT"
is "$(fx_jq .schema)" "cudawiz/doctor/1" "schema name"
is "$(fx_jq .root)" "$(cd "$FX" && pwd -P)" "root is the fixture"
is "$(fx_jq .live_checks)" "false" "no live checks under --root"
is "$(fx_jq '.facts | keys | join(",")')" \
    "cudnn,driver,env,gpus,gpus_probe,kernel_log,libraries,notes,notes_dropped,python_envs,toolkits,verify" \
    "facts has every section of the contract"
is "$(fx_jq .facts.notes_dropped)" 0 "no note dropped on an empty tree"
is "$(fx_jq '[.findings[] | has("code","severity","title","subject","detail","evidence","fix")] | all')" \
    "true" "every finding has the contract's fields"

# Options after the command word, and CUDAWIZ_ROOT instead of --root.
out=$(env -i CUDAWIZ_ROOT="$FX" "$CUDAWIZ" doctor --json | jq -r .root)
is "$out" "$(cd "$FX" && pwd -P)" "CUDAWIZ_ROOT is honoured"
out=$(env -i "$CUDAWIZ" --json --root "$FX" doctor | jq -r .schema)
is "$out" "cudawiz/doctor/1" "options before the command word"

# Text: no colour off a terminal, with --no-color or NO_COLOR.
out=$(env -i "$CUDAWIZ" doctor --root "$FX")
unlike "$out" "$(printf '\033')" "no escape sequences when stdout is not a terminal"
out=$(env -i NO_COLOR=1 "$CUDAWIZ" doctor --root "$FX" --color)
like "$out" "$(printf '\033')" "--color overrides NO_COLOR"
out=$(env -i "$CUDAWIZ" --root "$FX")
like "$out" 'Summary: ' "with no command and no terminal, the doctor report"
# Paths are never broken, so lines holding the (long) fixture path are
# left out of the width check.
long=$(env -i "$CUDAWIZ" doctor --root "$FX" | grep -vF "$FX" | awk 'length($0) > 80' | head -n 3)
is "$long" "" "the text report fits 80 columns on an empty tree"

done_testing
