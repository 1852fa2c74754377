#!/bin/sh
# cudawiz why on fixture trees: each search step in glibc's order, what
# the loader skips and what stops it, RPATH against RUNPATH, the
# ld.so.conf stand-in for a missing cache, other copies, exit codes.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

# why_run [NAME=VALUE...] -- ARG...: cudawiz why --json under the tree.
why_run() {
	fx_vars=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		fx_vars="$fx_vars $1"
		shift
	done
	[ "${1:-}" = -- ] && shift
	# shellcheck disable=SC2086
	env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C $fx_vars \
	    "$CUDAWIZ" why --json --root "$FX" "$@" > "$FX_OUT" 2> "$FX.stderr"
	FX_RC=$?
}

# A library whose DT_NEEDED is the SONAME of each file given.
fx_requester() {	# PATH LINKFLAGS FILE...
	out=$1 flags=$2
	shift 2
	mkdir -p "$(dirname "$FX$out")"
	printf 'int cudawiz_requester(void) { return 0; }\n' |
	    $FIXTURE_CC -shared -fPIC -o "$FX$out" -x c - -x none $flags -Wl,--no-as-needed "$@"
}

fx_new
fx_so /opt/a/libcwx.so.1 libcwx.so.1
why_run LD_LIBRARY_PATH=/opt/missing:/opt/a -- libcwx.so.1
is "$FX_RC" 0 "found on LD_LIBRARY_PATH: exit 0"
is "$(fx_jq .resolved)" /opt/a/libcwx.so.1 "... the file in the second entry"
is "$(fx_jq .via)" ld_library_path "... via ld_library_path"
is "$(fx_jq '.steps[0].result')" dir_missing "a missing entry is a step of its own"
is "$(fx_jq '.steps[1].result + " " + .steps[1].path')" "found /opt/a/libcwx.so.1" \
    "the winning step names the file"
is "$(fx_jq .schema)" cudawiz/why/1 "schema"
is "$(fx_jq .from)" null "no --from: a plain program"

# A 32-bit file first is passed over; a text file first stops the loader.
fx_new
fx_so /opt/b/libcwx.so.1 libcwx.so.1
printf '\177ELF\001\001\001\000' > "$FX.hdr"
head -c 56 /dev/zero >> "$FX.hdr"
fx_dir /opt/a
cp "$FX.hdr" "$FX/opt/a/libcwx.so.1"
why_run LD_LIBRARY_PATH=/opt/a:/opt/b -- libcwx.so.1
is "$(fx_jq .resolved)" /opt/b/libcwx.so.1 "a 32-bit file is skipped"
is "$(fx_jq '.steps[0].result')" skipped "... as a step of its own"
like "$(fx_jq '.steps[0].detail')" "ELFCLASS32" "... saying it is 32-bit"
fx_file /opt/a/libcwx.so.1 "/* GNU ld script: the real library is elsewhere */ INPUT(-lcwx_real)"
why_run LD_LIBRARY_PATH=/opt/a:/opt/b -- libcwx.so.1
is "$FX_RC" 1 "a linker script first: exit 1"
is "$(fx_jq .resolved)" null "... nothing is loaded"
like "$(fx_jq .error)" "/opt/a/libcwx.so.1: invalid ELF header" \
    "... with glibc's error, naming the file"
is "$(fx_jq '[.steps[] | select(.path == "/opt/b/libcwx.so.1")] | length')" 0 \
    "... and the search stops there"

# Not found, but a toolkit holds it: other copies say where.
fx_new
fx_toolkit 13.0
why_run -- libcudart.so.13
is "$FX_RC" 1 "a toolkit runtime off the search path: exit 1"
like "$(fx_jq '.other_copies | join(" ")')" "/usr/local/cuda-13/" \
    "... other_copies names the toolkit's copy"
like "$(fx_jq .error)" "cannot open shared object file" "... glibc's words"
is "$(fx_jq '[.findings[].code] | join(" ")')" SONAME_OFF_SEARCH_PATH \
    "... and the finding says it exists off the search path"
