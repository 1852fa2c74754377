#!/bin/sh
# Driver advice that fits where it runs (issue 18, point 5): the driver
# lines of every finding come from src/diagnose/fixdriver.c. Each case is a
# machine users have: a kernel update whose new kernel has no module, a
# container, WSL 2, a name ldconfig never caches, a healthy driver 550, and
# GPUs whose last driver branch is old.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

fixes() {	# CODE: the fix lines of every finding CODE
	jq -r --arg c "$1" '.findings[] | select(.code == $c) | .fix[]' "$FX_OUT"
}
commands() {	# CODE: the fix lines that are commands, not comments
	fixes "$1" | grep -v '^#'
}
all_commands() {
	jq -r '.findings[].fix[]' "$FX_OUT" | grep -v '^#'
}
line_no() {	# CODE REGEX: the first fix line of CODE matching REGEX, or 0
	fixes "$1" | grep -n -E -m 1 "$2" | cut -d: -f1 | grep . || echo 0
}

# ---- a kernel update: the driver was upgraded to 550.107.02 and DKMS built
# it for the running 6.8.0-45, but 6.8.0-49 came without headers, so DKMS
# built nothing for it. "reboot" alone would boot a kernel with no driver.
kernel_update() {
	fx_new
	fx_kernel 6.8.0-45-generic
	fx_gpu 0000:01:00.0 2684 nvidia
	fx_pci_ids
	fx_nv_loaded 550.54.14
	fx_nv_libs 550.107.02
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
	fx_kmod 6.8.0-45-generic
	fx_file /var/lib/dkms/nvidia/550.107.02/6.8.0-45-generic/x86_64/module/nvidia.ko ""
	fx_file /var/lib/dkms/nvidia/550.54.14/6.8.0-45-generic/x86_64/module/nvidia.ko ""
	fx_link /usr/src/nvidia-550.107.02 /var/lib/dkms/nvidia/550.107.02/source
	fx_file /lib/modules/6.8.0-49-generic/modules.dep "kernel/drivers/net/e1000/e1000.ko.zst:"
}
kernel_update
fx_doctor
has_code DRIVER_LIBRARY_MISMATCH "module 550.54.14, libraries 550.107.02: a mismatch"
is "$(fx_jq '.facts.driver.boot_kernel')" 6.8.0-49-generic "the next boot runs the newest kernel"
is "$(fx_jq '[.facts.driver.dkms[] | "\(.version)@\(.kernel)"] | sort | join(" ")')" \
    "550.107.02@6.8.0-45-generic 550.54.14@6.8.0-45-generic" "the DKMS builds are read, source link skipped"
hdr=$(line_no DRIVER_LIBRARY_MISMATCH '^sudo apt-get install linux-headers-6\.8\.0-49-generic$')
dk=$(line_no DRIVER_LIBRARY_MISMATCH '^sudo dkms install nvidia/550\.107\.02 -k 6\.8\.0-49-generic$')
rb=$(line_no DRIVER_LIBRARY_MISMATCH '^sudo reboot$')
ok "the new kernel's headers are installed (line $hdr)" [ "$hdr" -gt 0 ]
ok "DKMS builds 550.107.02 for it (line $dk)" [ "$dk" -gt "$hdr" ]
ok "and only then the reboot (line $rb)" [ "$rb" -gt "$dk" ]
like "$(fixes DRIVER_LIBRARY_MISMATCH)" '^# the kernel the next boot runs \(6\.8\.0-49-generic, from the newest kernel under /lib/modules\) has no nvidia module of driver 550\.107\.02' \
    "the fix says why it builds first"
like "$(fixes DRIVER_LIBRARY_MISMATCH)" '^sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia$' \
    "reloading needs no build: the running kernel has 550.107.02"
is "$(fixes DRIVER_LIBRARY_MISMATCH | grep -c 'dkms install')" 1 "the build is given once"

# The module of the old version alone does not count.
kernel_update
fx_kmod 6.8.0-49-generic
fx_file /var/lib/dkms/nvidia/550.54.14/6.8.0-49-generic/x86_64/module/nvidia.ko.zst ""
fx_doctor
ok "a module of the old driver for the new kernel: still built first" \
    [ "$(line_no DRIVER_LIBRARY_MISMATCH '^sudo dkms install nvidia/550\.107\.02 -k 6\.8\.0-49-generic$')" -gt 0 ]

# With the new version built for it, the reboot is safe.
fx_file /var/lib/dkms/nvidia/550.107.02/6.8.0-49-generic/x86_64/module/nvidia.ko.zst ""
fx_doctor
unlike "$(fixes DRIVER_LIBRARY_MISMATCH)" 'dkms|linux-headers' "the new kernel has 550.107.02: no build"
like "$(fixes DRIVER_LIBRARY_MISMATCH)" '^sudo reboot$' "just the reboot"

