#!/bin/sh
# A healthy machine: torch 2.4 with its cu121 wheels in one venv,
# TensorFlow 2.16 with tensorflow[and-cuda]'s wheels in another, a driver
# new enough for both, kernels for the GPU. Every need resolves to the
# copy its framework expects, nothing is shadowed, both are GPU-ready,
# and doctor has no error to report.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

RUNPATH='$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'

fx_new
fx_healthy_gpu
fx_pci_ids
T=/home/u/.virtualenvs/torch
fx_venv_env $T 3.11
S=$FX_SITE
for w in nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cudnn-cu12; do
	fx_nvidia_wheel $S $w 12.1.105
done
fx_torch $S 2.4.0+cu121 12.1
# Kernels for the H100 (sm_90), in a synthetic fatbinary section.
if fx_fatbin_lib $S/torch/lib/libtorch_cuda.so libtorch_cuda.so \
    'sm_80,sm_90,compute_90' -r "$RUNPATH" libcudart.so.12 libcublas.so.12 libcudnn.so.9; then
	archs=yes
else
	archs=no
	fx_lib $S/torch/lib/libtorch_cuda.so libtorch_cuda.so -r "$RUNPATH" \
	    libcudart.so.12 libcublas.so.12 libcudnn.so.9
fi

F=/home/u/.virtualenvs/tf
fx_venv_env $F 3.11
S=$FX_SITE
for w in nvidia-cuda-runtime-cu12 nvidia-cublas-cu12; do
	fx_nvidia_wheel $S $w 12.3.101
done
# nvidia-cudnn-cu12 8.9 holds cuDNN 8 (the matrix lists what 9.x holds).
fx_dist $S nvidia-cudnn-cu12 8.9.7.29
fx_so $S/nvidia/cudnn/lib/libcudnn.so.8 libcudnn.so.8
fx_tensorflow $S tensorflow 2.16.1 12.3 8 \
    -R '$ORIGIN/../nvidia/cublas/lib:$ORIGIN/../nvidia/cuda_runtime/lib:$ORIGIN/../nvidia/cudnn/lib'
fx_fatbin_lib $S/tensorflow/python/_pywrap_tensorflow_internal.so \
    _pywrap_tensorflow_internal.so 'sm_60,sm_70,sm_80,compute_90' 2>/dev/null ||
	fx_lib $S/tensorflow/python/_pywrap_tensorflow_internal.so _pywrap_tensorflow_internal.so

fx_doctor_env HOME=/home/u
fx_ran_ok

for fw in "$T pytorch" "$F tensorflow"; do
	set -- $fw
	is "$(fw_jq $1 $2 '(.needs | length) > 0')" true "$2: has needs"
	is "$(fw_jq $1 $2 '[.needs[] | select(.resolved == null)] | length')" 0 \
	    "$2: every need resolves"
	is "$(fw_jq $1 $2 '[.needs[] | select(.from != "wheel")] | length')" 0 \
	    "$2: every need is expected from a wheel"
	is "$(fw_jq $1 $2 '[.needs[] | select((.expected_dir + "/") as $d | .target | startswith($d) | not)] | length')" 0 \
	    "$2: every need loads from its expected directory"
	is "$(fw_jq $1 $2 '[.needs[] | select(.shadowed_via != null)] | length')" 0 \
	    "$2: nothing is shadowed"
	is "$(fw_jq $1 $2 '[.loads, .gpu_ready] | join(" ")')" "true true" "$2: GPU-ready"
done
is "$(fw_need $F tensorflow libcudnn.so.8 '[.expected_package, .via] | join(" ")')" \
    "nvidia-cudnn-cu12 rpath" "TensorFlow's cuDNN 8 from the installed nvidia-cudnn-cu12"
is "$(fw_need $T pytorch libcudnn.so.9 .expected_package)" nvidia-cudnn-cu12 \
    "torch's cuDNN 9 from nvidia-cudnn-cu12"
if [ "$archs" = yes ]; then
	is "$(fw_jq $T pytorch '.archs.sass | join(" ")')" "sm_80 sm_90" "torch carries sm_90 kernels"
	is "$(fw_jq $F tensorflow .archs.source)" "$S/tensorflow/python/_pywrap_tensorflow_internal.so" \
	    "TensorFlow's GPU code is read from its biggest library"
	is "$(jq -r '.facts.gpus[0].compute_capability' "$FX_OUT")" 9.0 \
	    "the GPU is an H100 (sm_90)"
	is "$(jq -r '[.findings[] | select(.severity == "error") | .code] | join(" ")' "$FX_OUT")" "" \
	    "no error finding"
else
	skip "torch carries sm_90 kernels" "no $FATBIN_LIST or $OBJCOPY"
	skip "TensorFlow's GPU code is read from its biggest library" "no $FATBIN_LIST or $OBJCOPY"
	skip "the GPU is an H100 (sm_90)" "no fatbinary could be made for libtorch_cuda.so"
	skip "no error finding" "no fatbinary could be made for libtorch_cuda.so"
fi

done_testing
