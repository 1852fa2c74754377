#!/bin/sh
# Each framework's DLLs as the probe resolves them (src/winprobe/
# winneeds.c) against Wine's own loader: a Wine prefix's drive C holds
# TensorFlow 2.10 in C:\Program Files\Python310, whose python.exe is
# dllprobe.exe (tests/win/dllprobe.c), so the application directory is
# the one a real python.exe gives; CUDA 11.2's bin, an x86 copy and
# torch\lib hold stub DLLs. python.exe loads each name as the framework
# does (TensorFlow: LoadLibraryExW by name; torch: os.add_dll_directory
# then the default dirs), and winprobe-dump, run over drive_c with the
# PATH the Wine process had, must name the same file or the same error.
# Needs mingw-w64 and Wine (Debian packages gcc-mingw-w64-x86-64 and
# wine64); skips without.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"

DUMP=${WINPROBE_DUMP:-$(dirname "$CUDAWIZ")/tests/tools/winprobe-dump}
MINGW=x86_64-w64-mingw32-gcc
wine_find
command -v "$MINGW" >/dev/null 2>&1 ||
    skip_all "mingw-w64 is not installed (Debian package gcc-mingw-w64-x86-64)"
[ -x "$DUMP" ] || skip_all "$DUMP is not built"

work=$(mktemp -d "${FX_TMP:-/tmp}/winneeds-wine.XXXXXX") || exit 99
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
trap '"$WINESERVER" -k >/dev/null 2>&1; rm -rf "$work"' EXIT

"$MINGW" -municode -O2 -o "$work/dllprobe.exe" \
    "$TESTS_SRCDIR/win/dllprobe.c" 2>"$work/cc.err" &&
    "$MINGW" -shared -O2 -o "$work/stub.dll" "$TESTS_SRCDIR/win/stubdll.c" \
    2>>"$work/cc.err" || {
	cat "$work/cc.err"
	echo "Bail out! mingw-w64 could not build the probe"
	exit 99
}
wine_prefix

PY="$C/Program Files/Python310"
SP="$PY/Lib/site-packages"
TKBIN="$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2/bin"
WTKBIN='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2\bin'
mkdir -p "$SP/tensorflow/python/platform" "$SP/tensorflow_intel-2.10.1.dist-info" \
    "$SP/torch/lib" "$TKBIN" "$C/x86/bin"
cp "$work/dllprobe.exe" "$PY/python.exe"
printf '%s\n' "build_info = {'cuda_version': '64_112', 'cudnn_version': '64_8', 'cudart_dll_name': 'cudart64_110.dll', 'cudnn_dll_name': 'cudnn64_8.dll'}" \
    > "$SP/tensorflow/python/platform/build_info.py"
: > "$SP/tensorflow_intel-2.10.1.dist-info/METADATA"
printf "__version__ = '2.1.2+cu121'\ncuda = '12.1'\n" > "$SP/torch/version.py"
cp "$work/stub.dll" "$TKBIN/cudart64_110.dll"
cp "$work/stub.dll" "$TKBIN/cudnn64_8.dll"
cp "$work/stub.dll" "$SP/torch/lib/cudart64_12.dll"
if command -v i686-w64-mingw32-gcc >/dev/null 2>&1 &&
    i686-w64-mingw32-gcc -shared -O2 -o "$C/x86/bin/cudart64_110.dll" \
    "$TESTS_SRCDIR/win/stubdll.c" 2>>"$work/cc.err"; then
	x86=yes
else
	x86=
	echo "# no i686-w64-mingw32-gcc: no x86 copy"
fi

# wine_load WINEPATH ARGS...: python.exe's answer; sets wpath (the PATH
# the process had) and wgot ("found FILE" or "error N").
wine_load() {
	wp=$1
	shift
	o=$(cd "$work" && WINEPATH=$wp "$WINE" "$PY/python.exe" "$@" 2>/dev/null </dev/null | tr -d '\r')
	wpath=$(printf '%s\n' "$o" | sed -n 's/^path //p')
	wgot=$(printf '%s\n' "$o" | grep -E '^(found|error) ')
}

# model FW DLL LABEL: the probe's answer LABEL (got, py38) for FW's DLL
# with Wine's PATH, as "found FILE" or "error N".
model() {
	l=$("$DUMP" "$C" "Path=$wpath" | grep -F ".need $1 $2 ")
	p=$(printf '%s\n' "$l" | sed -n "s/.* | $3=\\([^|]*\\) | .*/\\1/p")
	e=$(printf '%s\n' "$l" | sed -n "s/.* | $3_error=\\([0-9]*\\).*/\\1/p")
	if [ -n "$p" ] && [ "$p" != - ]; then
		echo "found $p"
	else
		echo "error $e"
	fi
}

lc() { printf '%s\n' "$1" | tr 'A-Z' 'a-z'; }

# TensorFlow: LoadLibraryExW(name, NULL, LOAD_WITH_ALTERED_SEARCH_PATH).
wine_load "$WTKBIN" --flags 0x8 cudart64_110.dll
like "$wgot" '^found .*v11\.2.bin.cudart64_110\.dll$' "Wine: cudart64_110.dll from CUDA 11.2's bin on PATH"
is "$(lc "$(model tensorflow cudart64_110.dll got)")" "$(lc "$wgot")" "the probe: the same file"

wine_load "" --flags 0x8 cudart64_110.dll
is "$wgot" "error 126" "Wine: not on PATH, error 126"
is "$(model tensorflow cudart64_110.dll got)" "$wgot" "the probe: the same error"

if [ -n "$x86" ]; then
	wine_load "C:\\x86\\bin;$WTKBIN" --flags 0x8 cudart64_110.dll
	like "$wgot" '^found .*v11\.2.bin.cudart64_110\.dll$' "Wine: the x86 copy first on PATH is passed over"
	is "$(lc "$(model tensorflow cudart64_110.dll got)")" "$(lc "$wgot")" "the probe: the same file"
	like "$("$DUMP" "$C" "Path=$wpath" | grep -F '.need tensorflow cudart64_110.dll ')" \
	    'passed_over=C:\\x86\\bin\\cudart64_110\.dll' "and names the x86 copy passed over"
	wine_load "C:\\x86\\bin" --flags 0x8 cudart64_110.dll
	is "$wgot" "error 193" "Wine: the x86 copy alone, error 193"
	is "$(model tensorflow cudart64_110.dll got)" "$wgot" "the probe: the same error"
else
	for i in 1 2 3 4 5; do skip "x86 check $i" "no i686-w64-mingw32-gcc"; done
fi

# The extension-module way (Python >= 3.8's default dirs): PATH skipped.
wine_load "$WTKBIN" --default-dirs --flags 0x1000 cudnn64_8.dll
is "$wgot" "error 126" "Wine: the default dirs do not search PATH"
is "$(model tensorflow cudnn64_8.dll py38)" "$wgot" "the probe's Python 3.8 answer: the same error"

# torch: os.add_dll_directory(torch\lib), then the default dirs.
wine_load "" --default-dirs --add 'C:\Program Files\Python310\Lib\site-packages\torch\lib' \
    --flags 0x1000 cudart64_12.dll
like "$wgot" '^found .*torch.lib.cudart64_12\.dll$' "Wine: torch's cudart64_12.dll from torch\\lib"
is "$(lc "$(model torch cudart64_12.dll got)")" "$(lc "$wgot")" "the probe: the same file"

done_testing
