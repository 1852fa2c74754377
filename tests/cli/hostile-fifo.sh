#!/bin/sh
# A hostile tree: FIFOs (named pipes no one writes to) where cudawiz reads
# files: a toolkit's version.json, version.txt and header, a library, the
# python interpreter, pyvenv.cfg, METADATA, a conda record, conda's list
# of environments, torch/version.py, /proc and /sys files, ld.so.conf and
# ld.so.cache; and outside the tree, the matrix cache and its validators,
# --matrix FILE and env --check FILE. Opening one for reading waits for a
# writer; reading one waits for data. Each run must finish at once, and each FIFO must be
# named as not a regular file.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

command -v mkfifo >/dev/null 2>&1 ||
    skip_all "mkfifo (Debian package: coreutils) is missing"
# A hang is what this test looks for: do not wait a minute for each;
# under valgrind, whose runs take many times longer, the gate's limit.
[ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ] || HOSTILE_TIMEOUT=20

hostile_baseline

fx_new
fifo() {
	mkdir -p "$(dirname "$FX$1")"
	rm -f "$FX$1"
	mkfifo "$FX$1" || skip_all "cannot make a FIFO in $FX_TMP"
}
fx_healthy_gpu
fx_toolkit 12.4.1
TK=/usr/local/cuda-12.4
fifo $TK/version.json
fifo $TK/version.txt
fifo $TK/include/cuda_runtime_api.h
fifo $TK/targets/x86_64-linux/lib/libcublas.so.12
fifo /proc/driver/nvidia/version
fifo /sys/module/nvidia/version
fifo /proc/sys/kernel/osrelease
fifo /etc/ld.so.conf
fifo /etc/ld.so.cache
fifo /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1
V=/home/u/venvs/v
fx_venv_env $V 3.11
fifo $V/pyvenv.cfg
fx_torch $FX_SITE 2.4.0 12.4 libcudart.so.12 libcublas.so.12
fifo $FX_SITE/torch/version.py
fx_dist_info $FX_SITE nvidia-cublas-cu12 12.4.5.8
fifo $FX_SITE/nvidia_cublas_cu12-12.4.5.8.dist-info/METADATA
C=/opt/conda
fx_condaenv $C 3.10
fx_conda_meta $C cudatoolkit 11.8.0 h6a678d5_0
fifo $C/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json
fifo $C/bin/python3.10
fifo /home/u/.conda/environments.txt

set -- HOME=/home/u VIRTUAL_ENV=$V CUDA_HOME=$TK \
    LD_LIBRARY_PATH=$TK/lib64:/usr/lib/x86_64-linux-gnu PATH=$V/bin:$TK/bin

hostile_run "doctor --json" "doctor --json" "$@"
like "$(hostile_note $TK/version.json)" 'not a regular file' "version.json is noted"
like "$(fx_jq '.facts.driver.unreadable.module_version')" 'not a regular file' \
    "/proc/driver/nvidia/version is unreadable, with why"
like "$(fx_jq '.facts.driver.unreadable.sys_module_version')" 'not a regular file' \
    "/sys/module/nvidia/version is unreadable, with why"
like "$(fx_jq '.facts.driver.unreadable.kernel_release // .facts.driver.unknown.kernel_release')" \
    'not a regular file' "/proc/sys/kernel/osrelease is unreadable, with why"
like "$(fx_jq '.facts.env.unreadable.ld_so_conf_read')" 'not a regular file' \
    "ld.so.conf is unreadable, with why"
like "$(hostile_note $V/pyvenv.cfg)" 'not a regular file' "pyvenv.cfg is noted"
like "$(fx_py_env $V '.packages[] | select(.name == "nvidia_cublas_cu12") | .metadata_error')" \
    'METADATA: not a regular file' "METADATA is a metadata_error"
like "$(fx_py_env $C '.packages[] | select(.name == "cudatoolkit") | .metadata_error')" \
    'not a regular file' "the conda record is a metadata_error"
like "$(hostile_note /home/u/.conda/environments.txt)" 'not a regular file' \
    "environments.txt is noted"
is "$(fx_py_env $V '.frameworks[0].name')" pytorch "torch is still reported"
like "$(fx_jq '.findings[] | select(.code == "SONAME_NOT_FOUND") | .evidence[]')" \
    'libcublas\.so\.12 cannot be loaded: .*not a regular file' \
    "torch's libcublas.so.12, a FIFO, cannot be loaded, and the finding says why"
