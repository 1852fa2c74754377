#!/bin/sh
# Bad input to the GPU and driver probes: binary garbage, huge files,
# FIFOs, unreadable entries, dangling links and link loops. Each must give
# a note naming the path while the run goes on and prints valid JSON.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

# A few bytes no text file holds: NUL, 0xff, an escape, a newline.
garbage() {	# PATH
	mkdir -p "$(dirname "$FX$1")"
	printf 'NVRM\000\377\376\033[31m\n\001\002' > "$FX$1"
}

json_has_facts() {
	jq -e '.facts.driver' "$FX_OUT" > /dev/null 2>&1
}

# Exit statuses 98 and 99 are the sanitizers' (tests/local.mk).
valid_json() {	# DESCRIPTION
	ok "$1: the run goes on with valid JSON" json_has_facts
	ok "$1: exit status 0 or 1, not a crash" test "$FX_RC" -le 1
}

# note_for PATH PATTERN DESCRIPTION: a note on PATH whose text matches.
note_for() {
	like "$(jq -r --arg p "$1" '.facts.notes[] | select(.path == $p) | .problem' "$FX_OUT")" \
	    "$2" "$3"
}

# A healthy tree whose driver link resolves (fx_healthy_gpu's link text
# only names the driver), so every note seen below is the bad input's.
healthy() {
	fx_new
	fx_healthy_gpu
	fx_link ../../drivers/nvidia /sys/bus/pci/devices/0000:01:00.0/driver
}

healthy
fx_doctor
is "$(fx_jq '.facts.notes | length')" 0 "a healthy tree gives no note"

# ---- /proc/driver/nvidia/version
healthy
garbage /proc/driver/nvidia/version
fx_doctor
valid_json "garbage in /proc/driver/nvidia/version"
note_for /proc/driver/nvidia/version 'binary data' "garbage in the version file is noted"
is "$(fx_jq '.facts.driver.module_version')" "null" "and gives no module version"
like "$(fx_jq '.facts.driver.unreadable.module_version')" 'binary data' "module_version is unreadable, with why"
is "$(fx_jq '.facts.driver.sys_module_version')" "580.65.06" "the sysfs version still is read"

healthy
fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  banana  today"
fx_doctor
note_for /proc/driver/nvidia/version 'no version' "text without a version is noted"
is "$(fx_jq '.facts.driver.module_version')" "null" "and gives no module version"

healthy
truncate -s 2G "$FX/proc/driver/nvidia/version"
r0=$(fx_rchar)
fx_doctor
r1=$(fx_rchar)
valid_json "a 2 GB /proc/driver/nvidia/version"
note_for /proc/driver/nvidia/version 'larger than expected' "the huge file is noted, not read"
if [ -n "$r0" ] && [ -n "$r1" ]; then
	ok "and is refused without reading it ($((r1 - r0)) bytes read by the run, under 256 MiB)" \
	    test $((r1 - r0)) -lt 268435456
else
	skip "and is refused without reading it" "/proc/$$/io is not readable here"
fi

healthy
rm -f "$FX/proc/driver/nvidia/version"
mkfifo "$FX/proc/driver/nvidia/version"
fx_doctor
valid_json "a FIFO as /proc/driver/nvidia/version"
note_for /proc/driver/nvidia/version 'not a regular file' "the FIFO is noted, not waited on"

healthy
garbage /sys/module/nvidia/version
fx_doctor
note_for /sys/module/nvidia/version 'binary data' "garbage in /sys/module/nvidia/version is noted"
is "$(fx_jq '.facts.driver.sys_module_version')" "null" "and gives no version"

# ---- osrelease
healthy
garbage /proc/sys/kernel/osrelease
fx_doctor
valid_json "garbage in osrelease"
note_for /proc/sys/kernel/osrelease 'binary data' "garbage in osrelease is noted"
is "$(fx_jq '.facts.driver.kernel_release')" "null" "and gives no kernel release"
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "null" \
    "so whether the running kernel has a module is not known"
