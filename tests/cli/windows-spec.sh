#!/bin/sh
# The Windows facts in the shared model (src/winprobe/winbridge.c) under
# Wine, on one prefix laid out as a Windows machine: driver 560.94
# (nvcuda.dll's version resource, the adapter's DriverVersion in the
# registry), an RTX 4090 in the display class key, CUDA 12.6 with cuDNN
# 9.5.1 named by CUDA_PATH and on PATH, torch 2.4.1+cu124 and TensorFlow
# 2.10 (wanting cudart64_110.dll, which is not there) in Python 3.11.
# cudawiz.exe spec export's items (the Linux keys, the matrix's Windows
# column for driver.max_cuda); doctor --json's host and spec; the Linux
# build's fleet over that report and a Linux --root fixture's report,
# then cudawiz.exe fleet over the same files (text, --json, -o; --format
# html the page); doctor --format prometheus checked by promtool when it
# is installed; doctor --baseline against the Linux report (DRIFT_*),
# and -o writing over an existing file. Needs mingw-w64 (with windres),
# Wine, jq, cmake and curl; skips without.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fleet.sh"

. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
winfx_setup windows-spec
TK="$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6"
WTK='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6'
PY="$C/Python311"
WPY='C:\Python311'
SP="$PY/Lib/site-packages"
winfx_build winfx_nvcuda
winfx_build winfx_cudart126 "$TK/bin"
winfx_build mkdll "$TK/bin/cudnn64_9.dll" 9,5,1,17 "NVIDIA CUDA Deep Neural Network library"
winfx_build winfx_python "$PY" 311 3,11,9,1013
printf '{"cuda": {"name": "CUDA SDK", "version": "12.6.2"}}\n' > "$TK/version.json"
mkdir -p "$TK/include"
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n' > "$TK/include/cudnn_version.h"
winfx_build winfx_torch "$SP"
winfx_build winfx_tf210 "$SP"
adapter 0000 'NVIDIA GeForce RTX 4090' 'PCI\VEN_10DE&DEV_2684' 32.0.15.6094 NVIDIA

# Wine sets COMPUTERNAME itself (from the host's name): the report's
# host name must be the one Windows programs see.
H=$("$WINE" cmd /c 'echo %COMPUTERNAME%' 2>/dev/null </dev/null | tr -d '\r')
[ -n "$H" ] || { echo "Bail out! cmd.exe gives no COMPUTERNAME"; exit 99; }
# win ARG...: cudawiz.exe on this machine (CUDA 12.6 and the Python on
# PATH); stdout in $work/out, stderr in $work/err.
win() {
	WINEPATH="$WTK\\bin;$WPY" CUDA_PATH="$WTK" \
	    "$WINE" "$exe" "$@" >"$work/out.crlf" 2>"$work/err.crlf" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	tr -d '\r' <"$work/err.crlf" >"$work/err"
}
item() {	# KEY [FILE]: the spec item KEY of spec export's output
	jq -r --arg k "$1" '.items[$k] // "(absent)"' "${2:-$work/spec.json}" 2>&1
}

# 1-9: spec export.
win spec export
cp "$work/out" "$work/spec.json"
is "$rc/$(jq -r .schema "$work/spec.json" 2>&1)" "0/cudawiz/spec/1" "spec export: exit 0, a cudawiz/spec/1 document"
is "$(jq -r '.host.name' "$work/spec.json")" "$H" "host.name is COMPUTERNAME"
like "$(jq -r '.host.os' "$work/spec.json")" '^[^,]*Windows[^,]*, build [0-9]+$' "host.os: the registry's ProductName and CurrentBuild"
is "$(item driver.version)/$(item driver.branch)/$(item driver.module)" "560.94/560/560.94" \
    "driver: nvcuda.dll's version, its branch, the adapter's DriverVersion"
is "$(item driver.max_cuda)" 12.6 "driver.max_cuda from the matrix for 560.94"
is "$(item gpu.count)/$(item gpu.models)" "1/NVIDIA GeForce RTX 4090 (8.9) x1" \
    "the registry's adapter as the GPU, its compute capability from the matrix"
is "$(item toolkit.versions)/$(item toolkit.default)/$(item cudnn.versions)" "12.6.2/12.6.2/9.5.1" \
    "toolkits (version.json), the one whose bin is on PATH, cuDNN (its header)"
