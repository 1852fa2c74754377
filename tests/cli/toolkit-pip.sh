#!/bin/sh
# Toolkit probe: NVIDIA's pip wheels. CUDA 13 wheels share
# site-packages/nvidia/cu13; cu11/cu12 wheels have nvidia/cuda_runtime and
# nvidia/cuda_nvcc, which are one toolkit.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

venv=/home/u/venv
sp=$venv/lib/python3.12/site-packages

pip_cu13() {	# SITE-PACKAGES
	fx_dir "$1/nvidia_cuda_runtime-13.0.96.dist-info"
	fx_dir "$1/nvidia_cuda_nvcc-13.0.88.dist-info"
	fx_so "$1/nvidia/cu13/lib/libcudart.so.13" libcudart.so.13
	fx_file "$1/nvidia/cu13/bin/nvcc" "ELF"
	chmod +x "$FX$1/nvidia/cu13/bin/nvcc"
}

pip_cu12() {	# SITE-PACKAGES
	fx_dir "$1/nvidia_cuda_runtime_cu12-12.4.127.dist-info"
	fx_dir "$1/nvidia_cuda_nvcc_cu12-12.4.131.dist-info"
	fx_so "$1/nvidia/cuda_runtime/lib/libcudart.so.12" libcudart.so.12
	fx_file "$1/nvidia/cuda_runtime/include/cuda_runtime_api.h" "#define CUDART_VERSION 12040"
	fx_file "$1/nvidia/cuda_nvcc/bin/nvcc" "ELF"
	chmod +x "$FX$1/nvidia/cuda_nvcc/bin/nvcc"
}

# --- CUDA 13 wheels in a virtualenv
fx_new
pip_cu13 $sp
FX_ENV="VIRTUAL_ENV=$venv"
fx_doctor
is "$(fx_tk_json .root)" "$sp/nvidia/cu13" "cu13: the root is nvidia/cu13"
is "$(fx_tk_json .layout)" pip "cu13: layout pip"
is "$(fx_tk_json '.found_via | join(",")')" pip "cu13: found via pip"
is "$(fx_tk_json .version)" 13.0.96 "cu13: version from the runtime wheel's dist-info"
is "$(fx_tk_json .sources.version)" "$sp/nvidia_cuda_runtime-13.0.96.dist-info" \
    "cu13: version source names the dist-info"
is "$(fx_tk_json '.cudart[0].dir')" "$sp/nvidia/cu13/lib" "cu13: runtime in nvidia/cu13/lib"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.13 "cu13: soname"
is "$(fx_tk_json .nvcc)" "$sp/nvidia/cu13/bin/nvcc" "cu13: nvcc"

# The same tree without VIRTUAL_ENV is not searched.
FX_ENV=
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 0 "a venv nobody activated is not searched"

# nvcc of the wheel on PATH: the same toolkit, found both ways.
FX_ENV="VIRTUAL_ENV=$venv PATH=$sp/nvidia/cu13/bin:/usr/bin"
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "PATH,pip" "cu13 nvcc on PATH: found via PATH and pip"

# --- cu12 wheels: cuda_runtime + cuda_nvcc are one toolkit
fx_new
pip_cu12 $sp
FX_ENV="VIRTUAL_ENV=$venv"
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 1 "cu12: runtime and nvcc wheels are one toolkit"
is "$(fx_tk_json .root)" "$sp/nvidia/cuda_runtime" "cu12: the root is nvidia/cuda_runtime"
is "$(fx_tk_json .layout)" pip "cu12: layout pip"
is "$(fx_tk_json .version)" 12.4.127 "cu12: version from nvidia_cuda_runtime_cu12 dist-info"
is "$(fx_tk_json .nvcc)" "$sp/nvidia/cuda_nvcc/bin/nvcc" "cu12: nvcc from the nvcc wheel"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.12 "cu12: soname"

