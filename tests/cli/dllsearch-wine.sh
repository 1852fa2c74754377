#!/bin/sh
# The Windows DLL search model (src/winload/) against Wine's own loader:
# on DLLSEARCH_TREES random layouts of real DLL copies in a fresh Wine
# prefix (tests/lib/dllsearch-diff.py says what varies), dllprobe.exe
# (tests/win/dllprobe.c, built here with mingw-w64) loads the name with
# LoadLibraryExW under Wine, and tests/tools/dllsearch-model is asked the
# same; both must name the same file, or fail with the same error. Needs mingw-w64 and
# Wine (Debian packages gcc-mingw-w64-x86-64 and wine64); skips without.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"

MODEL=${DLLSEARCH_MODEL:-$(dirname "$CUDAWIZ")/tests/tools/dllsearch-model}
MINGW=x86_64-w64-mingw32-gcc
wine_find
command -v "$MINGW" >/dev/null 2>&1 ||
    skip_all "mingw-w64 is not installed (Debian package gcc-mingw-w64-x86-64)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
[ -x "$MODEL" ] || skip_all "$MODEL is not built"

work=$(mktemp -d "$FX_TMP/dllsearch-wine.XXXXXX") || exit 99
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Wine's server outlives the clients: stopped on every way out, so no
# process holds the harness's pipes.
trap '"$WINESERVER" -k >/dev/null 2>&1; rm -rf "$work"' EXIT

"$MINGW" -municode -O2 -o "$work/dllprobe.exe" \
    "$TESTS_SRCDIR/win/dllprobe.c" 2>"$work/cc.err" &&
    "$MINGW" -shared -O2 -o "$work/stub.dll" "$TESTS_SRCDIR/win/stubdll.c" \
    2>>"$work/cc.err" || {
	cat "$work/cc.err"
	echo "Bail out! mingw-w64 could not build the probe"
	exit 99
}
# An x86 copy, which an x64 process passes over: where the i686 compiler
# is (Debian package gcc-mingw-w64-i686), else those layouts have none.
stub32=-
if command -v i686-w64-mingw32-gcc >/dev/null 2>&1; then
	i686-w64-mingw32-gcc -shared -O2 -o "$work/stub32.dll" \
	    "$TESTS_SRCDIR/win/stubdll.c" 2>>"$work/cc.err" && stub32=$work/stub32.dll
fi
[ "$stub32" = - ] && echo "# no i686-w64-mingw32-gcc: no x86 copies in the layouts"
# The prefix (about 10 s); the server kept up meanwhile, its output away
# from the harness.
wine_prefix

python3 "$TESTS_SRCDIR/lib/dllsearch-diff.py" "$WINE" "$WINEPREFIX" \
    "$work/dllprobe.exe" "$work/stub.dll" "$stub32" "$MODEL" \
    "${DLLSEARCH_FIRST:-1}" "${DLLSEARCH_TREES:-120}"
