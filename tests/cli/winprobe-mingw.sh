#!/bin/sh
# The Windows probe over a drive laid out as a real Windows machine, its
# DLLs built by mingw-w64 with version resources like NVIDIA's: the
# driver's nvcuda.dll (FileVersion 32.0.15.6094, ProductName "NVIDIA CUDA
# 12.6.32 driver", so driver 560.94) and nvml.dll in NVSMI; CUDA 12.6 in
# its standard place with version.json and cudart64_12.dll; cuDNN 9 by
# its installer (CUDNN/v9.5/bin/12.6); a user's copy of cudnn64_8.dll
# 8.9.7 and cudart64_110.dll 11.8.89 in a directory on PATH;
# TensorFlow 2.10 in a python.org 3.10 install, its build_info wanting
# cudart64_110.dll and cudnn64_8.dll; torch 2.5 in a venv on PATH; and
# CUDA_PATH_V11_8 naming a toolkit that is not there. Names are spelt in
# mixed case here and there, as NTFS would not care. winprobe-dump
# prints what the probe found.
. "$TESTS_SRCDIR/lib/tap.sh"
# TensorFlow's build_info (winfx_build_info); the mkdll below, which sets
# ProductVersion too, stands for fx_windows.sh's.
. "$TESTS_SRCDIR/lib/fx_windows.sh"

for t in gcc windres; do
	command -v "x86_64-w64-mingw32-$t" >/dev/null 2>&1 ||
	    skip_all "x86_64-w64-mingw32-$t is not installed (Debian packages gcc-mingw-w64-x86-64, binutils-mingw-w64-x86-64)"
done
dump=$(dirname "$CUDAWIZ")/tests/tools/winprobe-dump
[ -x "$dump" ] || skip_all "winprobe-dump is not built ($dump)"

work=$(mktemp -d "${FX_TMP:-/tmp}/winprobe-mingw.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
C=$work/C

echo 'int dll_value(void) { return 1; }' > "$work/dll.c"
echo 'int main(void) { return 0; }' > "$work/exe.c"

# mkdll OUT FILEVERSION(a,b,c,d) PRODUCTNAME PRODUCTVERSION: a DLL with a
# version resource laid out as NVIDIA's are.
mkdll() {
	mkdir -p "$(dirname "$1")" || return 1
	cat > "$work/v.rc" <<EOF
1 VERSIONINFO
FILEVERSION $2
PRODUCTVERSION $2
FILEOS 0x40004L
FILETYPE 0x2L
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904b0"
    BEGIN
      VALUE "CompanyName", "NVIDIA Corporation"
      VALUE "FileVersion", "$(echo "$2" | tr , .)"
      VALUE "ProductName", "$3"
      VALUE "ProductVersion", "$4"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
EOF
	x86_64-w64-mingw32-windres "$work/v.rc" -O coff -o "$work/v.o" &&
	x86_64-w64-mingw32-gcc -shared -o "$1" "$work/dll.c" "$work/v.o"
}

mkexe() {
	mkdir -p "$(dirname "$1")" && x86_64-w64-mingw32-gcc -o "$1" "$work/exe.c"
}

TK="$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6"
PY310="$C/Users/ana/AppData/Local/Programs/Python/Python310"
VENV="$C/Users/ana/venvs/torch25"
SP310="$PY310/Lib/site-packages"
SPV="$VENV/Lib/site-packages"
build() {
	mkdll "$C/Windows/System32/nvcuda.dll" 32,0,15,6094 \
	    "NVIDIA CUDA 12.6.32 driver" 32.0.15.6094 &&
	mkdll "$C/Program Files/NVIDIA Corporation/NVSMI/NVML.DLL" 32,0,15,6094 \
	    "NVIDIA Management Library" 32.0.15.6094 &&
	mkdll "$TK/bin/cudart64_12.dll" 12,6,77,0 "NVIDIA CUDA 12.6.77 Runtime" 12.6.77 &&
	mkdll "$C/Program Files/NVIDIA/CUDNN/v9.5/bin/12.6/cudnn64_9.dll" 9,5,1,17 \
	    "NVIDIA CUDA Deep Neural Network library" 9.5.1 &&
	mkdll "$C/Program Files/NVIDIA/CUDNN/v9.5/bin/12.6/cudnn_ops64_9.dll" 9,5,1,17 \
	    "NVIDIA CUDA Deep Neural Network library" 9.5.1 &&
	mkdll "$C/tools/cudnn-8.9.7/bin/cudnn64_8.dll" 8,9,7,29 \
	    "NVIDIA CUDA Deep Neural Network library" 8.9.7 &&
	mkdll "$C/tools/cudnn-8.9.7/bin/cudart64_110.dll" 11,8,89,0 \
	    "NVIDIA CUDA 11.8.89 Runtime" 11.8.89 &&
	mkexe "$PY310/python.exe" &&
	mkdll "$PY310/python310.dll" 3,10,11,1013 "Python" 3.10.11 &&
	mkexe "$VENV/Scripts/python.exe" &&
	mkdll "$SPV/torch/lib/cudart64_12.dll" 12,1,105,0 "NVIDIA CUDA 12.1.105 Runtime" 12.1.105 &&
	mkdll "$SPV/torch/lib/cudnn64_9.dll" 9,1,0,70 \
	    "NVIDIA CUDA Deep Neural Network library" 9.1.0
}
if ! build > "$work/build.log" 2>&1; then
	tap_result 1 "mingw-w64 builds the DLLs"
	sed 's/^/#   /' "$work/build.log"
	done_testing
	exit
fi
tap_result 0 "mingw-w64 builds the DLLs"

cat > "$TK/version.json" <<'EOF'
{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "12.6.2"
   },
   "cuda_cudart" : {
      "name" : "CUDA Runtime (cudart)",
      "version" : "12.6.77"
   }
}
EOF
mkdir -p "$C/Program Files/NVIDIA/CUDNN/v9.5/include/12.6" "$C/tools/cudnn-8.9.7/include"
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n' \
    > "$C/Program Files/NVIDIA/CUDNN/v9.5/include/12.6/cudnn_version.h"
