#!/bin/sh
# TensorFlow, which links no CUDA library and dlopen()s each one by name
# from libtensorflow_framework.so.2: its needs are the sonames of its
# matrix build, resolved as that dlopen() in the environment's Python
# process. A conda Python carries DT_RPATH $ORIGIN/../lib, which serves
# TensorFlow's libraries (they have no RUNPATH) before LD_LIBRARY_PATH.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

# conda_tf [norpath]: TensorFlow 2.10 in a conda env with cudatoolkit
# 11.2 and cudnn 8.1 in its lib/, and a system CUDA 12.4.
conda_tf() {
	fx_new
	fx_toolkit 12.4.1
	E=/home/u/miniconda3/envs/tf
	fx_condaenv $E 3.10 "${1:-}"
	S=$FX_SITE
	fx_conda_meta $E cudatoolkit 11.2.2 hbe64b41_10
	fx_conda_meta $E cudnn 8.1.0.77 h90431f1_0
	fx_cudart $E/lib 11.2.152
	fx_so $E/lib/libcublas.so.11.4.1.1043 libcublas.so.11
	fx_link libcublas.so.11.4.1.1043 $E/lib/libcublas.so.11
	fx_so $E/lib/libcublasLt.so.11.4.1.1043 libcublasLt.so.11
	fx_link libcublasLt.so.11.4.1.1043 $E/lib/libcublasLt.so.11
	fx_cudnn $E/lib 8.1.0
	fx_tensorflow $S tensorflow 2.10.0 11.2 8
}

conda_tf
fx_doctor_env CONDA_PREFIX=$E LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_ran_ok
is "$(fw_jq $E tensorflow '[.package, .version, .gpu, .cuda] | join(" ")')" \
    "tensorflow 2.10.0 yes 11.2" "TensorFlow 2.10: a CUDA 11.2 build"
like "$(fw_jq $E tensorflow .gpu_why)" "build_info.py: is_cuda_build True$" \
    "build_info.py says it is a CUDA build"
is "$(fw_jq $E tensorflow .cuda_source)" "$S/tensorflow/python/platform/build_info.py" \
    "... and which CUDA"
is "$(fw_jq $E tensorflow .cudnn)" 8.1 "cuDNN 8.1: build_info.py's '8', made precise by the matrix"
like "$(fw_jq $E tensorflow .cudnn_source)" "build_info.py; the matrix: tensorflow 2.5-2.11" \
    "... both named"
is "$(fw_jq $E tensorflow '[.needs[].soname] | join(" ")')" \
    "libcudart.so.11.0 libcublas.so.11 libcublasLt.so.11 libcudnn.so.8" \
    "needs: the 2.5-2.11 build's sonames"
is "$(fw_jq $E tensorflow '[.needs[].how] | unique | join(" ")')" dlopen "... all dlopen()ed"
is "$(fw_need $E tensorflow libcudart.so.11.0 .requester)" \
    "$S/tensorflow/libtensorflow_framework.so.2" "... by libtensorflow_framework.so.2"
is "$(fw_jq $E tensorflow '[.needs[] | .via] | unique | join(" ")')" rpath \
    "with python's RPATH \$ORIGIN/../lib, each comes through the RPATH"
is "$(fw_jq $E tensorflow '[.needs[] | .target | startswith("'$E'/lib/")] | all')" true \
    "... from the env's lib/, before LD_LIBRARY_PATH's CUDA 12"
is "$(fw_need $E tensorflow libcudnn.so.8 '[.from, .expected_dir] | join(" ")')" \
    "conda $E/lib" "expected from the conda env"
is "$(fw_jq $E tensorflow '[.loads, .gpu_ready] | join(" ")')" "true true" \
    "it loads and is GPU-ready"

# The same env with a Python that has no RPATH: LD_LIBRARY_PATH holds
# only CUDA 12, so no CUDA 11 library is found at all.
conda_tf norpath
fx_doctor_env CONDA_PREFIX=$E LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_ran_ok
is "$(fw_need $E tensorflow libcudart.so.11.0 '.resolved | tostring')" null \
    "without the RPATH libcudart.so.11.0 is not found"
like "$(fw_need $E tensorflow libcudart.so.11.0 '[.other_copies[] | if type == "object" then .path else . end] | join(" ")')" \
    "$E/lib/libcudart.so.11.0" "... though the env's lib/ holds it"
is "$(fw_need $E tensorflow libcudart.so.11.0 .from)" conda "... where it is expected"
is "$(fw_jq $E tensorflow .loads)" false "TensorFlow would fall back to the CPU"

