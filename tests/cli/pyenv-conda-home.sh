#!/bin/sh
# conda environments as full CUDA homes (issue 19, point 4): the CUDA
# libraries an env's lib/ holds are listed under it with the conda package
# of each; conda build strings and depends pins are read as the build's
# CUDA (jaxlib cuda120py310…, pytorch's cuda12.1_cudnn8.9.2, onnxruntime's
# _cuda, cupy-core's "cuda-version >=12.0,<13"); bases under anaconda2,
# miniconda2 and /opt/miniforge3 are found; and pip's torch inside conda
# loads its own nvidia-* wheels by RUNPATH, never conda's lib/ (python's
# RPATH does not apply to a library with a RUNPATH). Real ELF files, conda
# records as conda writes them (keys sorted, depends before files).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"

H=/home/u

# --- A PyTorch-channel env under miniconda2: its lib/ is a CUDA home.
P=$H/miniconda2/envs/pt
fx_new
fx_healthy_gpu
fx_conda_base $H/miniconda2 3.11
fx_condaenv $P 3.10
fx_conda_pkg $P pytorch 2.1.0 py3.10_cuda12.1_cudnn8.9.2_0 pytorch \
    "cuda-version >=12.1,<12.2" "pytorch-cuda >=12.1,<12.2"
fx_conda_pkg $P cuda-cudart 12.1.105 0 nvidia
fx_conda_pkg $P libcublas 12.1.0.26 0 nvidia
fx_conda_pkg $P cudnn 8.9.2.26 cuda12_0 conda-forge "cuda-version >=12.0,<13.0a0"
fx_cudart $P/lib 12.1.105
for l in libcublas libcublasLt; do
	fx_so $P/lib/$l.so.12.1.0.26 $l.so.12
	fx_link $l.so.12.1.0.26 $P/lib/$l.so.12
done
fx_cudnn $P/lib 8.9.2 split
fx_so $P/lib/libnvJitLink.so.12.1.105 libnvJitLink.so.12
fx_link libnvJitLink.so.12.1.105 $P/lib/libnvJitLink.so.12
fx_torch "$FX_SITE" 2.1.0 12.1 libcudart.so.12 libcudnn.so.8 libcublas.so.12
fx_doctor_env HOME=$H CONDA_PREFIX=$P PATH=$P/bin
fx_ran_ok
is "$(fx_py_env $H/miniconda2 .kind)" conda "a base under ~/miniconda2 is found"
is "$(fx_py_env $P '.found_via | index("conda-envs") != null')" true \
    "... and the env under its envs/"
is "$(fx_py_env $P '[.cuda_libs[].name] | join(" ")')" \
    "libcudart libcudnn libcublas libcublasLt libnvJitLink" \
    "the env lists the CUDA libraries its lib/ holds"
is "$(fx_py_env $P '.cuda_libs[] | select(.name == "libcudnn") | [.soname, .version, .package, .package_version] | join(" ")')" \
    "libcudnn.so.8 8.9.2 cudnn 8.9.2.26" \
    "cuDNN: its soname, the version its file names, and conda's cudnn package"
is "$(fx_py_env $P '.cuda_libs[] | select(.name == "libcudnn") | .path')" \
    "$P/lib/libcudnn.so.8.9.2" "... the real file under the env"
is "$(fx_py_env $P '.cuda_libs[] | select(.name == "libcudart") | [.version, .package] | join(" ")')" \
    "12.1.105 cuda-cudart" "cudart from cuda-cudart"
is "$(fx_py_env $P '.cuda_libs[] | select(.name == "libcublasLt") | .package')" libcublas \
    "cuBLASLt from libcublas"
is "$(fx_py_env $P '.cuda_libs[] | select(.name == "libnvJitLink") | .package')" null \
    "nvJitLink with no record of its package: null, not a guess"
is "$(fx_py_env $H/miniconda2 '.cuda_libs | length')" 0 "the base holds none"
is "$(fw_jq $P pytorch .cudnn_source | cut -d';' -f1)" \
    "conda build string py3.10_cuda12.1_cudnn8.9.2_0" \
    "torch's dist-info with pytorch's conda record: cuDNN from its build string"
is "$(fw_need $P pytorch libcudnn.so.8 '[.from, .via, .target] | join(" ")')" \
    "conda rpath $P/lib/libcudnn.so.8.9.2" \
    "conda's torch loads conda's cuDNN through python's RPATH"
out=$(env -i LC_ALL=C HOME=$H CONDA_PREFIX=$P PATH=$P/bin "$CUDAWIZ" doctor \
    --no-color --root "$FX" --matrix "$FX_MATRIX" 2> "$FX.stderr")
section=$(printf '%s\n' "$out" | sed -n '/^Python environments$/,/^$/p')
like "$section" "^  conda pt  $P  active" "the text report's env line"
like "$section" '^      CUDA libraries:  cudart 12\.1\.105 \(cuda-cudart 12\.1\.105\)$' \
    "... and under it the env's CUDA libraries, with their packages"
like "$section" '^        cudnn 8\.9\.2 \(cudnn 8\.9\.2\.26\)' "... cuDNN among them"
like "$section" 'nvJitLink 12\.1\.105 \(no conda package\)' "... nvJitLink without one"
wide=$(printf '%s\n' "$section" | grep -vF "$FX_TMP" | awk 'length($0) > 80')
is "$wide" "" "the section fits 80 columns"

