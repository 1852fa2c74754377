#!/bin/sh
# The driver probe: module versions, loaded modules, the userspace driver
# libraries, module files per kernel, WSL, containers, Colab-like runtimes.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

# ---- the healthy machine
fx_new
fx_healthy_gpu
fx_doctor
is "$(fx_jq '.facts.driver.kernel_release')" "6.1.0-13-amd64" "kernel release"
is "$(fx_jq '.facts.driver.sources.kernel_release')" "/proc/sys/kernel/osrelease" "its source"
is "$(fx_jq '.facts.driver.module_version')" "580.65.06" "module version from /proc"
is "$(fx_jq '.facts.driver.sys_module_version')" "580.65.06" "module version from /sys"
is "$(fx_jq '.facts.driver.nvidia_loaded')" "true" "nvidia loaded"
is "$(fx_jq '.facts.driver.nouveau_loaded')" "false" "nouveau not loaded"
is "$(fx_jq '[.facts.driver.libraries[] | "\(.name) \(.version) \(.path) \(.wsl)"] | join("|")')" \
    "libcuda 580.65.06 /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 false|libnvidia-ml 580.65.06 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.65.06 false" \
    "libcuda and libnvidia-ml by their real file names, once each"
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "true" "a module for the running kernel"
is "$(fx_jq '.facts.driver.module_files[0].path')" \
    "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko" "the module file from modules.dep"
is "$(fx_jq '.facts.driver.kernels | join(" ")')" "6.1.0-13-amd64" "the kernels on disk"
is "$(fx_jq '.facts.driver.wsl.detected')" "false" "not WSL"
is "$(fx_jq '.facts.driver.container.docker')" "false" "not Docker"
is "$(fx_jq '.facts.driver.colab.release')" "null" "not Colab"

# ---- the spellings of /proc/driver/nvidia/version
version_of() {	# CONTENT
	fx_new
	fx_file /proc/driver/nvidia/version "$1"
	fx_doctor
	fx_jq '.facts.driver.module_version'
}
is "$(version_of "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.104.05  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Aug 22 16:52:33 UTC 2023
GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)")" "535.104.05" "the open kernel module's line"
is "$(version_of "NVRM version: NVIDIA UNIX aarch64 Kernel Module  550.54.15  Tue Mar  5 22:15:33 UTC 2024")" \
    "550.54.15" "the aarch64 line"
is "$(version_of "NVRM version: NVIDIA UNIX x86_64 Kernel Module  390.116  Sun Jan 27 07:21:36 PST 2019")" \
    "390.116" "an old two-part version"
is "$(version_of "GCC version:  gcc version 12.2.0
NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:14 UTC 2025")" \
    "580.65.06" "the NVRM line need not come first (and gcc's version is not it)"

# ---- where the libraries are looked for
fx_new
fx_kernel 6.1.0-13-amd64
fx_nv_libs 535.104.05 /usr/lib64
fx_doctor
is "$(fx_jq '[.facts.driver.libraries[].path] | join(" ")')" \
    "/usr/lib64/libcuda.so.535.104.05 /usr/lib64/libnvidia-ml.so.535.104.05" "/usr/lib64 (Fedora, RHEL)"

fx_new
fx_kernel 6.1.0-13-amd64
fx_dir /usr/lib
fx_link usr/lib /lib
fx_nv_libs 535.104.05 /usr/lib/x86_64-linux-gnu
fx_doctor
is "$(fx_jq '.facts.driver.libraries | length')" 2 \
    "a merged /usr (/lib -> usr/lib) lists each library once"

fx_new
fx_kernel 6.1.0-13-amd64
fx_nv_libs 550.54.15 /opt/nvidia/lib
fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf"
fx_file /etc/ld.so.conf.d/nvidia.conf "/opt/nvidia/lib"
fx_so /usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so.550.54.15 libcuda.so.1
fx_file /etc/ld.so.conf.d/cuda-stubs.conf "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
fx_doctor
if [ "$(fx_jq '.facts.env.ld_so_conf | length')" -ge 1 ]; then
	like "$(fx_jq '[.facts.driver.libraries[].path] | join(" ")')" '^/opt/nvidia/lib/libcuda\.so\.550\.54\.15 ' \
	    "a directory from ld.so.conf is searched, first"