# ... and with a system CUDA 11.8 on LD_LIBRARY_PATH, that one wins over
# the env's own copy: shadowed.
fx_toolkit 11.8.0
fx_doctor_env CONDA_PREFIX=$E LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64
is "$(fw_need $E tensorflow libcudart.so.11.0 '[.resolved, .via, .shadowed_via] | join(" ")')" \
    "/usr/local/cuda-11.8/lib64/libcudart.so.11.0 ld_library_path ld_library_path" \
    "a CUDA 11.8 on LD_LIBRARY_PATH shadows the env's libcudart.so.11.0"

# A TensorFlow that needs cuDNN 8.1 and meets cuDNN 8.0 first.
fx_new
fx_toolkit 11.2.2
E=/home/u/venvs/tf
fx_venv_env $E 3.9
S=$FX_SITE
fx_cudnn /opt/cudnn-8.0/lib64 8.0.5
fx_cudnn /usr/local/cuda-11.2/lib64 8.1.1
fx_tensorflow $S tensorflow-gpu 2.6.0 11.2 8
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/opt/cudnn-8.0/lib64:/usr/local/cuda-11.2/lib64
fx_ran_ok
is "$(fw_jq $E tensorflow '[.package, .cudnn] | join(" ")')" "tensorflow-gpu 8.1" \
    "tensorflow-gpu 2.6 needs cuDNN 8.1"
is "$(fw_need $E tensorflow libcudnn.so.8 .resolved)" /opt/cudnn-8.0/lib64/libcudnn.so.8 \
    "libcudnn.so.8 resolves in the earlier directory"
is "$(fw_need $E tensorflow libcudnn.so.8 .target)" /opt/cudnn-8.0/lib64/libcudnn.so.8.0.5 \
    "... to cuDNN 8.0.5"
like "$(fw_need $E tensorflow libcudnn.so.8 '[.other_copies[] | if type == "object" then .path else . end] | join(" ")')" \
    "/usr/local/cuda-11.2/lib64/libcudnn.so.8" "the 8.1 copy is among the other copies"
is "$(fw_need $E tensorflow libcudnn.so.8 '[.from, (.shadowed_via | tostring)] | join(" ")')" \
    "any null" "nothing names where it is expected, so nothing is shadowed"

# tensorflow[and-cuda]: the nvidia-*-cu12 wheels are where TF expects
# its libraries, and its RPATH points into them.
fx_new
fx_toolkit 12.4.1
E=/home/u/venvs/tf215
fx_venv_env $E 3.11
S=$FX_SITE
for w in nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cudnn-cu12; do
	fx_nvidia_wheel $S $w 12.2.140
done
fx_tensorflow $S tensorflow 2.15.0 12.2 8 \
    -R '$ORIGIN/../nvidia/cublas/lib:$ORIGIN/../nvidia/cuda_runtime/lib'
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
fx_ran_ok
is "$(fw_need $E tensorflow libcudart.so.12 '[.from, .expected_package, .via] | join(" ")')" \
    "wheel nvidia-cuda-runtime-cu12 rpath" \
    "libcudart.so.12 from the wheel, through TensorFlow's RPATH, before LD_LIBRARY_PATH"
is "$(fw_need $E tensorflow libcudnn.so.8 '[.from, .expected_package, (.resolved | tostring)] | join(" ")')" \
    "any  null" "cuDNN 8 has no wheel here: nvidia-cudnn-cu12 provides libcudnn.so.9"
is "$(fw_need $E tensorflow libcublas.so.12 '[.from, .expected_dir] | join(" ")')" \
    "wheel $S/nvidia/cublas/lib" "libcublas.so.12: the wheel's lib dir"

# tensorflow-cpu, and a TensorFlow whose build_info.py says no CUDA.
fx_new
E=/home/u/venvs/tfcpu
fx_venv_env $E 3.11
S=$FX_SITE
fx_tensorflow $S tensorflow-cpu 2.15.0
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E tensorflow '[.package, .gpu, (.needs | length), .loads] | join(" ")')" \
    "tensorflow-cpu no 0 true" "tensorflow-cpu: gpu no, no needs"
like "$(fw_jq $E tensorflow .gpu_why)" "is_cuda_build False" "... build_info.py says so"

# build_info.py garbage: the package name and version decide.
fx_new
E=/home/u/venvs/tfbad
fx_venv_env $E 3.11
S=$FX_SITE
fx_tensorflow $S tensorflow 2.11.0 11.2 8
printf "build_info = {'cuda_version': '11.2\\\\'; rm -rf ~', 'is_cuda_build': Tru\n\0\0" \
    > "$FX$S/tensorflow/python/platform/build_info.py"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok "a garbage build_info.py: no crash"
is "$(fw_jq $E tensorflow '[.gpu, .cuda] | join(" ")')" "yes 11.2" \
    "TensorFlow 2.11 on Linux: a CUDA build, CUDA 11.2 from the matrix"
like "$(fw_jq $E tensorflow .cuda_source)" "^the matrix: " "... which says so"

done_testing
