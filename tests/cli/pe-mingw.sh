#!/bin/sh
# The PE reader on real DLLs built with mingw-w64: one like NVIDIA's
# cudart64_110.dll (a version resource of 11.8.89.0 with ProductName
# "NVIDIA CUDA 11.8.89 Runtime", exporting cudaGetDeviceCount and
# cudaRuntimeGetVersion, importing KERNEL32.dll and a second DLL of our
# own), for x86-64 and, when its compiler is installed, i386. pe-dump's
# machine, format, DLL flag, subsystem, imports and exports must agree
# with objdump -p, and its versions with the resource windres decompiles
# from the DLL. Then a delay-loaded DLL (GNU ld leaves the delay-load
# directory empty, so the test points it at the helper's entry), a
# stripped copy, and damaged copies: every prefix and seeded byte
# changes, each an error naming the copy or a success, never a crash.
. "$TESTS_SRCDIR/lib/tap.sh"

. "$TESTS_SRCDIR/lib/fx_pe.sh"
for t in gcc windres objdump dlltool strip; do
	command -v "x86_64-w64-mingw32-$t" >/dev/null 2>&1 ||
	    skip_all "x86_64-w64-mingw32-$t is not installed (Debian packages gcc-mingw-w64-x86-64, binutils-mingw-w64-x86-64)"
done

