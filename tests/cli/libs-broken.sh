#!/bin/sh
# BROKEN_LIBRARY on fixture trees: a file that is not ELF stops the
# loader's whole search (an error, even with a good copy later); a 32-bit
# file and a dangling link are passed over (information when a good copy
# follows, a warning when nothing is found).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"

field() {	# CODE FILTER: arrays joined with newlines
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)][0] | $2 |
	    if type == \"array\" then join(\"\\n\") else tostring end" \
	    "$FX_OUT" 2>/dev/null
}

lib() {	# SONAME FILTER
	fx_jq "[.facts.libraries[] | select(.soname == \"$1\")][0] | $2"
}

# A Git LFS pointer where libcudart.so.12 should be, first on the path.
fx_new
fx_so /usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127 libcudart.so.12
fx_link libcudart.so.12.4.127 /usr/lib/x86_64-linux-gnu/libcudart.so.12
fx_file /opt/lfs/libcudart.so.12 "version https://git-lfs.github.com/spec/v1
oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
size 704288"
FX_ENV="LD_LIBRARY_PATH=/opt/lfs"
fx_doctor
fx_ran_ok
has_code BROKEN_LIBRARY "a text file first on the path: BROKEN_LIBRARY"
is "$(field BROKEN_LIBRARY .severity)" error "... an error: the loader stops there"
is "$FX_RC" 1 "... exit 1"
is "$(lib libcudart.so.12 .resolved)" null "libcudart.so.12 does not load, though a good copy exists"
like "$(lib libcudart.so.12 .error)" '^/opt/lfs/libcudart.so.12: ' "glibc's error names the file"
like "$(field BROKEN_LIBRARY .evidence)" \
    '^/opt/lfs/libcudart.so.12 \(LD_LIBRARY_PATH entry /opt/lfs\): .*; the search stops here$' \
    "the evidence names the file, the step and the reason"
like "$(field BROKEN_LIBRARY .fix)" '^file -L /opt/lfs/libcudart.so.12$' "the fix looks at it"
like "$(field BROKEN_LIBRARY .fix)" '^sudo rm -- /opt/lfs/libcudart.so.12$' "... and removes it"
lacks_code SONAME_NOT_FOUND "no SONAME_NOT_FOUND besides"
lacks_code SONAME_OFF_SEARCH_PATH "no SONAME_OFF_SEARCH_PATH besides"

# A 32-bit library first: passed over, the good one loads.
printf '\177ELF\001\001\001\000' > "$FX.hdr"
head -c 56 /dev/zero >> "$FX.hdr"
cp "$FX.hdr" "$FX/opt/lfs/libcudart.so.12"
fx_doctor
is "$(lib libcudart.so.12 .resolved)" /usr/lib/x86_64-linux-gnu/libcudart.so.12 \
    "a 32-bit file is passed over"
is "$(field BROKEN_LIBRARY .severity)" info "... information: nothing fails"
like "$(field BROKEN_LIBRARY .evidence)" 'ELFCLASS32.*passed over' "... saying what it is"
is "$FX_RC" 0 "exit 0"

# The 32-bit file is the only one.
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcudart.so.12*
fx_doctor
is "$(field BROKEN_LIBRARY .severity)" warning "the only copy is 32-bit: a warning"

# A dangling link before the real driver library.
fx_new
fx_so /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 libcuda.so.1
fx_link libcuda.so.580.65.06 /usr/lib/x86_64-linux-gnu/libcuda.so.1
fx_link libcuda.so.535.104.05 /opt/old/libcuda.so.1
FX_ENV="LD_LIBRARY_PATH=/opt/old"
fx_doctor
is "$(lib libcuda.so.1 .resolved)" /usr/lib/x86_64-linux-gnu/libcuda.so.1 \
    "a dangling link is passed over"
is "$(lib libcuda.so.1 '.dangling[0] | "\(.path) \(.link) \(.via)"')" \
    "/opt/old/libcuda.so.1 libcuda.so.535.104.05 ld_library_path" \
    "the library fact records the dangling link"
like "$(field BROKEN_LIBRARY .evidence)" \
    '^/opt/old/libcuda.so.1 -> libcuda.so.535.104.05 \(LD_LIBRARY_PATH\): a dangling link, passed over$' \
    "BROKEN_LIBRARY names it"
is "$(field BROKEN_LIBRARY .severity)" info "... information"
like "$(field BROKEN_LIBRARY .fix)" '^sudo rm -- /opt/old/libcuda.so.1$' "... and the fix removes it"

done_testing
