#!/bin/sh
# A whole healthy machine: GPU, driver, toolkit, cuDNN, ld.so.conf and a
# clean environment give no finding at all, and the text report says so.
# Then one thing at a time is broken, and only its finding appears.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

healthy() {
	fx_new
	fx_healthy_gpu
	fx_file /usr/share/misc/pci.ids "# pci.ids
10de  NVIDIA Corporation
	2330  GH100 [H100 SXM5 80GB]
1022  Advanced Micro Devices, Inc. [AMD]"
	fx_toolkit 13.0.0
	fx_link cuda-13.0 /usr/local/cuda
	fx_file /usr/local/cuda-13.0/include/cudnn_version.h "#define CUDNN_MAJOR 9
#define CUDNN_MINOR 17
#define CUDNN_PATCHLEVEL 0"
	fx_so /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudnn.so.9.17.0 libcudnn.so.9
	fx_link libcudnn.so.9.17.0 /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudnn.so.9
	fx_file /etc/ld.so.conf.d/cuda.conf "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
	fx_dir /usr/bin
	fx_dir /bin
	FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda"
}

healthy
fx_doctor
is "$FX_RC" 0 "a healthy machine exits 0"
is "$(fx_jq '[.findings[].code] | join(" ")')" "" "a healthy machine has no finding"
is "$(fx_jq '.facts.notes | length')" 0 "and nothing to note while probing"
is "$(fx_jq '.facts.gpus[0].name')" "GH100 [H100 SXM5 80GB]" "the GPU is named"
is "$(fx_jq '.facts.driver.module_version')" 580.65.06 "the driver is read"
is "$(fx_jq '.facts.toolkits[0].version')" 13.0.0 "the toolkit is read"
is "$(fx_jq '.facts.toolkits[0].aliases | join(" ")')" /usr/local/cuda "its alias"
is "$(fx_jq '.facts.cudnn[0].version')" 9.17.0 "cuDNN is read"
is "$(fx_jq '[.facts.libraries[] | select(.soname == "libcudart.so.13") | .via] | join(" ")')" \
    ld.so.conf "the runtime is found through ld.so.conf"
is "$(fx_jq '[.facts.libraries[] | select(.soname == "libcuda.so.1") | .resolved] | join(" ")')" \
    /usr/lib/x86_64-linux-gnu/libcuda.so.1 "libcuda.so.1 is the driver's"
is "$(fx_jq '.summary | "\(.errors) \(.warnings) \(.info)"')" "0 0 0" "the summary counts nothing"

text=$(env -i LC_ALL=C PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda \
    "$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX")
like "$text" 'No problems found\.' "the text report says there is no problem"
like "$text" 'Summary: 0 errors, 0 warnings, 0 notes\.' "and counts nothing"
like "$text" 'GH100 \[H100 SXM5 80GB\]' "the text report names the GPU"
wide=$(printf '%s\n' "$text" | grep -vF "$FX_TMP" | awk 'length($0) > 80')
is "$wide" "" "the healthy report fits 80 columns"

# One break at a time: exactly one code each.
one_break() {	# CODE DESCRIPTION
	codes=$(fx_codes | tr '\n' ' ')
	is "$codes" "$1 " "$2 gives $1 and nothing else"
}

healthy
FX_ENV="$FX_ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:"
fx_doctor
one_break EMPTY_PATH_ENTRY "a trailing ':' in LD_LIBRARY_PATH"

healthy
rm -rf "$FX/proc/driver/nvidia"
rm -rf "$FX/sys/module/nvidia"
fx_doctor
one_break DRIVER_NOT_LOADED "an unloaded module"
is "$FX_RC" 1 "an error finding exits 1"

healthy
fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Sat May 24 07:21:11 UTC 2025"
fx_file /sys/module/nvidia/version 580.95.05
fx_doctor
one_break DRIVER_LIBRARY_MISMATCH "a module upgraded without a reboot"
text=$(env -i LC_ALL=C PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda \
    "$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX")
# Fix lines are commands to paste, so they are never broken.
wide=$(printf '%s\n' "$text" | grep -vF "$FX_TMP" | grep -v '^ *fix: ' | awk 'length($0) > 80')
is "$wide" "" "a report with a finding fits 80 columns, evidence wrapped"
like "$text" 'evidence: /proc/driver/nvidia/version: 580\.95\.05' "the evidence is in the text"

healthy
FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/opt/cuda-old"
fx_doctor
codes=$(fx_codes | tr '\n' ' ')
like "$codes" 'ENV_PATH_MISSING' "a CUDA_HOME that does not exist is reported"

healthy
FX_ENV="$FX_ENV CUDA_VISIBLE_DEVICES=-1"
fx_doctor
one_break NO_VISIBLE_DEVICES "CUDA_VISIBLE_DEVICES=-1"

done_testing
