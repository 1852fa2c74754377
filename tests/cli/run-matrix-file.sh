#!/bin/sh
# The matrix a run chooses reaches the framework probe: a PyTorch release
# only a --matrix FILE (or a refreshed cache) knows is recognised by the
# probe from that data, not from the built-in matrix, so the probe and
# diagnose read the same rows.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

W=$(mktemp -d "$FX_TMP/cudawiz-runmatrix.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $W"

# A torch release no built-in data names, with a cuDNN only FILE gives.
jq '.frameworks += [{ "name": "pytorch", "status": "confirmed",
    "versions": { "min": "97.1", "max": "97.1" }, "packages": ["torch"],
    "builds": [{ "variant": "cu124", "cuda": "12.4", "cudnn": "9.97.1.1",
	"sonames": ["libcudart.so.12"], "loads": "needed",
	"bundles_cuda": "no", "ccs": [], "default": true }] }]' \
    "$FX_MATRIX" > "$W/matrix.json" || skip_all "cannot write the matrix"
ok "the built-in data does not know torch 97.1" \
    test "$(jq '[.frameworks[] | select(.name == "pytorch" and .versions.min == "97.1")] | length' \
	"$TESTS_SRCDIR/../data/matrix.json")" = 0

fx_new
E=/home/u/venvs/torch
fx_venv_env $E 3.11
fx_torch "$FX_SITE" 97.1.0+cu124 12.4

FX_MATRIX=$W/matrix.json fx_doctor_env VIRTUAL_ENV=$E
is "$FX_RC" 0 "doctor --matrix FILE ran"
is "$(fw_jq $E pytorch .cudnn)" 9.97.1.1 \
    "--matrix FILE: the probe takes torch 97.1's cuDNN from FILE's row"
like "$(fw_jq $E pytorch .cudnn_source)" '^the matrix: pytorch ' \
    "... and says it comes from the matrix"

# The same row from a refreshed cache (no --matrix): newer than the
# built-in data, so the run chooses it.
mkdir -p "$W/cache/cudawiz" || exit 99
jq '.date = "2999-01-01"' "$W/matrix.json" > "$W/cache/cudawiz/matrix.json"
FX_MATRIX= fx_doctor_env VIRTUAL_ENV=$E XDG_CACHE_HOME=$W/cache
is "$(fx_jq .matrix.source)" cache "the cache's matrix is chosen"
is "$(fw_jq $E pytorch .cudnn)" 9.97.1.1 \
    "a refreshed cache: the probe takes the row from it too"

done_testing
