#!/bin/sh
# Advice that exists (issue 18): where nothing was ever published for pip
# (a cuDNN 7 wheel, a CUDA 10 runtime wheel), the fix says so in words and
# names the real alternatives instead of inventing a command.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

: "${FIXLINT:?FIXLINT must name tests/tools/fixlint (make check sets it)}"

# The fix's lines of every finding, one per line.
all_fixes() {
	jq -r '.findings[].fix[]?' "$FX_OUT" 2>/dev/null
}

# lint_ok DESC: tests/tools/fixlint passes the last document.
lint_ok() {
	if fl_out=$("$FIXLINT" --matrix "$FX_MATRIX" --name fix-published "$FX_OUT"); then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		printf '%s\n' "$fl_out" | sed 's/^/#   /'
	fi
}

# 1. libcudnn.so.7 cannot be opened: once "pip install 'nvidia-cudnn-cu12==7.*'".
fx_new
fx_explain -- "ImportError: libcudnn.so.7: cannot open shared object file: No such file or directory"
has_code SONAME_NOT_FOUND "libcudnn.so.7 missing: SONAME_NOT_FOUND"
unlike "$(all_fixes)" "nvidia-cudnn-cu[0-9]*[=<>']*7" "no cuDNN 7 wheel is suggested"
like "$(fixes SONAME_NOT_FOUND)" "^# no cuDNN 7 wheel was ever published for pip; cuDNN wheels start at " \
    "the fix says no cuDNN 7 wheel exists, and where the wheels start"
like "$(fixes SONAME_NOT_FOUND)" "https://developer.nvidia.com/rdp/cudnn-archive" \
    "and names NVIDIA's cuDNN archive"
lint_ok "every command of the fix is published (fixlint)"

# 2. TensorFlow compiled with cuDNN 7.6.5: once "pip install 'nvidia-cudnn-cu12>=7.6.5,<8'".
fx_new
fx_explain -- "E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] Loaded runtime CuDNN library: 7.1.4 but source was compiled with: 7.6.5.  CuDNN library needs to have matching major version and equal or higher minor version."
has_code FRAMEWORK_CUDA_MISMATCH "compiled with cuDNN 7.6.5: FRAMEWORK_CUDA_MISMATCH"
unlike "$(all_fixes)" "nvidia-cudnn-cu[0-9]*>=7" "no cuDNN 7 wheel range is suggested"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^# no cuDNN 7 wheel was ever published for pip" \
    "the fix says no cuDNN 7 wheel exists"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "cudnn-archive" "and names NVIDIA's cuDNN archive"
lint_ok "every command of the fix is published (fixlint)"

# 3. A spoofed libcudart.so.10.1: once "pip install nvidia-cuda-runtime-cu10".
fx_new
fx_so /opt/hack/libcudart.so.10.2.89 libcudart.so.10.2
fx_link libcudart.so.10.2.89 /opt/hack/libcudart.so.10.1
FX_ENV="LD_LIBRARY_PATH=/opt/hack"
fx_doctor
has_code SONAME_SPOOF_SYMLINK "libcudart.so.10.1 -> libcudart.so.10.2.89: SONAME_SPOOF_SYMLINK"
like "$(fixes SONAME_SPOOF_SYMLINK)" '^sudo rm -- /opt/hack/libcudart.so.10.1$' "the fix removes the link"
unlike "$(all_fixes)" "nvidia-cuda-runtime-cu10" "no CUDA 10 runtime wheel is suggested"
like "$(fixes SONAME_SPOOF_SYMLINK)" "^# no CUDA 10 runtime wheel was ever published for pip" \
    "the fix says no CUDA 10 runtime wheel exists"
like "$(fixes SONAME_SPOOF_SYMLINK)" "https://developer.nvidia.com/cuda-toolkit-archive" \
    "and names NVIDIA's CUDA archive"
lint_ok "every command of the fix is published (fixlint)"

# 4. Where a wheel was published, the command is still given.
fx_new
fx_explain -- "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory"
like "$(fixes SONAME_NOT_FOUND)" "nvidia-cudnn-cu1[23]" "cuDNN 9 is offered as a published wheel"
unlike "$(fixes SONAME_NOT_FOUND)" "^# no cuDNN 9 wheel" "with no words against it"
lint_ok "every command of the fix is published (fixlint)"
# 5. torch for CUDA 13 whose Requires-Dist also names cu12 wheels under
# an extra: the extra's wheels are not this build's, so the mixed-wheels
# fix keeps CUDA 13 and drops the stray cu12 wheel (once it kept cu12).
fx_new
fx_healthy_gpu
E=/opt/venv13
fx_venv_env $E 3.12
S=$FX_SITE
fx_nvidia_wheel $S nvidia-cuda-runtime 13.0.96
fx_nvidia_wheel $S nvidia-cublas 13.1.0.3
fx_nvidia_wheel $S nvidia-cublas-cu12 12.8.4.1
fx_torch $S 2.9.0+cu130 13.0 -r '$ORIGIN/../../nvidia/cu13/lib:$ORIGIN' libcudart.so.13 libcublas.so.13
fx_dist_info $S torch 2.9.0+cu130 \
    'Requires-Dist: nvidia-cuda-runtime-cu12==12.8.90; extra == "cu12"' \
    'Requires-Dist: nvidia-cublas-cu12==12.8.4.1; extra == "cu12"' \
    'Requires-Dist: nvidia-cuda-runtime==13.0.96; platform_system == "Linux"' \
    'Requires-Dist: nvidia-cublas==13.1.0.3; platform_system == "Linux"'
fx_doctor_env VIRTUAL_ENV=$E
has_code PIP_CUDA_WHEELS_MIXED "cu12 and CUDA 13 wheels: PIP_CUDA_WHEELS_MIXED"
like "$(fixes PIP_CUDA_WHEELS_MIXED)" "-m pip uninstall -y nvidia-cublas-cu12$" \
    "the fix removes the cu12 wheel"
unlike "$(fixes PIP_CUDA_WHEELS_MIXED)" "uninstall.* nvidia-cuda-runtime$|uninstall.* nvidia-cublas$" \
    "and keeps torch's own CUDA 13 wheels"
lint_ok "every command of the fix is published (fixlint)"
done_testing
