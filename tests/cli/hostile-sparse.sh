#!/bin/sh
# A hostile tree: 1 GB sparse files (truncate -s 1G) where cudawiz reads:
# libcudart.so.11.0 of zeros in the system library directory, a real
# libcudart grown to 1 GB in a toolkit's lib64, a real libtorch_cuda.so
# and a METADATA grown the same way, and 1 GB of zeros as version.json, a
# header, a METADATA, a conda record, /proc/driver/nvidia/version and the
# ld.so.cache. Nothing may be read whole: the peak RSS must stay within
# 64 MB of an empty run, and each file that is too large or not what it
# claims is noted.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

command -v truncate >/dev/null 2>&1 ||
    skip_all "truncate (Debian package: coreutils) is missing"
HOSTILE_MARGIN_KB=65536

hostile_baseline

fx_new
# big PATH: PATH grows to 1 GB (a file already there keeps its start).
big() {
	mkdir -p "$(dirname "$FX$1")"
	truncate -s 1G "$FX$1" || skip_all "cannot make a 1 GB sparse file in $FX_TMP"
}
L=/usr/lib/x86_64-linux-gnu
fx_file /etc/ld.so.conf "$L"
big $L/libcudart.so.11.0
TK=/usr/local/cuda-11.8
T=$TK/targets/x86_64-linux/lib
fx_so $T/libcudart.so.11.8.89 libcudart.so.11.0
big $T/libcudart.so.11.8.89
fx_link libcudart.so.11.8.89 $T/libcudart.so.11.0
fx_link targets/x86_64-linux/lib $TK/lib64
big $TK/version.json
big $TK/include/cuda_runtime_api.h
fx_dir /proc/driver/nvidia
big /proc/driver/nvidia/version
big /etc/ld.so.cache
C=/opt/conda
fx_condaenv $C 3.11
S=$FX_SITE
fx_torch $S 2.4.0 11.8 libcudart.so.11.0
big $S/torch/lib/libtorch_cuda.so
fx_dist_info $S nvidia-cuda-runtime-cu11 11.8.89
big $S/nvidia_cuda_runtime_cu11-11.8.89.dist-info/METADATA
fx_dist_info $S nvidia-cublas-cu11 11.11.3.6
rm -f "$FX$S/nvidia_cublas_cu11-11.11.3.6.dist-info/METADATA"
big $S/nvidia_cublas_cu11-11.11.3.6.dist-info/METADATA
big $C/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json
ok "the sparse files take no room ($(du -sk "$FX" | cut -f1) KB on disk for 10 GB)" \
    [ "$(du -sk "$FX" | cut -f1)" -lt 65536 ]

set -- LD_LIBRARY_PATH=$TK/lib64 CONDA_PREFIX=$C PATH=$C/bin:$TK/bin

hostile_run "doctor --json" "doctor --json" "$@"
is "$(fx_jq '.facts.toolkits[0].version')" 11.8.89 \
    "the toolkit's version comes from the libcudart file name"
like "$(hostile_note $TK/version.json)" 'larger than expected' \
    "the 1 GB version.json is noted as too large, not read"
is "$(fx_jq '.facts.toolkits[0].cudart[0].soname')" libcudart.so.11.0 \
    "the 1 GB libcudart is read through its dynamic section alone"
like "$(fx_jq '.facts.driver.unreadable.module_version')" 'larger than expected' \
    "the 1 GB /proc/driver/nvidia/version is unreadable, with why"
is "$(fx_jq '.facts.python_envs[0].packages[] | select(.name == "nvidia-cuda-runtime-cu11") | "\(.version) \(.metadata_error)"')" \
    "11.8.89 null" "a METADATA grown to 1 GB: its header is read, the rest is not"
like "$(fx_jq '.facts.python_envs[0].packages[] | select(.name == "nvidia_cublas_cu11") | .metadata_error')" \
    'METADATA: binary data' "1 GB of zeros as METADATA is a metadata_error"
like "$(fx_jq '.facts.python_envs[0].packages[] | select(.name == "cudatoolkit") | .metadata_error')" \
    'cudatoolkit-11.8.0-h6a678d5_0.json: ' "the 1 GB conda record is a metadata_error"
is "$(fx_jq '.facts.python_envs[0].frameworks[0].cuda')" 11.8 \
    "torch is still judged (its libtorch_cuda.so is 1 GB)"

hostile_run "doctor (text)" doctor "$@"
like "$(cat "$FX_OUT")" 'ld\.so\.cache.*larger than' "the 1 GB ld.so.cache is noted"

hostile_run "why libcudart.so.11.0" "why libcudart.so.11.0" "$@"
like "$(cat "$FX_OUT")" "found $TK/lib64/libcudart.so.11.0" \
    "the 1 GB ELF in lib64 is the loader's answer"

hostile_run "why --json libcudart.so.11.0 (zeros first)" "why --json libcudart.so.11.0" \
    LD_LIBRARY_PATH=$L:$TK/lib64
is "$(fx_jq '.steps[0].result')" fatal "1 GB of zeros stops the loader"
like "$(fx_jq '.steps[0].detail')" 'invalid ELF header' "... with the loader's words"
is "$(fx_jq '[.findings[].code] | join(" ")')" BROKEN_LIBRARY "and is a broken library"

done_testing
