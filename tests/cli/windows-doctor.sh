#!/bin/sh
# cudawiz.exe doctor (src/win/cmd_doctor.c) under Wine, on a prefix laid
# out as a Windows machine: NVIDIA's driver (a mingw-built nvcuda.dll with
# the version resource of driver 560.94), CUDA 12.6 named by CUDA_PATH,
# and TensorFlow 2.10 in a python.org Python 3.10 on PATH. The
# cudart64_110.dll case: only CUDA 12 installed, TensorFlow wanting 11.x
# (SONAME_NOT_FOUND, the CUDA 11.2 install as the fix, in PowerShell and
# cmd.exe lines); CUDA 11.2 there but not on PATH (its bin first on
# PATH); Python 3.8+: TensorFlow's .pyd imports cudart64_110.dll, which
# only PATH reaches (os.add_dll_directory). Uses make windows's exe, as
# windows-exe.sh does. Needs mingw-w64 (with windres), Wine, jq, cmake
# and curl; skips without.
. "$TESTS_SRCDIR/lib/tap.sh"

. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
winfx_setup windows-doctor
winfx_machine

# doctor PATH...: cudawiz.exe doctor with WINEPATH and CUDA_PATH set;
# text in $work/out, --json in $work/json, the status in $rc.
doctor() {
	WINEPATH=$1 CUDA_PATH="$WTK\\v12.6" "$WINE" "$exe" doctor \
	    >"$work/out.crlf" 2>"$work/err" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	WINEPATH=$1 CUDA_PATH="$WTK\\v12.6" "$WINE" "$exe" doctor --json \
	    2>/dev/null </dev/null | tr -d '\r' >"$work/json"
}
# The fix lines of the finding CODE whose subject names DLL, one a line.
fixes() {
	jq -r --arg c "$1" --arg d "$2" '.findings[] | select(.code == $c and
	    ((.subject // "") | contains($d))) | .fix[]' "$work/json" 2>/dev/null
}

# 1-7: CUDA 12.6 only; TensorFlow 2.10 wants cudart64_110.dll.
doctor "$WPY"
is "$rc" 1 "doctor exits 1 on the error finding"
like "$(cat "$work/out")" 'nvcuda.dll +560\.94' "the driver: 560.94 from nvcuda.dll's file version"
like "$(cat "$work/out")" '12\.6 +C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12\.6 +\(CUDA_PATH\)' \
    "the toolkit CUDA_PATH names"
like "$(cat "$work/out")" 'tensorflow 2\.10\.1' "TensorFlow 2.10.1 in the python.org install"
is "$(jq -r '.schema' "$work/json" 2>&1)" "cudawiz/windows-doctor/1" "--json is valid JSON with its schema"
like "$(jq -r '.findings[] | select(.code == "SONAME_NOT_FOUND") | .subject' "$work/json")" \
    'cudart64_110\.dll' "SONAME_NOT_FOUND for cudart64_110.dll"
f=$(fixes SONAME_NOT_FOUND cudart64_110.dll)
like "$f" "CUDA 11\\.2" "... the fix: CUDA 11.2, which TensorFlow 2.10 was built with"

# 8-10: CUDA 11.2 installed, its bin not on PATH: it goes first on PATH.
mkdll "$TK/v11.2/bin/cudart64_110.dll" 11,2,152,0 "NVIDIA CUDA 11.2.152 Runtime" >/dev/null 2>&1
mkdll "$TK/v11.2/bin/cudnn64_8.dll" 8,1,1,33 "NVIDIA CUDA Deep Neural Network library" >/dev/null 2>&1
doctor "$WPY"
f=$(fixes SONAME_NOT_FOUND cudart64_110.dll)
like "$f" "\\\$env:PATH = '$(printf '%s' "$WTK" | sed 's/\\/\\\\/g')\\\\v11\\.2\\\\bin;' \\+ \\\$env:PATH" \
    "CUDA 11.2 off PATH: a PowerShell line puts its bin first"
like "$f" "set \"PATH=$(printf '%s' "$WTK" | sed 's/\\/\\\\/g')\\\\v11\\.2\\\\bin;%PATH%\"" \
    "... and a cmd.exe line"
like "$f" '^# PowerShell:' "... each group after a comment naming its shell"

# 11-13: its bin on PATH: TensorFlow's LoadLibrary finds it.
doctor "$WPY;$WTK\\v11.2\\bin"
is "$(jq '[.findings[] | select(.code == "SONAME_NOT_FOUND" and ((.subject // "") | contains("cudart64_110.dll")))] | length' "$work/json")" 0 \
    "CUDA 11.2's bin on PATH: cudart64_110.dll is found"
like "$(cat "$work/out")" 'cudart64_110\.dll +C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11\.2\\bin\\cudart64_110\.dll' \
    "... the report names where"
# Python 3.8+: the .pyd imports cudart64_110.dll, which PATH alone reaches.
mkdir -p "$SP/tensorflow/python"
printf '__declspec(dllimport) int cudaGetDeviceCount(int *n);\n__declspec(dllexport) int PyInit__pywrap_tensorflow_internal(void) { int n; return cudaGetDeviceCount(&n); }\n' > "$work/pyd.c"
x86_64-w64-mingw32-gcc -shared -o "$SP/tensorflow/python/_pywrap_tensorflow_internal.pyd" \
    "$work/pyd.c" "$TK/v11.2/bin/cudart64_110.dll" 2>"$work/pyd.err"
doctor "$WPY;$WTK\\v11.2\\bin"
like "$(jq -r '.findings[] | .fix[]' "$work/json")" \
    "os\\.add_dll_directory\\(r\"$(printf '%s' "$WTK" | sed 's/\\/\\\\/g')\\\\v11\\.2\\\\bin\"\\)" \
    "Python 3.10 imports the .pyd without PATH: os.add_dll_directory is the fix"

# 14: doctor --format html writes the page (tests/cli/windows-html.sh
# checks it).
WINEPATH="$WPY" "$WINE" "$exe" doctor --format html 2>"$work/err" </dev/null | tr -d '\r' >"$work/page"
like "$(head -c 15 "$work/page")/$(cat "$work/err")" '^<!DOCTYPE html>/$' "doctor --format html: the page, nothing on stderr"

# The quick live checks, as Linux's doctor runs them: System32's
# nvcuda.dll is now tests/tools/fake_libcuda.c with NVIDIA's version
# resource, one that works and one that crashes in cuInit, run by the
# cudawiz-verify.exe beside cudawiz.exe (the harness's CUDAWIZ_HELPER
# names the Linux helper, which Wine would pass on).
unset CUDAWIZ_HELPER
nv() { mkdll "$work/nv_$1.dll" 32,0,15,6094 "NVIDIA CUDA 12.6.32 driver" \
    "$TESTS_SRCDIR/tools/fake_libcuda.c" -DFAKE_MODE="FAKE_$1"; }
{ nv GOOD && nv SEGV; } >"$work/nv.log" 2>&1 || {
	sed 's/^/# /' "$work/nv.log"
	echo "Bail out! mingw-w64 could not build the fake nvcuda.dll"
	exit 99
}
P="$WPY;$WTK\\v11.2\\bin"
# The driver's run: its line and the one under it.
driver_run() { sed -n '/^Live verification/,$p' "$work/out" | sed -n '/nvcuda\.dll$/{p;n;p;}' | tr '\n' ' ' | tr -s ' '; }

# 15-20: the working fake: the checks ran and the driver works.
cp "$work/nv_GOOD.dll" "$C/windows/system32/nvcuda.dll"
doctor "$P"
like "$(driver_run)" '^ driver C:\\windows\\system32\\nvcuda\.dll works \(driver_version 12080, Fake GPU' \
    "live checks: the working nvcuda.dll works, in the text report's Live verification"
like "$(sed -n '/^Live verification/,/check(s) in/p' "$work/out" | tail -n 1)" '^  4 check\(s\) in [0-9.]+ s$' \
    "live checks: the driver, both toolkits' cudart and the cuDNN run, counted"
like "$(sed -n '/^Live verification/,$p' "$work/out" | sed -n '/cudart64_12\.dll$/{n;p;}')" '^ +failed at symbols: cuda[A-Za-z]+$' \
    "live checks: CUDA 12.6's stand-in cudart64_12.dll fails, naming a symbol it lacks"
is "$(jq -r '.verify | [.state, .quick, (.runs | length), .runs[0].kind, .runs[0].outcome] | map(tostring) | join(" ")' "$work/json" 2>&1)" \
    "ran true 4 driver works" "live checks --json: verify.state ran, quick, the driver's run works"
is "$(jq -r '[.findings[] | select((.detail // "") | contains("nvcuda.dll")) | .code] | join(" ")' "$work/json")" "" \
    "live checks: no finding about the working nvcuda.dll"
WINEPATH="$P" CUDA_PATH="$WTK\\v12.6" "$WINE" "$exe" doctor --format prometheus \
    2>/dev/null </dev/null | tr -d '\r' >"$work/prom"
like "$(grep '^cudawiz_verify_check_ok{' "$work/prom" | tr '\n' ' ')" \
    'cudawiz_verify_check_ok\{check="init"\} 1 .*cudawiz_verify_check_ok\{check="saxpy"\} 1' \
    "live checks --format prometheus: cudawiz_verify_check_ok for init and saxpy"

# 21-24: the crashing fake: VERIFY_CRASHED joins the report, which is all there.
cp "$work/nv_SEGV.dll" "$C/windows/system32/nvcuda.dll"
doctor "$P"
is "$rc" 1 "crashing nvcuda.dll: doctor exits 1"
like "$(driver_run)" 'crashed \(STATUS_ACCESS_VIOLATION in cuInit\)' \
    "crashing nvcuda.dll: the Live verification block says it crashed in cuInit"
like "$(tr '\n' ' ' <"$work/out")" '^cudawiz .* doctor \(Windows, C:\) .*Driver .*CUDA toolkits .*Python installs .*Live verification .* ERROR +SONAME_NOT_FOUND .* ERROR +VERIFY_CRASHED ' \
    "crashing nvcuda.dll: the rest of the report is printed, the static finding beside VERIFY_CRASHED"
like "$(jq -r '.findings[] | select(.code == "VERIFY_CRASHED") | .detail' "$work/json" | tr '\n' ' ')" \
    'nvcuda\.dll crashed: .*STATUS_ACCESS_VIOLATION \(0xc0000005\) in cuInit' \
    "crashing nvcuda.dll --json: VERIFY_CRASHED with the NTSTATUS and the step"

# 25-27: --no-verify: nothing run, and the report says so.
WINEPATH="$P" CUDA_PATH="$WTK\\v12.6" "$WINE" "$exe" doctor --no-verify \
    2>/dev/null </dev/null | tr -d '\r' >"$work/out"
like "$(sed -n '/^Live verification/{n;p;}' "$work/out")" '^  not run: --no-verify$' \
    "--no-verify: the Live verification block says not run"
WINEPATH="$P" CUDA_PATH="$WTK\\v12.6" "$WINE" "$exe" doctor --no-verify --json \
    2>/dev/null </dev/null | tr -d '\r' >"$work/json"
is "$(jq -r '[.verify.state, .verify.why, (.verify.runs | length)] | map(tostring) | join(" ")' "$work/json" 2>&1)" \
    "not_run --no-verify 0" "--no-verify --json: verify.state not_run, no runs"
is "$(jq '[.findings[] | select(.code == "VERIFY_CRASHED")] | length' "$work/json")" 0 \
    "--no-verify: the crashing nvcuda.dll is not loaded, no VERIFY_CRASHED"

# 28-30: cudawiz.exe alone, without cudawiz-verify.exe beside it: the
# report comes, saying why the checks were skipped.
mkdir -p "$work/lone" && cp "$exe" "$work/lone/"
WINEPATH="$P" CUDA_PATH="$WTK\\v12.6" "$WINE" "$work/lone/cudawiz.exe" doctor \
    >"$work/out.crlf" 2>"$work/err" </dev/null
rc=$?
tr -d '\r' <"$work/out.crlf" >"$work/out"
is "$rc" 1 "no helper: doctor still reports, exit 1 on the static findings"
like "$(tr '\n' ' ' <"$work/out")" 'Driver .*CUDA toolkits .*Live verification +skipped: the verification helper .*lone.cudawiz-verify\.exe: No such file or directory .*SONAME_NOT_FOUND' \
    "no helper: the report, its Live verification skipped naming the missing helper, the findings"
WINEPATH="$P" CUDA_PATH="$WTK\\v12.6" "$WINE" "$work/lone/cudawiz.exe" doctor --json \
    2>/dev/null </dev/null | tr -d '\r' >"$work/json"
is "$(jq -r '[.verify.state, (.findings | map(.code) | index("VERIFY_CRASHED") | tostring)] | join(" ")' "$work/json" 2>&1)" \
    "skipped null" "no helper --json: verify.state skipped, no VERIFY_CRASHED"

done_testing
