#!/bin/sh
# Toolkit probe on damaged trees: each problem is a note naming the path,
# the report stays valid JSON, and the rest of the probe goes on.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

tk=/usr/local/cuda-12.4

# Checks shared by every case: JSON, not a usage/tool failure, the
# toolkit still there with the version from the libcudart file name.
# toolkit still there with its version, from version.json or, when that
# is the damaged file, from the next source (the libcudart file name).
still_works() {	# WHAT [json]
	ok "$1: valid JSON" fx_json_ok
	ok "$1: the run went on (exit $FX_RC)" test "$FX_RC" -lt 2
	is "$(fx_tk_json .version)" 12.4.1 "$1: the toolkit keeps its version"
	if [ "${2:-}" = json ]; then
		is "$(fx_tk_json .sources.version)" "$tk/version.json" \
		    "$1: from version.json"
	else
		is "$(fx_tk_json .sources.version)" \
		    "$tk/targets/x86_64-linux/lib/libcudart.so.12.4.1" \
		    "$1: from the next source, the libcudart file name"
	fi
}

# --- version.json that is not JSON
fx_new
fx_toolkit 12.4.1
fx_file $tk/version.json '{ "cuda": { "version": "12.4.1" '
fx_doctor
still_works "broken version.json"
like "$(fx_tk_note $tk/version.json)" "not valid JSON" "broken version.json: a note names it"

# --- JSON, but the version is not a version
fx_file $tk/version.json '{"cuda": {"version": "12.4.1; rm -rf /"}}'
fx_doctor
still_works "bad version string"
like "$(fx_tk_note $tk/version.json)" "not a version number" "bad version string: a note"

fx_file $tk/version.json '["12.4.1"]'
fx_doctor
still_works "version.json without cuda.version"
like "$(fx_tk_note $tk/version.json)" "no \"cuda\" \"version\"" "no cuda.version: a note"

# --- a 2 GB (sparse) version.json is refused by size, not read
fx_new
fx_toolkit 12.4.1
rm -f "$FX$tk/version.json"
truncate -s 2G "$FX$tk/version.json"
r0=$(fx_rchar)
fx_doctor
r1=$(fx_rchar)
still_works "2 GB version.json"
like "$(fx_tk_note $tk/version.json)" "larger than expected" "2 GB version.json: a note"
if [ -n "$r0" ] && [ -n "$r1" ]; then
	ok "2 GB version.json: not read ($((r1 - r0)) bytes read by the run, under 256 MiB)" \
	    test $((r1 - r0)) -lt 268435456
else
	skip "2 GB version.json: not read" "/proc/$$/io is not readable here"
fi

# --- a FIFO named version.json: no hang, a note
fx_new
fx_toolkit 12.4.1
rm -f "$FX$tk/version.json"
mkfifo "$FX$tk/version.json"
fx_doctor
still_works "FIFO version.json"
like "$(fx_tk_note $tk/version.json)" "not a regular file" "FIFO version.json: a note"

# --- version.txt that says something else
fx_new
fx_toolkit 12.4.1
rm -f "$FX$tk/version.json"
printf '\177ELF\001\002garbage' > "$FX$tk/version.txt"
fx_doctor
still_works "garbage version.txt"
like "$(fx_tk_note $tk/version.txt)" "CUDA Version" "garbage version.txt: a note"

# --- dangling /usr/local/cuda
fx_new
fx_toolkit 12.4.1
fx_link /usr/local/cuda-99.9 /usr/local/cuda
fx_doctor
still_works "dangling /usr/local/cuda" json
like "$(fx_tk_note /usr/local/cuda)" "symlink cannot be followed: No such file" \
    "dangling /usr/local/cuda: a note"
is "$(fx_tk_json '.aliases | length')" 0 "dangling /usr/local/cuda: no alias"

# --- a symlink loop, and CUDA_HOME into it
fx_new
fx_toolkit 12.4.1
fx_link cuda-loop-b /usr/local/cuda-loop-a
fx_link cuda-loop-a /usr/local/cuda-loop-b
FX_ENV="CUDA_HOME=/usr/local/cuda-loop-a"
fx_doctor
still_works "symlink loop" json
like "$(fx_tk_note /usr/local/cuda-loop-a)" "symbolic links" "symlink loop: a note for the link"
is "$(fx_jq '[.facts.notes[] | select(.path == "/usr/local/cuda-loop-a")] | length')" 1 \
    "symlink loop: noted once though reached twice"

# --- a library directory that loops
fx_new
fx_toolkit 12.4.1
fx_link lib32 $tk/lib
fx_link lib $tk/lib32
fx_doctor
still_works "lib symlink loop" json
like "$(fx_tk_note $tk/lib)" "symbolic links" "lib symlink loop: a note"

# --- libcudart that is not an ELF file
fx_new
fx_toolkit 12.4.1
printf 'this is not a library\n' > "$FX$tk/targets/x86_64-linux/lib/libcudart.so.12.4.1"
fx_doctor
still_works "libcudart not ELF" json
like "$(fx_tk_note $tk/lib64/libcudart.so.12)" "not an ELF file" "libcudart not ELF: a note"
is "$(fx_tk_json '.cudart[0].soname')" libcudart.so.12 "libcudart not ELF: soname from the file name"

# A dangling libcudart soname link.
fx_new
fx_toolkit 12.4.1
rm -f "$FX$tk/targets/x86_64-linux/lib/libcudart.so.12.4.1"
fx_doctor
ok "dangling libcudart: valid JSON" fx_json_ok
is "$(fx_tk_json .version)" 12.4.1 "dangling libcudart: version.json still read"
like "$(fx_tk_note $tk/lib64/libcudart.so.12)" "cannot be followed" "dangling libcudart: a note"

# --- an unreadable toolkit directory
fx_new
fx_toolkit 12.4.1
fx_toolkit 13.0.1
if ! fx_drop_privileges; then
	skip "unreadable toolkit directory" "$FX_DROP_WHY"
	skip "unreadable toolkit directory: the other toolkit stays" "$FX_DROP_WHY"
else
	chmod 000 "$FX/usr/local/cuda-13.0"
	fx_doctor
	like "$(fx_tk_note /usr/local/cuda-13.0)" "Permission denied" \
	    "unreadable toolkit directory: a note"
	is "$(fx_tk_json .version)" 12.4.1 "unreadable toolkit directory: the other toolkit stays"
	chmod 755 "$FX/usr/local/cuda-13.0"
fi
fx_keep_privileges

# --- everything at once
fx_new
fx_toolkit 12.4.1
fx_file $tk/version.json 'garbage'
fx_link /usr/local/cuda-99.9 /usr/local/cuda
fx_link cuda-x /usr/local/cuda-x
printf 'junk' > "$FX$tk/targets/x86_64-linux/lib/libcudart.so.12.4.1"
fx_doctor
ok "all at once: valid JSON" fx_json_ok
is "$(fx_jq '[.facts.notes[] | select(.path | startswith("/usr/local"))] | length')" 4 \
    "all at once: four notes"
is "$(fx_tk_json .root)" $tk "all at once: the toolkit is still reported"

done_testing
