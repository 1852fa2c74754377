#!/bin/sh
# The rules and facts that come from the compatibility matrix:
# DRIVER_TOO_OLD, PTX_TOOLCHAIN_TOO_NEW, MATRIX_STALE, a GPU's compute
# capability and what the driver runs.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

machine() {	# DRIVER [TOOLKIT...]: one H100 and a loaded driver of that version
	fx_new
	fx_healthy_gpu
	fx_file /usr/share/misc/pci.ids "10de  NVIDIA Corporation
	2330  GH100 [H100 SXM5 80GB]"
	fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  $1  Sun Jul 27 07:09:14 UTC 2025"
	fx_file /sys/module/nvidia/version "$1"
	rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so* "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so*
	fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.$1 libcuda.so.1
	shift
	for tk in "$@"; do fx_toolkit "$tk"; done
}

finding() {	# CODE FILTER
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)] | $2" "$FX_OUT"
}

# A driver that runs every toolkit on the machine.
machine 580.65.06 13.0.0 12.4.1 11.8.0
fx_doctor
lacks_code DRIVER_TOO_OLD "580.65.06 runs 13.0.0, 12.4.1 and 11.8.0"
lacks_code PTX_TOOLCHAIN_TOO_NEW "nor is any of them too new for it"
is "$(fx_jq '.facts.gpus[0].compute_capability')" 9.0 "the H100 has compute capability 9.0"
like "$(fx_jq '.facts.gpus[0].sources.compute_capability')" 'H100' "and says which row matched"
is "$(fx_jq '.facts.driver.minor_compat_major')" 13 "580 runs every 13.x"
is "$(fx_jq '.matrix.source')" file "the run says which matrix it used"
is "$(fx_jq '.matrix.stale')" false "a matrix dated today is not stale"

# Too old for one toolkit, outright.
machine 470.82.01 12.4.1 11.4.0
fx_doctor
is "$FX_RC" 1 "DRIVER_TOO_OLD is an error: exit 1"
is "$(finding DRIVER_TOO_OLD length)" 1 "one DRIVER_TOO_OLD: for 12.4.1 only"
like "$(finding DRIVER_TOO_OLD '.[0].detail')" 'CUDA 12\.4\.1 at /usr/local/cuda-12\.4 needs NVIDIA driver 550\.54\.15' \
    "it names the toolkit and the driver it needs"
like "$(finding DRIVER_TOO_OLD '.[0].evidence | join("|")')" 'needs at least 525\.60\.13' \
    "minor-version compatibility cannot help: the 12.x floor is named"
like "$(finding DRIVER_TOO_OLD '.[0].fix | join("|")')" 'sudo apt-get install nvidia-driver-550' \
    "the fix installs the branch the toolkit needs"
is "$(fx_jq '.facts.driver.max_cuda')" 11.4 "driver 470.82.01 runs CUDA up to 11.4"
is "$(fx_jq '.facts.driver.minor_compat_major')" 11 "and every 11.x through minor-version compatibility"
lacks_code PTX_TOOLCHAIN_TOO_NEW "11.4.0 runs on 470.82.01: nothing about it"

# Two toolkits too new for it: each finding carries what the driver runs
# in the JSON report; the text report says it once, in the Driver section.
machine 470.82.01 12.4.1 12.2.0
fx_doctor
is "$(finding DRIVER_TOO_OLD length)" 2 "470.82.01: DRIVER_TOO_OLD for 12.4.1 and 12.2.0"
is "$(finding DRIVER_TOO_OLD '[.[].evidence[] | select(test("runs CUDA releases up to 11\\.4"))] | length')" 2 \
    "each finding's JSON evidence says what the driver runs"
fx_cmd_env doctor
is "$(grep -c 'up to 11\.4' "$FX_OUT")" 1 "the text report says 'up to 11.4' once"
like "$(grep 'up to 11\.4' "$FX_OUT")" 'runs CUDA' "in the Driver section"
is "$(grep -c 'DRIVER_TOO_OLD' "$FX_OUT")" 2 "and still shows both findings"

# Too new for its own minimum, carried by minor-version compatibility.
machine 525.85.12 12.4.1
fx_doctor
lacks_code DRIVER_TOO_OLD "12.4.1 runs on 525.85.12 through minor-version compatibility"
has_code PTX_TOOLCHAIN_TOO_NEW "but its PTX is too new for the driver"
is "$(finding PTX_TOOLCHAIN_TOO_NEW '.[0].severity')" warning "a warning"
like "$(finding PTX_TOOLCHAIN_TOO_NEW '.[0].fix | join("|")')" 'arch=compute_90,code=sm_90' \
    "the fix builds machine code for the GPU's compute capability"

# Nothing known about the driver: no guess.
machine 580.65.06 12.4.1
rm -rf "$FX/proc/driver/nvidia" "$FX/sys/module/nvidia" "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so*
fx_doctor
lacks_code DRIVER_TOO_OLD "no driver version: no DRIVER_TOO_OLD"
is "$(fx_jq '.facts.driver.max_cuda')" null "and no guess at what it runs"
like "$(fx_jq '.facts.driver.unknown.max_cuda')" 'not known' "with the reason"

# In a container the module is the host's, and libcuda carries its version.
machine 470.82.01 12.4.1
rm -rf "$FX/proc/driver/nvidia" "$FX/sys/module/nvidia"
fx_doctor
has_code DRIVER_TOO_OLD "the libcuda version is used when the module cannot be read"
like "$(finding DRIVER_TOO_OLD '.[0].evidence[0]')" 'libcuda\.so\.470\.82\.01: 470\.82\.01' \
    "and named as the evidence"

# A GPU the matrix does not know.
machine 580.65.06
fx_gpu_dir=/sys/bus/pci/devices/0000:01:00.0
fx_file $fx_gpu_dir/device 0x9999
fx_file /usr/share/misc/pci.ids "10de  NVIDIA Corporation"
fx_doctor
is "$(fx_jq '.facts.gpus[0].compute_capability')" null "an unknown GPU has no compute capability"
like "$(fx_jq '.facts.gpus[0].unknown.compute_capability')" '10de:9999' "and says what was looked up"

# MATRIX_STALE: data older than its refresh window.
machine 580.65.06
old=$FX_TMP/matrix-old.$$.json
jq '.date = "2020-01-01"' "$TESTS_SRCDIR/../data/matrix.json" > "$old"
FX_MATRIX=$old fx_doctor
has_code MATRIX_STALE "a matrix from 2020 is stale"
is "$(finding MATRIX_STALE '.[0].severity')" info "as information"
is "$(finding MATRIX_STALE '.[0].fix[0]')" "cudawiz matrix update" "the fix refreshes it"
is "$(fx_jq .matrix.stale)" true "the report's matrix says stale"
jq '.date = "2020-01-01" | .refresh_days = 3650' "$TESTS_SRCDIR/../data/matrix.json" > "$old"
FX_MATRIX=$old fx_doctor
lacks_code MATRIX_STALE "within a long refresh window it is not stale"
rm -f "$old"

# A --matrix file that does not validate is a usage error naming the field.
jq '.cuda_releases[0].linux_driver = "11.8; rm -rf ~"' "$TESTS_SRCDIR/../data/matrix.json" > "$old"
err=$(env -i "$CUDAWIZ" doctor --root "$FX" --matrix "$old" 2>&1 >/dev/null); rc=$?
is "$rc" 2 "an invalid --matrix file exits 2"
like "$err" 'cuda_releases\[0\]\.linux_driver' "and names the bad field"
rm -f "$old"

done_testing
