#!/bin/sh
# explain on cuDNN and Windows messages: the cuDNN loaded older than the
# one the framework was built with (an installed newer copy, or the wheel
# to install), CUDNN_STATUS_* codes with their meanings and fixes, and the
# Windows DLL names the matrix maps to CUDA and cuDNN versions.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

TF_CUDNN="2021-10-13 17:19:29.385716: E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or higher minor version. If using a binary install, upgrade your CuDNN library."

machine() {
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 2330 nvidia 030200
	fx_nv_loaded 580.65.06
	fx_nv_libs 580.65.06
	fx_kmod 6.1.0-13-amd64
	fx_file /etc/ld.so.conf "/usr/lib/x86_64-linux-gnu"
	# cuDNN 8.0.5 installed system-wide.
	fx_cudnn /usr/lib/x86_64-linux-gnu 8.0.5
	fx_cudnn_header /usr/include/cudnn_version.h 8.0.5
}

# --- only the old cuDNN: install the one the framework needs
machine
fx_explain -- "$TF_CUDNN"
is "$FX_RC" 1 "cuDNN too old: exit 1"
is "$(jq -r '.recognised[0].loaded' "$FX_OUT")" 8.0.5 "the cuDNN loaded"
is "$(jq -r '.recognised[0].compiled' "$FX_OUT")" 8.1.0 "the cuDNN it was built with"
has_code FRAMEWORK_CUDA_MISMATCH
like "$(finding FRAMEWORK_CUDA_MISMATCH .detail)" "built with cuDNN 8\\.1\\.0 but loaded cuDNN 8\\.0\\.5" \
    "the detail has both versions"
like "$(evidence FRAMEWORK_CUDA_MISMATCH)" "libcudnn\\.so\\.8 resolves to /usr/lib/x86_64-linux-gnu/libcudnn\\.so\\.8" \
    "evidence: which cuDNN loads"
like "$(evidence FRAMEWORK_CUDA_MISMATCH)" "cuDNN 8\\.0\\.5 .*in /usr/lib/x86_64-linux-gnu" \
    "evidence: the installed cuDNN"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^pip install 'nvidia-cudnn-cu11>=8\\.1\\.0,<9'$" \
    "fix: the cuDNN 8 wheel, at least 8.1.0 (the matrix's cuDNN 8 wheel)"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^conda install -c conda-forge 'cudnn>=8\\.1\\.0,<9'$" \
    "fix: or conda, the same bounds"

# --- a newer cuDNN 8 is installed in /opt: load it first
fx_cudnn /opt/cudnn/lib 8.9.7
fx_cudnn_header /opt/cudnn/include/cudnn_version.h 8.9.7
fx_file /etc/ld.so.conf "/usr/lib/x86_64-linux-gnu
/opt/cudnn/lib"
fx_explain -- "$TF_CUDNN"
like "$(evidence FRAMEWORK_CUDA_MISMATCH)" "cuDNN 8\\.9\\.7 .*in /opt/cudnn/lib" "evidence: the newer copy"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^export LD_LIBRARY_PATH=/opt/cudnn/lib\"" \
    "fix: put the installed 8.9.7 first"
unlike "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^pip install" "fix: nothing to install"

# PyTorch's words say the same.
fx_explain -- "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version (8, 0, 5)."
has_code FRAMEWORK_CUDA_MISMATCH "PyTorch's cuDNN mismatch"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^export LD_LIBRARY_PATH=/opt/cudnn/lib\"" \
    "... 8.9.7 satisfies 8.9.2"

# --- CUDNN_STATUS_* codes
machine
fx_explain -- "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED"
is "$(jq -r '.recognised[0].number' "$FX_OUT")" 1001 "NOT_INITIALIZED is 1001"
has_code CUDNN_FAILED
like "$(finding CUDNN_FAILED .detail)" "CUDNN_STATUS_NOT_INITIALIZED \\(1001\\): cuDNN could not initialise" \
    "the detail says what the code means"
like "$(fixes CUDNN_FAILED)" "^export TF_FORCE_GPU_ALLOW_GROWTH=true$" "fix: TensorFlow's memory growth"
like "$(fixes CUDNN_FAILED)" "^nvidia-smi$" "fix: see what holds the memory"

fx_cudnn /opt/cudnn/lib 8.9.7
fx_cudnn_header /opt/cudnn/include/cudnn_version.h 8.9.7
fx_file /etc/ld.so.conf "/usr/lib/x86_64-linux-gnu
/opt/cudnn/lib"
fx_explain -- "cudnnCreate failed: CUDNN_STATUS_VERSION_MISMATCH"
has_code CUDNN_FAILED
like "$(finding CUDNN_FAILED .detail)" "two cuDNN installations are mixed" "VERSION_MISMATCH: two installs mixed"
like "$(fixes CUDNN_FAILED)" "^export LD_LIBRARY_PATH=/opt/cudnn/lib\"" "fix: one installation first, the newest"

fx_explain -- "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH"
like "$(finding CUDNN_FAILED .detail)" "no code for the GPU's compute capability" "ARCH_MISMATCH: meaning"
like "$(fixes CUDNN_FAILED)" "^pip install --upgrade nvidia-cudnn-cu[0-9]+$" "ARCH_MISMATCH: a newer cuDNN"

fx_explain -- "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM"
like "$(fixes CUDNN_FAILED)" "CUDNN_LOGERR_DBG=1" "BAD_PARAM: cuDNN's log to see which call"

# --- Windows DLL names
fx_new
fx_explain -- "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
is "$FX_RC" 1 "cudart64_110.dll: exit 1"
is "$(jq -r '.recognised | length' "$FX_OUT")" 1 "one message, not two"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" dll_not_found "a Windows DLL"
has_code SONAME_NOT_FOUND
like "$(evidence SONAME_NOT_FOUND)" "cudart library of CUDA 11\\.0 to 11\\.8" "evidence: the matrix maps it to CUDA 11.x"
like "$(evidence SONAME_NOT_FOUND)" "Linux name of the same library is libcudart\\.so\\.11\\.0" "evidence: its Linux name"
like "$(fixes SONAME_NOT_FOUND)" '^\$env:PATH = "\$env:CUDA_PATH_V11_8\\bin;\$env:PATH"$' "fix: PowerShell, CUDA 11.8's bin first"
like "$(fixes SONAME_NOT_FOUND)" "^pip install nvidia-cuda-runtime-cu11$" "fix: or the wheel"

fx_explain -- "Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found"
like "$(finding SONAME_NOT_FOUND .detail)" "cudnn64_8\\.dll, cuDNN 8's library" "cudnn64_8.dll is cuDNN 8"
is "$(jq -r '.recognised[0].library' "$FX_OUT")" "cudnn64_8.dll is a library of cuDNN 8 (matrix: confirmed)" \
    "the matrix's cuDNN DLL name"
like "$(fixes SONAME_NOT_FOUND)" "^pip install 'nvidia-cudnn-cu11==8\\.\\*'$" "fix: the cuDNN 8 wheel, bounded to cuDNN 8"

fx_explain -- "Could not load dynamic library 'cublas64_12.dll'; dlerror: cublas64_12.dll not found"
like "$(finding SONAME_NOT_FOUND .detail)" "cublas library of CUDA 12\\.x" "cublas64_12.dll is CUDA 12.x"
like "$(fixes SONAME_NOT_FOUND)" 'CUDA_PATH_V12_[0-9]+' "fix: a CUDA 12 release's bin"

done_testing
