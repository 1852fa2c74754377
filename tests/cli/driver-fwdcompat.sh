#!/bin/sh
# Forward compatibility in doctor: the libcuda.so.1 the loader picks is a
# cuda-compat library (cuda-12.4/compat/libcuda.so.550.54.15) over a 535
# kernel module. On a data-center GPU it is the driver (no DRIVER_TOO_OLD
# or PTX_TOOLCHAIN_TOO_NEW for CUDA 12.4, the Driver section says so); on
# a GeForce card FORWARD_COMPAT_UNSUPPORTED with 804 and the fix that
# drops the directory; reached through ld.so.conf.d and a real ld.so.cache
# the fix edits that file; a compat library older than the kernel module
# is 803.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

# TREE: GPU DEVICE, kernel module MODULE, a CUDA 12.4 toolkit, and the
# cuda-compat-12-4 files of driver COMPAT in /usr/local/cuda-12.4/compat.
compat_tree() {	# DEVICE MODULE COMPAT
	fx_new
	fx_healthy_gpu
	rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda* "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml*
	fx_pci_ids_real
	fx_file /sys/bus/pci/devices/0000:01:00.0/device "0x$1"
	fx_nv_loaded "$2"
	fx_nv_libs "$2"
	fx_toolkit 12.4.1
	fx_so "/usr/local/cuda-12.4/compat/libcuda.so.$3" libcuda.so.1
	fx_link "libcuda.so.$3" /usr/local/cuda-12.4/compat/libcuda.so.1
	fx_so "/usr/local/cuda-12.4/compat/libnvidia-ptxjitcompiler.so.$3" \
	    libnvidia-ptxjitcompiler.so.1
}
LLP=LD_LIBRARY_PATH=/usr/local/cuda-12.4/compat:/usr/local/cuda-12.4/lib64

# 1. H100 (10de:2330), 535 module, compat 550.54.15 on LD_LIBRARY_PATH.
compat_tree 2330 535.104.05 550.54.15
FX_ENV=$LLP
fx_doctor
fx_ran_ok
lacks_code FORWARD_COMPAT_UNSUPPORTED "H100 with a compat library: supported"
lacks_code DRIVER_TOO_OLD "... no DRIVER_TOO_OLD for CUDA 12.4"
lacks_code PTX_TOOLCHAIN_TOO_NEW "... nor PTX_TOOLCHAIN_TOO_NEW: the compat driver is 550"
is "$(fx_jq .facts.driver.libcuda_loaded.forward_compat)" true "JSON: the loaded libcuda is a forward-compatibility library"
is "$(fx_jq .facts.driver.libcuda_loaded.version)" 550.54.15 "... its version from the file name"
is "$(fx_jq .facts.driver.libcuda_loaded.compat_cuda)" 12.4 "... for CUDA 12.4 (the directory)"
is "$(fx_jq .facts.driver.libcuda_loaded.path)" /usr/local/cuda-12.4/compat/libcuda.so.550.54.15 "... the real file"
fx_cmd_env doctor "$LLP"
like "$(cat "$FX_OUT")" 'libcuda loaded +550\.54\.15' "text: the Driver section shows the libcuda that loads"
like "$(cat "$FX_OUT")" '\(forward compatibility for CUDA 12\.4\)' "... as forward compatibility for CUDA 12.4"
# Without the compat directory the kernel module is judged again.
FX_ENV=LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_doctor
is "$(fx_jq .facts.driver.libcuda_loaded.forward_compat)" false "without the compat directory the driver's own libcuda loads"
has_code PTX_TOOLCHAIN_TOO_NEW "... and the 535 module is judged against CUDA 12.4 again"

# 1b. The same with a 470 module, the oldest branch 12.x compat runs
# over: the module alone is below CUDA 12's floor (DRIVER_TOO_OLD), the
# compat library runs CUDA 12.4.
compat_tree 2330 470.57.02 550.54.15
FX_ENV=$LLP
fx_doctor
lacks_code FORWARD_COMPAT_UNSUPPORTED "H100 + 470 module + compat 12.4: supported"
lacks_code DRIVER_TOO_OLD "... no DRIVER_TOO_OLD: the compat library is the driver"
FX_ENV=LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_doctor
has_code DRIVER_TOO_OLD "... without it, the 470 module is too old for CUDA 12.4"

# 2. GeForce RTX 3090 (10de:2204), the same setup: 804.
compat_tree 2204 535.104.05 550.54.15
FX_ENV=$LLP
fx_doctor
has_code FORWARD_COMPAT_UNSUPPORTED "RTX 3090 with a compat library: FORWARD_COMPAT_UNSUPPORTED"
is "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .severity)" error "... an error"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .detail)" 'cudaErrorCompatNotSupportedOnDevice \(804\)' "... says what programs get (804)"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .detail)" 'CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE' "... and the driver API's name"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .evidence)" 'GeForce RTX 3090\] \(10de:2204\)' "the evidence names the GPU"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .evidence)" '^libcuda.so.1 resolves to /usr/local/cuda-12.4/compat/libcuda.so.1 \(LD_LIBRARY_PATH entry /usr/local/cuda-12.4/compat\)' \
    "... and the step that picks the compat library"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .fix)" '^export LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64$' \
    "the fix is LD_LIBRARY_PATH without the compat directory"