# grub's saved entry names the kernel that boots, not the newest one.
kernel_update
fx_file /boot/grub/grubenv "# GRUB Environment Block
saved_entry=gnulinux-advanced-0b7c>gnulinux-6.8.0-45-generic-advanced-0b7c
"
fx_doctor
like "$(fx_jq '.facts.driver.sources.boot_kernel // .facts.driver.boot_kernel')" '6\.8\.0-45-generic|grubenv' \
    "grubenv's saved_entry picks 6.8.0-45-generic"
unlike "$(fixes DRIVER_LIBRARY_MISMATCH)" 'linux-headers' "that kernel has the module: no build before the reboot"

# ---- containers: the driver is the host's. A GPU is on the bus, the
# module is not loaded, no driver libraries are mounted.
container() {
	fx_new
	fx_kernel 6.8.0-45-generic
	fx_gpu 0000:01:00.0 2330
	fx_pci_ids
}
container
fx_file /.dockerenv ""
fx_doctor
has_code DRIVER_NOT_LOADED "Docker, GPU present, no module: DRIVER_NOT_LOADED"
c=$(commands DRIVER_NOT_LOADED)
unlike "$c" 'apt-get|modprobe|ubuntu-drivers|dkms' "no driver install or modprobe inside the container"
like "$c" '^docker run --gpus all IMAGE$' "how the container must be started"
like "$(fixes DRIVER_NOT_LOADED)" '^# this is a container: the driver belongs on the host' "the host needs the driver"
like "$(fx_code_field DRIVER_NOT_LOADED .evidence)" 'this is a Docker container' "evidence: Docker"
unlike "$(all_commands)" 'apt-get install nvidia|modprobe' "no finding installs or loads a driver here"

container
fx_file /run/.containerenv ""
fx_doctor
like "$(commands DRIVER_NOT_LOADED)" '^podman run --device nvidia\.com/gpu=all IMAGE$' "Podman: CDI"
unlike "$(all_commands)" 'apt-get install nvidia|modprobe' "Podman: no install, no modprobe"

# No GPU passed in at all: NO_NVIDIA_GPU says how Podman must start it.
fx_new
fx_kernel 6.8.0-45-generic
fx_dir /sys/bus/pci/devices
fx_file /run/.containerenv ""
fx_doctor
has_code NO_NVIDIA_GPU "Podman without a GPU: NO_NVIDIA_GPU"
like "$(commands NO_NVIDIA_GPU)" '^podman run --device nvidia\.com/gpu=all IMAGE$' "... started the Podman way"
unlike "$(commands NO_NVIDIA_GPU)" '^docker run' "... not the Docker way"

container
fx_dir /.singularity.d
fx_doctor
like "$(commands DRIVER_NOT_LOADED)" '^apptainer exec --nv IMAGE\.sif COMMAND$' "Apptainer: --nv"
is "$(fx_jq '.facts.driver.container.apptainer')" true "Apptainer is a fact"

container
fx_doctor_env KUBERNETES_SERVICE_HOST=10.96.0.1
like "$(fixes DRIVER_NOT_LOADED)" 'nvidia\.com/gpu: 1' "Kubernetes: the GPU resource"
is "$(fx_jq '.facts.driver.container.kubernetes')" true "Kubernetes is a fact"
unlike "$(all_commands)" 'apt-get install nvidia|modprobe' "Kubernetes: no install, no modprobe"

container
fx_dir /proc/1
printf 'container=lxc\0PATH=/usr/bin:/bin\0' > "$FX/proc/1/environ"
fx_doctor
is "$(fx_jq '.facts.driver.container.container_env')" lxc "PID 1's container= is read"
unlike "$(all_commands)" 'apt-get install nvidia|modprobe' "a generic container: no install, no modprobe"

# The host's module is loaded, the container has no libcuda (started
# without the toolkit): LIBCUDA_NOT_FOUND, host advice.
container
fx_file /.dockerenv ""
fx_nv_loaded 550.54.14
fx_explain -- "OSError: libcuda.so.1: cannot open shared object file: No such file or directory"
has_code LIBCUDA_NOT_FOUND
unlike "$(commands LIBCUDA_NOT_FOUND)" 'apt-get|modprobe' "LIBCUDA_NOT_FOUND in Docker: no apt-get, no modprobe"
like "$(commands LIBCUDA_NOT_FOUND)" '^docker run --gpus all IMAGE$' "... but the --gpus start"

# ---- WSL 2: the Windows driver; never a Linux one.
fx_new
fx_file /proc/sys/kernel/osrelease "5.15.153.1-microsoft-standard-WSL2"
fx_dir /dev/dxg
fx_so /usr/lib/wsl/lib/libcuda.so.1 libcuda.so.1
fx_file /etc/ld.so.conf.d/ld.wsl.conf "/usr/lib/wsl/lib"
fx_toolkit 12.4.1
fx_explain -- "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"
has_code DRIVER_TOO_OLD "WSL: the message still gives DRIVER_TOO_OLD"
like "$(fixes DRIVER_TOO_OLD)" '^# this is WSL: install or update the NVIDIA driver on Windows \(550\.54\.15 or newer\); it provides /usr/lib/wsl/lib' \
    "the Windows driver, with the version CUDA 12.4 needs"
