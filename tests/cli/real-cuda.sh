#!/bin/sh
# The toolkit and cuDNN probes against this machine's real /usr/local/cuda
# (CUDA 13.0 and cuDNN 9 on the build machines), with no --root and a
# clean environment. Skips, saying why, where that toolkit is absent.
. "$TESTS_SRCDIR/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
cuda=/usr/local/cuda
[ -d $cuda ] || skip_all "no CUDA toolkit at $cuda on this machine"
cudart=$(ls $cuda/lib64/libcudart.so.* 2>/dev/null | head -n 1)
[ -n "$cudart" ] || skip_all "no libcudart.so.* in $cuda/lib64 on this machine"
[ -e $cuda/lib64/libcudart.so.13 ] ||
	skip_all "the toolkit at $cuda is not CUDA 13 (no lib64/libcudart.so.13); this test knows CUDA 13.0"
root=$(cd $cuda && pwd -P)

out=${FX_TMP:-${TMPDIR:-/tmp}}/real-cuda.$$.json
trap 'rm -f "$out"' EXIT
env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C \
    PATH=/usr/local/cuda/bin:/usr/bin:/bin "$CUDAWIZ" doctor --json > "$out"
rc=$?
json_ok() {
	jq -e . "$out" > /dev/null 2>&1
}
ok "doctor --json on this machine prints valid JSON (exit $rc)" json_ok
ok "and does not fail as a tool" test "$rc" -lt 2

tk() {
	jq -r --arg r "$root" ".facts.toolkits[] | select(.root == \$r) | $1" "$out"
}

is "$(tk .root)" "$root" "the toolkit behind $cuda is reported at its real root"
like "$(tk .version)" '^13\.0(\.[0-9]+)?$' "its version is 13.0 or 13.0.x"
like "$(tk .sources.version)" "^$root/" "read from a file of the toolkit"
like "$(tk '.found_via | join(",")')" '/usr/local/cuda\*' "found via /usr/local/cuda*"
like "$(tk '.found_via | join(",")')" 'PATH' "and via the nvcc on PATH"
if [ -L $cuda ]; then
	like "$(tk '.aliases | join(",")')" '(^|,)/usr/local/cuda(,|$)' "/usr/local/cuda is an alias"
else
	skip "/usr/local/cuda is an alias" "$cuda is a directory, not a link"
fi
is "$(tk '[.cudart[].soname] | unique | join(",")')" libcudart.so.13 "libcudart.so.13, read from the ELF file"
if [ -x $cuda/bin/nvcc ]; then
	like "$(tk .nvcc)" "^$root/bin/nvcc$" "nvcc found"
else
	skip "nvcc found" "no bin/nvcc in $cuda"
fi

# cuDNN: the copy in the toolkit's library directory.
libdir=$(cd $cuda/lib64 && pwd -P)
if ! ls $cuda/lib64/libcudnn.so.* >/dev/null 2>&1; then
	skip "cuDNN in the toolkit" "no libcudnn.so.* in $cuda/lib64 on this machine"
else
	cd_() {
		jq -r --arg d "$libdir" ".facts.cudnn[] | select(.lib_dir == \$d) | $1" "$out"
	}
	is "$(cd_ .lib_dir)" "$libdir" "cuDNN in the toolkit's library directory"
	is "$(cd_ .where)" toolkit "where: toolkit"
	like "$(cd_ .version)" '^9\.[0-9]+\.[0-9]+$' "cuDNN 9.x"
	like "$(cd_ .header)" 'cudnn_version\.h$' "from cudnn_version.h"
	want=$(sed -n 's/^#define CUDNN_MINOR *\([0-9]*\).*/\1/p' "$(cd_ .header)" | head -n 1)
	like "$(cd_ .version)" "^9\\.$want\\." "the minor the header itself declares ($want)"
	is "$(cd_ .soname)" libcudnn.so.9 "soname libcudnn.so.9"
	like "$(cd_ '.libraries | join(",")')" 'libcudnn_graph\.so\.9' "the split cuDNN 9 libraries"
fi

is "$(jq -r '[.facts.notes[] | select(.path | startswith("/usr/local/cuda"))] | length' "$out")" 0 \
    "no problems noted in the real toolkit"

done_testing
