#!/bin/sh
# The Windows program (make windows: compat/windows.mk, src/win/) under
# Wine: cudawiz.exe --version says what the Linux binary says; explain
# gives the Linux finding and its PowerShell fix for TensorFlow's
# cudart64_110.dll message, as text and as JSON; why NAME.dll finds a copy
# on PATH through the live system's search and says that Python 3.8+
# would not, with os.add_dll_directory as the fix; verify --env says it
# is not there on Windows yet (exit 2; windows-doctor.sh tests doctor,
# windows-env.sh env and env --check, windows-spec.sh spec and fleet). Uses dist/…/cudawiz.exe, and
# runs `make windows' first (tests/lib/fx_windows.sh's winfx_setup, which
# skips without mingw-w64, Wine, jq, cmake or curl).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
winfx_setup windows-exe
version=$("$CUDAWIZ" --version | head -n 1) || exit 99
[ -f "$exe" ] || { echo "Bail out! make windows made no $exe"; exit 99; }

# Runs the exe in the prefix; its stdout without the CRs of Windows'
# text mode in $work/out, stderr in $work/err, the status in $rc.
win() {
	"$WINE" "$exe" "$@" >"$work/out.crlf" 2>"$work/err.crlf" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	tr -d '\r' <"$work/err.crlf" >"$work/err"
}

# 1-2: the binary itself: only Windows' own DLLs, and the same version.
imports=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' |
    tr 'A-Z\n' 'a-z ')
unlike "$imports" 'libgcc|winpthread|jansson|cygwin|msys' \
    "cudawiz.exe imports only Windows' DLLs ($imports)"
win --version
is "$(head -n 1 "$work/out")" "$version" "--version matches the Linux binary's"

# 3-6: explain, the TensorFlow message: the Linux finding and its fix.
msg="2021-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
linux_code=$("$CUDAWIZ" explain --json "$msg" | jq -r '.findings[0].code')
is "$linux_code" SONAME_NOT_FOUND "Linux explains the message as SONAME_NOT_FOUND"
win explain "$msg"
is "$rc" 1 "explain exits 1 on the error finding"
like "$(cat "$work/out")" "ERROR +$linux_code" "explain gives the Linux finding"
like "$(cat "$work/out")" 'on Windows \(PowerShell\).*CUDA 11' "with the PowerShell fix"
# 7-8: the same as JSON, and the same text as on Linux.
win explain --json "$msg"
got=$(jq -r '[.findings[0].code, (.findings[0].fix | map(select(test("PowerShell"))) | length > 0)] | map(tostring) | join("|")' "$work/out" 2>&1)
is "$got" "$linux_code|true" "explain --json is valid JSON with the finding and the PowerShell fix"
"$CUDAWIZ" explain "$msg" >"$work/linux.txt"
win explain "$msg"
ok "explain's text is the Linux binary's" cmp -s "$work/out" "$work/linux.txt"

# 9: the arguments arrive as UTF-16 and reach explain as UTF-8 (wmain),
# whatever Wine's ANSI code page.
umsg="ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory (in /home/josé/env)"
win explain --json "$umsg"
is "$(jq -r .input "$work/out" 2>&1)" "$umsg" "explain reads a non-ASCII argument as UTF-8"

# 10: explain - reads standard input (CRLF lines, as a Windows log has).
printf 'line one\r\n%s\r\n' "$msg" | "$WINE" "$exe" explain --json - 2>&1 | tr -d '\r' >"$work/out"
is "$(jq -r '.findings[0].code' "$work/out" 2>&1)" "$linux_code" "explain - reads the message from standard input"

# 11-14: why, over the prefix's C: drive. A copy in C:\cuda\bin, on PATH
# (WINEPATH), is what LoadLibrary from python.exe loads; Python 3.8+
# does not search PATH.
mkdir -p "$WINEPREFIX/drive_c/cuda/bin"
cp "$exe" "$WINEPREFIX/drive_c/cuda/bin/cudart64_110.dll"
WINEPATH='C:\cuda\bin' win why cudart64_110.dll
like "$(cat "$work/out")" 'PATH +C:\\cuda\\bin\\cudart64_110.dll: FOUND' "why: the copy on PATH is found"
like "$(cat "$work/out")" '=> loads C:\\cuda\\bin\\cudart64_110.dll' "why: it is the winner of the standard search"
like "$(sed -n '/^Python 3.8/,$p' "$work/out")" '=> fails: error 126' "why: Python 3.8+'s search does not find it"
like "$(cat "$work/out")" 'os.add_dll_directory\(r"C:\\cuda\\bin"\)' "why: os.add_dll_directory is the fix"
# 15: a second copy further down PATH is named, not loaded.
mkdir -p "$WINEPREFIX/drive_c/cuda11/bin"
cp "$exe" "$WINEPREFIX/drive_c/cuda11/bin/cudart64_110.dll"
WINEPATH='C:\cuda\bin;C:\cuda11\bin' win why cudart64_110.dll
like "$(sed -n '/other copies/,/^$/p' "$work/out")" '^ +C:\\cuda11\\bin\\cudart64_110.dll$' \
    "why: the other copy on PATH is listed"
