#!/bin/sh
# The GPU and driver rules on fixture trees: a healthy tree gives none of
# them; each broken tree gives exactly its own code.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

GPU_CODES="NO_NVIDIA_GPU DRIVER_NOT_LOADED NOUVEAU_ACTIVE DKMS_MODULE_MISSING
DRIVER_LIBRARY_MISMATCH NO_VISIBLE_DEVICES"

# The GPU codes of the last run, space-separated, sorted.
gpu_codes() {
	for c in $GPU_CODES; do
		fx_codes | grep -x "$c"
	done | sort | tr '\n' ' ' | sed 's/ $//'
}

sev() {
	fx_code_field "$1" .severity
}

# A machine whose GPU is bound to nothing and whose module is not loaded.
unloaded_gpu() {
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 2330 "${1:-}"
	fx_kmod 6.1.0-13-amd64
}

# ---- healthy
fx_new
fx_healthy_gpu
fx_doctor
is "$(gpu_codes)" "" "a healthy machine gives no GPU or driver finding"
is "$FX_RC" 0 "and exits 0"
is "$(fx_jq '.summary.errors')" 0 "no errors at all"

# ---- NO_NVIDIA_GPU
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:00:02.0 a780 i915 030000 8086
fx_gpu 0000:01:00.1 22ba snd_hda_intel 040300
fx_doctor
is "$(gpu_codes)" "NO_NVIDIA_GPU" "only an Intel GPU and NVIDIA audio: NO_NVIDIA_GPU alone"
is "$(sev NO_NVIDIA_GPU)" "error" "an error"
is "$FX_RC" 1 "exit status 1"
like "$(fx_code_field NO_NVIDIA_GPU .evidence)" '^/sys/bus/pci/devices: no NVIDIA \(0x10de\) display device$' \
    "evidence names the bus directory"
like "$(fx_code_field NO_NVIDIA_GPU .fix)" '^lspci -nn -d 10de:$' "the fix lists NVIDIA devices"
unlike "$(fx_code_field NO_NVIDIA_GPU .fix)" 'docker run' "no container hint outside a container"

fx_file /.dockerenv ""
fx_doctor
like "$(fx_code_field NO_NVIDIA_GPU .fix)" 'docker run --gpus all' \
    "in a Docker container the fix says how to pass GPUs in"

fx_new
fx_kernel 6.1.0-13-amd64
fx_doctor
is "$(gpu_codes)" "" "no /sys/bus/pci: no GPU finding at all (unknown is not none)"

# ---- WSL: no PCI GPU is normal
fx_new
fx_kernel 5.15.153.1-microsoft-standard-WSL2
fx_dir /sys/bus/pci/devices
fx_file /dev/dxg ""
fx_so /usr/lib/wsl/lib/libcuda.so.1.1 libcuda.so.1
fx_so /usr/lib/wsl/lib/libnvidia-ml.so.1 libnvidia-ml.so.1
FX_ENV="CUDA_VISIBLE_DEVICES=1"
fx_doctor
is "$(fx_jq '.facts.driver.wsl.detected')" "true" "WSL detected"
is "$(gpu_codes)" "" "WSL without PCI GPUs: no GPU or driver finding (index not judged)"

# ---- DRIVER_NOT_LOADED
unloaded_gpu
fx_doctor
is "$(gpu_codes)" "DRIVER_NOT_LOADED" "GPU present, module not loaded: DRIVER_NOT_LOADED alone"
is "$(sev DRIVER_NOT_LOADED)" "error" "an error"
fix=$(fx_code_field DRIVER_NOT_LOADED .fix)
like "$fix" '^sudo modprobe nvidia$' "the fix loads the module"
like "$fix" '^sudo apt-get install nvidia-driver$' "no libcuda: the fix installs the driver"
like "$(fx_code_field DRIVER_NOT_LOADED .evidence)" '^/sys/module/nvidia: the nvidia module is not loaded' \
    "evidence names /sys/module/nvidia"

unloaded_gpu
fx_nv_libs 535.104.05
fx_doctor
is "$(gpu_codes)" "DRIVER_NOT_LOADED" "with the libraries installed: still DRIVER_NOT_LOADED alone"
unlike "$(fx_code_field DRIVER_NOT_LOADED .fix)" 'apt-get install nvidia-driver' \
    "no install hint when the driver's libraries are there"

# ---- vfio-pci passthrough
unloaded_gpu vfio-pci
fx_doctor
is "$(gpu_codes)" "DRIVER_NOT_LOADED" "GPU on vfio-pci: DRIVER_NOT_LOADED"
is "$(sev DRIVER_NOT_LOADED)" "warning" "a warning, not an error"
like "$(fx_code_field DRIVER_NOT_LOADED .detail)" 'vfio-pci.*virtual machine' \
    "the detail says it is passed through to a VM"
is "$(fx_jq '.facts.gpus[0].kernel_driver')" "vfio-pci" "kernel_driver is vfio-pci"
is "$FX_RC" 0 "exit status 0 (no error)"

# ---- NOUVEAU_ACTIVE
unloaded_gpu nouveau
fx_dir /sys/module/nouveau
fx_doctor
is "$(gpu_codes)" "NOUVEAU_ACTIVE" "GPU bound to nouveau: NOUVEAU_ACTIVE alone"
is "$(fx_jq '.facts.driver.nouveau_loaded')" "true" "nouveau_loaded"
is "$(fx_jq '.facts.gpus[0].kernel_driver')" "nouveau" "kernel_driver is nouveau"
fix=$(fx_code_field NOUVEAU_ACTIVE .fix)
like "$fix" "blacklist nouveau.*options nouveau modeset=0.*/etc/modprobe.d/" \
    "the fix blacklists nouveau in modprobe.d"