lacks_code DKMS_MODULE_MISSING "and no DKMS finding is made from it"

healthy
fx_file /proc/sys/kernel/osrelease "../../../etc"
fx_doctor
note_for /proc/sys/kernel/osrelease 'not a kernel release' "a release with slashes is refused"
healthy
fx_file /proc/sys/kernel/osrelease "6.1.0 13 amd64"
fx_doctor
note_for /proc/sys/kernel/osrelease 'not a kernel release' "a release with spaces is refused"
healthy
fx_file /proc/sys/kernel/osrelease "$(printf '%070d' 6)"
fx_doctor
note_for /proc/sys/kernel/osrelease 'not a kernel release' "a release of 70 characters is refused"

# ---- sysfs PCI attributes
healthy
fx_gpu 0000:02:00.0 2330 nvidia
garbage /sys/bus/pci/devices/0000:02:00.0/vendor
fx_gpu 0000:03:00.0 2330 nvidia
garbage /sys/bus/pci/devices/0000:03:00.0/class
fx_gpu 0000:04:00.0 2330 nvidia
fx_file /sys/bus/pci/devices/0000:04:00.0/device "0x123456789"
fx_gpu 0000:05:00.0 2330 nvidia
truncate -s 2G "$FX/sys/bus/pci/devices/0000:05:00.0/vendor"
fx_gpu 0000:06:00.0 2330 nvidia
garbage /sys/bus/pci/devices/0000:06:00.0/subsystem_device
fx_doctor
valid_json "garbage in sysfs attributes"
note_for /sys/bus/pci/devices/0000:02:00.0/vendor 'not a hexadecimal' "garbage in a vendor file is noted"
note_for /sys/bus/pci/devices/0000:03:00.0/class 'not a hexadecimal' "garbage in a class file is noted"
note_for /sys/bus/pci/devices/0000:04:00.0/device 'not a hexadecimal' "a device id of nine digits is noted"
note_for /sys/bus/pci/devices/0000:05:00.0/vendor 'larger than expected' "a 2 GB vendor file is noted"
note_for /sys/bus/pci/devices/0000:06:00.0/subsystem_device 'not a hexadecimal' \
    "garbage in a subsystem file is noted"
is "$(fx_jq '[.facts.gpus[].pci_address] | join(" ")')" "0000:01:00.0 0000:06:00.0" \
    "devices with bad ids are skipped; a bad subsystem id keeps the GPU"
is "$(fx_jq '.facts.gpus[1].subsystem')" "10de:0000" "the bad subsystem id is left 0"

# ---- pci.ids and the driver's information file
healthy
fx_gpu 0000:02:00.0 2684 nvidia
fx_dir /usr/share/misc
truncate -s 2G "$FX/usr/share/misc/pci.ids"
fx_pci_ids /usr/share/hwdata/pci.ids
fx_nv_info 0000:01:00.0 "NVIDIA H100 80GB HBM3" GPU-not-a-uuid
garbage /proc/driver/nvidia/gpus/0000:02:00.0/information
fx_doctor
valid_json "a 2 GB pci.ids and a garbage information file"
note_for /usr/share/misc/pci.ids 'larger than expected' "the huge pci.ids is noted"
is "$(fx_jq '.facts.gpus[0].sources.name')" "/usr/share/hwdata/pci.ids" "the next pci.ids is used"
is "$(fx_jq '.facts.gpus[0].uuid')" "null" "a malformed UUID is not taken"
like "$(fx_jq '.facts.gpus[0].unknown.uuid')" 'no valid' "and says why"
note_for /proc/driver/nvidia/gpus/0000:02:00.0/information 'binary data' \
    "garbage in the information file is noted"
is "$(fx_jq '.facts.gpus[1].name')" "AD102 [GeForce RTX 4090]" "the GPU is still named"

