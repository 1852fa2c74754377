#!/bin/sh
# Doctor's libraries through the loader model: the JSON keeps soname,
# resolved, via and target and adds the step trace (the shape `why`
# prints), other copies, the winner's SONAME and version definitions;
# the text report shows each winner with the step that found it, and
# where an unresolved library does exist. A healthy tree has no loader
# finding at all.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

lib() {	# SONAME FILTER
	fx_jq "[.facts.libraries[] | select(.soname == \"$1\")][0] | $2"
}

# The text report's lines for one library, wrapped lines joined.
section() {	# SONAME LINES
	printf '%s\n' "$text" | grep -E -A"$2" "^  $1( |$)" | tr -s ' \n' '  '
}

loader_codes='LIBCUDA_NOT_FOUND|STUB_LIBCUDA|WSL_LIBCUDA|SONAME_|OPTIONAL_LIB_MISSING|BROKEN_LIBRARY|MIXED_CUDA_VERSIONS|LIB_SHADOWED'

fx_new
fx_cuda13_machine
FX_ENV="PATH=/usr/bin"
fx_doctor
ok "doctor ran (exit $FX_RC)" [ "$FX_RC" -le 1 ]
is "$(fx_codes | grep -E "$loader_codes" | tr '\n' ' ')" "" \
    "a healthy tree: no loader finding"
is "$(lib libcuda.so.1 .resolved)" /usr/lib/x86_64-linux-gnu/libcuda.so.1 \
    "libcuda.so.1 resolves to the driver's"
is "$(lib libcuda.so.1 .via)" ld.so.conf "... through the ld.so.conf directories (the cache's stand-in)"
is "$(lib libcuda.so.1 .target)" /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 \
    "... the real file behind the link"
is "$(lib libcuda.so.1 .file_soname)" libcuda.so.1 "... whose SONAME is read from the file"
is "$(lib libcuda.so.1 '.steps[-1] | "\(.source) \(.result) \(.path)"')" \
    "cache found /usr/lib/x86_64-linux-gnu/libcuda.so.1" \
    "the last step found it, in why's vocabulary"
is "$(lib libcuda.so.1 '.steps[0] | keys | join(",")')" \
    "detail,dir,owner,path,result,source,spec" "each step has why's fields"
is "$(lib libcudart.so.13 .via)" ld.so.conf "the toolkit's runtime through ld.so.conf"
is "$(lib libcudart.so.13 .error)" null "no error for a resolved library"
is "$(lib libcuda.so '.resolved')" null "the unversioned libcuda.so is not installed"
is "$(lib libcuda.so '.optional')" true "... and is optional"
is "$(lib libcuda.so '.other_copies | join(" ")')" \
    /usr/local/cuda-13.0/lib64/stubs/libcuda.so \
    "... its only copy is the toolkit's stub, found through the toolkit probe"
is "$(lib libcuda.so '.copies[0].stub')" true "... and said to be a stub"
like "$(lib libcuda.so .error)" 'libcuda.so: cannot open shared object file' \
    "... with glibc's error"
is "$(lib libnvinfer.so.10 .optional)" true "TensorRT is resolved, as optional"
is "$(lib libnvinfer.so.8 .resolved)" null "... and absent here"
is "$(fx_jq '[.facts.libraries[].soname] | .[0:3] | join(",")')" \
    "libcuda.so.1,libnvidia-ml.so.1,libcuda.so" "the driver's names come first"

text=$(env -i LC_ALL=C PATH=/usr/bin "$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX")
like "$(section libcudart.so.13 2)" 'libcudart\.so\.13 /usr/local/cuda-13\.0/targets/x86_64-linux/lib/libcudart\.so\.13 ' \
    "the text report names the runtime's winner"
like "$(section libcudart.so.13 2)" \
    'via ld\.so\.conf' "... with how it was found"
like "$(section libcuda.so.1 1)" \
    'via ld\.so\.conf -> libcuda\.so\.580\.65\.06' "... and the file behind the link"
like "$(section libcuda.so 3)" \
    'stubs/libcuda\.so \(the toolkit.s stub\)' \
    "an unresolved library shows where it exists"
like "$text" 'libnvinfer\.so\.8 +not found \(optional\)' "optional ones say so"

# Off the search path: the text says where it exists.
fx_new
fx_toolkit 12.4.1
fx_doctor
is "$(lib libcudart.so.12 .resolved)" null "a toolkit nobody configured: its runtime is not found"
is "$(lib libcudart.so.12 '.copies[] | select(.reached_via == null) | .path')" \
    /usr/local/cuda-12.4/lib64/libcudart.so.12 \
    "... but other_copies say where it is"
text=$(env -i LC_ALL=C "$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX")
like "$(section libcudart.so.12 3)" \
    'lib64/libcudart\.so\.12 \(exists, off the search path\)' \
    "the text report says it exists off the search path"

done_testing