like "$fix" '^sudo update-initramfs -u$' "and rebuilds the initramfs"
like "$fix" '^sudo reboot$' "and reboots"
like "$(fx_code_field NOUVEAU_ACTIVE .evidence)" '0000:01:00.0 .*kernel driver nouveau' \
    "evidence shows the GPU's binding"

unloaded_gpu
fx_dir /sys/module/nouveau
fx_doctor
is "$(gpu_codes)" "NOUVEAU_ACTIVE" "nouveau loaded, GPU unbound: NOUVEAU_ACTIVE alone"

# ---- DKMS_MODULE_MISSING: a kernel update without a rebuilt module
fx_new
fx_kernel 6.5.0-2-amd64
fx_gpu 0000:01:00.0 2330
fx_nv_libs 535.104.05
fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
fx_kmod 6.1.0-13-amd64
fx_file /lib/modules/6.5.0-2-amd64/modules.dep "kernel/drivers/net/e1000.ko.xz:"
fx_doctor
is "$(gpu_codes)" "DKMS_MODULE_MISSING" "module only for the old kernel: DKMS_MODULE_MISSING alone"
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "false" "modules_for_running_kernel false"
like "$(fx_code_field DKMS_MODULE_MISSING .detail)" 'built for 6\.1\.0-13-amd64 but not for the running kernel 6\.5\.0-2-amd64' \
    "the detail names both kernels"
ev=$(fx_code_field DKMS_MODULE_MISSING .evidence)
like "$ev" '^running kernel: 6\.5\.0-2-amd64 \(/proc/sys/kernel/osrelease\)' "evidence: the running kernel"
like "$ev" '^/lib/modules/6\.1\.0-13-amd64/updates/dkms/nvidia\.ko \(kernel 6\.1\.0-13-amd64\)' \
    "evidence: the old kernel's module"
fix=$(fx_code_field DKMS_MODULE_MISSING .fix)
like "$fix" '^sudo apt-get install linux-headers-6\.5\.0-2-amd64$' "the fix installs the running kernel's headers"
like "$fix" '^sudo dkms autoinstall -k 6\.5\.0-2-amd64$' "and rebuilds with dkms for that kernel"
is "$(printf '%s\n' "$fix" | grep -c 'linux-headers')" 1 "the build is given once, not again before modprobe"

# No GPU on the bus but the driver installed (a GPU the bus does not show):
# the libraries alone are reason enough.
fx_new
fx_kernel 6.5.0-2-amd64
fx_nv_libs 535.104.05
fx_dir /lib/modules/6.5.0-2-amd64/kernel
fx_doctor
has_code DKMS_MODULE_MISSING "driver libraries without a module for the running kernel"

# The running kernel's module tree is absent (a container): unknown.
fx_new
fx_kernel 6.5.0-2-amd64
fx_gpu 0000:01:00.0 2330
fx_kmod 6.1.0-13-amd64
fx_doctor
is "$(gpu_codes)" "DRIVER_NOT_LOADED" "no /lib/modules/<running>: no DKMS finding"
like "$(fx_jq '.facts.driver.unknown.modules_for_running_kernel')" '/lib/modules/6\.5\.0-2-amd64 does not exist' \
    "modules_for_running_kernel unknown, with the reason"

# ---- DRIVER_LIBRARY_MISMATCH: upgraded libraries, old module
fx_new
fx_healthy_gpu
fx_nv_loaded 535.104.05
fx_doctor
is "$(gpu_codes)" "DRIVER_LIBRARY_MISMATCH" "module 535.104.05, libraries 580.65.06: DRIVER_LIBRARY_MISMATCH alone"
ev=$(fx_code_field DRIVER_LIBRARY_MISMATCH .evidence)
like "$ev" '^/proc/driver/nvidia/version: 535\.104\.05$' "evidence: the module's version"
like "$ev" '^/usr/lib/x86_64-linux-gnu/libcuda\.so\.580\.65\.06: 580\.65\.06$' "evidence: libcuda's"
like "$ev" '^/usr/lib/x86_64-linux-gnu/libnvidia-ml\.so\.580\.65\.06: 580\.65\.06$' "evidence: NVML's"
fix=$(fx_code_field DRIVER_LIBRARY_MISMATCH .fix)
like "$fix" '^sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia$' \
    "the fix reloads the modules"
like "$fix" '^sudo reboot$' "or reboots"
like "$(fx_code_field DRIVER_LIBRARY_MISMATCH .detail)" 'Driver/library version mismatch' \
    "the detail quotes NVML's message"

# A leftover copy in another directory next to a matching one.
fx_new
fx_healthy_gpu
fx_nv_libs 550.54.15 /usr/lib64
fx_doctor
is "$(gpu_codes)" "DRIVER_LIBRARY_MISMATCH" "a stale copy in /usr/lib64: DRIVER_LIBRARY_MISMATCH"
like "$(fx_code_field DRIVER_LIBRARY_MISMATCH .fix)" '^dpkg -S /usr/lib64/libcuda\.so\.550\.54\.15$' \
    "the fix asks which package owns the stale copy"

# WSL libraries next to a loaded module do not count.
fx_new
fx_healthy_gpu
fx_so /usr/lib/wsl/lib/libcuda.so.1.1 libcuda.so.1
fx_doctor
lacks_code DRIVER_LIBRARY_MISMATCH "WSL's versionless libcuda.so.1.1 is no mismatch"

done_testing