FX_ENV=LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_doctor
lacks_code FORWARD_COMPAT_UNSUPPORTED "with the fix applied, the finding goes"

# 3. Through ld.so.conf.d and a real ld.so.cache, installed by the package.
compat_tree 2204 535.104.05 550.54.15
fx_file /etc/ld.so.conf.d/000_cuda-compat.conf /usr/local/cuda-12.4/compat
fx_file /var/lib/dpkg/info/cuda-compat-12-4.list "/.
/usr
/usr/local
/usr/local/cuda-12.4
/usr/local/cuda-12.4/compat
/usr/local/cuda-12.4/compat/libcuda.so.550.54.15
/usr/local/cuda-12.4/compat/libcuda.so.1
/usr/local/cuda-12.4/compat/libnvidia-ptxjitcompiler.so.550.54.15"
fx_file /var/lib/dpkg/info/cuda-compiler-12-4.list "/usr/local/cuda-12.4/bin"
if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1 &&
    ldconfig -X -r "$FX" -f /etc/ld.so.conf -C /etc/ld.so.cache 2>/dev/null; then
	FX_ENV=
	fx_doctor
	is "$(fx_jq '.facts.libraries[] | select(.soname == "libcuda.so.1") | .via')" ld.so.conf \
	    "the real cache picks the compat library"
	has_code FORWARD_COMPAT_UNSUPPORTED "compat through ld.so.conf.d on an RTX 3090: FORWARD_COMPAT_UNSUPPORTED"
	is "$(fx_jq .facts.driver.libcuda_loaded.compat_package)" cuda-compat-12-4 "dpkg's list names the package"
	like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .fix)" '/etc/ld.so.conf.d/000_cuda-compat.conf' \
	    "the fix edits the conf file that lists the directory"
	like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .fix)" '^sudo ldconfig$' "... and reruns ldconfig"
	like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .fix)" '^sudo apt-get remove cuda-compat-12-4$' \
	    "... or removes the package (a catalogue name)"
	like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .evidence)" '^package cuda-compat-12-4 installed it$' \
	    "the evidence names the package"
else
	for t in 1 2 3 4 5 6 7; do
		skip "compat through a real ld.so.cache" "needs root and ldconfig -r"
	done
fi

# 4. A compat library older than the kernel module: 803 on an H100.
compat_tree 2330 550.54.15 535.104.05
FX_ENV=$LLP
fx_doctor
has_code FORWARD_COMPAT_UNSUPPORTED "compat 535 over a 550 module: FORWARD_COMPAT_UNSUPPORTED"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .detail)" 'cudaErrorSystemDriverMismatch \(803\)' "... 803"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .detail)" 'older than the kernel module in use \(550\.54\.15\)' "... names both versions"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .fix)" '^export LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64$' "... and drops the directory"

# 5. A kernel module older than the compat package works over: 803.
compat_tree 2330 450.80.02 550.54.15
FX_ENV=$LLP
fx_doctor
has_code FORWARD_COMPAT_UNSUPPORTED "compat 12.4 over a 450 module: FORWARD_COMPAT_UNSUPPORTED"
like "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .detail)" 'older than the oldest it works over \(470\.57\.02\)' "... below R470: 803"

# 6. A professional card (RTX A6000): only select SKUs; a warning.
compat_tree 2230 535.104.05 550.54.15
fx_file /proc/driver/nvidia/gpus/0000:01:00.0/information "Model: 		 NVIDIA RTX A6000"
rm -f "$FX/usr/share/misc/pci.ids"
FX_ENV=$LLP
fx_doctor
is "$(fx_code_field FORWARD_COMPAT_UNSUPPORTED .severity)" warning "RTX A6000: FORWARD_COMPAT_UNSUPPORTED as a warning"


# A framework's runtime meets the compat library too: torch 2.4.0+cu124
# in a virtualenv on the H100 with a 470 module and compat 12.4 is not
# DRIVER_TOO_OLD (judged against the 470 module, whose CUDA 11.x cannot
# run a CUDA 12 runtime, it was).
compat_tree 2330 470.57.02 550.54.15
E=/home/u/venvs/torch
fx_venv_env $E 3.11
S=$FX_SITE
fx_nvidia_wheel $S nvidia-cuda-runtime-cu12 12.4.127
fx_torch $S 2.4.0+cu124 12.4 -r '$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN' \
    libcudart.so.12
fx_doctor_env VIRTUAL_ENV=$E $LLP
is "$(fw_jq $E pytorch .cuda)" 12.4 "torch cu124 on compat 12.4: built with CUDA 12.4"
lacks_code DRIVER_TOO_OLD "... no DRIVER_TOO_OLD: its runtime meets the compat library"
lacks_code FORWARD_COMPAT_UNSUPPORTED "... and the compat library is supported"

done_testing
