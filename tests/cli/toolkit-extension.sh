#!/bin/sh
# Extension builds (issue 19 point 2): the toolkit torch.utils.cpp_extension,
# flash-attn, xformers and DeepSpeed compile with (CUDA_HOME, else
# CUDA_PATH, else the nvcc on PATH, else /usr/local/cuda) against the CUDA
# a framework was built with. Another major (for torch another
# major.minor) is NVCC_RUNTIME_MISMATCH, or CUDA_HOME_MISMATCH when a
# variable chose the toolkit, with both ways out; a CPU build or a
# matching toolkit is silent, and applying the first way out clears it.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

VENV=/home/u/venv
# The one extension-build finding of the last run (its detail names the
# environment), as jq FILTER.
ext() {
	jq -r --arg e "$VENV" "[.findings[] | select(.detail | contains(\"built in\") or contains(\"built against\"))] |
	    if length == 1 then .[0] | $1 else error(\"not one\") end" "$FX_OUT" 2>/dev/null
}
ext_count() {
	jq -r '[.findings[] | select(.detail | contains("built in") or contains("built against"))] | length' "$FX_OUT"
}

tree() {	# TORCH_VERSION TORCH_CUDA
	fx_new
	fx_healthy_gpu
	fx_dir /usr/bin
	fx_toolkit 12.4.1
	fx_toolkit 11.8.0
	fx_link cuda-12.4 /usr/local/cuda
	fx_venv_env $VENV 3.11
	fx_torch "$FX_SITE" "$1" "$2" libcudart.so."${2%%.*}"
}

# --- torch cu118, nvcc 12.4 on PATH, no CUDA_HOME: the major differs
tree 2.1.0+cu118 11.8
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin VIRTUAL_ENV=$VENV"
fx_doctor
is "$(ext_count)" 1 "torch cu118, nvcc 12.4: one extension-build finding"
is "$(ext .code)" NVCC_RUNTIME_MISMATCH "... NVCC_RUNTIME_MISMATCH (nvcc on PATH chose)"
like "$(ext .detail)" "built in the virtual environment $VENV .*flash-attn.*nvcc of CUDA 12.4.1 at /usr/local/cuda-12.4, but torch 2.1.0\+cu118 was built with CUDA 11.8\. PyTorch refuses" \
    "... naming the environment, both CUDAs and torch's refusal"
like "$(ext '.evidence | join("\n")')" "found through PATH: CUDA 12.4.1 .*CUDA_HOME and CUDA_PATH are unset" \
    "... says which toolkit builds would use, and why"
like "$(ext '.evidence | join("\n")')" "torch/version.py" "... and where torch's CUDA was read"
is "$(ext '.fix[1]')" "export CUDA_HOME=/usr/local/cuda-11.8" \
    "... way (a): CUDA_HOME at the installed 11.8 toolkit"
like "$(ext '.fix | join("\n")')" 'export PATH=/usr/local/cuda-11.8/bin' "... with its nvcc first on PATH"
like "$(ext '.fix | join("\n")')" "# or change torch to a build for CUDA 12.4" "... way (b): torch for the toolkit"
like "$(ext '.fix | join("\n")')" "pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu121" \
    "... the published cu121 index (no cu124 for 2.1)"

# Applying way (a) clears it, and no other toolkit finding replaces it.
FX_ENV="PATH=/usr/local/cuda-11.8/bin:/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda-11.8 VIRTUAL_ENV=$VENV"
fx_doctor
is "$(ext_count)" 0 "after way (a): no extension-build finding"
lacks_code CUDA_HOME_MISMATCH "... and no CUDA_HOME_MISMATCH"

# --- CUDA_HOME chose the 12.4 toolkit: CUDA_HOME_MISMATCH
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda-12.4 VIRTUAL_ENV=$VENV"
fx_doctor
is "$(ext .code)" CUDA_HOME_MISMATCH "CUDA_HOME 12.4, torch cu118: CUDA_HOME_MISMATCH"
like "$(ext '.evidence[0]')" "extension builds use CUDA_HOME=/usr/local/cuda-12.4: CUDA 12.4.1" \
    "... naming CUDA_HOME as what builds use"

# --- CUDA_HOME wins over the nvcc on PATH, as in torch
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda-11.8 VIRTUAL_ENV=$VENV"
fx_doctor
is "$(ext_count)" 0 "CUDA_HOME 11.8 with nvcc 12.4 on PATH: builds use CUDA_HOME, no extension finding"

# --- nothing set, no nvcc on PATH: /usr/local/cuda is what builds use
FX_ENV="PATH=/usr/bin VIRTUAL_ENV=$VENV"
fx_doctor
like "$(ext '.evidence[0]')" "found through /usr/local/cuda: CUDA 12.4.1" \
    "no CUDA_HOME, no nvcc on PATH: /usr/local/cuda"

# --- torch cu121 against 12.4: the minor differs, torch only warns
tree 2.4.0+cu121 12.1
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin VIRTUAL_ENV=$VENV"
fx_doctor
like "$(ext .detail)" "PyTorch only warns about another minor version" "torch cu121, nvcc 12.4: a minor mismatch"
like "$(ext '.fix | join("\n")')" "sudo apt-get install cuda-toolkit-12-1" \
    "... way (a): the published cuda-toolkit-12-1 (no 12.1 installed)"
like "$(ext '.fix | join("\n")')" "pip install torch==2.4.0 --index-url https://download.pytorch.org/whl/cu124" \
    "... way (b): torch 2.4.0 from the cu124 index"

# --- a matching torch, and a CPU build: silent
tree 2.4.0+cu124 12.4
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin VIRTUAL_ENV=$VENV"
fx_doctor
is "$(ext_count)" 0 "torch cu124, nvcc 12.4: no finding"
lacks_code NVCC_RUNTIME_MISMATCH "... no NVCC_RUNTIME_MISMATCH"
tree 2.4.0+cpu None
fx_doctor
is "$(ext_count)" 0 "CPU-only torch: no finding"

# --- TensorFlow in a conda env: only the major counts
fx_new
fx_healthy_gpu
fx_dir /usr/bin
fx_toolkit 11.8.0
fx_condaenv /opt/conda/envs/tf 3.11
fx_tensorflow "$FX_SITE" tensorflow 2.15.0 12.2 8.9
FX_ENV="PATH=/usr/local/cuda-11.8/bin:/usr/bin CONDA_PREFIX=/opt/conda/envs/tf"
fx_doctor
like "$(ext .detail)" "built against tensorflow 2.15.0 in the conda environment tf .*nvcc of CUDA 11.8.0.*built with CUDA 12.2" \
    "TF (CUDA 12.2) with nvcc 11.8: a finding naming TF and the env"
like "$(ext '.fix | join("\n")')" "conda install -p /opt/conda/envs/tf -c conda-forge .*cuda-toolkit" \
    "... way (a) in a conda env: conda-forge's cuda-toolkit into the env"
like "$(ext '.fix | join("\n")')" "export CUDA_HOME=/opt/conda/envs/tf" "... and CUDA_HOME at the env"
fx_toolkit 12.4.1
FX_ENV="PATH=/usr/local/cuda-12.4/bin:/usr/bin CONDA_PREFIX=/opt/conda/envs/tf"
fx_doctor
is "$(ext_count)" 0 "... with a 12.x nvcc (12.4): same major, no finding"

# --- no toolkit at all: nothing to build with, nothing said
fx_new
fx_healthy_gpu
fx_dir /usr/bin
fx_venv_env $VENV 3.11
fx_torch "$FX_SITE" 2.1.0+cu118 11.8 libcudart.so.11.0
FX_ENV="PATH=/usr/bin VIRTUAL_ENV=$VENV"
fx_doctor
is "$(ext_count)" 0 "no toolkit: no extension-build finding"

done_testing
