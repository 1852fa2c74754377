#!/bin/sh
# explain on symbol messages, read the right way round, with real ELF
# files compiled here: glibc's "F: undefined symbol: S" means F needs S
# and the copy of its provider that loads lacks it (unversioned and
# versioned, the good copy in either directory); a dlsym's "Could not load
# symbol S from L" means L itself lacks S. Never `find /` as the fix.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

# so_build PATH SONAME SOURCE [MAP] [LIB...]: a shared library from C
# source, with a version script when MAP is not empty, linked against LIBs
# (paths inside the fixture).
so_build() {
	sb_path=$1 sb_soname=$2 sb_src=$3 sb_map=${4:-}
	shift 4 2>/dev/null || shift $#
	mkdir -p "$(dirname "$FX$sb_path")"
	sb_libs=
	for l in "$@"; do sb_libs="$sb_libs $FX$l"; done
	if [ -n "$sb_map" ]; then
		printf '%s\n' "$sb_map" > "$FX.map"
		sb_map=-Wl,--version-script="$FX.map"
	fi
	# shellcheck disable=SC2086
	printf '%s\n' "$sb_src" | $FIXTURE_CC -shared -fPIC -x c -o "$FX$sb_path" - -x none \
	    -Wl,-soname,"$sb_soname" $sb_map $sb_libs
}

OLD_SRC='int prov_old(void) { return 1; }'
NEW_SRC='int prov_old(void) { return 1; } int prov_new_func(void) { return 2; }'
USER_SRC='int prov_new_func(void); int user(void) { return prov_new_func(); }'
MSG="ImportError: /opt/app/lib/libuser.so: undefined symbol: prov_new_func"

# unversioned: GOOD holds the build with the symbol, BAD the one without;
# LD_LIBRARY_PATH puts BAD first.
shadow_case() {	# BAD GOOD
	fx_new
	fx_file /etc/ld.so.conf ""
	so_build "$2/libprov.so.1" libprov.so.1 "$NEW_SRC" "" ||
		skip_all "cannot build shared libraries ($FIXTURE_CC)"
	so_build "$1/libprov.so.1" libprov.so.1 "$OLD_SRC" ""
	so_build /opt/app/lib/libuser.so libuser.so "$USER_SRC" "" "$2/libprov.so.1"
	fx_explain LD_LIBRARY_PATH="$1:$2" -- "$MSG"
}

for dirs in "/opt/old /opt/new" "/opt/new /opt/old"; do
	# shellcheck disable=SC2086
	set -- $dirs
	shadow_case "$1" "$2"
	is "$FX_RC" 1 "$1 shadows $2: exit 1"
	is "$(jq -r '.recognised[0].kind' "$FX_OUT")" undefined_symbol "... glibc's undefined symbol"
	is "$(jq -r '.recognised[0].required_by' "$FX_OUT")" /opt/app/lib/libuser.so "... needed by libuser.so"
	is "$(jq -r '.recognised[0].provider' "$FX_OUT")" libprov.so.1 "... which libprov.so.1 should provide"
	is "$(jq -r '.recognised[0].provider_loaded' "$FX_OUT")" "$1/libprov.so.1" "... the copy that loads: $1"
	has_code SONAME_VERSION_MISMATCH
	like "$(finding SONAME_VERSION_MISMATCH .detail)" "the copy it loads, $1/libprov\\.so\\.1, lacks it .* shadows $2/libprov\\.so\\.1, which has it" \
	    "the detail: $1's copy shadows $2's"
	like "$(evidence SONAME_VERSION_MISMATCH)" "^$2/libprov\\.so\\.1 defines prov_new_func$" "evidence: $2's copy defines it"
	like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=$2\"" "fix: $2 first"
	like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=$2$" "fix: or drop $1"
	unlike "$(fixes SONAME_VERSION_MISMATCH)" "find /" "no find /"
done

# The same program run with the good copy first: here it loads; the
# program ran with another search path.
fx_explain LD_LIBRARY_PATH="/opt/old:/opt/new" -- "$MSG"
like "$(finding SONAME_VERSION_MISMATCH .detail)" "here the copy it loads has it" \
    "good copy first here: the program ran with another search"

# versioned (a version node that is not a soname): the provider comes from
# the program's own version need.
fx_new
fx_file /etc/ld.so.conf "/opt/good"
so_build /opt/good/libprov.so.1 libprov.so.1 "$NEW_SRC" \
    'PROV_1 { global: prov_old; local: *; }; PROV_2 { global: prov_new_func; } PROV_1;'
so_build /opt/bad/libprov.so.1 libprov.so.1 "$OLD_SRC" 'PROV_1 { global: prov_old; local: *; };'
so_build /opt/app/lib/libuser.so libuser.so "$USER_SRC" "" /opt/good/libprov.so.1
fx_explain LD_LIBRARY_PATH=/opt/bad -- "/usr/bin/python3: symbol lookup error: /opt/app/lib/libuser.so: undefined symbol: prov_new_func, version PROV_2"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" undefined_symbol "versioned: glibc's undefined symbol, not a dlsym"
is "$(jq -r '.recognised[0].provider' "$FX_OUT")" libprov.so.1 "versioned: the provider from the version need"
like "$(finding SONAME_VERSION_MISMATCH .detail)" "/opt/bad/libprov\\.so\\.1, lacks it .* shadows /opt/good/libprov\\.so\\.1" \
    "versioned: the bad copy shadows the good one"
