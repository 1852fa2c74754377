#!/bin/sh
# doctor --baseline FILE (issue 22, point 2): one DRIFT_* finding per spec
# item that differs from the reference machine, with both values and the
# reference's name; a spec or a doctor report as the reference; a file
# that is neither refused with exit 2, naming it and why.
. "$TESTS_SRCDIR/cli/spec-common.sh"

spec_machine
fx_venv_env /home/u/venvs/train 3.11
fx_torch "$FX_SITE" 2.3.1+cu121 12.1 libcudart.so.12
REF=$FX.ref
mkdir -p "$REF"
fx_dirs="$fx_dirs $REF"
ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda VIRTUAL_ENV=/home/u/venvs/train"
# shellcheck disable=SC2086
fx_cmd_env "spec export" $ENV -- -o "$REF/spec.json"
# shellcheck disable=SC2086
fx_doctor_env $ENV
cp "$FX_OUT" "$REF/report.json"
rc_plain=$FX_RC


# shellcheck disable=SC2086
fx_doctor_env $ENV -- --baseline "$REF/spec.json"
is "$(spec_drift)" "" "the machine against its own spec: no DRIFT finding"
is "$FX_RC" "$rc_plain" "and the exit status doctor gives without it"
# shellcheck disable=SC2086
fx_doctor_env $ENV -- --baseline "$REF/report.json"
is "$(spec_drift)" "" "against its own doctor report: none either"

# The driver: a 570 module and libraries.
fx_file /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.10  Sun Jul 27 07:09:14 UTC 2025"
fx_file /sys/module/nvidia/version 570.86.10
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06
fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.570.86.10 libcuda.so.1
fx_link libcuda.so.570.86.10 /usr/lib/x86_64-linux-gnu/libcuda.so.1
# shellcheck disable=SC2086
fx_doctor_env $ENV -- --baseline "$REF/spec.json"
is "$(spec_drift | grep '^DRIFT_DRIVER|driver.branch')" \
    "DRIFT_DRIVER|driver.branch: 570 here, 580 on the reference (gpu01)" \
    "a driver branch changed: DRIFT_DRIVER, both values, the reference's name"
is "$(spec_drift | grep -c '^DRIFT_DRIVER|')" 4 "one finding per item: version, branch, module, max_cuda"
is "$(fx_jq '[.findings[] | select(.code == "DRIFT_DRIVER" and (.subject | startswith("driver.module")))][0].evidence | join("; ")')" \
    "reference (gpu01): driver.module = 580.65.06; this machine: driver.module = 570.86.10" \
    "the evidence gives both values"
is "$(fx_jq '[.findings[] | select(.code | startswith("DRIFT_")) | .severity] | unique | join(" ")')" \
    warning "drift is a warning"
is "$FX_RC" 1 "exit codes as doctor's (this driver is too old for CUDA 13: an error)"
# shellcheck disable=SC2086
fx_doctor_env $ENV -- --baseline "$REF/report.json"
is "$(spec_drift | grep '^DRIFT_DRIVER|driver.branch')" \
    "DRIFT_DRIVER|driver.branch: 570 here, 580 on the reference (gpu01)" \
    "a doctor report as the reference works alike"

# Back to the reference's driver; now a second toolkit, another torch and
# another CUDA_HOME (nvcc on PATH still picks 13.0: the default stays).
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so.570.86.10
fx_cuda13_machine
fx_toolkit 12.4.1
rm -rf "$FX$FX_SITE"/torch-*.dist-info
fx_torch "$FX_SITE" 2.4.0+cu124 12.4 libcudart.so.12
fx_doctor_env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda-12.4 \
    VIRTUAL_ENV=/home/u/venvs/train LD_PRELOAD=/opt/pre.so -- --baseline "$REF/spec.json"
is "$(spec_drift | sort)" "DRIFT_ENV|env.CUDA_HOME: /usr/local/cuda-12.4 here, /usr/local/cuda on the reference (gpu01)
DRIFT_ENV|env.LD_PRELOAD: /opt/pre.so here, absent on the reference (gpu01)
DRIFT_FRAMEWORK|framework./home/u/venvs/train.torch: 2.4.0 cuda 12.4 here, 2.3.1 cuda 12.1 on the reference (gpu01)
DRIFT_TOOLKIT|toolkit.versions: 12.4.1 13.0.0 here, 13.0.0 on the reference (gpu01)" \
    "toolkits, framework and environment: the right codes, both values"
fx_cmd_env doctor PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda-12.4 \
    VIRTUAL_ENV=/home/u/venvs/train -- --baseline "$REF/spec.json"
like "$(cat "$FX_OUT")" "WARNING DRIFT_TOOLKIT" "the text report shows them like other findings"
like "$(cat "$FX_OUT")" "toolkit.versions is 12.4.1 13.0.0 here and 13.0.0 on the reference" \
    "with both values"

# An item only the reference has; a reference without a host name.
jq '.items["cudnn.versions"] = "9.13.0" | del(.host)' "$REF/spec.json" > "$REF/cudnn.json"
fx_doctor_env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda \
    VIRTUAL_ENV=/home/u/venvs/train -- --baseline "$REF/cudnn.json"
is "$(spec_drift | grep DRIFT_CUDNN)" "DRIFT_CUDNN|cudnn.versions: absent here, 9.13.0 on the reference" \
    "cuDNN missing here: DRIFT_CUDNN; an unnamed reference"
jq '.items["gpu.count"] = "8" | .items["future.thing"] = "x"' "$REF/spec.json" > "$REF/gpu.json"
fx_doctor_env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda \
    VIRTUAL_ENV=/home/u/venvs/train -- --baseline "$REF/gpu.json"
is "$(spec_drift | grep -E 'DRIFT_GPU|future')" "DRIFT_GPU|gpu.count: 1 here, 8 on the reference (gpu01)" \
    "GPUs: DRIFT_GPU; an item of a family this version does not know: none"

# Bad references: exit 2, the file named, why.
bad() {	# FILE PATTERN DESCRIPTION
	fx_doctor --baseline "$1"
	is "$FX_RC" 2 "$3: exit 2"
	like "$(cat "$FX.stderr")" "--baseline $1: .*$2" "$3: named, and why"
}
bad "$REF/missing.json" "no such file" "a missing file"
printf '{"schema": "cudawiz/spec/1", "items": {' > "$REF/cut.json"
bad "$REF/cut.json" "not JSON" "a truncated file"
printf 'not json at all\n' > "$REF/text.json"
bad "$REF/text.json" "not JSON" "a file that is not JSON"
printf '{"name": "something else"}\n' > "$REF/foreign.json"
bad "$REF/foreign.json" "not a cudawiz spec" "a foreign JSON document"
jq 'del(.spec)' "$REF/report.json" > "$REF/old.json"
bad "$REF/old.json" "without a \"spec\"" "a doctor report from before the spec"
printf '{"schema": "cudawiz/spec/1", "items": {"driver.branch": 580}}\n' > "$REF/num.json"
bad "$REF/num.json" "not an object of strings" "an item that is not a string"
truncate -s 65M "$REF/huge.json"
bad "$REF/huge.json" "larger than" "a huge file"
rm -f "$REF/huge.json"
bad "$REF" "not a regular file|directory" "a directory"
mkfifo "$REF/fifo"
bad "$REF/fifo" "FIFO" "a FIFO (refused, not waited on)"

done_testing
