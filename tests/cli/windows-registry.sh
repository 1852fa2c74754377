#!/bin/sh
# cudawiz.exe doctor (src/win/cmd_doctor.c, src/win/registry.c) under
# Wine, reading what only the registry holds, written with Wine's own
# `reg add`: the display adapters of the display class key (DriverDesc,
# MatchingDeviceId, DriverVersion, ProviderName) and a Python install
# known only to the py launcher's registry (PEP 514's
# PythonCore\<tag>\InstallPath), in a directory neither on PATH nor where
# python.org installs go. Wine rewrites the class key's subkeys when its
# server starts, so the server is kept running (wineserver -p) from
# wineboot to the last doctor. Checks the GPU listed with driver 560.94,
# the install found and its framework probed, NO_NVIDIA_GPU with only an
# Intel adapter, and DRIVER_LIBRARY_MISMATCH when the adapter's
# DriverVersion is another driver than nvcuda.dll's. Needs mingw-w64
# (with windres), Wine, jq, cmake and curl; skips without.
. "$TESTS_SRCDIR/lib/tap.sh"

. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
winfx_setup windows-registry
PYK='HKCU\Software\Python\PythonCore\3.11\InstallPath'
PY="$C/Tools/Py311"
WPY='C:\Tools\Py311'
SP="$PY/Lib/site-packages"
winfx_build winfx_nvcuda
winfx_build winfx_python "$PY" 311 3,11,9,1013
winfx_build winfx_torch "$SP"

# doctor: text in $work/out, --json in $work/json, the status in $rc;
# PATH without the Python.
doctor() {
	WINEPATH='C:\windows\system32' "$WINE" "$exe" doctor \
	    >"$work/out.crlf" 2>"$work/err" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	WINEPATH='C:\windows\system32' "$WINE" "$exe" doctor --json \
	    2>/dev/null </dev/null | tr -d '\r' >"$work/json"
}
codes() {
	jq -r '[.findings[].code] | join(" ")' "$work/json" 2>/dev/null
}

# 1-3: without the registry's key the install is not found (the test
# can fail: the directory is not where doctor looks otherwise).
doctor
is "$(jq '[.pythons[] | select(.dir == "C:\\Tools\\Py311")] | length' "$work/json" 2>&1)" 0 \
    "no PythonCore key: C:\\Tools\\Py311 is not found"
like "$(cat "$work/out")" 'GPUs' "the report has a GPUs heading"
is "$(jq -r '.gpus | type' "$work/json" 2>&1)" array "--json: gpus is an array (the registry was read)"

# 4-10: an RTX 4090 at 560.94 beside Wine's own adapter; Python 3.11
# through PythonCore.
adapter 0001 'NVIDIA GeForce RTX 4090' 'PCI\VEN_10DE&DEV_2684&SUBSYS_16F310DE&REV_A1' 32.0.15.6094 NVIDIA
"$WINE" reg add "$PYK" /ve /t REG_SZ /d "$WPY\\" /f >/dev/null 2>&1 </dev/null
regset "$PYK" ExecutablePath "$WPY\\python.exe"
doctor
like "$(cat "$work/out")" 'NVIDIA GeForce RTX 4090 +\[10de:2684\] +driver 560\.94 +\(file version 32\.0\.15\.6094\) +NVIDIA' \
    "text: the RTX 4090, its ids and driver 560.94"
is "$(jq -r '.gpus[] | select(.vendor_id == "10de") | [.name, .device_id, .driver_version, .driver_file_version, .provider] | join("|")' "$work/json" 2>&1)" \
    "NVIDIA GeForce RTX 4090|2684|560.94|32.0.15.6094|NVIDIA" "--json: the adapter's name, ids, versions and provider"
is "$(jq -r '.pythons[] | select(.kind == "registry") | .dir' "$work/json" 2>&1)" "$WPY" \
    "the PythonCore 3.11 install is found through the registry"
is "$(jq -r '.pythons[] | select(.kind == "registry") | .frameworks[] | "\(.name) \(.version)"' "$work/json" 2>&1)" \
    "torch 2.4.1+cu124" "... and its framework probed: torch 2.4.1+cu124"
like "$(cat "$work/out")" 'C:\\Tools\\Py311 +\(registry\)' "text: the install, marked registry"
c=$(codes)
unlike "$c" 'NO_NVIDIA_GPU' "an NVIDIA adapter: no NO_NVIDIA_GPU"
unlike "$c" 'DRIVER_LIBRARY_MISMATCH' "adapter and nvcuda.dll both 560.94: no DRIVER_LIBRARY_MISMATCH"

# 11-13: the adapter's driver is 566.03, nvcuda.dll still 560.94.
regset "$CLS\\0001" DriverVersion 32.0.15.6603
doctor
is "$rc" 1 "a half-finished driver update: doctor exits 1"
like "$(jq -r '.findings[] | select(.code == "DRIVER_LIBRARY_MISMATCH") | .detail' "$work/json" 2>&1)" \
    'NVIDIA GeForce RTX 4090 is version 566\.03.*nvcuda\.dll\) is version 560\.94' \
    "DRIVER_LIBRARY_MISMATCH names both versions"
like "$(jq -r '.findings[] | select(.code == "DRIVER_LIBRARY_MISMATCH") | .fix[]' "$work/json" 2>&1)" \
    'reinstall NVIDIA.s driver' "... the fix: reinstall the driver, restart"

# 14-16: only an Intel adapter (Wine's own rewritten as one).
"$WINE" reg delete "$CLS\\0001" /f >/dev/null 2>&1 </dev/null
adapter 0000 'Intel(R) UHD Graphics 770' 'PCI\VEN_8086&DEV_A780' 31.0.101.4502 'Intel Corporation'
doctor
is "$(jq -r '[.gpus[].vendor_id] | join(" ")' "$work/json" 2>&1)" 8086 "only the Intel adapter is listed"
like "$(codes)" 'NO_NVIDIA_GPU' "NO_NVIDIA_GPU when no adapter is NVIDIA's"
like "$(jq -r '.findings[] | select(.code == "NO_NVIDIA_GPU") | .evidence[]' "$work/json" 2>&1)" \
    'Intel\(R\) UHD Graphics 770 \(PCI 8086:a780' "... the Intel adapter in its evidence"

# 17: InstallPath without its default value: ExecutablePath's directory.
"$WINE" reg delete "$PYK" /ve /f >/dev/null 2>&1 </dev/null
doctor
is "$(jq -r '.pythons[] | select(.kind == "registry") | .dir' "$work/json" 2>&1)" "$WPY" \
    "InstallPath with only ExecutablePath: its directory is the install"

done_testing