like "$(fx_jq '.findings[] | select(.code == "BROKEN_LIBRARY") | .evidence[]')" \
    'libnvidia-ml\.so\.1 .*not a regular file; the search stops here' \
    "libnvidia-ml.so.1, a FIFO, is a broken library"

hostile_run "doctor (text)" doctor "$@"

hostile_run "why libnvidia-ml.so.1" "why libnvidia-ml.so.1" "$@"
like "$(cat "$FX_OUT")" '^ld\.so\.cache: .*not a regular file' "the ld.so.cache FIFO is named"
like "$(cat "$FX_OUT")" 'libnvidia-ml\.so\.1 stops the loader: .*not a regular file' \
    "the FIFO library stops the loader, as in glibc"

# A requester that cannot be read is the tool failing: exit 2.
HOSTILE_EXIT=2
hostile_run "why --from a FIFO" "why --json libcudart.so.12" "$@" -- --from $C/bin/python3.10
HOSTILE_EXIT=
is "$(fx_jq '.error')" "$C/bin/python3.10: not a regular file" "a FIFO as the requester is named"

hostile_run "env --shell sh" "env --shell sh" "$@"
ok "the script is valid sh" sh -n "$FX_OUT"

# Issue 16: the files cudawiz reads from outside the tree — the matrix
# cache and its validators, --matrix FILE, env --check FILE. Opening one
# of these FIFOs used to wait for a writer for ever.
fx_new
mkdir -p "$FX/cache/cudawiz"
mkfifo "$FX/cache/cudawiz/matrix.json" "$FX/matrix.fifo" "$FX/script.fifo" ||
    skip_all "cannot make a FIFO in $FX_TMP"
fifo_matrix=$FX_MATRIX
FX_MATRIX=
hostile_run "doctor, the cached matrix a FIFO" "doctor --json" XDG_CACHE_HOME="$FX/cache"
like "$(hostile_note "compatibility matrix cache")" \
    "cudawiz/matrix\.json: is a FIFO, not a regular file" \
    "the cached FIFO is ignored, with a note saying what it is"
is "$(fx_jq .matrix.source)" embedded "... and the built-in matrix is used"

rm -f "$FX/cache/cudawiz/matrix.json"
jq --arg d "$(date -u +%Y-%m-%d)" '.date = $d' "$TESTS_SRCDIR/../data/matrix.json" \
    > "$FX/cache/cudawiz/matrix.json" || skip_all "cannot copy data/matrix.json"
mkfifo "$FX/cache/cudawiz/matrix.json.etag" || skip_all "cannot make a FIFO in $FX_TMP"
hostile_run "matrix show, the validators file a FIFO" "matrix show --json" \
    XDG_CACHE_HOME="$FX/cache"
is "$(fx_jq .source)" cache "the cached matrix beside it is still used"

# A file named on the command line that cannot be read: exit 2.
HOSTILE_EXIT=2
FX_MATRIX=$FX/matrix.fifo
hostile_run "doctor --matrix FIFO" doctor
like "$(cat "$FX.stderr")" "matrix\.fifo: is a FIFO, not a regular file" \
    "the FIFO given as --matrix is named, and what it is"
FX_MATRIX=
hostile_run "env --check FIFO" env -- --check "$FX/script.fifo"
like "$(cat "$FX.stderr")" "script\.fifo: is a FIFO, not a regular file" \
    "the FIFO given to env --check is named, and what it is"
hostile_run "env --check FIFO --shell sh" env -- --check "$FX/script.fifo" --shell sh
like "$(cat "$FX.stderr")" "script\.fifo: is a FIFO, not a regular file" \
    "... refused before the shell would source it"

# env --install-rc with the rc file a FIFO: refused, naming it, and
# nothing read from it (the rc file's reader opens only regular files).
mkdir -p "$FX/home" "$FX/w" || exit 99
mkfifo "$FX/home/.bashrc" || skip_all "cannot make a FIFO in $FX_TMP"
hostile_run "env --install-rc, the rc file a FIFO" "env --shell sh" \
    HOME="$FX/home" SHELL=/bin/bash -- -o "$FX/w/env.sh" --install-rc
like "$(cat "$FX.stderr")" "home/\.bashrc: .*not a regular file" \
    "the FIFO rc file is named, and what it is"
ok "... it is still a FIFO" test -p "$FX/home/.bashrc"
HOSTILE_EXIT=
FX_MATRIX=$fifo_matrix

done_testing
