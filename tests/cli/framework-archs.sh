#!/bin/sh
# The GPU code a framework carries, read from the fatbinaries of its main
# CUDA library: libtorch_cuda.so built here by nvcc with chosen -gencode
# options (CUDA 13's nvcc builds sm_75 and newer), so the build can lack
# kernels for the GPU's architecture. Skipped without nvcc.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

fx_new
fx_healthy_gpu
fx_pci_ids
E=/home/u/venvs/arch
fx_venv_env $E 3.10
S=$FX_SITE
fx_torch $S 2.5.1+cu124 12.4

# A synthetic fatbinary section (no nvcc needed): the listing is what
# the section holds.
if fx_fatbin_lib $S/torch/lib/libtorch_cuda.so libtorch_cuda.so \
    'sm_50,sm_60,sm_70/sm_80,compute_80' libcudart.so.12; then
	fx_doctor_env VIRTUAL_ENV=$E
	fx_ran_ok
	is "$(fw_jq $E pytorch '[.archs.read, (.archs.sass | join(",")), (.archs.ptx | join(","))] | join(" ")')" \
	    "true sm_50,sm_60,sm_70,sm_80 compute_80" \
	    "a synthetic .nv_fatbin: SASS sm_50-sm_80, PTX compute_80"
	is "$(fw_jq $E pytorch '[.needs[].soname] | join(" ")')" libcudart.so.12 \
	    "... and the file's needs are read as before"
	# A damaged fatbinary: an error with the file's name, no crash.
	printf '\120\355\125\272\001\000\020\000\377\377\377\377\377\377\377\177' > "$FX_TMP/fwbad.$$"
	"$OBJCOPY" --update-section .nv_fatbin="$FX_TMP/fwbad.$$" "$FX$S/torch/lib/libtorch_cuda.so"
	rm -f "$FX_TMP/fwbad.$$"
	fx_doctor_env VIRTUAL_ENV=$E
	fx_ran_ok "a damaged fatbinary header: no crash"
	is "$(fw_jq $E pytorch .archs.read)" false "... nothing is listed"
	like "$(fw_jq $E pytorch .archs.error)" "libtorch_cuda.so" "... archs.error names the file"
else
	skip "a synthetic .nv_fatbin" "no $FATBIN_LIST or $OBJCOPY"
fi

[ -x "$NVCC" ] || skip_all "no nvcc (set NVCC or put it on PATH; $NVCC is absent)"
fx_cuda_lib $S/torch/lib/libtorch_cuda.so libtorch_cuda.so "75:sm 80:sm 86:ptx" ||
	skip_all "$NVCC cannot build a shared library here"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok
is "$(fw_jq $E pytorch .archs.source)" "$S/torch/lib/libtorch_cuda.so" \
    "the GPU code is read from libtorch_cuda.so"
is "$(fw_jq $E pytorch '[.archs.read, (.archs.error | tostring)] | join(" ")')" "true null" \
    "... and read"
is "$(fw_jq $E pytorch '.archs.sass | join(" ")')" "sm_75 sm_80" "SASS for sm_75 and sm_80"
is "$(fw_jq $E pytorch '.archs.ptx | join(" ")')" "compute_86" "PTX for compute_86"

# A build with kernels for Turing only, on the healthy machine's H100
# (sm_90): no SASS and no PTX it could run.
fx_cuda_lib $S/torch/lib/libtorch_cuda.so libtorch_cuda.so "75:sm" ||
	skip_all "$NVCC cannot build a shared library here"
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E pytorch '[(.archs.sass | join(",")), (.archs.ptx | length)] | join(" ")')" \
    "sm_75 0" "a Turing-only build: sm_75, no PTX"
is "$(jq -r '.facts.gpus[0].compute_capability' "$FX_OUT")" 9.0 \
    "... on an sm_90 GPU (an H100)"
has_code GPU_ARCH_UNSUPPORTED "... which the findings say it cannot run on"

# The biggest of torch's CUDA libraries is the one read.
fx_cuda_lib $S/torch/lib/libtorch_cuda_cu.so libtorch_cuda_cu.so "75:sm 80:sm 86:sm 90:sm 90:ptx" ||
	skip_all "$NVCC cannot build a shared library here"
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E pytorch .archs.source)" "$S/torch/lib/libtorch_cuda_cu.so" \
    "with libtorch_cuda_cu.so (1.9-1.12's split) the bigger file is read"
is "$(fw_jq $E pytorch '.archs.sass | join(" ")')" "sm_75 sm_80 sm_86 sm_90" "... its SASS"

done_testing
