#!/bin/sh
# JAX, ONNX Runtime, PaddlePaddle, MXNet and Numba: recognised with their
# GPU and CPU builds, and what each GPU build needs from the loader.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

# The CPU builds, side by side in one venv.
fx_new
E=/home/u/venvs/cpu
fx_venv_env $E 3.10
S=$FX_SITE
fx_jax $S 0.4.30
fx_onnxruntime $S onnxruntime 1.17.0
fx_paddle $S paddlepaddle 2.6.0
fx_mxnet $S mxnet 1.9.1
fx_numba $S numba 0.59.0
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok
for fw in jax onnxruntime paddlepaddle mxnet; do
	is "$(fw_jq $E $fw '[.gpu, (.needs | length), .loads, .gpu_ready] | join(" ")')" \
	    "no 0 true false" "$fw: the CPU build is gpu no, with no needs"
done
like "$(fw_jq $E jax .gpu_why)" "without a jax-cuda plugin" "jaxlib alone: why"
like "$(fw_jq $E paddlepaddle .gpu_why)" "paddle/version/__init__.py: cuda_version = 'False'" \
    "paddlepaddle: its version file says so"
is "$(fw_jq $E numba '[.gpu, (.needs | length)] | join(" ")')" "unknown 0" \
    "numba without any CUDA package: unknown (it uses what it finds at run time)"

# The GPU builds.
fx_new
fx_toolkit 12.4.1
E=/home/u/venvs/gpu
fx_venv_env $E 3.11
S=$FX_SITE
fx_nvidia_wheel $S nvidia-cuda-runtime-cu12 12.4.127
fx_jax $S 0.4.30 jax-cuda12-plugin -r '$ORIGIN/../../nvidia/cuda_runtime/lib'
fx_onnxruntime $S onnxruntime-gpu 1.17.0 libcudart.so.11.0 libcublas.so.11 libcudnn.so.8
fx_paddle $S paddlepaddle-gpu 2.5.1.post117 11.7 8.4.1
fx_mxnet $S mxnet-cu112 1.9.1 libcudart.so.11.0
fx_numba $S numba-cuda 0.4.0
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_ran_ok

is "$(fw_jq $E jax '[.package, .variant, .gpu, .cuda] | join(" ")')" \
    "jax-cuda12-plugin cuda12 yes 12.3" "JAX with jax-cuda12-plugin: the cuda12 build of 0.4.30"
is "$(fw_jq $E jax .dir)" "$S/jax_plugins/xla_cuda12" "... its plugin directory"
is "$(fw_need $E jax libcudart.so.12 '[.how, .from, .expected_package, .via, .shadowed_via] | join(" ")')" \
    "dlopen wheel nvidia-cuda-runtime-cu12 ld_library_path ld_library_path" \
    "the plugin's RUNPATH expects the wheel; LD_LIBRARY_PATH's CUDA 12.4 shadows it"
is "$(fw_need $E jax libcudart.so.12 .requester)" \
    "$S/jax_plugins/xla_cuda12/xla_cuda_plugin.so" "... dlopen()ed from xla_cuda_plugin.so"
is "$(fw_need $E jax libcudnn.so.8 '.resolved | tostring')" null "cuDNN is not there"

is "$(fw_jq $E onnxruntime '[.package, .gpu, .cuda, .cudnn] | join(" ")')" \
    "onnxruntime-gpu yes 11.8 8.2.4" \
    "onnxruntime-gpu 1.17: the CUDA 11 build (its provider links libcudart.so.11.0)"
like "$(fw_jq $E onnxruntime .cuda_source)" "libonnxruntime_providers_cuda.so needs libcudart.so.11.0" \
    "... the provider's DT_NEEDED is the source"
is "$(fw_jq $E onnxruntime '[.needs[] | .soname + ":" + .how] | join(" ")')" \
    "libcudart.so.11.0:linked libcublas.so.11:linked libcudnn.so.8:linked" \
    "its needs: what libonnxruntime_providers_cuda.so links"
is "$(fw_jq $E onnxruntime .loads)" false "... none of them here"

is "$(fw_jq $E paddlepaddle '[.package, .variant, .gpu, .cuda, .cudnn] | join(" ")')" \
    "paddlepaddle-gpu post117 yes 11.7 8.4.1" "paddlepaddle-gpu 2.5.1.post117: CUDA 11.7, cuDNN 8.4.1"
is "$(fw_jq $E paddlepaddle .cuda_source)" "$S/paddle/version/__init__.py" \
    "... from paddle/version"
is "$(fw_jq $E paddlepaddle '[.needs[] | .soname + ":" + .how] | join(" ")')" \
    "libcudart.so.11.0:dlopen libcublas.so.11:dlopen libcublasLt.so.11:dlopen libcudnn.so.8:dlopen" \
    "it dlopen()s the CUDA 11.7 and cuDNN 8 libraries"
is "$(fw_need $E paddlepaddle libcudnn.so.8 .requester)" "$S/paddle/base/libpaddle.so" \
    "... from libpaddle.so"

is "$(fw_jq $E mxnet '[.package, .variant, .gpu, .cuda] | join(" ")')" \
    "mxnet-cu112 cu112 yes 11.2" "mxnet-cu112: CUDA 11.2"
is "$(fw_need $E mxnet libcudart.so.11.0 '[.how, .requester] | join(" ")')" \
    "linked $S/mxnet/libmxnet.so" "libmxnet.so links libcudart.so.11.0"

is "$(fw_jq $E numba '[.package, .gpu] | join(" ")')" "numba-cuda yes" "numba-cuda: a GPU target"
is "$(fw_jq $E numba '[.needs[] | .soname + ":" + .how] | join(" ")')" "libcuda.so.1:dlopen" \
    "... which needs the driver's libcuda.so.1"

# Old jaxlib CUDA wheels carry the build in the version.
fx_new
E=/home/u/venvs/oldjax
fx_venv_env $E 3.9
S=$FX_SITE
fx_jax $S 0.4.7+cuda11.cudnn86
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E jax '[.variant, .gpu, .cuda, .cudnn] | join(" ")')" \
    "cuda11.cudnn86 yes 11 8.6" "jaxlib 0.4.7+cuda11.cudnn86: CUDA 11, cuDNN 8.6"
is "$(fw_jq $E jax '[.needs[].soname] | join(" ")')" \
    "libcudart.so.11.0 libcublas.so.11 libcublasLt.so.11 libcudnn.so.8" \
    "... it dlopen()s CUDA 11's runtime, cuBLAS and cuDNN 8"

# Numba with conda's cudatoolkit.
fx_new
E=/opt/conda/envs/nb
fx_condaenv $E 3.10
S=$FX_SITE
fx_numba $S numba 0.58.1
fx_conda_meta $E cudatoolkit 11.8.0 h4ba93d1_13
fx_doctor_env CONDA_PREFIX=$E
is "$(fw_jq $E numba '[.gpu, .cuda] | join(" ")')" "yes 11.8" \
    "numba with cudatoolkit 11.8: numba.cuda uses it"

done_testing
