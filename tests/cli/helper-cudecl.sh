#!/bin/sh
# The helper's hand declarations of the CUDA driver, runtime and cuDNN
# APIs (src/helper/cudecl.h) compiled against NVIDIA's headers, where
# this machine has them: tests/unit/test_helper_cudecl.c asserts, at
# compile time, that every function type, constant and error code the
# helper uses is the real one.
. "$TESTS_SRCDIR/lib/tap.sh"

CUDA=${CUDA_HOME:-/usr/local/cuda}
[ -r "$CUDA/include/cuda.h" ] || skip_all "no CUDA headers ($CUDA/include/cuda.h)"
[ -r "$CUDA/include/cudaTypedefs.h" ] || skip_all "no $CUDA/include/cudaTypedefs.h (CUDA < 10.1)"
[ -n "$FIXTURE_CC" ] || skip_all "FIXTURE_CC is not set"

W=$(mktemp -d "$FX_TMP/helper-cudecl.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

have_cudnn=0
incs="-I$CUDA/include"
for d in "$CUDA/include" /usr/include /usr/include/x86_64-linux-gnu; do
	if [ -r "$d/cudnn.h" ]; then
		have_cudnn=1
		incs="$incs -I$d"
		break
	fi
done

# shellcheck disable=SC2086
if $FIXTURE_CC -std=gnu11 -Wall -Wextra -Werror -DHAVE_CUDNN_H=$have_cudnn \
    -I"$TESTS_SRCDIR/../src" -I"$TESTS_SRCDIR" $incs \
    -o "$W/cudecl" "$TESTS_SRCDIR/unit/test_helper_cudecl.c" 2>"$W/cc.err"; then
	tap_result 0 "cudecl.h compiles next to cuda.h, cudaTypedefs.h, cuda_runtime_api.h$([ $have_cudnn = 1 ] && echo ', cudnn.h'), every assertion holding"
else
	tap_result 1 "cudecl.h compiles next to the real headers, every assertion holding"
	grep -E 'error|assert' "$W/cc.err" | head -n 30 | sed 's/^/#   /'
fi
if [ -x "$W/cudecl" ]; then
	"$W/cudecl" > "$W/out"
	ok "the conformance program reports no failure" [ $? = 0 ]
	sed 's/^/#   /' "$W/out"
	[ $have_cudnn = 1 ] || skip "cuDNN declarations" "no cudnn.h"
else
	skip "the conformance program runs" "it did not compile"
fi
done_testing