healthy
printf '10de  NVIDIA Corporation\n\t2330  Evil\033]0;title\007name\n' | fx_file /usr/share/misc/pci.ids
fx_nv_info 0000:01:00.0 "NVIDIA H100 80GB HBM3" GPU-5b5a8f0e-3c2d-4b1a-9e8f-7d6c5b4a3f21
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "NVIDIA H100 80GB HBM3" \
    "a pci.ids name with control characters is not taken"

# ---- links
healthy
fx_link ../../drivers/nvidia-gone /sys/bus/pci/devices/0000:01:00.0/driver
fx_doctor
valid_json "a dangling driver link"
note_for /sys/bus/pci/devices/0000:01:00.0/driver 'broken' "the dangling link is noted"
is "$(fx_jq '.facts.gpus[0].kernel_driver')" "nvidia-gone" "the link still names the driver"

healthy
fx_link driver /sys/bus/pci/devices/0000:01:00.0/driver
fx_doctor
valid_json "a driver link that points at itself"
note_for /sys/bus/pci/devices/0000:01:00.0/driver 'Too many levels of symbolic links' \
    "the loop is noted"
is "$(fx_jq '.facts.gpus[0].kernel_driver')" "null" "and names no driver"
like "$(fx_jq '.facts.gpus[0].unreadable.kernel_driver')" 'symbolic links' "kernel_driver is unreadable, with why"

healthy
fx_link 0000:09:00.0 /sys/bus/pci/devices/0000:09:00.0
fx_doctor
valid_json "a device entry that is a link loop"
note_for /sys/bus/pci/devices/0000:09:00.0/vendor 'symbolic links' "the looping device is noted"
is "$(fx_jq '.facts.gpus | length')" 1 "the good GPU is still found"

healthy
fx_dir /lib/modules/6.1.0-13-amd64/updates/loop
fx_link .. /lib/modules/6.1.0-13-amd64/updates/loop/up
rm -f "$FX/lib/modules/6.1.0-13-amd64/modules.dep"
fx_doctor
valid_json "a directory loop in the module tree"
is "$(fx_jq '.facts.driver.modules_for_running_kernel')" "true" "the module is still found"

healthy
garbage /lib/modules/6.1.0-13-amd64/modules.dep
fx_doctor
note_for /lib/modules/6.1.0-13-amd64/modules.dep 'binary data' "a garbage modules.dep is noted"
is "$(fx_jq '.facts.driver.module_files[0].path')" \
    "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko" "and the directories are searched instead"

healthy
fx_link /usr/lib/x86_64-linux-gnu/loop /usr/lib/x86_64-linux-gnu/loop
fx_link /loop2 /usr/lib64
fx_link /usr/lib64 /loop2
fx_doctor
valid_json "a library directory that loops"
note_for /usr/lib64 'symbolic links' "the looping library directory is noted"
is "$(fx_jq '.facts.driver.libraries | length')" 2 "the other libraries are still found"

# ---- permissions (root reads everything, so this needs another user)
healthy
if ! fx_drop_privileges; then
	skip "an unreadable PCI device entry is noted" "$FX_DROP_WHY"
	skip "an unreadable /sys/bus/pci/devices is unreadable, not empty" "$FX_DROP_WHY"
else
	fx_gpu 0000:02:00.0 2330 nvidia
	chmod 000 "$FX/sys/bus/pci/devices/0000:02:00.0"
	fx_doctor
	note_for /sys/bus/pci/devices/0000:02:00.0/vendor 'Permission denied' \
	    "an unreadable PCI device entry is noted"
	chmod 755 "$FX/sys/bus/pci/devices/0000:02:00.0"
	chmod 000 "$FX/sys/bus/pci/devices"
	fx_doctor
	like "$(fx_jq '.facts.gpus_probe.unreadable.pci_bus')" 'Permission denied' \
	    "an unreadable /sys/bus/pci/devices is unreadable, not empty"
	chmod 755 "$FX/sys/bus/pci/devices"
fi
fx_keep_privileges

done_testing