like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=/opt/good\"" "versioned: fix puts the good copy first"

# No copy here has it: an install, never find /.
rm "$FX/opt/good/libprov.so.1"
cp "$FX/opt/bad/libprov.so.1" "$FX/opt/good/libprov.so.1"
fx_explain LD_LIBRARY_PATH=/opt/bad -- "/usr/bin/python3: symbol lookup error: /opt/app/lib/libuser.so: undefined symbol: prov_new_func, version PROV_2"
like "$(finding SONAME_VERSION_MISMATCH .detail)" "no other copy here has it" "no good copy: said so"
unlike "$(fixes SONAME_VERSION_MISMATCH)" "find /" "no good copy: no find /"
like "$(fixes SONAME_VERSION_MISMATCH)" "cudawiz why libprov\\.so\\.1" "no good copy: where each copy is"

# --- dlsym: the named library lacks the symbol
CB_OLD='int cublasCreate_v2(void) { return 0; }'
CB_NEW='int cublasCreate_v2(void) { return 0; } int cublasGetSmCountTarget(void) { return 0; }'
DLSYM_MSG="2023-01-01 12:00:00.000000: W tensorflow/stream_executor/cuda/cuda_blas.cc:1234] Could not load symbol cublasGetSmCountTarget from libcublas.so.11. Error: /usr/local/cuda/lib64/libcublas.so.11: undefined symbol: cublasGetSmCountTarget"
fx_new
fx_file /etc/ld.so.conf "/opt/newcublas"
so_build /usr/local/cuda/lib64/libcublas.so.11 libcublas.so.11 "$CB_OLD" ""
so_build /opt/newcublas/libcublas.so.11 libcublas.so.11 "$CB_NEW" ""
fx_explain LD_LIBRARY_PATH=/usr/local/cuda/lib64 -- "$DLSYM_MSG"
is "$(jq -r '.recognised | length' "$FX_OUT")" 1 "dlsym: one message (the quoted dlerror is the same one)"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" dlsym_symbol_missing "dlsym: recognised as a lookup in the library"
is "$(jq -r '.recognised[0].soname' "$FX_OUT")" libcublas.so.11 "dlsym: the library that lacks it"
is "$(jq -r '.recognised[0].required_by' "$FX_OUT")" null "dlsym: nothing 'requires' it"
like "$(finding SONAME_VERSION_MISMATCH .detail)" "looked up the symbol cublasGetSmCountTarget in libcublas\\.so\\.11 .*/usr/local/cuda/lib64/libcublas\\.so\\.11, is older" \
    "dlsym: the library itself is too old"
like "$(evidence SONAME_VERSION_MISMATCH)" "^/opt/newcublas/libcublas\\.so\\.11 defines cublasGetSmCountTarget$" "dlsym: the copy that has it"
like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=/opt/newcublas\"" "dlsym: fix puts it first"

# The other way round: the copies swapped, the new one now first.
fx_file /etc/ld.so.conf "/usr/local/cuda/lib64"
so_build /usr/local/cuda/lib64/libcublas.so.11 libcublas.so.11 "$CB_NEW" ""
so_build /opt/newcublas/libcublas.so.11 libcublas.so.11 "$CB_OLD" ""
fx_explain LD_LIBRARY_PATH=/opt/newcublas -- "Could not load symbol cublasGetSmCountTarget from libcublas.so.11. Error: /opt/newcublas/libcublas.so.11: undefined symbol: cublasGetSmCountTarget"
like "$(evidence SONAME_VERSION_MISMATCH)" "^/usr/local/cuda/lib64/libcublas\\.so\\.11 defines cublasGetSmCountTarget$" "dlsym swapped: the other copy has it"
like "$(fixes SONAME_VERSION_MISMATCH)" "^export LD_LIBRARY_PATH=/usr/local/cuda/lib64\"" "dlsym swapped: fix puts it first"

# No copy has it: install a newer one through the catalogue.
so_build /usr/local/cuda/lib64/libcublas.so.11 libcublas.so.11 "$CB_OLD" ""
fx_explain LD_LIBRARY_PATH=/usr/local/cuda/lib64 -- "$DLSYM_MSG"
like "$(evidence SONAME_VERSION_MISMATCH)" "no copy of libcublas\\.so\\.11 here defines cublasGetSmCountTarget" "dlsym, no copy: said so"
unlike "$(fixes SONAME_VERSION_MISMATCH)" "find /" "dlsym, no copy: no find /"
ok "dlsym, no copy: a fix" [ -n "$(fixes SONAME_VERSION_MISMATCH)" ]

# dlerror after dlsym() in other words: still the library's lack.
fx_explain LD_LIBRARY_PATH=/usr/local/cuda/lib64 -- "dlsym failed: /usr/local/cuda/lib64/libcublas.so.11: undefined symbol: cublasGetSmCountTarget"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" dlsym_symbol_missing "dlsym named on the line: the library lacks it"

done_testing
