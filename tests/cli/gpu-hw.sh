#!/bin/sh
# Hardware evidence readable without the driver (issue 19, point 8): each
# GPU's PCIe link, nouveau bound instead of nvidia, Secure Boot refusing an
# unsigned or unenrolled module (real ELF modules, the SecureBoot EFI
# variable's real layout), and NVRM Xid lines of the kernel log (records in
# /dev/kmsg's format), each explained, grouped per GPU and code.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

fixes() {
	jq -r --arg c "$1" '.findings[] | select(.code == $c) | .fix[]' "$FX_OUT"
}
field() {	# CODE JQ
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c) | $2] | join(\"\\n\")" "$FX_OUT"
}
link() {	# ADDR SPEED WIDTH MAXSPEED MAXWIDTH
	fx_file "/sys/bus/pci/devices/$1/current_link_speed" "$2"
	fx_file "/sys/bus/pci/devices/$1/current_link_width" "$3"
	fx_file "/sys/bus/pci/devices/$1/max_link_speed" "$4"
	fx_file "/sys/bus/pci/devices/$1/max_link_width" "$5"
}
healthy() {
	fx_new
	fx_healthy_gpu
	fx_pci_ids
}

# ---- PCIe link: x4 on an x16 card (a riser) is a finding; an idle link
# at 2.5 GT/s with all its lanes is not.
healthy
link 0000:01:00.0 "8.0 GT/s PCIe" 4 "32.0 GT/s PCIe" 16
fx_doctor
has_code PCIE_LINK_DEGRADED "x4 of x16: PCIE_LINK_DEGRADED"
is "$(field PCIE_LINK_DEGRADED .severity)" warning "a warning"
like "$(field PCIE_LINK_DEGRADED '.evidence[]')" '^0000:01:00\.0: link x4 of x16, at 8\.0 GT/s PCIe \(up to 32\.0 GT/s PCIe\)$' \
    "evidence: the lanes and speeds"
like "$(field PCIE_LINK_DEGRADED .detail)" 'lower link speed alone is normal' "it says idle down-training is normal"
like "$(fixes PCIE_LINK_DEGRADED)" "^sudo lspci -vv -s 0000:01:00.0 \| grep -E 'LnkCap\|LnkSta'$" "the fix shows LnkCap/LnkSta"
is "$(fx_jq '.facts.gpus[0] | "\(.link_speed) x\(.link_width) / \(.max_link_speed) x\(.max_link_width)"')" \
    "8.0 GT/s PCIe x4 / 32.0 GT/s PCIe x16" "JSON: the link facts"
fx_cmd_env "doctor" -- >/dev/null
like "$(cat "$FX_OUT")" 'PCIe link x4 of x16, 8\.0 GT/s PCIe \(up to 32\.0 GT/s PCIe\)' "text: the GPU's link"

healthy
link 0000:01:00.0 "2.5 GT/s PCIe" 16 "32.0 GT/s PCIe" 16
fx_doctor
lacks_code PCIE_LINK_DEGRADED "Gen1 speed at full width (idle power saving): no finding"
healthy
fx_doctor
lacks_code PCIE_LINK_DEGRADED "no link files (not PCIe): no finding"
is "$(fx_jq '.facts.gpus[0].link_width')" null "the link is unknown, not zero"

# ---- nouveau bound to the GPU (the device's driver link), blacklisted
# with the initramfs rebuilt and a reboot.
fx_new
fx_kernel 6.8.0-45-generic
fx_dir /sys/module/nouveau
fx_gpu 0000:01:00.0 2684 nouveau
fx_pci_ids
fx_nv_libs 550.54.14
fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
fx_kmod 6.8.0-45-generic
fx_doctor
has_code NOUVEAU_ACTIVE "nouveau bound: NOUVEAU_ACTIVE"
like "$(field NOUVEAU_ACTIVE '.evidence[]')" '0000:01:00\.0 .*kernel driver nouveau' "from the device's driver link"
f=$(fixes NOUVEAU_ACTIVE)
like "$f" 'blacklist nouveau.*/etc/modprobe\.d/blacklist-nouveau\.conf' "the fix blacklists nouveau"
like "$f" '^sudo update-initramfs -u$' "rebuilds the initramfs"
like "$f" '^sudo reboot$' "and reboots"
lacks_code DRIVER_NOT_LOADED "not repeated as DRIVER_NOT_LOADED"