work=$(mktemp -d "${FX_TMP:-/tmp}/pe-mingw.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

cat > "$work/helper.c" <<'EOF'
__declspec(dllexport) int helper_value(void) { return 42; }
EOF
cat > "$work/cudart.c" <<'EOF'
#include <windows.h>
__declspec(dllimport) int helper_value(void);
__declspec(dllexport) int cudaGetDeviceCount(int *n)
{ *n = helper_value(); return 0; }
__declspec(dllexport) int cudaRuntimeGetVersion(int *v)
{ *v = (int)GetTickCount(); return 0; }
EOF
cat > "$work/version.rc" <<'EOF'
1 VERSIONINFO
FILEVERSION 11,8,89,0
PRODUCTVERSION 11,8,89,0
FILEOS 0x40004L
FILETYPE 0x2L
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904b0"
    BEGIN
      VALUE "CompanyName", "NVIDIA Corporation"
      VALUE "FileDescription", "NVIDIA CUDA Runtime, Version 11.8.89"
      VALUE "FileVersion", "6,14,11,11080"
      VALUE "ProductName", "NVIDIA CUDA 11.8.89 Runtime"
      VALUE "ProductVersion", "11.8.89"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
EOF

# build PREFIX DIR: helper.dll and cudart64_110.dll for one target.
build() {
	mkdir -p "$2" &&
	"$1-gcc" -shared -o "$2/helper.dll" "$work/helper.c" \
	    -Wl,--out-implib,"$2/libhelper.a" &&
	"$1-windres" "$work/version.rc" -O coff -o "$2/version.o" &&
	"$1-gcc" -shared -o "$2/cudart64_110.dll" "$work/cudart.c" \
	    "$2/version.o" -L"$2" -lhelper
}

check_target() {	# PREFIX LABEL MACHINE
	dir=$work/$2
	if ! build "$1" "$dir" > "$work/build.log" 2>&1; then
		tap_result 1 "$2: mingw-w64 builds the DLLs"
		sed 's/^/#   /' "$work/build.log"
		return
	fi
	tap_result 0 "$2: mingw-w64 builds the DLLs"
	dll=$dir/cudart64_110.dll
	want=$(pe_reference "$1" "$dll")
	got=$(pe_ours "$dll")
	is "$(printf '%s\n' "$got" | grep -Ev '^(file-|product-|string )')" \
	    "$(printf '%s\n' "$want" | grep -Ev '^(file-|product-|string )')" \
	    "$2: machine, format, DLL, subsystem, imports, exports as objdump -p"
	is "$(printf '%s\n' "$got" | grep -E '^(file-|product-|string )' | sort)" \
	    "$(printf '%s\n' "$want" | grep -E '^(file-|product-|string )' | sort)" \
	    "$2: versions and strings as windres decompiles them"
	like "$got" "^machine $3 " "$2: machine $3"
	like "$got" '^import helper\.dll$' "$2: imports helper.dll"
	like "$got" '^import KERNEL32\.dll$' "$2: imports KERNEL32.dll"
	like "$got" '^export cudaGetDeviceCount$' "$2: exports cudaGetDeviceCount"
	like "$got" '^export cudaRuntimeGetVersion$' "$2: exports cudaRuntimeGetVersion"
	like "$got" '^file-version 11\.8\.89\.0$' "$2: FileVersion 11.8.89.0"
	like "$got" '^string ProductName NVIDIA CUDA 11\.8\.89 Runtime$' \
	    "$2: ProductName NVIDIA CUDA 11.8.89 Runtime"
	is "$("$PEDUMP" --exports "$dir/helper.dll" | grep -c '^file-version')" 0 \
	    "$2: helper.dll has no version resource, and none is made up"
}

check_target x86_64-w64-mingw32 x64 0x8664
if command -v i686-w64-mingw32-gcc >/dev/null 2>&1 &&
    command -v i686-w64-mingw32-windres >/dev/null 2>&1; then
	check_target i686-w64-mingw32 x86 0x14c
else
	skip "x86: the 32-bit DLLs" \
	    "i686-w64-mingw32-gcc is not installed (Debian package gcc-mingw-w64-i686)"
fi

dll=$work/x64/cudart64_110.dll
# --- A stripped copy: the COFF symbols go, the directories stay.
x86_64-w64-mingw32-strip -o "$work/stripped.dll" "$dll"
ok "the stripped copy is smaller" \
    test "$(wc -c < "$work/stripped.dll")" -lt "$(wc -c < "$dll")"
is "$(pe_ours "$work/stripped.dll")" "$(pe_ours "$dll")" \
    "the stripped copy reads the same"

# --- Delay loading: nvcuda.dll through dlltool's delay-import library.
# GNU ld leaves the delay-load directory (data directory 13) empty, so
# it is pointed at the entry the library brought, found by its symbol.
cat > "$work/nvcuda.def" <<'EOF'
LIBRARY nvcuda.dll
EXPORTS
cuInit
EOF
cat > "$work/lazy.c" <<'EOF'
int cuInit(unsigned);
__declspec(dllexport) int cudaRuntimeGetVersion(int *v)
{ *v = cuInit(0); return 0; }
EOF
lazy=$work/lazy.dll
x86_64-w64-mingw32-dlltool -d "$work/nvcuda.def" -y "$work/libnvcuda_delay.a" &&
    x86_64-w64-mingw32-gcc -shared -o "$lazy" "$work/lazy.c" \
    -L"$work" -lnvcuda_delay
ok "mingw-w64 builds a DLL delay-loading nvcuda.dll" test -f "$lazy"
# The entry's RVA: its section's VMA less the image base, plus its value.
rva=$(x86_64-w64-mingw32-objdump -t -h "$lazy" | awk '
	/^ImageBase/ { base = $2 }
	$1 ~ /^[0-9]+$/ && $2 ~ /^\./ { vma[$1 + 1] = $4 }
	/__DELAY_IMPORT_DESCRIPTOR_/ {
		match($0, /\(sec +[0-9]+\)/)
		sec = substr($0, RSTART + 5, RLENGTH - 6) + 0
		val = $(NF - 1)
	}
	END { print sec, val, vma[sec] }')
base=$(x86_64-w64-mingw32-objdump -p "$lazy" | awk '/^ImageBase/ { print $2 }')
set -- $rva
if [ $# = 3 ] && [ -n "$base" ]; then
	entry=$(( 0x$3 - 0x$base + $2 ))
	lfanew=$(od -An -tu4 -j60 -N4 "$lazy" | tr -d ' ')
	# PE32+: data directories 112 bytes into the optional header, which
	# follows the 4-byte signature and the 20-byte COFF header.
	at=$(( lfanew + 24 + 112 + 13 * 8 ))
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o\\040\\000\\000\\000' \
	    $((entry & 255)) $((entry >> 8 & 255)) $((entry >> 16 & 255)) \
	    $((entry >> 24 & 255)))" |
	    dd of="$lazy" bs=1 seek="$at" conv=notrunc 2>/dev/null
	like "$(x86_64-w64-mingw32-objdump -p "$lazy")" \
	    "^Entry d 0*$(printf '%x' "$entry") 00000020 Delay Import Directory" \
	    "objdump sees the delay-load directory set at RVA $(printf '%#x' "$entry")"
	got=$("$PEDUMP" "$lazy")
	like "$got" '^delay nvcuda\.dll$' "pe-dump: delay-loads nvcuda.dll"
	unlike "$got" '^import nvcuda' "nvcuda.dll is not an ordinary import"
	is "$(printf '%s\n' "$got" | grep '^import ')" \
	    "$(x86_64-w64-mingw32-objdump -p "$lazy" | awk '/^\tDLL Name: / { print "import " $3 }')" \
	    "the ordinary imports as objdump -p"
else
	tap_result 1 "found the delay-load entry's symbol and the image base ($rva / $base)"
fi

# --- Damaged copies, read from memory: every prefix of the stripped
# copy, and seeded byte changes of the whole one.
out=$("$PEDUMP" --mutate 0 truncate "$work/stripped.dll")
like "$out" "^[0-9]+ prefixes read, 0 broke the contract$" \
    "every prefix of the stripped DLL: an error naming it, or the facts"
out=$("$PEDUMP" --mutate 23 3000 "$dll")
like "$out" "^3000 copies read, 0 broke the contract$" \
    "3000 copies with seeded byte changes keep the contract"
out=$("$PEDUMP" --exports "$work/nothere.dll")
like "$out" "^error $work/nothere.dll: " "a missing file: an error naming it"
head -c 200 "$dll" > "$work/cut.dll"
like "$("$PEDUMP" "$work/cut.dll")" "^error $work/cut.dll: the optional header is cut off: it needs bytes 0x[0-9a-f]+ to 0x[0-9a-f]+, and the file ends at 0xc8$" \
    "a DLL cut at 200 bytes: its optional header is cut off"

done_testing
