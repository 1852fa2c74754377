#!/bin/sh
# explain on library messages, resolved in fixture trees: a runtime that
# exists in a toolkit but off the search path (the fix names that
# directory), one that exists nowhere (the fix installs what this
# machine's driver runs, chosen through the matrix), a driver too old for
# any release of the soname, and the driver's own libcuda missing.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

TF_CUDART11="2024-02-25 18:52:47.991396: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64"

# A machine with an H100 and driver VERSION, loaded and installed.
machine() {
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 2330 nvidia 030200
	fx_nv_loaded "$1"
	fx_nv_libs "$1"
	fx_kmod 6.1.0-13-amd64
	fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf"
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
}

# --- the runtime is in a toolkit, off the search path
machine 580.65.06
fx_toolkit 11.8.89
fx_explain -- "$TF_CUDART11"
is "$FX_RC" 0 "off the search path: a warning, exit 0"
is "$(jq -r '.schema' "$FX_OUT")" cudawiz/explain/1 "schema"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" dlopen_failed "recognised TensorFlow's dlopen failure"
is "$(jq -r '.recognised[0].soname' "$FX_OUT")" libcudart.so.11.0 "... of libcudart.so.11.0"
like "$(jq -r '.recognised[0].library' "$FX_OUT")" 'cudart library of CUDA 11\.0 to 11\.8' \
    "the matrix says which CUDA that soname is"
is "$(jq -r '.recognised[0].ld_library_path' "$FX_OUT")" /usr/local/nvidia/lib:/usr/local/nvidia/lib64 \
    "the LD_LIBRARY_PATH TensorFlow ran with"
has_code SONAME_OFF_SEARCH_PATH
lacks_code SONAME_NOT_FOUND
like "$(fixes SONAME_OFF_SEARCH_PATH)" '^export LD_LIBRARY_PATH=/usr/local/cuda-11\.8/(lib64|targets/x86_64-linux/lib)"\$\{LD_LIBRARY_PATH:\+:\$LD_LIBRARY_PATH\}"$' \
    "the fix puts the toolkit's directory on LD_LIBRARY_PATH"
like "$(evidence SONAME_OFF_SEARCH_PATH | head -n 1)" "^the message \\(line 1\\): .*libcudart\\.so\\.11\\.0" \
    "the message is the first evidence"
like "$(evidence SONAME_OFF_SEARCH_PATH)" "the program ran with LD_LIBRARY_PATH=/usr/local/nvidia/lib:/usr/local/nvidia/lib64" \
    "the program's LD_LIBRARY_PATH is evidence"
is "$(jq -r '.libraries[0].resolved' "$FX_OUT")" null "libraries: not resolved"
like "$(jq -r '.libraries[0].other_copies[]' "$FX_OUT")" '^/usr/local/cuda-11\.8/' \
    "libraries: the toolkit's copy listed"

# Once on LD_LIBRARY_PATH it resolves: nothing left to explain.
fx_explain LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64 -- "$TF_CUDART11"
is "$FX_RC" 0 "on LD_LIBRARY_PATH: exit 0"
is "$(jq -r '.findings | length' "$FX_OUT")" 0 "on LD_LIBRARY_PATH: no finding"
is "$(jq -r '.libraries[0].resolved' "$FX_OUT")" /usr/local/cuda-11.8/lib64/libcudart.so.11.0 \
    "... it resolves there"
fx_explain_text LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64 -- "$TF_CUDART11"
like "$(cat "$FX_OUT")" "Here libcudart.so.11.0 resolves to /usr/local/cuda-11.8/lib64/libcudart.so.11.0" \
    "text: where it resolves here"
like "$(cat "$FX_OUT")" "Nothing on this machine explains" "text: says another environment failed"