like "$(fx_jq '.findings[0].fix | join(" ")')" "/usr/local/cuda-13/" \
    "... with a fix that names the toolkit's directory"

# ld.so.conf stands in for a missing cache under --root.
fx_new
fx_so /opt/c/libcwy.so.2 libcwy.so.2
fx_file /etc/ld.so.conf "/opt/c"
why_run -- libcwy.so.2
is "$(fx_jq '.resolved + " " + .via')" "/opt/c/libcwy.so.2 cache" \
    "an ld.so.conf directory is searched in the cache's place"

# RPATH comes before LD_LIBRARY_PATH, RUNPATH after it; $ORIGIN works.
if [ -n "${FIXTURE_CC:-}" ] && command -v "${FIXTURE_CC%% *}" >/dev/null 2>&1; then
	fx_new
	fx_so /opt/app/lib/libcwz.so.1 libcwz.so.1
	fx_so /opt/env/libcwz.so.1 libcwz.so.1
	# The requesters need libc too; the tree's default directory has one.
	fx_so /lib/x86_64-linux-gnu/libc.so.6 libc.so.6
	fx_requester /opt/app/bin/rp.so '-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/../lib' \
	    "$FX/opt/app/lib/libcwz.so.1"
	fx_requester /opt/app/bin/rn.so '-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/../lib' \
	    "$FX/opt/app/lib/libcwz.so.1"
	why_run LD_LIBRARY_PATH=/opt/env -- --from /opt/app/bin/rp.so
	is "$FX_RC" 0 "closure of an RPATH library: exit 0"
	is "$(fx_jq '.closure[] | select(.name == "libc.so.6") | .resolved + " " + .via')" \
	    "/lib/x86_64-linux-gnu/libc.so.6 default" "libc from the tree's default directory"
	is "$(fx_jq '.closure[] | select(.name == "libcwz.so.1") | .resolved + " " + .via')" \
	    "/opt/app/bin/../lib/libcwz.so.1 rpath" "DT_RPATH with \$ORIGIN beats LD_LIBRARY_PATH"
	why_run LD_LIBRARY_PATH=/opt/env -- --from /opt/app/bin/rn.so
	is "$(fx_jq '.closure[] | select(.name == "libcwz.so.1") | .resolved + " " + .via')" \
	    "/opt/env/libcwz.so.1 ld_library_path" "LD_LIBRARY_PATH beats DT_RUNPATH"
	why_run -- --from /opt/app/bin/rn.so
	is "$(fx_jq '.closure[] | select(.name == "libcwz.so.1") | .resolved + " " + .via')" \
	    "/opt/app/bin/../lib/libcwz.so.1 runpath" "... and DT_RUNPATH is searched after it"
	why_run -- libcwz.so.1 --from /opt/app/bin/rn.so
	is "$(fx_jq '.resolved + " " + .via')" "/opt/app/bin/../lib/libcwz.so.1 loaded" \
	    "dlopen of a name the requester already loaded reuses it"
else
	for i in 1 2 3 4 5 6; do skip "RPATH/RUNPATH order" "no C compiler to build requesters"; done
fi

# Usage errors.
fx_new
why_run --; is "$FX_RC" 2 "no name and no --from: usage error"
why_run -- ""; is "$FX_RC" 2 "an empty name: usage error"
why_run -- --from /nowhere/prog
is "$FX_RC" 2 "--from a missing file: exit 2"
like "$(cat "$FX.stderr")" "/nowhere/prog" "... naming it"
why_run -- a b; is "$FX_RC" 2 "two names: usage error"

# Text output.
fx_new
fx_so /opt/a/libcwx.so.1 libcwx.so.1
env -i LC_ALL=C LD_LIBRARY_PATH=/opt/a "$CUDAWIZ" why --root "$FX" libcwx.so.1 > "$FX.txt" 2>&1
like "$(cat "$FX.txt")" "resolved: /opt/a/libcwx.so.1" "text: the winner"
like "$(cat "$FX.txt")" "LD_LIBRARY_PATH" "text: the step that found it"

done_testing