else
	skip "a directory from ld.so.conf is searched" \
	    "the environment probe does not list ld.so.conf directories yet"
fi
unlike "$(fx_jq '[.facts.driver.libraries[].path] | join(" ")')" 'stubs' \
    "the toolkit's stubs directory is skipped"

fx_new
fx_kernel 6.1.0-13-amd64
fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.1.1 libcuda.so.1
fx_doctor
is "$(fx_jq '.facts.driver.libraries[0].version')" "null" \
    "a libcuda.so.1.1 outside WSL carries no driver version"

# ---- WSL
fx_new
fx_kernel 5.15.153.1-microsoft-standard-WSL2
fx_dir /sys/bus/pci/devices
fx_file /dev/dxg ""
fx_so /usr/lib/wsl/lib/libcuda.so.1.1 libcuda.so.1
cp "$FX/usr/lib/wsl/lib/libcuda.so.1.1" "$FX/usr/lib/wsl/lib/libcuda.so.1"
cp "$FX/usr/lib/wsl/lib/libcuda.so.1.1" "$FX/usr/lib/wsl/lib/libcuda.so"
fx_so /usr/lib/wsl/lib/libnvidia-ml.so.1 libnvidia-ml.so.1
fx_doctor
is "$(fx_jq '.facts.driver.wsl | [.detected, .microsoft_kernel, .dev_dxg, .lib_dir] | map(tostring) | join(" ")')" \
    "true true true true" "WSL: detected by kernel, /dev/dxg and /usr/lib/wsl/lib"
is "$(fx_jq '[.facts.driver.libraries[] | "\(.name) \(.version) \(.path) \(.wsl)"] | join("|")')" \
    "libcuda null /usr/lib/wsl/lib/libcuda.so.1.1 true|libnvidia-ml null /usr/lib/wsl/lib/libnvidia-ml.so.1 true" \
    "WSL's libraries: the real files, no driver version"
is "$(fx_jq '.facts.gpus | length')" 0 "no PCI GPU inside WSL"
lacks_code NO_NVIDIA_GPU "no NO_NVIDIA_GPU inside WSL"
lacks_code DRIVER_NOT_LOADED "no DRIVER_NOT_LOADED inside WSL"
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "null" "no module tree for a WSL kernel"
out=$(env -i "$CUDAWIZ" doctor --root "$FX")
like "$out" 'normal inside WSL' "the text report says no PCI GPU is normal in WSL"

fx_new
fx_kernel 4.4.0-19041-Microsoft
fx_doctor
is "$(fx_jq '.facts.driver.wsl.microsoft_kernel')" "true" "WSL1's kernel name (any case)"
fx_new
fx_kernel 6.1.0-13-amd64
fx_doctor
is "$(fx_jq '.facts.driver.wsl.detected')" "false" "a Debian kernel is not WSL"

# ---- containers and Colab
fx_new
fx_file /.dockerenv ""
fx_doctor
is "$(fx_jq '.facts.driver.container | [.docker, .podman] | map(tostring) | join(" ")')" \
    "true false" "/.dockerenv: Docker"
fx_new
fx_file /run/.containerenv "engine=\"podman-4.3.1\""
fx_doctor
is "$(fx_jq '.facts.driver.container | [.docker, .podman] | map(tostring) | join(" ")')" \
    "false true" "/run/.containerenv: Podman"

fx_new
fx_kernel 6.1.85+
fx_nv_libs 535.104.05 /usr/lib64-nvidia
FX_ENV="COLAB_RELEASE_TAG=release-colab_20240626-060133_RC00"
fx_doctor
is "$(fx_jq '.facts.driver.colab.release')" "release-colab_20240626-060133_RC00" "COLAB_RELEASE_TAG"
is "$(fx_jq '.facts.driver.colab.lib64_nvidia')" "true" "/usr/lib64-nvidia"
is "$(fx_jq '.facts.driver.libraries[0].path')" "/usr/lib64-nvidia/libcuda.so.535.104.05" \
    "libraries in /usr/lib64-nvidia are found"
