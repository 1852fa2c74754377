#!/bin/sh
# A conda env that mixes conda's cudatoolkit 11.8 (in its lib/) with
# nvidia-*-cu12 pip wheels: torch (cu121 wheels, RUNPATH into them) and
# TensorFlow 2.12 (CUDA 11.8, dlopen()ing from the env's lib/) live side
# by side. Each framework's needs come from where it expects them:
# torch's RUNPATH keeps conda Python's RPATH out of its search, TF has
# no RUNPATH and gets the RPATH. With another cuDNN 8 on LD_LIBRARY_PATH
# the RPATH still wins.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

RUNPATH='$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'

fx_new
E=/opt/conda/envs/mix
fx_condaenv $E 3.10
S=$FX_SITE
fx_conda_meta $E cudatoolkit 11.8.0 h4ba93d1_13
fx_conda_meta $E cudnn 8.9.2.26 cuda11_0
fx_cudart $E/lib 11.8.89
fx_cudnn $E/lib 8.9.2
fx_so $E/lib/libcublas.so.11.11.3.6 libcublas.so.11
fx_link libcublas.so.11.11.3.6 $E/lib/libcublas.so.11
for w in nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cudnn-cu12; do
	fx_nvidia_wheel $S $w 12.1.105
done
fx_torch $S 2.4.0+cu121 12.1 -r "$RUNPATH" libcudart.so.12 libcublas.so.12 libcudnn.so.9
fx_tensorflow $S tensorflow 2.12.0 11.8 8
fx_cudnn /opt/cudnn-8.0/lib64 8.0.5
fx_doctor_env CONDA_PREFIX=$E LD_LIBRARY_PATH=/opt/cudnn-8.0/lib64
fx_ran_ok

is "$(fw_jq $E pytorch '[.needs[] | .soname + ":" + .from + ":" + .via] | join(" ")')" \
    "libcudart.so.12:wheel:runpath libcublas.so.12:wheel:runpath libcudnn.so.9:wheel:runpath" \
    "torch: every CUDA 12 library from its wheel, through its RUNPATH"
is "$(fw_jq $E pytorch '[.needs[].expected_package] | join(" ")')" \
    "nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cudnn-cu12" "... each wheel named"
is "$(fw_jq $E pytorch .gpu_ready)" true "torch is GPU-ready"

is "$(fw_jq $E tensorflow '[.needs[] | .soname + ":" + .from + ":" + .via] | join(" ")')" \
    "libcudart.so.11.0:conda:rpath libcublas.so.11:conda:rpath libcudnn.so.8:conda:rpath" \
    "TensorFlow: every CUDA 11 library from the env's lib/, through python's RPATH"
is "$(fw_need $E tensorflow libcudnn.so.8 .target)" "$E/lib/libcudnn.so.8.9.2" \
    "... cuDNN 8.9 from the env, not LD_LIBRARY_PATH's 8.0"
is "$(fw_need $E tensorflow libcudnn.so.8 '.shadowed_via | tostring')" null "... unshadowed"
is "$(fw_jq $E tensorflow '[.cuda, .cudnn, .gpu_ready] | join(" ")')" "11.8 8.6 true" \
    "TensorFlow 2.12: CUDA 11.8, cuDNN 8.6, GPU-ready"

done_testing
