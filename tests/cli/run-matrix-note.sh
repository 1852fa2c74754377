#!/bin/sh
# The matrix-cache note (why the cached matrix was not used) is said by
# every command that reads the matrix: doctor among its notes; explain,
# verify, env and env --check on stderr (their reports have no notes, or
# are a script).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

W=$(mktemp -d "$FX_TMP/cudawiz-runnote.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $W"
mkdir -p "$W/cache/cudawiz" || exit 99
echo 'not a matrix' > "$W/cache/cudawiz/matrix.json"
printf 'export CUDAWIZ_RUN_NOTE=1\n' > "$W/act.sh"
NOTE='ignoring the cached matrix'

fx_new
fx_healthy_gpu
FX_MATRIX=

fx_doctor_env XDG_CACHE_HOME=$W/cache
like "$(fx_jq '.facts.notes[] | select(.path == "compatibility matrix cache") | .problem')" \
    "^$NOTE" "doctor: the note among its notes"

fx_cmd_env "explain" XDG_CACHE_HOME=$W/cache -- \
    "libcudart.so.12: cannot open shared object file"
like "$(cat "$FX.stderr")" "cudawiz: compatibility matrix cache: $NOTE" \
    "explain: the note on stderr"

fx_cmd_env "verify" XDG_CACHE_HOME=$W/cache
like "$(cat "$FX.stderr")" "cudawiz: compatibility matrix cache: $NOTE" \
    "verify: the note on stderr"
unlike "$(cat "$FX_OUT")" "$NOTE" "... not in its report"

fx_cmd_env "env --shell sh" XDG_CACHE_HOME=$W/cache
like "$(cat "$FX.stderr")" "cudawiz: compatibility matrix cache: $NOTE" \
    "env: the note on stderr"
unlike "$(cat "$FX_OUT")" "$NOTE" "... not in the script"

fx_cmd_env "env --check $W/act.sh --shell sh" XDG_CACHE_HOME=$W/cache \
    PATH=/usr/bin:/bin
like "$(cat "$FX.stderr")" "cudawiz: compatibility matrix cache: $NOTE" \
    "env --check: the note on stderr"

# No note without a reason: a cache that is fine, or none.
fx_cmd_env "verify" XDG_CACHE_HOME=$W/none
unlike "$(cat "$FX.stderr")" "$NOTE" "no cache: no note"

done_testing