# --- conda-forge under /opt/miniforge3: jaxlib, cupy and onnxruntime
# whose files do not say their CUDA; the build strings and depends do.
C=/opt/miniforge3/envs/cf
fx_new
fx_healthy_gpu
fx_conda_base /opt/miniforge3 3.12
fx_condaenv $C 3.12
fx_conda_pkg $C jaxlib 0.4.23 cuda120py312h6a2e3e1_200 conda-forge \
    "cuda-version >=12.0,<13" "cudnn >=8.8.0.121,<9.0a0"
fx_jax "$FX_SITE" 0.4.23
fx_conda_pkg $C cupy 13.0.0 py312h7cdbb2b_3 conda-forge "cupy-core 13.0.0 py312h7cdbb2b_3"
fx_conda_pkg $C cupy-core 13.0.0 py312h7cdbb2b_3 conda-forge "cuda-version >=12.0,<13"
fx_cupy "$FX_SITE" cupy 13.0.0
fx_conda_pkg $C onnxruntime 1.17.1 py312h2a9ebd7_200_cuda conda-forge \
    "cuda-version >=12.0,<13" "cudnn >=8.9.7.29,<9.0a0"
fx_onnxruntime "$FX_SITE" onnxruntime 1.17.1
fx_cudart $C/lib 12.0.107
fx_conda_pkg $C cuda-cudart 12.0.107 hd3aeb46_8 conda-forge
fx_doctor_env HOME=/root CONDA_PREFIX=$C PATH=$C/bin
fx_ran_ok
is "$(fx_py_env /opt/miniforge3 .kind)" conda "a base under /opt/miniforge3 is found"
is "$(fw_jq $C jax '[.gpu, .cuda, .variant] | join(" ")')" "yes 12.0 cuda12" \
    "jaxlib cuda120py312…: a CUDA 12.0 build (variant cuda12)"
is "$(fw_jq $C jax .cuda_source)" "conda build string cuda120py312h6a2e3e1_200" \
    "... from its conda build string"
is "$(fw_jq $C jax '[.cudnn, .cudnn_source] | join(" | ")')" \
    "8.8.0.121 | conda-meta depends: cudnn >=8.8.0.121,<9.0a0" \
    "... its cuDNN floor from the record's depends"
lacks_code FRAMEWORK_CPU_ONLY "conda-forge's CUDA jaxlib is no CPU-only build"
is "$(fw_jq $C cupy '[.cuda, .cuda_source] | join(" | ")')" \
    "12.0 | conda-meta depends: cuda-version >=12.0,<13" \
    "cupy: CUDA 12 from cupy-core's depends"
is "$(fw_jq $C onnxruntime '[.gpu, .gpu_why] | join(" | ")')" \
    "yes | conda build py312h2a9ebd7_200_cuda is a GPU build" \
    "onnxruntime's _cuda build is the GPU build, though named onnxruntime"
is "$(fw_jq $C onnxruntime '[.cuda, .cudnn] | join(" ")')" "12.0 8.9.7.29" \
    "... CUDA and cuDNN from its depends"
is "$(fx_py_env $C '[.packages[] | select(.name == "jaxlib") | .requires[]] | join(", ")')" \
    "cuda-version >=12.0,<13, cudnn >=8.8.0.121,<9.0a0" \
    "the record's CUDA pins are kept (not libgcc-ng)"

# --- pip's torch inside a conda env under anaconda2: torch's RUNPATH
# wins, so the nvidia-* wheels serve it, not conda's lib/.
E=$H/anaconda2/envs/pip
fx_new
fx_healthy_gpu
fx_conda_base $H/anaconda2 3.11
fx_condaenv $E 3.11
fx_conda_pkg $E cudnn 9.1.1.17 cuda12_0 conda-forge
fx_cudnn $E/lib 9.1.1
S=$FX_SITE
fx_nvidia_wheel "$S" nvidia-cuda-runtime-cu12 12.1.105
fx_torch "$S" 2.4.0 12.1 \
    -r '$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cuda_runtime/lib' \
    libcudart.so.12 libcudnn.so.9
fx_doctor_env HOME=$H CONDA_PREFIX=$E PATH=$E/bin
fx_ran_ok
is "$(fx_py_env $H/anaconda2 .kind)" conda "a base under ~/anaconda2 is found"
is "$(fw_need $E pytorch libcudart.so.12 '[.from, .via] | join(" ")')" "wheel runpath" \
    "pip's torch: cudart from its wheel by RUNPATH"
is "$(fw_need $E pytorch libcudnn.so.9 '.resolved')" null \
    "no cuDNN wheel: conda's libcudnn.so.9 is not reached (python's RPATH does not apply)"
has_code SONAME_NOT_FOUND "... and that is an error"
like "$(jq -r '.findings[] | select(.code == "SONAME_NOT_FOUND") | .evidence[]' "$FX_OUT")" \
    "a copy exists where this search does not look: $E/lib/libcudnn.so.9" \
    "... which names conda's copy"
fx_nvidia_wheel "$S" nvidia-cudnn-cu12 9.1.0.70
fx_doctor_env HOME=$H CONDA_PREFIX=$E PATH=$E/bin
is "$(fw_need $E pytorch libcudnn.so.9 '[.from, .via] | join(" ")')" "wheel runpath" \
    "with the wheel: cuDNN from it, conda's copy in lib/ unused"
has_code CONDA_CUDA_CONFLICT "two cuDNN installs in one env are a finding"

done_testing