# CUDA_HOME pointing at the nvcc wheel (what users do for nvcc) is the
# same toolkit, pip layout even where no searched site-packages holds it.
FX_ENV="CUDA_HOME=$sp/nvidia/cuda_nvcc"
fx_doctor
is "$(fx_tk_json .root)" "$sp/nvidia/cuda_runtime" "CUDA_HOME=cuda_nvcc: the cu12 toolkit"
is "$(fx_tk_json .layout)" pip "CUDA_HOME=cuda_nvcc: layout pip"
is "$(fx_tk_json '.found_via | join(",")')" CUDA_HOME "CUDA_HOME=cuda_nvcc: found via CUDA_HOME"
FX_ENV="CUDA_HOME=$sp/nvidia/cuda_nvcc VIRTUAL_ENV=$venv"
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "CUDA_HOME,pip" "and via pip when the venv is active"

# --- cu12 and cu13 wheels in one environment: each gets its own version
fx_new
pip_cu12 $sp
pip_cu13 $sp
FX_ENV="VIRTUAL_ENV=$venv"
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 2 "cu12 and cu13 wheels side by side: two toolkits"
is "$(fx_jq ".facts.toolkits[] | select(.root == \"$sp/nvidia/cu13\") | .version")" 13.0.96 \
    "the cu13 toolkit takes the 13.x dist-info"
is "$(fx_jq ".facts.toolkits[] | select(.root == \"$sp/nvidia/cuda_runtime\") | .version")" 12.4.127 \
    "the cu12 toolkit takes the _cu12 dist-info"

# --- the other site-packages: conda, ~/.local, /usr/local dist-packages
fx_new
pip_cu13 /opt/conda/envs/t/lib/python3.11/site-packages
FX_ENV="CONDA_PREFIX=/opt/conda/envs/t"
fx_doctor
is "$(fx_tk_json .root)" /opt/conda/envs/t/lib/python3.11/site-packages/nvidia/cu13 \
    "CONDA_PREFIX site-packages"

fx_new
pip_cu12 /home/u/.local/lib/python3.11/site-packages
FX_ENV="HOME=/home/u"
fx_doctor
is "$(fx_tk_json .version)" 12.4.127 "~/.local site-packages"

fx_new
d=/usr/local/lib/python3.11/dist-packages
fx_dir $d/nvidia_cuda_runtime_cu11-11.7.99.dist-info
fx_so $d/nvidia/cuda_runtime/lib/libcudart.so.11.0 libcudart.so.11.0
fx_doctor
is "$(fx_tk_json .root)" $d/nvidia/cuda_runtime "/usr/local/lib/python3*/dist-packages"
is "$(fx_tk_json .version)" 11.7.99 "cu11 wheel version"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.11.0 "cu11 soname"

fx_new
pip_cu13 /usr/lib/python3/dist-packages
fx_doctor
is "$(fx_tk_json .root)" /usr/lib/python3/dist-packages/nvidia/cu13 "/usr/lib/python3/dist-packages"


# A toolkit assembled from wheels is CUDA 13.0 (its release), not cudart's
# 13.0.96: on the 13.0 GA driver (580.65.06) neither the driver nor its
# PTX JIT is too old. Read as 13.0.96 it matched 13.0 Update 2's row
# (580.95.05) and gave a false PTX_TOOLCHAIN_TOO_NEW.
fx_new
fx_healthy_gpu
pip_cu13 $sp
FX_ENV="VIRTUAL_ENV=$venv"
fx_doctor
is "$(fx_tk_json .release)" 13.0 "cu13 wheels: the release is 13.0"
lacks_code PTX_TOOLCHAIN_TOO_NEW "cu13 wheels on 580.65.06: no PTX_TOOLCHAIN_TOO_NEW"
lacks_code DRIVER_TOO_OLD "cu13 wheels on 580.65.06: no DRIVER_TOO_OLD"

done_testing