is "$(item "framework.$WPY.torch")/$(item "framework.$WPY.tensorflow")" "2.4.1 cuda 12.4/2.10.1 cuda 11.2" \
    "frameworks keyed by the Windows path of their Python, TF's 64_112 read as 11.2"
is "$(item env.CUDA_PATH)/$(item env.LD_LIBRARY_PATH)" "$WTK/(absent)" "env.CUDA_PATH; no Linux-only item made up"

# 10-13: doctor --json carries host and spec; -o writes over a file.
win doctor --json
cp "$work/out" "$work/win.json"
is "$rc/$(jq -r '.schema + " " + .host.name' "$work/win.json" 2>&1)" "1/cudawiz/windows-doctor/1 $H" \
    "doctor --json: exit 1 (TensorFlow's cudart64_110.dll), the host"
is "$(jq -c '.spec.items' "$work/win.json")" "$(jq -c '.items' "$work/spec.json")" "... its spec's items are spec export's"
like "$(jq -r '.findings[].code' "$work/win.json")" SONAME_NOT_FOUND "... and SONAME_NOT_FOUND among its findings"
echo old > "$work/o.json"
win doctor --json -o 'Z:'"$work/o.json"
is "$rc/$(jq -r .schema "$work/o.json" 2>&1)/$(ls -A "$work" | grep -c cudawiz-)" "1/cudawiz/windows-doctor/1/0" \
    "doctor -o replaces a file in one move, leaving no temporary"

# 14-16: the Linux build's fleet over the Windows report and a Linux one.
fleet_base
cp "$FLEET_BASE" "$work/linux.json"
"$CUDAWIZ" fleet "$work/win.json" "$work/linux.json" >"$work/lfleet" 2>&1
like "$(cat "$work/lfleet")" "2 hosts from 2 files" "Linux fleet: both hosts read"
like "$(sed -n '/^Findings/,/^$/p' "$work/lfleet")" "SONAME_NOT_FOUND \\(error\\), 1 host: $H" \
    "... the Windows host's finding under its name"
like "$(sed -n '/^Drift/,/^$/p' "$work/lfleet")" "driver.branch: " "... and the drift between them, item by item"

# 17-20: cudawiz.exe fleet over the same files.
win fleet "Z:$work/win.json" "Z:$work/linux.json"
like "$rc $(tr '\n' ' ' <"$work/out")" "^1 .*2 hosts from 2 files" "cudawiz.exe fleet: both hosts, exit 1 (an error finding)"
win fleet --json "Z:$work/win.json" "Z:$work/linux.json"
is "$(jq -r '[.hosts[].name] | length' "$work/out" 2>&1)/$(jq -r '.findings[] | select(.code == "SONAME_NOT_FOUND") | .hosts[]' "$work/out" 2>&1)" \
    "2/$H" "... --json: two hosts, the finding's host"
win fleet --json -o "Z:$work/fleet.json" "Z:$work/win.json" "Z:$work/linux.json"
is "$(jq -r .schema "$work/fleet.json" 2>&1)" "cudawiz/fleet/1" "... -o writes the report"
win fleet --format html "Z:$work/win.json"
like "$rc/$(head -c 15 "$work/out")/$(cat "$work/err")" '^1/<!DOCTYPE html>/$' "... --format html: the page (tests/cli/windows-html.sh checks it)"

# 21-23: doctor --format prometheus.
win doctor --format prometheus -o "Z:$work/win.prom"
like "$(cat "$work/win.prom")" 'cudawiz_driver_info\{version="560\.94",branch="560",module_version="560\.94",max_cuda="12\.6"\} 1' \
    "prometheus: the driver, as the spec has it"
like "$(cat "$work/win.prom")" 'cudawiz_finding\{code="SONAME_NOT_FOUND",severity="error"\} 2' \
    "... and the findings (TensorFlow's cudart64_110.dll and cudnn64_8.dll)"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$work/win.prom" >"$work/promtool" 2>&1
	is "$?" 0 "promtool check metrics accepts it"
else
	skip "promtool check metrics accepts it" "promtool is not installed (Debian package prometheus)"
fi

# 24: doctor --baseline against the Linux report.
win doctor --json --baseline "Z:$work/linux.json"
like "$(jq -r '.findings[].code' "$work/out" 2>&1 | sort -u | tr '\n' ' ')" 'DRIFT_DRIVER .*DRIFT_TOOLKIT' \
    "doctor --baseline: DRIFT_* findings against a Linux machine's spec"

done_testing