printf '#ifndef CUDNN_VERSION_H_\n#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n#endif\n' \
    > "$C/tools/cudnn-8.9.7/include/cudnn_version.h"
mkdir -p "$SP310/tensorflow/python/platform" "$SP310/tensorflow-2.10.0.dist-info" \
    "$SP310/tensorflow_intel-2.10.0.dist-info"
winfx_build_info "$SP310/tensorflow/python/platform/build_info.py"
cat > "$VENV/pyvenv.cfg" <<'EOF'
home = C:\Users\ana\AppData\Local\Programs\Python\Python311
include-system-site-packages = false
version = 3.11.9
EOF
cat > "$SPV/torch/version.py" <<'EOF'
from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '2.5.1+cu121'
debug = False
cuda: Optional[str] = '12.1'
git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'
hip: Optional[str] = None
EOF

out=$("$dump" "$C" \
    'Path=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6\bin;C:\TOOLS\cudnn-8.9.7\bin;C:\Users\ana\venvs\torch25\Scripts;C:\Windows\system32;D:\elsewhere' \
    'CUDA_PATH=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6' \
    'CUDA_PATH_V12_6=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6\' \
    'CUDA_PATH_V11_8=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8' \
    'USERPROFILE=C:\Users\ana' 'LOCALAPPDATA=C:\Users\ana\AppData\Local' \
    'ProgramFiles=C:\Program Files')
rc=$?
is "$rc" 0 "winprobe-dump runs"
printf '%s\n' "$out" | sed 's/^/# /'
line() { printf '%s\n' "$out" | grep -F -- "$1" | head -n 1; }

like "$(line 'driver ')" '^driver state=nvidia \| version=560\.94$' \
    "nvcuda.dll is NVIDIA's; driver 560.94 from FileVersion 32.0.15.6094"
like "$(line 'nvcuda ')" 'path=Windows/System32/nvcuda\.dll \| file_version=32\.0\.15\.6094 .*product=NVIDIA CUDA 12\.6\.32 driver \| machine=0x8664 \| error=-' \
    "nvcuda.dll: its version resource, x86-64"
like "$(line 'nvml ')" 'path=Program Files/NVIDIA Corporation/NVSMI/NVML\.DLL \| file_version=32\.0\.15\.6094' \
    "nvml.dll found in NVSMI whatever its case"
like "$(line 'toolkit[0] ')" 'dir=Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12\.6 \| dir_version=12\.6 \| json_version=12\.6\.2 \| json_error=- \| from_env=0' \
    "the CUDA 12.6 toolkit: version from its name and from version.json"
like "$(line 'toolkit[0].cudart ')" 'cudart64_12\.dll \| file_version=12\.6\.77\.0 .*product=NVIDIA CUDA 12\.6\.77 Runtime' \
    "the toolkit's cudart64_12.dll and its version"
is "$(printf '%s\n' "$out" | grep -c '^toolkit\[[0-9]*\] ')" 1 "one toolkit: the variables name no other"
is "$(line 'cuda_path ')" 'cuda_path toolkit=0' "CUDA_PATH names the 12.6 toolkit"
like "$(line 'cudavar CUDA_PATH_V12_6 ')" 'version=12\.6 \| dir=Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12\.6 \| toolkit=0 \| why=-' \
    "CUDA_PATH_V12_6 (with a trailing backslash) names it too"
like "$(line 'cudavar CUDA_PATH_V11_8 ')" 'version=11\.8 \| dir=- \| toolkit=-1 \| why=the directory does not exist' \
    "CUDA_PATH_V11_8 names a directory that is not there"
like "$(line 'where=installer')" 'dir=Program Files/NVIDIA/CUDNN/v9\.5/bin/12\.6 \| header=9\.5\.1 \| parts=cudnn_ops64_9\.dll' \
    "cuDNN 9 by its installer: header beside it, the split parts"
like "$(printf '%s\n' "$out" | grep -A1 'where=installer' | tail -n 1)" 'cudnn64_9\.dll \| file_version=9\.5\.1\.17' \
    "cuDNN 9's cudnn64_9.dll version"
like "$(line 'where=path')" 'index=1 \| dir=tools/cudnn-8\.9\.7/bin \| header=8\.9\.7 \| parts=-' \
    "cuDNN 8 on PATH (spelt C:\\TOOLS): its header's 8.9.7"
like "$(printf '%s\n' "$out" | grep -A1 'where=path' | tail -n 1)" 'cudnn64_8\.dll \| file_version=8\.9\.7\.29 .*product=NVIDIA CUDA Deep Neural Network library' \
    "cuDNN 8's DLL version 8.9.7.29"
unlike "$out" 'where=toolkit' "the toolkit's bin holds no cuDNN"
like "$(line 'kind=python.org')" 'dir=Users/ana/AppData/Local/Programs/Python/Python310 \| exe=.*/python\.exe \| version=3\.10 \| from=dirname .*site=Users/ana/AppData/Local/Programs/Python/Python310/Lib/site-packages \| path_index=-1' \
    "the python.org 3.10 install and its site-packages"
like "$(line '.tensorflow ')" 'version=2\.10\.0 \| cuda=64_112 \| cudnn=64_8 \| error=- \| wants=cudart64_110\.dll,cudnn64_8\.dll' \
    "TensorFlow 2.10 and the DLLs it will LoadLibrary"
like "$(line 'kind=venv')" 'dir=Users/ana/venvs/torch25 \| exe=Users/ana/venvs/torch25/Scripts/python\.exe \| version=3\.11\.9 \| from=pyvenv\.cfg \| home=C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python311 .*path_index=2' \
    "the venv found by its Scripts on PATH, its version from pyvenv.cfg"
like "$(line '.torch ')" 'version=2\.5\.1\+cu121 \| cuda=12\.1 \| cudnn=- \| error=- \| wants=- \| bundled=cudart64_12\.dll,cudnn64_9\.dll' \
    "torch 2.5: its CUDA and the DLLs in torch/lib"
like "$(line 'note ')" 'PEP 514' "the py launcher's registry is noted as not read"

# Each framework's DLLs resolved as it loads them (src/winprobe/winneeds.c)
# over real images, and what the Windows rules find.
like "$(line '.need tensorflow cudart64_110.dll ')" 'how=by_name \| got=C:\\TOOLS\\cudnn-8\.9\.7\\bin\\cudart64_110\.dll \| got_via=path\[1\] \| got_error=0 \| py38=- \| py38_via=none \| py38_error=126' \
    "TensorFlow's cudart64_110.dll: by name, PATH's second entry; an extension module's search would miss it"
like "$(line '.need tensorflow cudnn64_8.dll ')" 'got=C:\\TOOLS\\cudnn-8\.9\.7\\bin\\cudnn64_8\.dll \| got_via=path\[1\]' \
    "TensorFlow's cudnn64_8.dll from the same PATH entry"
like "$(line '.need torch cudart64_12.dll ')" 'how=torch_lib \| got=C:\\Users\\ana\\venvs\\torch25\\Lib\\site-packages\\torch\\lib\\cudart64_12\.dll \| got_via=user_dir' \
    "torch's cudart64_12.dll from torch\\lib, os.add_dll_directory's"
is "$(printf '%s\n' "$out" | grep -c '^finding ')" 0 "the Windows rules find nothing wrong here"

# Without the 11.x runtime on PATH, and with an x86 copy ahead of it.
dumpwith() {	# PATH
	"$dump" "$C" "Path=$1" \
	    'CUDA_PATH=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6' \
	    'USERPROFILE=C:\Users\ana' 'LOCALAPPDATA=C:\Users\ana\AppData\Local'
}
mv "$C/tools/cudnn-8.9.7/bin/cudart64_110.dll" "$work/cudart64_110.dll"
out=$(dumpwith 'C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6\bin;C:\TOOLS\cudnn-8.9.7\bin')
like "$(line '.need tensorflow cudart64_110.dll ')" 'got=- \| got_via=none \| got_error=126' \
    "cudart64_110.dll gone: not found, error 126"
like "$(line 'finding SONAME_NOT_FOUND')" 'tensorflow 2\.10\.0 in C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python310 needs cudart64_110\.dll' \
    "SONAME_NOT_FOUND for TensorFlow's cudart64_110.dll"
like "$(line 'finding FRAMEWORK_CUDA_MISMATCH')" 'needs cudart64_110\.dll' \
    "FRAMEWORK_CUDA_MISMATCH: only CUDA 12.6's runtime here"
mkdir -p "$C/x86/bin"
printf 'int __stdcall DllMain(void *h, unsigned r, void *p) { return 1; }\n' > "$work/d32.c"
if i686-w64-mingw32-gcc -shared -o "$C/x86/bin/cudart64_110.dll" "$work/d32.c" > "$work/build32.log" 2>&1; then
	mv "$work/cudart64_110.dll" "$C/tools/cudnn-8.9.7/bin/cudart64_110.dll"
	out=$(dumpwith 'C:\x86\bin;C:\TOOLS\cudnn-8.9.7\bin')
	like "$(line '.need tensorflow cudart64_110.dll ')" 'got=C:\\TOOLS\\cudnn-8\.9\.7\\bin\\cudart64_110\.dll .*passed_over=C:\\x86\\bin\\cudart64_110\.dll' \
	    "an x86 copy first on PATH is passed over"
	like "$(line 'finding LIB_SHADOWED')" 'needs cudart64_110\.dll' "LIB_SHADOWED for it"
else
	mv "$work/cudart64_110.dll" "$C/tools/cudnn-8.9.7/bin/cudart64_110.dll"
	skip "the x86 copy" "i686-w64-mingw32-gcc is not installed or failed (Debian package gcc-mingw-w64-i686)"
	skip "the x86 copy's finding" "i686-w64-mingw32-gcc is not installed or failed"
fi

# Another vendor's nvcuda.dll (a shim) with the same numbers: not
# NVIDIA's, and no driver version read by NVIDIA's rule.
cp "$C/Windows/System32/nvcuda.dll" "$work/nvcuda.real"
if mkdll "$C/Windows/System32/nvcuda.dll" 32,0,15,6094 "CUDA shim" 32.0.15.6094 \
    > "$work/build.log" 2>&1; then
	out=$("$dump" "$C")
	like "$(printf '%s\n' "$out" | grep '^driver ')" '^driver state=foreign \| version=-$' \
	    "a shim's nvcuda.dll is foreign: no driver version"
else
	tap_result 1 "mingw-w64 builds the shim"
fi
cp "$work/nvcuda.real" "$C/Windows/System32/nvcuda.dll"

# A damaged nvcuda.dll is a fact with a reason, not a failure.
head -c 300 "$C/Windows/System32/nvcuda.dll" > "$work/cut" &&
    cp "$work/cut" "$C/Windows/System32/nvcuda.dll"
out=$("$dump" "$C")
is "$?" 0 "winprobe-dump runs over a cut nvcuda.dll"
like "$(printf '%s\n' "$out" | grep '^driver ')" '^driver state=unreadable \| version=-$' "a cut nvcuda.dll is unreadable"
like "$(printf '%s\n' "$out" | grep '^nvcuda ')" 'error=.*nvcuda\.dll' "with the reason naming it"
done_testing