# ---- Secure Boot on, nvidia not loaded, the module unsigned.
sb() {	# [signed]
	fx_new
	fx_kernel 6.8.0-45-generic
	fx_dir /sys/module/e1000
	fx_gpu 0000:01:00.0 2684
	fx_pci_ids
	fx_nv_libs 550.54.14
	fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
	fx_kmod 6.8.0-45-generic
	fx_ko /lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko 550.54.14 "${1:-}"
	fx_file /var/lib/dkms/nvidia/550.54.14/6.8.0-45-generic/x86_64/module/nvidia.ko ""
	fx_dir /sys/firmware/efi/efivars
	printf '\006\000\000\000\001' > "$FX/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0105bb95"
	fx_file /proc/sys/kernel/tainted 0
}
sb
fx_doctor
has_code SECURE_BOOT_BLOCKS_MODULE "Secure Boot + unsigned module: SECURE_BOOT_BLOCKS_MODULE"
is "$(field SECURE_BOOT_BLOCKS_MODULE .severity)" error "an error"
lacks_code DRIVER_NOT_LOADED "it replaces DRIVER_NOT_LOADED (modprobe would fail)"
like "$(field SECURE_BOOT_BLOCKS_MODULE '.evidence[]')" 'updates/dkms/nvidia\.ko: no signature appended' "evidence: no signature"
f=$(fixes SECURE_BOOT_BLOCKS_MODULE)
like "$f" '^sudo dkms install nvidia/550\.54\.14 -k 6\.8\.0-45-generic$' "the fix rebuilds (and so signs) the module with DKMS"
like "$f" '^sudo mokutil --import /var/lib/dkms/mok\.pub$' "enrolls DKMS's key"
like "$f" '^sudo reboot$' "and reboots to the MOK manager"
is "$(fx_jq '.facts.driver.secure_boot')" true "JSON: Secure Boot on"
is "$(fx_jq '.facts.driver.tainted')" 0 "JSON: the taint mask"

# Signed by DKMS's key, which MokListRT does not hold.
sb signed
printf '0\202\003\001fake-dkms-cert' | fx_file /var/lib/dkms/mok.pub
printf '\007\000\000\000other-cert' > "$FX/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"
fx_doctor
has_code SECURE_BOOT_BLOCKS_MODULE "signed, key not enrolled: SECURE_BOOT_BLOCKS_MODULE"
like "$(field SECURE_BOOT_BLOCKS_MODULE .detail)" 'never enrolled' "it says the key was never enrolled"
unlike "$(fixes SECURE_BOOT_BLOCKS_MODULE)" 'dkms install' "no rebuild: the module is signed"
is "$(fx_jq '.facts.driver.mok_enrolled')" false "JSON: not enrolled"
# Enrolled: the module loads once modprobed; no Secure Boot finding.
printf '\007\000\000\000other-cert0\202\003\001fake-dkms-cert' > "$FX/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"
fx_doctor
lacks_code SECURE_BOOT_BLOCKS_MODULE "the key is in MokListRT: no finding"
has_code DRIVER_NOT_LOADED "just not loaded"
# Secure Boot off: an unsigned module loads.
sb
printf '\006\000\000\000\000' > "$FX/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0105bb95"
fx_doctor
lacks_code SECURE_BOOT_BLOCKS_MODULE "Secure Boot off: no finding"
is "$(fx_jq '.facts.driver.secure_boot')" false "JSON: Secure Boot off"

