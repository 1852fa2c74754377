#!/bin/sh
# Issue 19, point 3: a framework library with no GPU code to list (the
# kernels in a library cudawiz does not read, a stripped file) is "not
# checked", never "no kernels"; the matrix's per-build list of compute
# capabilities answers next, saying it is the compatibility data; with
# neither, a note says the check could not be made. Real ELF files.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

E=/home/u/venvs/arch
tree() {	# TORCH_VERSION CUDA DEVICE
	fx_new
	fx_healthy_gpu
	fx_pci_ids_real
	fx_file /sys/bus/pci/devices/0000:01:00.0/device "0x$3"
	fx_venv_env $E 3.10
	S=$FX_SITE
	fx_torch $S "$1" "$2"
}

# A GeForce GTX 1080 (sm_61) and torch 2.7.1+cu128, whose wheels carry
# sm_70 and newer; libtorch_cuda.so here holds no fatbinary.
tree 2.7.1+cu128 12.8 1b80
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok
is "$(jq -r '.facts.gpus[0].compute_capability' "$FX_OUT")" 6.1 "a compute capability 6.1 GPU"
is "$(fw_jq $E pytorch '[.archs.read, (.archs.sass | length), (.archs.ptx | length)] | join(" ")')" \
    "false 0 0" "no GPU code in libtorch_cuda.so: not read, rather than read as empty"
like "$(fw_jq $E pytorch .archs.error)" "libtorch_cuda.so holds no GPU code: the kernels are in another library, or the file was stripped" \
    "... with the reason"
has_code GPU_ARCH_UNSUPPORTED "the cu128 build's list lacks 6.1: GPU_ARCH_UNSUPPORTED"
is "$(fx_code_field GPU_ARCH_UNSUPPORTED .severity)" warning "... a warning (the list is less sure than the file)"
like "$(fx_code_field GPU_ARCH_UNSUPPORTED .detail)" "built for compute capabilities 7.0 7.5 8.0 8.6 9.0 10.0 12.0" \
    "... naming the matrix list"
like "$(fx_code_field GPU_ARCH_UNSUPPORTED .detail)" "comes from the compatibility data" \
    "... and saying where it comes from"
unlike "$(fx_code_field GPU_ARCH_UNSUPPORTED .detail)" "machine code for none" \
    "... never 'machine code for none and PTX for none'"
like "$(fx_code_field GPU_ARCH_UNSUPPORTED .evidence)" "from the compatibility data [(]matrix: secondary; source: https://github.com/pytorch/pytorch/blob/main/.ci/manywheel/build_cuda.sh[)]" \
    "... with the row's status and source"
lacks_code GPU_ARCH_UNCHECKED "... and no second note"
fx_cmd_env doctor VIRTUAL_ENV=$E
like "$(cat "$FX_OUT")" "not checked [(].*libtorch_cuda.so holds no GPU code" "the text report: GPU code not checked, with the reason"

# The same build on an H100 (9.0), which the list covers: a note that
# the files could not be checked and the list was used.
tree 2.7.1+cu128 12.8 2330
fx_doctor_env VIRTUAL_ENV=$E
lacks_code GPU_ARCH_UNSUPPORTED "an H100 is in the cu128 list: no GPU_ARCH_UNSUPPORTED"
has_code GPU_ARCH_UNCHECKED "... but GPU_ARCH_UNCHECKED says the files were not read"
is "$(fx_code_field GPU_ARCH_UNCHECKED .severity)" info "... as information"
like "$(fx_code_field GPU_ARCH_UNCHECKED .detail)" "the compatibility data says its build carries code for compute capabilities 7.0 7.5 8.0 8.6 9.0 10.0 12.0" \
    "... naming the list it used"

# torch 2.5.1+cu124: the matrix has no list for that build, so nothing
# says; a note, not an error.
tree 2.5.1+cu124 12.4 2330
fx_doctor_env VIRTUAL_ENV=$E
lacks_code GPU_ARCH_UNSUPPORTED "no list and no GPU code: no GPU_ARCH_UNSUPPORTED"
has_code GPU_ARCH_UNCHECKED "... GPU_ARCH_UNCHECKED instead"
like "$(fx_code_field GPU_ARCH_UNCHECKED .detail)" "could not be checked" "... saying the check could not be made"
like "$(fx_code_field GPU_ARCH_UNCHECKED .evidence)" "holds no GPU code" "... and why"

# A real fatbinary still wins over the list: sm_61 SASS in a cu128
# build (as a source build could carry) is read and believed.
tree 2.7.1+cu128 12.8 1b80
if fx_fatbin_lib $S/torch/lib/libtorch_cuda.so libtorch_cuda.so 'sm_61'; then
	fx_doctor_env VIRTUAL_ENV=$E
	is "$(fw_jq $E pytorch '[.archs.read, (.archs.sass | join(","))] | join(" ")')" \
	    "true sm_61" "a fatbinary with sm_61 is read"
	lacks_code GPU_ARCH_UNSUPPORTED "... and the file, not the matrix, decides"
	lacks_code GPU_ARCH_UNCHECKED "... nothing unchecked"
else
	skip "a synthetic .nv_fatbin" "no $FATBIN_LIST or $OBJCOPY"
fi

done_testing
