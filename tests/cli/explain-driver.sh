#!/bin/sh
# explain on driver and GPU messages: the machine's own findings taken
# over with the message as evidence where the facts show the problem
# (driver too old for a toolkit, module/library mismatch, PTX from a newer
# toolkit, CUDA_VISIBLE_DEVICES), findings from the message and the matrix
# where they do not, and the GPU architecture messages.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

INSUFFICIENT="RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"

# A machine with an H100 (compute capability 9.0) and driver VERSION.
machine() {
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 2330 nvidia 030200
	fx_pci_ids
	fx_nv_loaded "$1"
	fx_nv_libs "$1"
	fx_kmod 6.1.0-13-amd64
	fx_file /etc/ld.so.conf "/usr/lib/x86_64-linux-gnu"
}

# --- driver 470 under a CUDA 12.4 toolkit: the matrix rule, taken over
machine 470.82.01
fx_toolkit 12.4.1
fx_explain -- "$INSUFFICIENT"
is "$FX_RC" 1 "driver too old: exit 1"
is "$(jq -r '.recognised[0].code' "$FX_OUT")" cudaErrorInsufficientDriver "the runtime's error name"
is "$(jq -r '.recognised[0].number' "$FX_OUT")" 35 "... and number"
has_code DRIVER_TOO_OLD
is "$(jq -r '[.findings[] | select(.code == "DRIVER_TOO_OLD")] | length' "$FX_OUT")" 1 \
    "one DRIVER_TOO_OLD"
like "$(evidence DRIVER_TOO_OLD | head -n 1)" "^the message \\(line 1\\): RuntimeError: CUDA error: CUDA driver version is insufficient" \
    "the message is the first evidence"
like "$(evidence DRIVER_TOO_OLD)" "470\\.82\\.01" "evidence: the driver's version"
like "$(evidence DRIVER_TOO_OLD)" "CUDA 12\\.4\\.1 needs driver >= 550\\.54\\.15" "evidence: what the runtime needs"
like "$(fixes DRIVER_TOO_OLD)" "^sudo apt-get install nvidia-driver-550$" "fix: the driver branch CUDA 12.4 needs"

# --- PyTorch's words, no toolkit: a finding from the message and the matrix
machine 470.82.01
fx_explain -- "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx"
has_code DRIVER_TOO_OLD
is "$(jq -r '.recognised[0].driver_cuda' "$FX_OUT")" 11.4 "PyTorch's found version 11040 is CUDA 11.4"
like "$(evidence DRIVER_TOO_OLD)" "the driver supports CUDA 11\\.4" "evidence: what the message says the driver supports"
like "$(evidence DRIVER_TOO_OLD)" "driver in use: 470\\.82\\.01" "evidence: the driver here"
like "$(finding DRIVER_TOO_OLD .detail)" "470\\.82\\.01" "the detail names the driver"
# The newest CUDA in the matrix needs a branch no known Ubuntu package has:
# the fix says so in words and names no invented nvidia-driver-NNN.
like "$(fixes DRIVER_TOO_OLD)" "^# it needs driver [0-9.]+ or newer \\(branch [0-9]+\\)" "fix: a newer driver, in words"
unlike "$(fixes DRIVER_TOO_OLD)" "nvidia-driver-[0-9]" "and no package of an unknown branch"
like "$(fixes DRIVER_TOO_OLD)" "^sudo ubuntu-drivers install$" "Ubuntu's own pick"
like "$(fixes DRIVER_TOO_OLD)" "^pip install nvidia-cuda-runtime-cu11$" \
    "fix: or a runtime this driver runs (CUDA 11)"

# --- NVML mismatch the facts confirm: rules_gpu's finding, taken over
machine 535.54.03
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so* "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so*
fx_nv_libs 535.104.05
printf 'Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.104\n' > "$FX.in"
FX_STDIN=$FX.in fx_explain -- -
is "$FX_RC" 1 "mismatch: exit 1"
is "$(jq -r '.recognised[0].library' "$FX_OUT")" 535.104 "NVML's library version read"
has_code DRIVER_LIBRARY_MISMATCH
is "$(jq -r '[.findings[] | select(.code == "DRIVER_LIBRARY_MISMATCH")] | length' "$FX_OUT")" 1 \
    "one DRIVER_LIBRARY_MISMATCH"
like "$(evidence DRIVER_LIBRARY_MISMATCH | head -n 1)" "Driver/library version mismatch" "the message first"
like "$(evidence DRIVER_LIBRARY_MISMATCH)" "535\\.54\\.03" "evidence: the module's version"
like "$(evidence DRIVER_LIBRARY_MISMATCH)" "535\\.104\\.05" "evidence: the libraries' version"

# --- TensorFlow's kernel/DSO words on a tree with no driver facts
fx_new
fx_explain -- "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version 470.57.2 does not match DSO version 510.47.3 -- cannot find working devices in this configuration"
is "$(jq -r '.recognised[0].kernel_module' "$FX_OUT")" 470.57.2 "TensorFlow: the kernel module's version"
has_code DRIVER_LIBRARY_MISMATCH
like "$(finding DRIVER_LIBRARY_MISMATCH .detail)" "470\\.57\\.2 but the driver's userspace libraries are 510\\.47\\.3" \
    "the detail has both versions"