unlike "$(all_commands)" 'apt-get install.*nvidia|ubuntu-drivers|modprobe|dkms' "no Linux driver, module or DKMS in WSL"

# ---- ldconfig never caches libcuda.so: Debian's driver directory, listed
# in ld.so.conf, holds libcuda.so.1 and the libcuda.so dev link.
fx_new
fx_healthy_gpu
d=/usr/lib/x86_64-linux-gnu/nvidia/current
fx_so $d/libcuda.so.580.65.06 libcuda.so.1
fx_link libcuda.so.580.65.06 $d/libcuda.so.1
fx_link libcuda.so.1 $d/libcuda.so
fx_file /etc/ld.so.conf.d/nvidia.conf "$d"
# The cache ldconfig writes for it: sonames only, never libcuda.so.
printf '%s\n' 'format new' \
    "entry libcuda.so.1 0x303 $d/libcuda.so.1" \
    'entry libnvidia-ml.so.1 0x303 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1' \
    > "$FX.spec"
python3 "$TESTS_SRCDIR/lib/mkldcache.py" "$FX.spec" "$FX/etc/ld.so.cache" ||
    { diag "mkldcache.py failed"; exit 99; }
fx_explain -- "OSError: libcuda.so: cannot open shared object file: No such file or directory"
unlike "$(all_commands)" '^sudo ldconfig$' "no sudo ldconfig for libcuda.so: it changes nothing"
like "$(jq -r '.findings[].fix[]' "$FX_OUT")" '^# ldconfig never puts libcuda\.so \(a name without a version\) in its cache' \
    "the fix says why"
like "$(all_commands)" "^export LD_LIBRARY_PATH=$d" "the directory on LD_LIBRARY_PATH does reach it"

# ---- a healthy machine with driver 550: nothing tells it to install 550.
healthy550() {
	fx_new
	fx_healthy_gpu
	fx_nv_loaded 550.54.15
	rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so* "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so*
	fx_nv_libs 550.54.15
	fx_toolkit 12.4.1
}
healthy550
fx_doctor
lacks_code DRIVER_TOO_OLD "driver 550.54.15 runs CUDA 12.4.1"
unlike "$(all_commands)" 'nvidia-driver' "doctor: no driver install on a healthy 550"
healthy550
fx_explain -- "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"
unlike "$(all_commands)" 'nvidia-driver-550' "explain: no nvidia-driver-550 with 550 installed"

# ---- old GPUs: advice never names a branch the GPU cannot run.
# A Tesla K80 (Kepler, cc 3.7: last branch 470) with CUDA 12.4 (needs 550).
old_gpu() {	# DEVICE PCI-NAME DRIVER
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 "$1" nvidia
	printf '10de  NVIDIA Corporation\n\t%s  %s\n' "$1" "$2" | fx_file /usr/share/misc/pci.ids
	fx_nv_loaded "$3"
	fx_nv_libs "$3"
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
	fx_kmod 6.1.0-13-amd64
	fx_toolkit 12.4.1
}
old_gpu 102d "GK210GL [Tesla K80]" 470.256.02
fx_doctor
has_code DRIVER_TOO_OLD "K80, driver 470, CUDA 12.4: DRIVER_TOO_OLD"
like "$(fixes DRIVER_TOO_OLD)" '^# old GPU: .*Tesla K80.*Kepler, compute capability 3\.7.* up to 470 only' \
    "the fix says the GPU is old, in words"
unlike "$(commands DRIVER_TOO_OLD)" 'nvidia-driver|ubuntu-drivers' "and gives no install command"
unlike "$(all_commands)" 'nvidia-driver-(4[89]|5|6)[0-9]' "no finding names a branch above 470"

# A GeForce 8xxM on Fermi (10de:1140, GF117M; last branch 390) needing CUDA 12.
old_gpu 1140 "GF117M [GeForce 610M/710M/810M/820M / GT 620M/625M/630M/720M]" 390.157
fx_doctor
if [ "$(fx_jq '.facts.gpus[0].compute_capability')" = null ]; then
	# Without a compute capability nothing knows the GPU's last branch.
	skip "Fermi by PCI id: the old-GPU words" "no compute capability for 10de:1140 yet (GPU identity from pci.ids comes with r18-gpu)"
	skip "Fermi by PCI id: no branch above 390" "the same"
else
	like "$(fixes DRIVER_TOO_OLD)" '^# old GPU: .*Fermi.* up to 390 only' "Fermi: the fix says the GPU is old"
	unlike "$(all_commands)" 'nvidia-driver-(39[1-9]|4[0-9][0-9]|5[0-9][0-9]|6[0-9][0-9])' "Fermi: no branch above 390 is named"
fi

done_testing