# ---- Xid lines in the kernel log, grouped per GPU and code.
healthy
fx_file /dev/kmsg <<'EOF2'
6,1001,5000000,-;e1000e 0000:00:1f.6 eth0: NIC Link is Up 1000 Mbps Full Duplex
4,1002,5100000,-;NVRM: Xid (PCI:0000:01:00): 13, pid=4242, name=python3, Graphics SM Warp Exception on (GPC 0, TPC 0, SM 0): Out Of Range Address
 SUBSYSTEM=pci
 DEVICE=+pci:0000:01:00.0
3,1003,7200000,-;NVRM: Xid (PCI:0000:01:00): 79, pid=0, name=kworker, GPU has fallen off the bus.
3,1004,7200100,-;NVRM: Xid (PCI:0000:01:00): 79, pid=0, name=kworker, GPU has fallen off the bus.
3,1005,7300000,-;NVRM: Xid (PCI:0000:01:00): 79, pid=1, name=nvidia-smi, GPU has fallen off the bus.
3,1006,7400000,-;NVRM: GPU at PCI:0000:01:00: GPU-5a4d1f6e-8a22-4c83-9f10-3c1e2b7d9a01
EOF2
fx_doctor
is "$(fx_jq '[.findings[] | select(.code == "GPU_XID_ERRORS")] | length')" 2 "two groups: Xid 13 and Xid 79"
is "$(fx_jq '.findings[] | select(.code == "GPU_XID_ERRORS" and (.detail | test("Xid 79"))) | .severity')" error "Xid 79 is an error"
is "$(fx_jq '.findings[] | select(.code == "GPU_XID_ERRORS" and (.detail | test("Xid 13"))) | .severity')" warning "Xid 13 (a program's fault) is a warning"
like "$(fx_jq '.findings[] | select(.code == "GPU_XID_ERRORS" and (.detail | test("Xid 79"))) | .detail')" \
    '3 NVIDIA Xid 79 reports for the GPU at 0000:01:00: the GPU has fallen off the bus' "counted and explained"
like "$(fx_jq '.findings[] | select(.code == "GPU_XID_ERRORS" and (.detail | test("Xid 79"))) | .evidence[]')" \
    'pid=1, name=nvidia-smi, GPU has fallen off the bus\.$' "the last line is the evidence"
like "$(fx_jq '.findings[] | select(.code == "GPU_XID_ERRORS" and (.detail | test("Xid 79"))) | .fix[]')" \
    'power supply' "what to do for 79"
is "$(fx_jq '[.facts.kernel_log.xids[] | "\(.pci)/\(.code)x\(.count)"] | join(" ")')" \
    "0000:01:00/13x1 0000:01:00/79x3" "JSON: the groups"

# Bounded: only the last 1 MiB is read, from its first whole line.
healthy
{
	echo "3,1,1,-;NVRM: Xid (PCI:0000:01:00): 48, pid=0, name=x, DBE (double bit error) ECC error"
	awk 'BEGIN { for (i = 0; i < 20000; i++) printf "6,%d,%d,-;usb 1-1: a log line long enough to fill one MiB quickly, line %06d\n", i + 2, i, i }'
	echo "3,99999,99999,-;NVRM: Xid (0000:01:00): 62, pid=0, name=x, Internal micro-controller halt"
} | fx_file /dev/kmsg
fx_doctor
is "$(fx_jq '[.facts.kernel_log.xids[].code] | join(" ")')" 62 \
    "the old Xid 48 beyond the last MiB is not read; the new 62 (old spelling) is"

# No GPU: the log is not read at all.
fx_new
fx_dir /sys/bus/pci/devices
fx_file /dev/kmsg "3,1,1,-;NVRM: Xid (PCI:0000:01:00): 79, pid=0, GPU has fallen off the bus."
fx_doctor
lacks_code GPU_XID_ERRORS "no GPU: no Xid finding"
is "$(fx_jq '.facts.kernel_log.xids | length')" 0 "and the log is not read"

done_testing
