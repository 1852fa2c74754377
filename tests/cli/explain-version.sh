#!/bin/sh
# explain on symbol-version and ELF-class messages, with real ELF files:
# a library on LD_LIBRARY_PATH that lacks the version another copy
# defines (the fix loads that copy first), one whose version names another
# major (the loader rules' finding, taken over), glibc too old for a
# program, and a 32-bit library where a 64-bit one is needed.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

# so_versioned PATH SONAME VERSION SYMBOL: a library defining SYMBOL@@VERSION.
so_versioned() {
	mkdir -p "$(dirname "$FX$1")"
	printf '%s { global: %s; local: *; };\n' "$3" "$4" > "$FX.map"
	printf 'int %s(void) { return 0; }\n' "$4" |
	    $FIXTURE_CC -shared -fPIC -x c -o "$FX$1" - -Wl,-soname,"$2" \
	    -Wl,--version-script="$FX.map"
}

CUBLAS_MSG="OSError: /env/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.11: undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11"

fx_new
fx_file /etc/ld.so.conf "/usr/lib/x86_64-linux-gnu"
fx_toolkit 11.8.89
good=/usr/local/cuda-11.8/targets/x86_64-linux/lib
so_versioned $good/libcublasLt.so.11.11.3.6 libcublasLt.so.11 libcublasLt.so.11 cublasLtGetStatusString ||
	skip_all "cannot build a shared library with a version script ($FIXTURE_CC)"
fx_link libcublasLt.so.11.11.3.6 $good/libcublasLt.so.11
# An old build without version definitions, first on LD_LIBRARY_PATH.
fx_so /opt/old/libcublasLt.so.11 libcublasLt.so.11
# The program's own file, which the message names: it happened here.
fx_so /env/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.11 libcublas.so.11

fx_explain LD_LIBRARY_PATH=/opt/old -- "$CUBLAS_MSG"
is "$FX_RC" 1 "missing version: exit 1"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" undefined_symbol "recognised an undefined symbol"
is "$(jq -r '.recognised[0].version' "$FX_OUT")" libcublasLt.so.11 "... of version libcublasLt.so.11"
is "$(jq -r '.recognised[0].soname' "$FX_OUT")" libcublasLt.so.11 "... which libcublasLt.so.11 defines"
has_code SONAME_VERSION_MISMATCH
like "$(finding SONAME_VERSION_MISMATCH .detail)" "cublasLtGetStatusString of version libcublasLt\\.so\\.11" \
    "the detail names the symbol and version"
like "$(evidence SONAME_VERSION_MISMATCH)" "resolves to /opt/old/libcublasLt\\.so\\.11" \
    "evidence: the copy that loads"
like "$(evidence SONAME_VERSION_MISMATCH)" "/opt/old/libcublasLt\\.so\\.11 defines no symbol versions" \
    "evidence: what it defines"
like "$(evidence SONAME_VERSION_MISMATCH)" "^/usr/local/cuda-11\\.8/.*libcublasLt\\.so\\.11 defines libcublasLt\\.so\\.11$" \
    "evidence: the copy that defines it"
like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=/usr/local/cuda-11\\.8/(lib64|targets/x86_64-linux/lib)\"" \
    "fix: load that copy first"
like "$(fixes SONAME_VERSION_MISMATCH)" "^unset LD_LIBRARY_PATH$" \
    "fix: or drop the shadowing directory"

# The message's other wording says the same.
fx_explain LD_LIBRARY_PATH=/opt/old -- "OSError: /env/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol cublasLtGetStatusString version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference"
has_code SONAME_VERSION_MISMATCH "glibc's other wording: the same finding"
like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=/usr/local/cuda-11\\.8/" "... and fix"

# --- the copy on the path defines another major's version: rules_library's finding
so_versioned /opt/old/libcublasLt.so.11 libcublasLt.so.11 libcublasLt.so.10 cublasLtGetStatusString
fx_explain LD_LIBRARY_PATH=/opt/old -- "$CUBLAS_MSG"
has_code SONAME_VERSION_MISMATCH
is "$(jq -r '[.findings[] | select(.code == "SONAME_VERSION_MISMATCH")] | length' "$FX_OUT")" 1 \
    "one SONAME_VERSION_MISMATCH"
like "$(evidence SONAME_VERSION_MISMATCH | head -n 1)" "^the message \\(line 1\\)" "the message first"
like "$(evidence SONAME_VERSION_MISMATCH)" "libcublasLt\\.so\\.10" "evidence: the version it has"

# --- a program built for a newer glibc
if [ -f /lib/x86_64-linux-gnu/libc.so.6 ]; then
	fx_new
	fx_file /etc/ld.so.conf ""
	mkdir -p "$FX/lib/x86_64-linux-gnu"
	cp /lib/x86_64-linux-gnu/libc.so.6 "$FX/lib/x86_64-linux-gnu/libc.so.6"
	fx_explain -- "/opt/app/bin/trainer: /lib/x86_64-linux-gnu/libc.so.6: version \`GLIBC_2.99' not found (required by /opt/app/bin/trainer)"
	is "$(jq -r '.recognised[0].kind' "$FX_OUT")" version_not_found "glibc: version not found"
	is "$(jq -r '.recognised[0].required_by' "$FX_OUT")" /opt/app/bin/trainer "... required by the program"
	has_code SONAME_VERSION_MISMATCH
	like "$(evidence SONAME_VERSION_MISMATCH)" "libc\\.so\\.6 defines .*GLIBC_2\\.[0-9]+" \
	    "evidence: the versions this glibc has"
	like "$(fixes SONAME_VERSION_MISMATCH)" "^ldd --version$" "fix: glibc cannot be swapped; check it"
	unlike "$(fixes SONAME_VERSION_MISMATCH)" "^(pip|conda|sudo apt)" "fix: installs nothing"
else
	skip "glibc: version not found" "no /lib/x86_64-linux-gnu/libc.so.6 to copy"
fi

# --- a 32-bit libcuda where a 64-bit one is needed
fx_new
fx_file /etc/ld.so.conf ""
fx_so /opt/lib32/libcuda.so.1 libcuda.so.1
# EI_CLASS (byte 4) 1: the loader takes it for ELFCLASS32 and passes over it.
printf '\001' | dd of="$FX/opt/lib32/libcuda.so.1" bs=1 seek=4 conv=notrunc 2>/dev/null
fx_explain LD_LIBRARY_PATH=/opt/lib32 -- "./app: error while loading shared libraries: libcuda.so.1: wrong ELF class: ELFCLASS32"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" wrong_elf_class "recognised a wrong ELF class"
is "$(jq -r '.recognised[0].elf_class' "$FX_OUT")" ELFCLASS32 "... 32-bit"
has_code BROKEN_LIBRARY
like "$(evidence BROKEN_LIBRARY)" "/opt/lib32/libcuda\\.so\\.1" "evidence: the 32-bit file"
ok "BROKEN_LIBRARY has a fix" [ -n "$(fixes BROKEN_LIBRARY)" ]

done_testing