is "$(fx_jq '.facts.driver.kernel_release')" "6.1.85+" "a release with a plus sign"

# ---- module files
fx_new
fx_kernel 6.8.0-45-generic
fx_file /lib/modules/6.8.0-45-generic/kernel/nvidia-550srv/nvidia.ko.zst ""
fx_file /lib/modules/6.8.0-45-generic/kernel/nvidia-550srv/nvidia-uvm.ko.zst ""
fx_file /lib/modules/6.8.0-45-generic/kernel/drivers/net/e1000.ko.zst ""
fx_file /lib/modules/6.1.0-13-amd64/updates/dkms/nvidia-current.ko.xz ""
fx_file /lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.txt ""
fx_dir /lib/modules/5.10.0-8-amd64/kernel
fx_doctor
is "$(fx_jq '.facts.driver.kernels | join(" ")')" "5.10.0-8-amd64 6.1.0-13-amd64 6.8.0-45-generic" \
    "every kernel under /lib/modules"
is "$(fx_jq '[.facts.driver.module_files[] | "\(.kernel):\(.path)"] | join(" ")')" \
    "6.1.0-13-amd64:/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia-current.ko.xz 6.8.0-45-generic:/lib/modules/6.8.0-45-generic/kernel/nvidia-550srv/nvidia-uvm.ko.zst 6.8.0-45-generic:/lib/modules/6.8.0-45-generic/kernel/nvidia-550srv/nvidia.ko.zst" \
    "without modules.dep: Ubuntu's kernel/nvidia-*/ and Debian's nvidia-current, compressed"
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "true" "the running kernel has one"

fx_new
fx_kernel 6.1.0-13-amd64
fx_file /lib/modules/6.1.0-13-amd64/modules.dep "kernel/drivers/net/e1000.ko.xz:
updates/dkms/nvidia.ko: kernel/drivers/i2c/i2c-core.ko.xz
updates/dkms/nvidia-uvm.ko: updates/dkms/nvidia.ko"
fx_file /lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko ""
fx_file /lib/modules/6.1.0-13-amd64/extra/nvidia-unlisted.ko ""
fx_doctor
is "$(fx_jq '[.facts.driver.module_files[].path] | join(" ")')" \
    "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko" \
    "modules.dep is what counts: an unlisted file and a listed but missing one are left out"

fx_new
fx_kernel 6.1.0-13-amd64
fx_file /lib/modules/6.1.0-13-amd64/modules.dep "kernel/drivers/net/e1000.ko.xz:"
fx_file /lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko ""
fx_doctor
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "false" \
    "a module depmod never saw does not count (modprobe cannot load it)"

# ---- loaded modules
fx_new
fx_kernel 6.1.0-13-amd64
fx_dir /sys/module/nouveau
fx_doctor
is "$(fx_jq '[.facts.driver.nvidia_loaded, .facts.driver.nouveau_loaded] | map(tostring) | join(" ")')" \
    "false true" "nouveau loaded, nvidia not"
is "$(fx_jq '.facts.driver.module_version')" "null" "no module version without the module"

fx_new
fx_dir /proc/driver/nvidia
fx_doctor
is "$(fx_jq '.facts.driver.nvidia_loaded')" "true" "/proc/driver/nvidia alone also means loaded"
fx_new
fx_doctor
is "$(fx_jq '.facts.driver.nvidia_loaded')" "null" "without /sys/module it is not known"
like "$(fx_jq '.facts.driver.unknown.nvidia_loaded')" '/sys/module does not exist' "and says why"
like "$(fx_jq '.facts.driver.unknown.kernel_release')" '/proc/sys/kernel/osrelease does not exist' \
    "a missing osrelease: the kernel release is unknown, with why"
like "$(fx_jq '.facts.driver.unknown.modules_for_running_kernel')" 'release is unknown' \
    "and so is the running kernel's module"

done_testing
