#!/bin/sh
# CUDA_HOME_MISMATCH and NVCC_RUNTIME_MISMATCH on fixture toolkits: each
# fires on its broken tree and not on a healthy one, and applying the
# printed fix makes the finding go away.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"

fx_new
fx_dir /usr/bin
fx_toolkit 12.4.1
fx_toolkit 11.8.0
fx_link cuda-12.4 /usr/local/cuda
fx_doctor
[ "$(fx_jq '.facts.toolkits | length')" = 2 ] ||
	skip_all "the toolkit probe does not report fx_toolkit trees yet"

# Runs fix (one line of sh) on the current value of VAR and prints the new value.
apply() {	# VAR CURRENT FIX
	env -i "$1=$2" sh -c "$3; printf %s \"\$$1\""
}

# --- healthy: everything names 12.4, through the /usr/local/cuda alias
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda CUDA_PATH=/usr/local/cuda-12.4/ LD_LIBRARY_PATH=/usr/local/cuda/lib64"
fx_doctor
fx_ran_ok
is "$(fx_jq '.facts.toolkits[] | select(.found_via | index("PATH")) | .root')" \
    /usr/local/cuda-12.4 "the nvcc on PATH is 12.4's"
lacks_code CUDA_HOME_MISMATCH "healthy: no CUDA_HOME_MISMATCH (alias and trailing slash)"
lacks_code NVCC_RUNTIME_MISMATCH "healthy: no NVCC_RUNTIME_MISMATCH"
is "$FX_RC" 0 "healthy: exit 0"

# --- CUDA_HOME names another toolkit than the nvcc on PATH
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda-11.8"
fx_doctor
has_code CUDA_HOME_MISMATCH "CUDA_HOME 11.8, nvcc 12.4: CUDA_HOME_MISMATCH"
is "$(fx_finding CUDA_HOME_MISMATCH .severity)" warning "... a warning"
like "$(fx_finding CUDA_HOME_MISMATCH '.evidence | join("\n")')" \
    'CUDA_HOME=/usr/local/cuda-11.8 is CUDA 11.8.0' "... naming CUDA_HOME's version"
like "$(fx_finding CUDA_HOME_MISMATCH '.evidence | join("\n")')" \
    'nvcc on PATH: /usr/local/cuda-12.4/bin/nvcc' "... and the nvcc"
fix=$(fx_finding CUDA_HOME_MISMATCH '.fix[0]')
is "$fix" "export CUDA_HOME=/usr/local/cuda-12.4" "... fix: follow nvcc"
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=$(apply CUDA_HOME /usr/local/cuda-11.8 "$fix")"
fx_doctor
lacks_code CUDA_HOME_MISMATCH "after the fix: no CUDA_HOME_MISMATCH"

# --- CUDA_HOME and CUDA_PATH disagree, no nvcc on PATH
FX_ENV="PATH=/usr/bin CUDA_HOME=/usr/local/cuda-11.8 CUDA_PATH=/usr/local/cuda"
fx_doctor
has_code CUDA_HOME_MISMATCH "CUDA_HOME and CUDA_PATH disagree"
like "$(fx_finding CUDA_HOME_MISMATCH '.evidence | join("\n")')" \
    'CUDA_HOME and CUDA_PATH name different toolkits' "... says so"
is "$(fx_finding CUDA_HOME_MISMATCH '[.fix[] | select(startswith("cudawiz env") or startswith("#") | not)] | join("|")')" \
    "export CUDA_PATH=/usr/local/cuda-11.8" "... fix: CUDA_PATH follows CUDA_HOME"
is "$(fx_finding CUDA_HOME_MISMATCH '[.fix[] | select(startswith("cudawiz env"))] | join("|")')" \
    "cudawiz env --toolkit /usr/local/cuda-11.8 -o cuda-env.sh && . ./cuda-env.sh" \
    "... or the script cudawiz env writes for that toolkit"

# --- CUDA_HOME at a directory that is no toolkit root
FX_ENV="PATH=/usr/local/cuda-12.4/bin CUDA_HOME=/usr/local/cuda-12.4/bin"
fx_doctor
has_code CUDA_HOME_MISMATCH "CUDA_HOME at the toolkit's bin/"
like "$(fx_finding CUDA_HOME_MISMATCH '.evidence[0]')" \
    'is not the root of any CUDA toolkit' "... says it is no toolkit root"
is "$(fx_finding CUDA_HOME_MISMATCH '.fix[0]')" \
    "export CUDA_HOME=/usr/local/cuda-12.4" "... fix: the toolkit root"

# --- nvcc 11.8 on PATH, the 12.4 runtime on LD_LIBRARY_PATH
FX_ENV="PATH=/usr/local/cuda-11.8/bin:/usr/bin LD_LIBRARY_PATH=/usr/local/cuda/lib64"
fx_doctor
has_code NVCC_RUNTIME_MISMATCH "nvcc 11.8, runtime 12: NVCC_RUNTIME_MISMATCH"
is "$(fx_finding NVCC_RUNTIME_MISMATCH .severity)" warning "... a warning"
like "$(fx_finding NVCC_RUNTIME_MISMATCH .detail)" 'CUDA 11.8.0.*is CUDA 12' \
    "... naming both versions"
like "$(fx_finding NVCC_RUNTIME_MISMATCH '.evidence | join("\n")')" \
    'libcudart.so.12 resolves to /usr/local/cuda/lib64/libcudart.so.12 \(via ld_library_path\), from CUDA 12.4.1' \
    "... and the runtime the loader finds"
fix_path=$(fx_finding NVCC_RUNTIME_MISMATCH '[.fix[] | select(startswith("#") | not)][0]')
fix_llp=$(fx_finding NVCC_RUNTIME_MISMATCH '[.fix[] | select(startswith("#") | not)][1]')
like "$(fx_finding NVCC_RUNTIME_MISMATCH '.fix | join("|")')" '^# either .*[|]export PATH=.*[|]# or .*[|]export LD_LIBRARY_PATH=' \
    "... the two fixes are introduced as alternatives"
is "$fix_path" 'export PATH=/usr/local/cuda-12.4/bin"${PATH:+:$PATH}"' \
    "... fix 1: 12.4's bin first on PATH"
like "$fix_llp" '^export LD_LIBRARY_PATH=/usr/local/cuda-11.8/[^ ]*lib[^ ]*"\$\{LD_LIBRARY_PATH:\+:\$LD_LIBRARY_PATH\}"$' \
    "... fix 2: 11.8's runtime first on LD_LIBRARY_PATH"

new_path=$(apply PATH /usr/local/cuda-11.8/bin:/usr/bin "$fix_path")
FX_ENV="PATH=$new_path LD_LIBRARY_PATH=/usr/local/cuda/lib64"
fx_doctor
lacks_code NVCC_RUNTIME_MISMATCH "after fix 1: no NVCC_RUNTIME_MISMATCH"
new_llp=$(apply LD_LIBRARY_PATH /usr/local/cuda/lib64 "$fix_llp")
FX_ENV="PATH=/usr/local/cuda-11.8/bin:/usr/bin LD_LIBRARY_PATH=$new_llp"
fx_doctor
lacks_code NVCC_RUNTIME_MISMATCH "after fix 2: no NVCC_RUNTIME_MISMATCH"

# No runtime on any search path: nothing to compare, no finding.
FX_ENV="PATH=/usr/local/cuda-11.8/bin:/usr/bin"
fx_doctor
lacks_code NVCC_RUNTIME_MISMATCH "no runtime resolves: no NVCC_RUNTIME_MISMATCH"

done_testing
