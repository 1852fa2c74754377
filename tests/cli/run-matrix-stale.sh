#!/bin/sh
# MATRIX_STALE is decided the same way by every command on the same
# machine: the matrix's date against its refresh window, unless the
# cache's sidecar says the network was asked within that window. doctor
# read the sidecar; verify, explain and env --check passed "never".
# Those commands neither list MATRIX_STALE nor print the refresh time,
# so their side of the fix has no output to check (checks asserting its
# absence there passed before the fix too, and were dropped); what is
# pinned here is the shared decision where it shows: doctor's finding
# and the report's .matrix.stale, both read through src/run/.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

W=$(mktemp -d "$FX_TMP/cudawiz-runstale.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $W"
mkdir -p "$W/cache/cudawiz" || exit 99
jq '.date = "2020-01-01"' "$TESTS_SRCDIR/../data/matrix.json" > "$W/old.json"

fx_new
fx_healthy_gpu
FX_MATRIX=$W/old.json

# Never refreshed: stale.
fx_doctor_env XDG_CACHE_HOME=$W/cache
has_code MATRIX_STALE "never refreshed: MATRIX_STALE"
is "$(fx_jq .matrix.stale)" true "... the report's matrix is stale"

# Refreshed an hour ago: the data is as new as the network had it.
printf 'checked\t%s\n' "$(($(date +%s) - 3600))" \
    > "$W/cache/cudawiz/matrix.json.etag"
fx_doctor_env XDG_CACHE_HOME=$W/cache
lacks_code MATRIX_STALE "refreshed an hour ago: no MATRIX_STALE"
is "$(fx_jq .matrix.stale)" false "... the report's matrix is not stale"

done_testing
