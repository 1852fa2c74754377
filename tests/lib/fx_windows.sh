# The Windows program under Wine, for the tests that run cudawiz.exe on a
# prefix laid out as a Windows machine (the windows-*.sh tests).
# winfx_setup NAME: skips without mingw-w64 (with windres), Wine, jq,
# cmake or curl; runs make windows (skips when jansson's source cannot be
# fetched); makes a fresh prefix in a work directory whose server is
# stopped, and the directory removed, on exit; unsets CUDAWIZ_HELPER.
# Sets builddir, WINE,
# WINESERVER, exe (cudawiz.exe), work, C (drive C:).
# mkdll FILE FILEVERSION(a,b,c,d) PRODUCTNAME [LINK...]: a DLL with a
# version resource like NVIDIA's, exporting cudaGetDeviceCount.
# The machine, piece by piece (each DLL built by mkdll):
#   winfx_build CMD [ARG...]   runs CMD, a builder below, its output in
#                              $work/build.log; bails out when it fails
#   winfx_nvcuda               NVIDIA's driver 560.94 (nvcuda.dll)
#   winfx_cudart126 BIN        CUDA 12.6's cudart64_12.dll in BIN
#   winfx_cuda112 [cudnn]      CUDA 11.2 in $TK/v11.2: cudart64_110.dll,
#                              and cudnn64_8.dll (cuDNN 8.1) with cudnn
#   winfx_python DIR XY FILEVERSION   a python.org Python in DIR:
#                              python.exe and pythonXY.dll
#   winfx_tf210 SP             TensorFlow 2.10.1 in site-packages SP
#   winfx_torch SP             torch 2.4.1+cu124 in SP
#   winfx_build_info FILE      TensorFlow 2.10's build_info.py
#   winfx_machine              the machine of windows-doctor.sh,
#                              windows-env.sh and windows-guide.sh: the
#                              driver, CUDA 12.6 in $TK/v12.6 (TK and WTK:
#                              the toolkits' folder, here and as Windows
#                              names it), TensorFlow 2.10.1 in ana's
#                              python.org Python 3.10 (PY, WPY; its
#                              site-packages SP)
#   regset KEY NAME VALUE      a REG_SZ value through Wine's reg.exe
#   adapter NNNN NAME ID DRIVERVERSION PROVIDER   a display adapter
#                              under the display class key $CLS

CLS='HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}'

winfx_setup() {
	name=$1
	# The harness's CUDAWIZ_HELPER names the Linux helper, which no
	# Windows program can start: doctor's live checks use
	# cudawiz-verify.exe beside cudawiz.exe, as on a Windows machine.
	unset CUDAWIZ_HELPER
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

winfx_build() {
	"$@" > "$work/build.log" 2>&1 || {
		sed 's/^/# /' "$work/build.log"
		echo "Bail out! the machine could not be laid out ($1)"
		exit 99
	}
}

winfx_nvcuda() {
	mkdll "$C/windows/system32/nvcuda.dll" 32,0,15,6094 "NVIDIA CUDA 12.6.32 driver"
}

winfx_cudart126() {
	mkdll "$1/cudart64_12.dll" 12,6,77,0 "NVIDIA CUDA 12.6.77 Runtime"
}

winfx_cuda112() {
	mkdll "$TK/v11.2/bin/cudart64_110.dll" 11,2,152,0 "NVIDIA CUDA 11.2.152 Runtime" || return
	[ "${1-}" != cudnn ] ||
	    mkdll "$TK/v11.2/bin/cudnn64_8.dll" 8,1,1,33 "NVIDIA CUDA Deep Neural Network library"
}

winfx_python() {
	mkdll "$1/python$2.dll" "$3" Python &&
	printf 'int main(void) { return 0; }\n' > "$work/exe.c" &&
	x86_64-w64-mingw32-gcc -o "$1/python.exe" "$work/exe.c"
}

# winfx_dist SP NAME VERSION: the dist-info pip leaves.
winfx_dist() {
	mkdir -p "$1/$2-$3.dist-info" &&
	printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$2" "$3" \
	    > "$1/$2-$3.dist-info/METADATA"
}

# As TensorFlow 2.10 ships it: built with CUDA 11.2 and cuDNN 8, it
# loads cudart64_110.dll and cudnn64_8.dll by name.
winfx_build_info() {
	mkdir -p "$(dirname "$1")" && cat > "$1" <<'PY'
# Copyright 2020 The TensorFlow Authors. All Rights Reserved.
"""Auto-generated module providing information about the build."""
import collections

build_info = collections.OrderedDict()
build_info['cuda_version'] = '64_112'
build_info['cudart_dll_name'] = 'cudart64_110.dll'
build_info['cudnn_dll_name'] = 'cudnn64_8.dll'
build_info['cudnn_version'] = '64_8'
build_info['is_cuda_build'] = True
build_info['is_rocm_build'] = False
build_info['is_tensorrt_build'] = False
build_info['msvcp_dll_names'] = 'msvcp140.dll,msvcp140_1.dll'
build_info['nvcuda_dll_name'] = 'nvcuda.dll'
PY
}

winfx_tf210() {
	winfx_dist "$1" tensorflow 2.10.1 &&
	winfx_build_info "$1/tensorflow/python/platform/build_info.py"
}

winfx_torch() {
	winfx_dist "$1" torch 2.4.1+cu124 && mkdir -p "$1/torch" &&
	printf "__version__ = '2.4.1+cu124'\ncuda = '12.4'\n" > "$1/torch/version.py"
}

winfx_machine() {
	TK="$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA"
	WTK='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA'
	PY="$C/Users/ana/AppData/Local/Programs/Python/Python310"
	WPY='C:\Users\ana\AppData\Local\Programs\Python\Python310'
	SP="$PY/Lib/site-packages"
	winfx_build winfx_nvcuda
	winfx_build winfx_cudart126 "$TK/v12.6/bin"
	winfx_build winfx_python "$PY" 310 3,10,11,1013
	winfx_build winfx_tf210 "$SP"
}

regset() {
	"$WINE" reg add "$1" /v "$2" /t REG_SZ /d "$3" /f >/dev/null 2>&1 </dev/null ||
	    { echo "Bail out! wine reg add $1 /v $2 failed"; exit 99; }
}

adapter() {
	regset "$CLS\\$1" DriverDesc "$2"
	regset "$CLS\\$1" MatchingDeviceId "$3"
	regset "$CLS\\$1" DriverVersion "$4"
	regset "$CLS\\$1" ProviderName "$5"
}