like "$(fixes DRIVER_LIBRARY_MISMATCH)" "^sudo reboot$" "fix: reboot"
like "$(fixes DRIVER_LIBRARY_MISMATCH)" "^sudo apt-get install --reinstall nvidia-driver-510$" \
    "fix: or reinstall the libraries' branch"

# --- PTX from a newer toolkit, on a minor-compat driver
machine 525.60.13
fx_toolkit 12.4.1
fx_explain -- "CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was compiled with an unsupported toolchain."
has_code PTX_TOOLCHAIN_TOO_NEW
lacks_code DRIVER_TOO_OLD
like "$(evidence PTX_TOOLCHAIN_TOO_NEW | head -n 1)" "unsupported toolchain" "the message first"
like "$(fixes PTX_TOOLCHAIN_TOO_NEW)" "compute_90,code=sm_90" "fix: machine code for the H100"
like "$(fixes PTX_TOOLCHAIN_TOO_NEW)" "^sudo apt-get install nvidia-driver-550$" "fix: or the driver CUDA 12.4 needs"

# --- no kernel image, on an H100
machine 580.65.06
fx_explain -- "RuntimeError: CUDA error: no kernel image is available for execution on the device"
has_code GPU_ARCH_UNSUPPORTED
like "$(evidence GPU_ARCH_UNSUPPORTED)" "compute capability 9\\.0" "evidence: the GPU's compute capability"
like "$(evidence GPU_ARCH_UNSUPPORTED)" "9\\.0 \\(Hopper\\) is supported from CUDA 11\\.8" \
    "evidence: the first CUDA that builds for it (matrix)"
like "$(fixes GPU_ARCH_UNSUPPORTED)" "-gencode arch=compute_90,code=sm_90" "fix: the nvcc options"
like "$(fixes GPU_ARCH_UNSUPPORTED)" "^export TORCH_CUDA_ARCH_LIST=9\\.0$" "fix: PyTorch extension builds"

# --- PyTorch's compute capability warning: the message's GPU, not ours
fx_explain -- "NVIDIA A40 with CUDA capability sm_86 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70."
is "$(jq -r '.recognised[0].cc' "$FX_OUT")" 8.6 "sm_86 is 8.6"
is "$(jq -r '.recognised[0].device' "$FX_OUT")" "NVIDIA A40" "the GPU it names"
like "$(evidence GPU_ARCH_UNSUPPORTED)" "the build has code for: sm_37 sm_50 sm_60 sm_70" \
    "evidence: what the build has"
like "$(finding GPU_ARCH_UNSUPPORTED .detail)" "compute capability 8\\.6 \\(Ampere\\)" "the detail names 8.6"
like "$(fixes GPU_ARCH_UNSUPPORTED)" "CUDA 11\\.1 or newer" "fix: a build made with CUDA 11.1 or newer"
like "$(fixes GPU_ARCH_UNSUPPORTED)" "^pip install --upgrade torch$" "fix: the PyTorch command"

# --- a Kepler GPU that CUDA 12 dropped
fx_explain -- "Found GPU0 Tesla K40c which is of cuda capability 3.5.
    PyTorch no longer supports this GPU because it is too old.
    The minimum cuda capability supported by this library is 3.7."
like "$(fixes GPU_ARCH_UNSUPPORTED)" "CUDA after 11\\.8 no longer builds for compute capability 3\\.5" \
    "fix: the last CUDA for the GPU"

# --- CUDA_VISIBLE_DEVICES hides the GPU: rules_gpu's finding
machine 580.65.06
fx_explain CUDA_VISIBLE_DEVICES=-1 -- "RuntimeError: No CUDA GPUs are available
cudaErrorNoDevice: no CUDA-capable device is detected"
has_code NO_VISIBLE_DEVICES
like "$(evidence NO_VISIBLE_DEVICES | head -n 1)" "no CUDA-capable device is detected" "the message first"

# --- a forward-compatibility libcuda on LD_LIBRARY_PATH
machine 580.65.06
fx_so /usr/local/cuda-12.4/compat/libcuda.so.550.54.15 libcuda.so.1
fx_link libcuda.so.550.54.15 /usr/local/cuda-12.4/compat/libcuda.so.1
fx_explain LD_LIBRARY_PATH=/usr/local/cuda-12.4/compat -- "RuntimeError: CUDA error: forward compatibility was attempted on non supported HW"
has_code FORWARD_COMPAT_UNSUPPORTED
like "$(evidence FORWARD_COMPAT_UNSUPPORTED)" "resolves to /usr/local/cuda-12.4/compat/libcuda.so.1" \
    "evidence: the compat libcuda is what loads"
like "$(fixes FORWARD_COMPAT_UNSUPPORTED)" "^unset LD_LIBRARY_PATH$" "fix: the compat directory off LD_LIBRARY_PATH"

done_testing
