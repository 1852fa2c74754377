#!/bin/sh
# Kernel module vs kernel (issue 19, point 7): the module loaded, the module
# file of the running kernel, the next boot's kernel and its module, and
# DKMS's builds are four facts, read from real ELF module files (.modinfo
# version=, the appended-signature trailer). DKMS_MODULE_MISSING fires when
# the kernel the next boot runs has no module, though the running one has.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

fixes() {
	jq -r --arg c "$1" '.findings[] | select(.code == $c) | .fix[]' "$FX_OUT"
}
sev() {
	jq -r --arg c "$1" '[.findings[] | select(.code == $c) | .severity] | join(" ")' "$FX_OUT"
}

# An unattended upgrade installed 6.8.0-49 without its headers: DKMS built
# 550.54.14 for the running 6.8.0-45 only; the next boot runs 6.8.0-49.
upgrade() {
	fx_new
	fx_kernel 6.8.0-45-generic
	fx_gpu 0000:01:00.0 2684 nvidia
	fx_pci_ids
	fx_nv_loaded 550.54.14
	fx_nv_libs 550.54.14
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
	fx_kmod 6.8.0-45-generic
	fx_ko /lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko 550.54.14 signed
	fx_kmod 6.8.0-45-generic updates/dkms/nvidia-uvm.ko
	fx_file /var/lib/dkms/nvidia/550.54.14/6.8.0-45-generic/x86_64/module/nvidia.ko ""
	fx_link /usr/src/nvidia-550.54.14 /var/lib/dkms/nvidia/550.54.14/source
	fx_file /lib/modules/6.8.0-49-generic/modules.dep "kernel/drivers/net/e1000/e1000.ko.zst:"
}
upgrade
fx_doctor
has_code DKMS_MODULE_MISSING "the next boot's kernel has no module: DKMS_MODULE_MISSING"
is "$(sev DKMS_MODULE_MISSING)" warning "a warning: the running kernel works today"
like "$(fx_jq '.findings[] | select(.code == "DKMS_MODULE_MISSING") | .detail')" \
    'next boot runs \(6\.8\.0-49-generic\) has no NVIDIA kernel module.*6\.8\.0-45-generic has one' \
    "the summary names both kernels"
f=$(fixes DKMS_MODULE_MISSING)
like "$f" '^sudo apt-get install linux-headers-6\.8\.0-49-generic$' "the fix installs the new kernel's headers"
like "$f" '^sudo dkms install nvidia/550\.54\.14 -k 6\.8\.0-49-generic$' "and builds the installed driver's module for it"
unlike "$f" 'sudo reboot' "no reboot before the build"
is "$(fx_jq '.facts.driver.module_files[] | select(.path | endswith("/nvidia.ko")) | .version')" \
    550.54.14 "the running kernel's module version comes from its .modinfo"
is "$(fx_jq '.facts.driver.module_files[] | select(.path | endswith("/nvidia.ko")) | .signed')" \
    true "its appended signature is seen"
is "$(fx_jq '.facts.driver.module_files[] | select(.path | endswith("nvidia-uvm.ko")) | .version')" \
    null "nvidia-uvm is not read"
is "$(fx_jq '.facts.driver.dkms[0].state')" installed "the DKMS build is installed into its kernel"
is "$(fx_jq '.facts.driver.sys_module_version')" 550.54.14 "the loaded module's version"
is "$(fx_jq '.facts.driver.boot_kernel')" 6.8.0-49-generic "the next boot runs the newest kernel"
fx_cmd_env "doctor" -- >/dev/null
txt=$(tr -s ' \n' '  ' < "$FX_OUT")
like "$txt" 'running kernel nvidia module 550\.54\.14 signed /lib/modules/6\.8\.0-45-generic/updates/dkms/nvidia\.ko' \
    "text: the running kernel's module, version and signature"
like "$txt" 'next boot 6\.8\.0-49-generic: no nvidia module \(the newest kernel under /lib/modules\)' \
    "text: the next boot's kernel has none"
like "$txt" 'DKMS nvidia/550\.54\.14 for 6\.8\.0-45-generic: installed' "text: the DKMS build and its state"

# DKMS built it for 6.8.0-49 too, but did not install it: still missing.
upgrade
fx_file /var/lib/dkms/nvidia/550.54.14/6.8.0-49-generic/x86_64/module/nvidia.ko ""
fx_doctor
has_code DKMS_MODULE_MISSING "a DKMS build not installed into the kernel's tree does not count"
is "$(fx_jq '[.facts.driver.dkms[] | "\(.kernel)=\(.state)"] | sort | join(" ")')" \
    "6.8.0-45-generic=installed 6.8.0-49-generic=built" "built vs installed per kernel"

# grub boots the running kernel: nothing is missing.
upgrade
fx_file /boot/grub/grubenv "# GRUB Environment Block
saved_entry=gnulinux-advanced-0d1f>gnulinux-6.8.0-45-generic-advanced-0d1f"
fx_doctor
lacks_code DKMS_MODULE_MISSING "grub's saved entry boots the running kernel: no finding"

# The new kernel has its module (compressed: known by name only).
upgrade
fx_kmod 6.8.0-49-generic updates/dkms/nvidia.ko.zst
fx_doctor
lacks_code DKMS_MODULE_MISSING "the next boot's kernel has a module: no finding"
is "$(fx_jq '.facts.driver.module_files[] | select(.path | endswith("nvidia.ko.zst")) | "\(.version) \(.signed)"')" \
    "null null" "a compressed module's version and signature are not guessed"

# The running kernel has no module and nvidia is not loaded: the
# running-kernel finding (an error), once.
fx_new
fx_kernel 6.8.0-49-generic
fx_dir /sys/module/e1000
fx_gpu 0000:01:00.0 2684
fx_pci_ids
fx_nv_libs 550.54.14
fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
fx_kmod 6.8.0-45-generic
fx_ko /lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko 550.54.14
fx_file /lib/modules/6.8.0-49-generic/modules.dep "kernel/drivers/net/e1000/e1000.ko.zst:"
fx_doctor
is "$(sev DKMS_MODULE_MISSING)" error "the running kernel lacks it: one error finding"
like "$(fixes DKMS_MODULE_MISSING)" '^sudo apt-get install linux-headers-6\.8\.0-49-generic$' \
    "its fix builds for the running kernel"
lacks_code DRIVER_NOT_LOADED "not repeated as DRIVER_NOT_LOADED"

done_testing
