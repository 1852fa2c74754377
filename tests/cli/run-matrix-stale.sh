#!/bin/sh
# MATRIX_STALE is decided the same way by every command on the same
# machine: the matrix's date against its refresh window, unless the
# cache's sidecar says the network was asked within that window. doctor
# read the sidecar; verify, explain and env --check passed "never".
# Those commands do not list MATRIX_STALE, so what is pinned here is the
# shared decision where it shows (doctor, the report's .matrix.stale) and
# that the others run on the same stale matrix without a difference in
# what they do report.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

W=$(mktemp -d "$FX_TMP/cudawiz-runstale.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $W"
mkdir -p "$W/cache/cudawiz" || exit 99
jq '.date = "2020-01-01"' "$TESTS_SRCDIR/../data/matrix.json" > "$W/old.json"
printf 'export CUDAWIZ_RUN_STALE=1\n' > "$W/act.sh"

json_ok() { jq -e . "$1" > /dev/null 2>&1; }

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

fx_cmd_env "explain --json" XDG_CACHE_HOME=$W/cache -- \
    "CUDA driver version is insufficient for CUDA runtime version"
is "$(jq -r '[.findings[].code] | index("MATRIX_STALE")' "$FX_OUT")" null \
    "explain: no MATRIX_STALE either"
fx_cmd_env "verify --json" XDG_CACHE_HOME=$W/cache
is "$(jq -r '[.findings[].code] | index("MATRIX_STALE")' "$FX_OUT")" null \
    "verify: no MATRIX_STALE either"
fx_cmd_env "env --json --check $W/act.sh --shell sh" XDG_CACHE_HOME=$W/cache \
    PATH=/usr/bin:/bin
ok "env --check ran" json_ok "$FX_OUT"
is "$(jq -r '[.. | strings | select(. == "MATRIX_STALE")] | length' "$FX_OUT")" 0 \
    "env --check: no MATRIX_STALE either"

done_testing
