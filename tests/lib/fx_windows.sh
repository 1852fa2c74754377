# The Windows program under Wine, for the tests that run cudawiz.exe on a
# prefix laid out as a Windows machine (windows-doctor.sh,
# windows-registry.sh). winfx_setup NAME: skips without mingw-w64 (with
# windres), Wine, jq, cmake or curl; runs make windows (skips when
# jansson's source cannot be fetched); makes a fresh prefix in a work
# directory whose server is stopped, and the directory removed, on exit.
# Sets builddir, WINE, WINESERVER, exe (cudawiz.exe), work, C (drive C:).
# mkdll FILE FILEVERSION(a,b,c,d) PRODUCTNAME [LINK...]: a DLL with a
# version resource like NVIDIA's, exporting cudaGetDeviceCount.

winfx_setup() {
	name=$1
	builddir=$(dirname "$CUDAWIZ")
	for t in gcc windres; do
		command -v "x86_64-w64-mingw32-$t" >/dev/null 2>&1 ||
		    skip_all "x86_64-w64-mingw32-$t is not installed (Debian package gcc-mingw-w64-x86-64)"
	done
	wine_find
	for t in jq cmake curl; do
		command -v "$t" >/dev/null 2>&1 || skip_all "$t is not installed (Debian package $t)"
	done
	[ -x "$CUDAWIZ" ] || skip_all "$CUDAWIZ is not built"

	v=$("$CUDAWIZ" --version | head -n 1 | awk '{ print $2 }')
	exe=${DIST_DIR:-$builddir/dist}/cudawiz-$v-windows-x86_64/cudawiz.exe
	make -C "$builddir" windows >"$FX_TMP/make-windows-$name.log" 2>&1 || {
		why=$(grep -m 1 '^curl: (' "$FX_TMP/make-windows-$name.log")
		[ -n "$why" ] &&
		    skip_all "jansson's source could not be fetched from Debian's archive for make windows: $why"
		tail -n 30 "$FX_TMP/make-windows-$name.log" | sed 's/^/# /'
		echo "Bail out! make windows failed"
		exit 99
	}

	work=$(mktemp -d "$FX_TMP/$name.XXXXXX") || exit 99
	export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
	trap '"$WINESERVER" -k >/dev/null 2>&1; rm -rf "$work"' EXIT
	wine_prefix
	printf '__declspec(dllexport) int cudaGetDeviceCount(int *n) { *n = 1; return 0; }\n' > "$work/dll.c"
}

mkdll() {
	f=$1 fv=$2 pn=$3
	shift 3
	cat > "$work/v.rc" <<RC
1 VERSIONINFO
FILEVERSION $fv
PRODUCTVERSION $fv
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904b0"
    BEGIN
      VALUE "CompanyName", "NVIDIA Corporation"
      VALUE "FileVersion", "$(echo "$fv" | tr , .)"
      VALUE "ProductName", "$pn"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
RC
	mkdir -p "$(dirname "$f")" &&
	x86_64-w64-mingw32-windres "$work/v.rc" -O coff -o "$work/v.o" &&
	x86_64-w64-mingw32-gcc -shared -o "$f" "$work/dll.c" "$work/v.o" "$@"
}
