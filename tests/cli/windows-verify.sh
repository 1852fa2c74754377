#!/bin/sh
# cudawiz.exe verify (src/win/cmd_verify.c) under Wine: make windows's
# cudawiz.exe with the cudawiz-verify.exe it puts beside it, on a fresh
# prefix whose System32 holds a fake nvcuda.dll built with mingw-w64 from
# tests/tools/fake_libcuda.c (as verify-wine.sh builds it): one that
# works, one that crashes in cuInit (an access violation), one that hangs
# there; then a toolkit with a fake cudart64_12.dll and cudnn64_9.dll
# (tests/win/). Skips without mingw-w64, Wine, jq, cmake or curl
# (tests/lib/fx_windows.sh's winfx_setup).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
# winfx_setup: the skips, make windows, the prefix; it unsets the
# harness's CUDAWIZ_HELPER (the Linux helper), so cudawiz.exe takes the
# one beside it (but in the last test).
winfx_setup windows-verify
MINGW=x86_64-w64-mingw32-gcc
dist=${exe%/*}
ok "make windows put cudawiz-verify.exe beside cudawiz.exe" test -f "$dist/cudawiz-verify.exe"
# Only Windows' own DLLs, as for cudawiz.exe.
imports=$(x86_64-w64-mingw32-objdump -p "$dist/cudawiz-verify.exe" |
    sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | sort | tr '\n' ' ')
unlike "$imports" 'libgcc|winpthread|jansson' \
    "cudawiz-verify.exe imports only Windows' DLLs ($imports)"

cc() { "$MINGW" -std=c11 -O2 "$@" 2>>"$work/cc.err"; }
built=1
for m in GOOD SEGV HANG; do
	cc -shared -DFAKE_MODE="FAKE_$m" -o "$work/fake_$m.dll" \
	    "$TESTS_SRCDIR/tools/fake_libcuda.c" || built=0
done
cc -shared -o "$work/cudart64_12.dll" "$TESTS_SRCDIR/win/fake_cudart.c" || built=0
# A cudnn64_9.dll importing from a sibling DLL, as cuDNN 9's do.
mkdir -p "$work/dnn"
cc -shared -o "$work/dnn/cwdep.dll" -Wl,--out-implib,"$work/cwdep.dll.a" \
    "$TESTS_SRCDIR/win/depdll.c" &&
    cc -shared -o "$work/dnn/cudnn64_9.dll" "$TESTS_SRCDIR/win/fake_cudnn.c" \
    "$TESTS_SRCDIR/win/needdep.c" "$work/cwdep.dll.a" || built=0
if [ "$built" != 1 ]; then
	sed 's/^/# /' "$work/cc.err"
	echo "Bail out! mingw-w64 could not build the fake DLLs"
	exit 99
fi

# verify ARGS...: cudawiz.exe verify; text in $work/out, the status in $rc.
verify() {
	"$WINE" "$exe" verify "$@" >"$work/out.crlf" 2>"$work/err" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
}
codes() { "$WINE" "$exe" verify --json "$@" 2>/dev/null </dev/null | tr -d '\r' >"$work/json"
	jq -r '[.findings[].code] | join(" ")' "$work/json" 2>/dev/null; }
use() { cp "$work/fake_$1.dll" "$C/windows/system32/nvcuda.dll"; }

# 3-6: the working fake.
use GOOD
verify
is "$rc" 0 "working driver: exit 0"
like "$(cat "$work/out")" 'driver +C:\\windows\\system32\\nvcuda\.dll' \
    "working driver: System32's nvcuda.dll checked"
like "$(sed -n '/nvcuda\.dll/{n;p;}' "$work/out")" '^ +works \(driver_version 12080, Fake GPU' \
    "working driver: works, with its version and device"
is "$(codes)" "" "working driver: no finding"

# 7-12: the crashing fake: the helper dies, cudawiz.exe reports it.
use SEGV
verify
is "$rc" 1 "crashing driver: exit 1"
like "$(sed -n '/nvcuda\.dll/{n;p;}' "$work/out")" 'crashed \(STATUS_ACCESS_VIOLATION in cuInit\)' \
    "crashing driver: crashed, an access violation in cuInit"
like "$(tr '\n' ' ' <"$work/out" | tr -s ' ')" 'cudawiz survived because the check ran in a separate process' \
    "crashing driver: cudawiz.exe survived and printed its report"
is "$(codes)" "VERIFY_CRASHED" "crashing driver: VERIFY_CRASHED (--json)"
like "$(jq -r '.findings[0].detail' "$work/json")" 'STATUS_ACCESS_VIOLATION \(0xc0000005\) in cuInit' \
    "crashing driver: the finding names the NTSTATUS and the step"
like "$(jq -r '.findings[0].fix[]' "$work/json" | tr '\n' ' ')" 'NVIDIA driver' \
    "crashing driver: the hint names the NVIDIA driver"

# 13-15: the hanging fake, stopped at --timeout 3.
use HANG
verify --timeout 3
is "$rc" 1 "hanging driver: exit 1"
like "$(sed -n '/nvcuda\.dll/{n;p;}' "$work/out")" 'hung in cuInit, stopped after 3 s' \
    "hanging driver: hung in cuInit, stopped"
is "$(codes --timeout 3)" "VERIFY_TIMEOUT" "hanging driver: VERIFY_TIMEOUT"

# 16-20: a toolkit's cudart64_12.dll beside the working driver: run in
# runtime mode; the fake has no GPU to give, so it fails at init with
# the runtime's own error, reported as RUNTIME_INIT_FAILED.
use GOOD
mkdir -p "$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6/bin"
cp "$work/cudart64_12.dll" "$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6/bin/"
verify
like "$(cat "$work/out")" 'runtime +C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12\.6\\bin\\cudart64_12\.dll' \
    "toolkit: its cudart64_12.dll checked"
like "$(sed -n '/cudart64_12\.dll/{n;p;}' "$work/out")" 'failed at init: .*(cudaErrorNoDevice|no CUDA-capable)' \
    "toolkit: the runtime loaded and failed at init with the fake's cudaErrorNoDevice"
codes >/dev/null
is "$(jq -r '.schema' "$work/json" 2>&1)" "cudawiz/windows-verify/1" "--json: valid, its schema"
is "$(jq -r '[.runs[] | .kind + ":" + .outcome] | join(" ")' "$work/json")" \
    "driver:works runtime:failed" "--json: the driver works, the runtime failed"
is "$(jq -r '.runs[1].records[] | select(.check == "runtime_version") | .version' "$work/json")" \
    "12040" "--json: the runtime's records, its version 12040"

# 21-23: cuDNN 9 in the toolkit's bin: run in cudnn mode with the
# toolkit's cudart; the fake's cudnnCreate fails (no GPU): CUDNN_FAILED.
cp "$work/dnn/cwdep.dll" "$work/dnn/cudnn64_9.dll" \
    "$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6/bin/"
codes >/dev/null
is "$(jq -r '[.runs[] | .kind + ":" + .outcome] | join(" ")' "$work/json")" \
    "driver:works runtime:failed cudnn:failed" "cuDNN: a third run, in cudnn mode, failed"
is "$(jq -r '.runs[2] | [(.records[] | select(.check == "cudnn_version") | .version), .failed_check] | join(" ")' "$work/json")" \
    "90100 cudnn_create" "cuDNN: version 9.1 read, failed at cudnnCreate"
is "$(jq -r '[.findings[].code] | sort | join(" ")' "$work/json")" \
    "CUDNN_FAILED RUNTIME_INIT_FAILED" "cuDNN: CUDNN_FAILED beside the runtime's finding"

# 24: no helper where CUDAWIZ_HELPER points: a warning, cudawiz goes on.
CUDAWIZ_HELPER='C:\no-such\cudawiz-verify.exe' "$WINE" "$exe" verify --json \
    2>/dev/null </dev/null | tr -d '\r' >"$work/json"
is "$(jq -r '[.runs[].outcome] | join(" ")' "$work/json" 2>&1)" "nostart nostart nostart" \
    "no helper: each run could not start, reported"


# doctor runs the same checks, quick, as Linux's doctor does, and their
# findings join its report (the toolkit with cudart and cuDNN is still
# there, the driver the working fake again).
# doc ARGS...: cudawiz.exe doctor ARGS; text in $work/out, --json in
# $work/json, the status in $rc.
doc() {
	"$WINE" "$exe" doctor "$@" >"$work/out.crlf" 2>"$work/err" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	"$WINE" "$exe" doctor --json "$@" 2>/dev/null </dev/null | tr -d '\r' >"$work/json"
}
vcodes() { jq -r '[.findings[].code | select(test("VERIFY|RUNTIME_INIT|CUDNN_FAILED"))] | sort | join(" ")' "$work/json" 2>&1; }

# 25-27: verify's runs, verify's findings.
use GOOD
doc
is "$(jq -r '.verify | [.state, (.runs[] | .kind + ":" + .outcome)] | join(" ")' "$work/json" 2>&1)" \
    "ran driver:works runtime:failed cudnn:failed" "doctor: verify's three runs, the driver working"
is "$(vcodes)" "CUDNN_FAILED RUNTIME_INIT_FAILED" "doctor: the runs' findings in its report"
like "$(sed -n '/^Live verification/,$p' "$work/out" | sed -n '/nvcuda\.dll$/{n;p;}')" '^ +works \(driver_version 12080, Fake GPU' \
    "doctor: its Live verification block, the driver works"

# 28-30: the crashing driver: VERIFY_CRASHED, exit 1, the report whole.
use SEGV
doc
is "$rc/$(vcodes)" "1/CUDNN_FAILED RUNTIME_INIT_FAILED VERIFY_CRASHED" \
    "crashing driver: doctor exits 1 with VERIFY_CRASHED among its findings"
like "$(tr '\n' ' ' <"$work/out")" 'Driver .*CUDA toolkits .*Live verification .*crashed \(STATUS_ACCESS_VIOLATION in cuInit\).* VERIFY_CRASHED ' \
    "crashing driver: doctor's whole report, the crash in it"
doc --no-verify
is "$(jq -r '.verify.state' "$work/json" 2>&1)/$(vcodes)" "not_run/" \
    "doctor --no-verify: nothing loaded, none of the runs' findings"

# 31: --timeout as on Linux: the hanging driver stopped after it.
use HANG
"$WINE" "$exe" doctor --json --timeout 3 2>/dev/null </dev/null | tr -d '\r' >"$work/json"
is "$(jq -r '[.verify.timeout_s, (.verify.runs[0].outcome)] | map(tostring) | join(" ")' "$work/json" 2>&1)/$(vcodes)" \
    "3 timeout/CUDNN_FAILED RUNTIME_INIT_FAILED VERIFY_TIMEOUT" "doctor --timeout 3: the hanging driver stopped, VERIFY_TIMEOUT"

# 32-33: no helper where CUDAWIZ_HELPER points: doctor skips the checks,
# says why, and reports the rest.
use GOOD
CUDAWIZ_HELPER='C:\no-such\cudawiz-verify.exe' doc
like "$(sed -n '/^Live verification/{n;p;}' "$work/out")" \
    '^  skipped: CUDAWIZ_HELPER=C:\\no-such\\cudawiz-verify\.exe: No such file or directory$' \
    "doctor without its helper: Live verification skipped, naming it"
is "$(jq -r '.verify.state + " " + (.verify.runs | length | tostring)' "$work/json" 2>&1)/$(vcodes)/$(grep -c '^CUDA toolkits' "$work/out")" \
    "skipped 0//1" "doctor without its helper: no runs, none of their findings, the rest of the report"

done_testing