# --- the runtime exists nowhere: install what driver 580 runs
machine 580.65.06
fx_explain -- "$TF_CUDART11"
is "$FX_RC" 1 "not found: an error, exit 1"
has_code SONAME_NOT_FOUND
f=$(fixes SONAME_NOT_FOUND)
like "$f" '^pip install nvidia-cuda-runtime-cu11$' "fix: the CUDA 11 runtime wheel"
like "$f" 'purelib.*/nvidia/cuda_runtime/lib' "fix: the wheel's directory (the matrix's lib_dir) on the search path"
like "$f" '^conda install -c conda-forge cudatoolkit=11\.8$' "fix: the conda package for CUDA 11.8"
like "$f" '^sudo apt-get install cuda-cudart-11-8$' "fix: NVIDIA's package for CUDA 11.8"
like "$f" 'driver \(580\.65\.06\) runs CUDA 11\.8' "fix: says the driver runs it"
unlike "$f" 'nvidia-driver' "fix: no driver install needed"
is "$(printf '%s\n' "$f" | grep -c '^pip install')" 1 "fix: one wheel, not two"

# CUDA 12 on a 525 driver: minor-version compatibility runs the newest 12.x.
machine 525.60.13
fx_explain -- "ImportError: libcublas.so.12: cannot open shared object file: No such file or directory"
f=$(fixes SONAME_NOT_FOUND)
like "$f" '^pip install nvidia-cublas-cu12$' "cuBLAS 12: its wheel"
like "$f" 'purelib.*/nvidia/cublas/lib' "cuBLAS 12: the wheel's directory"
like "$f" '^conda install -c conda-forge cuda-runtime cuda-version=12\.[0-9]+$' "cuBLAS 12: conda, pinned by cuda-version"
like "$f" '^sudo apt-get install cuda-libraries-12-[0-9]+$' "cuBLAS 12: NVIDIA's libraries package"

# --- a driver too old for every release of the soname
machine 535.104.05
fx_explain -- "ImportError: libcudart.so.13: cannot open shared object file: No such file or directory"
f=$(fixes SONAME_NOT_FOUND)
like "$f" 'driver \(535\.104\.05\) is too old for CUDA 13' "driver 535 and CUDA 13: too old, says so"
# The newest CUDA 13 needs a branch no known Ubuntu package has: words,
# with the branch, and no invented nvidia-driver-NNN.
like "$f" '^# it needs driver [0-9.]+ or newer \(branch [0-9]+\)' "... and a driver first, in words"
n=$(printf '%s\n' "$f" | sed -n 's/^# it needs driver .* (branch \([0-9]*\)).*/\1/p' | head -n 1)
ok "... of branch 580 or newer (got ${n:-none})" [ "${n:-0}" -ge 580 ]
unlike "$f" 'nvidia-driver-6[0-9][0-9]' "... naming no package of a branch cudawiz does not know"
like "$f" '^pip install nvidia-cuda-runtime$' "... then CUDA 13's runtime wheel"

# --- libcuda.so.1 itself missing, with a GPU: the driver findings
machine 580.65.06
rm -f "$FX/usr/lib/x86_64-linux-gnu/libcuda.so.1" "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so.580*
fx_explain -- "OSError: libcuda.so.1: cannot open shared object file: No such file or directory"
is "$FX_RC" 1 "libcuda missing: exit 1"
has_code LIBCUDA_NOT_FOUND
like "$(jq -r '.recognised[0].library' "$FX_OUT")" 'comes with the NVIDIA driver' \
    "libcuda is the driver's"

# --- text a table does not know, naming a library: resolved anyway
machine 580.65.06
fx_explain -- "Segmentation fault (core dumped) right after libcudnn.so.9 was opened"
is "$FX_RC" 1 "unrecognised text naming a missing library: exit 1"
is "$(jq -r '.recognised_any' "$FX_OUT")" false "not recognised"
is "$(jq -r '.mentions.sonames | join(",")' "$FX_OUT")" libcudnn.so.9 "the soname picked out"
is "$(jq -r '.libraries[0].soname' "$FX_OUT")" libcudnn.so.9 "... and resolved"
has_code SONAME_NOT_FOUND
like "$(fixes SONAME_NOT_FOUND)" "^pip install 'nvidia-cudnn-cu1[23]==9\\.\\*'$" \
    "cuDNN 9: a wheel for a CUDA major this driver runs"

done_testing