rm -r "$WINEPREFIX/drive_c/cuda11"

# 16: a directory on another drive (Wine's Z: is /) is searched too.
mkdir -p "$work/zdir" && cp "$exe" "$work/zdir/cudart64_110.dll"
zdir="Z:$(printf '%s' "$work/zdir" | tr / '\\')"
WINEPATH="$zdir" win why cudart64_110.dll
is "$(grep -cF "=> loads $zdir\\cudart64_110.dll" "$work/out")" 1 \
    "why: a copy on PATH on drive Z: is found"

# 17-18: JSON, and a name found nowhere.
WINEPATH='C:\cuda\bin' win --json why cudart64_110.dll
got=$(jq -r '[.standard.resolved, .standard.via, .python38.error, .add_dll_directory] | map(tostring) | join("|")' "$work/out" 2>&1)
is "$got" 'C:\cuda\bin\cudart64_110.dll|path|126|C:\cuda\bin' "why --json: the winner, PATH, Python's 126, the fix"
win why cudart64_999.dll
is "$rc/$(grep -c '=> fails: error 126' "$work/out")" "1/2" "why: a DLL found nowhere fails both searches (exit 1)"

# 19-20: the first python.exe on PATH gives the application directory,
# which both searches take (Python 3.8+'s as LOAD_LIBRARY_SEARCH_
# APPLICATION_DIR): a copy beside it loads either way.
mkdir -p "$WINEPREFIX/drive_c/Python311"
cp "$exe" "$WINEPREFIX/drive_c/Python311/python.exe"
cp "$exe" "$WINEPREFIX/drive_c/Python311/cudnn64_8.dll"
WINEPATH='C:\cuda\bin;C:\Python311' win why cudnn64_8.dll
like "$(cat "$work/out")" 'python.exe: +C:\\Python311' "why: the python.exe found on PATH is named"
is "$rc/$(grep -c '=> loads C:\\Python311\\cudnn64_8.dll' "$work/out")" "0/2" \
    "why: a copy in python.exe's directory loads for both searches (exit 0)"

# 21-25: what is not there on Windows says so; the built-in matrix.
win verify --env 'C:\x'
is "$rc" 2 "verify --env exits 2"
like "$(cat "$work/err")" "verify --env is not available on Windows yet" "verify --env says it is not available on Windows"
win spec export
is "$rc/$(jq -r .schema "$work/out" 2>&1)" "0/cudawiz/spec/1" "spec export runs (windows-spec.sh checks its items)"
win --help
like "$rc $(tr '\n' ' ' <"$work/out")" "^0 .*This Windows build has 'doctor'.*'verify'.*'explain'.*'matrix update'.*Only 'matrix update' uses the network" \
    "--help says what the Windows build has, and that only matrix update uses the network"
win matrix show
like "$rc $(head -n 1 "$work/out")" '^0 Matrix in use: +built in' "matrix show gives the built-in matrix"

# 26-27: the cache is %LOCALAPPDATA%\cudawiz\matrix.json; a matrix copied
# there is the one in use (the Windows build never fetches one).
win matrix path
cache=$(head -n 1 "$work/out")
like "$rc $cache" '^0 C:\\users\\[^\\]+\\AppData\\Local\\cudawiz\\matrix.json$' "matrix path is under LOCALAPPDATA"
unix=$(printf '%s' "$cache" | sed "s|^C:|$WINEPREFIX/drive_c|; s|\\\\|/|g")
mkdir -p "$(dirname "$unix")" && cp "$TESTS_SRCDIR/../data/matrix.json" "$unix"
win matrix show
like "$(head -n 2 "$work/out" | tr '\n' ' ')" 'Matrix in use: +cache +C:\\users\\.*matrix.json' "a matrix copied there is used"

done_testing
