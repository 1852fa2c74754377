# Fixture helpers for the GPU and driver tests. Source after fixture.sh.
#
#   fx_gpu ADDR DEVICE [DRIVER] [CLASS] [VENDOR]
#                           a PCI function under /sys/bus/pci/devices/ADDR
#                           (ids in hex without 0x), bound to DRIVER when
#                           given and not empty; CLASS defaults to 030000
#                           and VENDOR to 10de
#   fx_pci_ids [PATH]       a small pci.ids naming 10de:2330 and 10de:2684
#                           (PATH defaults to /usr/share/misc/pci.ids)
#   fx_pci_ids_real [PATH]  real pci.ids lines, Fermi to Blackwell
#   fx_supported_gpus [PATH] real rows of the driver's supported-gpus.json
#   fx_subsys ADDR VENDOR DEVICE
#                           the board's subsystem ids
#   fx_nv_info ADDR MODEL UUID
#                           the loaded driver's information file for ADDR
#   fx_kernel RELEASE       the running kernel's release, and /sys/module
#   fx_nv_loaded VERSION    a loaded nvidia module of VERSION
#   fx_nv_libs VERSION [DIR]
#                           libcuda and libnvidia-ml .so.VERSION (real ELF
#                           files) with their soname links in DIR
#                           (default /usr/lib/x86_64-linux-gnu)
#   fx_kmod RELEASE [FILE]  FILE (default updates/dkms/nvidia.ko) under
#                           /lib/modules/RELEASE, listed in modules.dep
#   fx_code_field CODE FIELD
#                           jq FIELD of the finding CODE in the last run,
#                           arrays joined with newlines

fx_gpu() {
	fx_d=/sys/bus/pci/devices/$1
	fx_file "$fx_d/vendor" "0x${5:-10de}"
	fx_file "$fx_d/device" "0x$2"
	fx_file "$fx_d/subsystem_vendor" 0x10de
	fx_file "$fx_d/subsystem_device" 0x16c1
	fx_file "$fx_d/class" "0x${4:-030000}"
	if [ -n "${3:-}" ]; then
		fx_dir "/sys/bus/pci/drivers/$3"
		fx_link "../../drivers/$3" "$fx_d/driver"
	fi
}

fx_pci_ids() {
	# printf, not a here-document: the format's leading tabs matter.
	printf '%s\n' \
	    '# A cut-down pci.ids: the format of https://pci-ids.ucw.cz/' \
	    '10df  Emulex Corporation' \
	    '# the same device id under another vendor must not match' \
	    '	2330  Not an NVIDIA device' \
	    '10de  NVIDIA Corporation' \
	    '# a comment inside the block' \
	    '	1eb8  TU104GL [Tesla T4]' \
	    '	2330  GH100 [H100 SXM5 80GB]' \
	    '		10de 16c1  H100 SXM5 80GB' \
	    '	2684  AD102 [GeForce RTX 4090]' \
	    '10e0  Integrated Micro Solutions Inc.' \
	    '	2331  Not an NVIDIA device either' |
	    fx_file "${1:-/usr/share/misc/pci.ids}"
}

fx_nv_info() {
	fx_file "/proc/driver/nvidia/gpus/$1/information" <<-EOF
	Model: 		 $2
	IRQ:   		 154
	GPU UUID: 	 $3
	Video BIOS: 	 96.00.30.00.01
	Bus Type: 	 PCIe
	DMA Size: 	 52 bits
	DMA Mask: 	 0xfffffffffffff
	Bus Location: 	 $1
	Device Minor: 	 0
	GPU Firmware: 	 535.104.05
	GPU Excluded:	 No
	EOF
}

fx_kernel() {
	fx_file /proc/sys/kernel/osrelease "$1"
	fx_dir /sys/module
}

fx_nv_loaded() {
	fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  $1  Tue Aug 22 16:52:33 UTC 2023
GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)"
	fx_file /sys/module/nvidia/version "$1"
}

fx_nv_libs() {
	fx_libdir=${2:-/usr/lib/x86_64-linux-gnu}
	fx_so "$fx_libdir/libcuda.so.$1" libcuda.so.1 || return 1
	fx_link "libcuda.so.$1" "$fx_libdir/libcuda.so.1"
	fx_so "$fx_libdir/libnvidia-ml.so.$1" libnvidia-ml.so.1 || return 1
	fx_link "libnvidia-ml.so.$1" "$fx_libdir/libnvidia-ml.so.1"
}

fx_kmod() {
	fx_m=${2:-updates/dkms/nvidia.ko}
	fx_file "/lib/modules/$1/$fx_m" ""
	printf '%s:\n' "$fx_m" >> "$FX/lib/modules/$1/modules.dep"
}

fx_code_field() {
	jq -r --arg c "$1" ".findings[] | select(.code == \$c) | $2 |
	    if type == \"array\" then join(\"\\n\") else tostring end" \
	    "$FX_OUT" 2>/dev/null
}

# fx_pci_ids_real [PATH]: real pci.ids lines (tests/lib/pci.ids.nvidia:
# pci.ids 2026.08.22 cut to a few dozen NVIDIA GPUs, Fermi to Blackwell).
fx_pci_ids_real() {
	fx_file "${1:-/usr/share/misc/pci.ids}" < "$TESTS_SRCDIR/lib/pci.ids.nvidia"
}

# fx_supported_gpus [PATH]: real rows of a driver's supported-gpus.json
# (tests/lib/supported-gpus.sample.json), where the .run installer puts it.
fx_supported_gpus() {
	fx_file "${1:-/usr/share/doc/NVIDIA_GLX-1.0/supported-gpus/supported-gpus.json}" \
	    < "$TESTS_SRCDIR/lib/supported-gpus.sample.json"
}

# fx_subsys ADDR VENDOR DEVICE: the board's subsystem ids (hex, no 0x).
fx_subsys() {
	fx_file "/sys/bus/pci/devices/$1/subsystem_vendor" "0x$2"
	fx_file "/sys/bus/pci/devices/$1/subsystem_device" "0x$3"
}

# fx_ko PATH VERSION [signed]: a real ELF relocatable object, as a kernel
# module is, whose .modinfo section holds version=VERSION (compiled once
# per version); with "signed", the appended-signature trailer (a
# module_signature struct, then the magic string) follows it.
fx_ko() {
	fx_kodir=${FX_SOCACHE:-$FX_TMP/cudawiz-so-cache.$(id -u)}
	fx_kocached=$fx_kodir/nvidia-$2.ko
	mkdir -p "$fx_kodir" "$(dirname "$FX$1")"
	if [ ! -s "$fx_kocached" ]; then
		printf '%s\n' \
		    'static const char lic[] __attribute__((section(".modinfo"), used)) = "license=Dual MIT/GPL";' \
		    "static const char ver[] __attribute__((section(\".modinfo\"), used)) = \"version=$2\";" \
		    'int nv_fixture_init(void) { return 0; }' |
		    $FIXTURE_CC -c -x c -o "$fx_kocached.tmp.$$" - || return 1
		mv -f "$fx_kocached.tmp.$$" "$fx_kocached"
	fi
	cp "$fx_kocached" "$FX$1"
	if [ "${3:-}" = signed ]; then
		# struct module_signature: algo, hash, id_type=2 (PKCS#7),
		# signer_len, key_id_len, pad[3], sig_len (big-endian 0).
		printf '\000\000\002\000\000\000\000\000\000\000\000\000' >> "$FX$1"
		printf '~Module signature appended~\n' >> "$FX$1"
	fi
}
