#!/bin/sh
# explain on CUDA_ERROR_STUB_LIBRARY (34): the toolkit's stub libcuda on
# LD_LIBRARY_PATH (a real stub from the installed toolkit when there is
# one, else a built one), the stub linked under the driver's soname, and a
# machine where the stub is not what gets loaded.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

NUMBA="numba.cuda.cudadrv.driver.CudaAPIError: [34] Call to cuInit results in CUDA_ERROR_STUB_LIBRARY"
REAL_STUB=/usr/local/cuda/lib64/stubs/libcuda.so
stubs=/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs

fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2330 nvidia 030200
fx_toolkit 12.4.1
if [ -f "$REAL_STUB" ]; then
	cp "$REAL_STUB" "$FX$stubs/libcuda.so"
	diag "using the installed toolkit's stub $REAL_STUB"
else
	diag "no $REAL_STUB: using a built stand-in"
fi

# --- the stubs directory on LD_LIBRARY_PATH, no driver installed
fx_explain "LD_LIBRARY_PATH=/opt/lib:$stubs" -- "$NUMBA"
is "$FX_RC" 1 "stub: exit 1"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" stub_library "recognised the stub error"
is "$(jq -r '.recognised[0].number' "$FX_OUT")" 34 "... number 34"
is "$(jq -r '.recognised[0].code' "$FX_OUT")" CUDA_ERROR_STUB_LIBRARY "... by the driver API's name"
has_code STUB_LIBCUDA
is "$(finding STUB_LIBCUDA .severity)" error "the stub was loaded: an error"
like "$(evidence STUB_LIBCUDA)" "stubs" "evidence names the stubs directory"
like "$(fixes STUB_LIBCUDA)" "^unset LD_LIBRARY_PATH$|^export LD_LIBRARY_PATH=/opt/lib$" \
    "fix: LD_LIBRARY_PATH without the stubs directory"
unlike "$(fixes STUB_LIBCUDA | grep -v '^#')" "stubs" "no fix command keeps the stubs directory"
is "$(jq -r '[.libraries[] | select(.soname == "libcuda.so")][0].resolved' "$FX_OUT")" \
    "$stubs/libcuda.so" "libcuda.so resolves to the stub"

# --- the stub linked as libcuda.so.1 in the stubs directory
fx_link libcuda.so "$stubs/libcuda.so.1"
fx_explain "LD_LIBRARY_PATH=$stubs" -- "RuntimeError: CUDA driver is a stub library"
has_code STUB_LIBCUDA "the stub under the driver's soname"
is "$(finding STUB_LIBCUDA .severity)" error "... an error"
is "$(jq -r '[.libraries[] | select(.soname == "libcuda.so.1")][0].resolved' "$FX_OUT")" \
    "$stubs/libcuda.so.1" "libcuda.so.1 resolves into the stubs directory"
like "$(fixes STUB_LIBCUDA)" "^unset LD_LIBRARY_PATH$" "fix: drop the stubs directory"
like "$(evidence STUB_LIBCUDA | head -n 1)" "^the message \\(line 1\\): RuntimeError: CUDA driver is a stub library" \
    "the message is the first evidence"

# --- here the real driver wins: the failing program ran elsewhere
fx_nv_loaded 580.65.06
fx_nv_libs 580.65.06
fx_kmod 6.1.0-13-amd64
fx_file /etc/ld.so.conf "/usr/lib/x86_64-linux-gnu"
fx_explain -- "cuInit failed with error 34"
is "$(jq -r '.recognised[0].code' "$FX_OUT")" cudaErrorStubLibrary "a bare error number in a CUDA context"
has_code STUB_LIBCUDA
like "$(finding STUB_LIBCUDA .detail)" "resolves to /usr/lib/x86_64-linux-gnu/libcuda.so.1" \
    "says the driver's libcuda is what loads here"
like "$(fixes STUB_LIBCUDA)" "grep -n stubs" "fix: find the stubs entry where it failed"

done_testing
