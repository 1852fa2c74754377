#!/bin/sh
# PyTorch in a Python environment, as doctor --json reports it: the build
# (torch/version.py first, the version's +cuXXX next, the matrix last),
# the CUDA libraries libtorch_cuda.so links, where each one loads from in
# the environment's Python process and where torch expects it (the
# nvidia-* wheels its RUNPATH points into), and what shadows it. Every
# library is a real ELF file built here.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

RUNPATH='$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'

# The cu118 wheels: torch and the nvidia-*-cu11 wheels it depends on.
fx_new
fx_toolkit 11.8.0
E=/home/u/venvs/torch
fx_venv_env $E 3.10
S=$FX_SITE
for w in nvidia-cuda-runtime-cu11 nvidia-cublas-cu11 nvidia-cudnn-cu11; do
	fx_nvidia_wheel $S $w 11.8.89
done
fx_torch $S 2.1.0+cu118 11.8 -r "$RUNPATH" \
    libcudart.so.11.0 libcublas.so.11 libcudnn.so.8 libc10.so
fx_lib $S/torch/lib/libc10.so libc10.so

# A system toolkit on LD_LIBRARY_PATH comes before torch's RUNPATH.
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64
fx_ran_ok
is "$(fw_jq $E pytorch '[.package, .version, .variant, .gpu] | join(" ")')" \
    "torch 2.1.0+cu118 cu118 yes" "torch 2.1.0+cu118: a CUDA build, variant cu118"
is "$(fw_jq $E pytorch .dir)" "$S/torch" "... its directory"
is "$(fw_jq $E pytorch .cuda)" 11.8 "... built with CUDA 11.8"
is "$(fw_jq $E pytorch .cuda_source)" "$S/torch/version.py" \
    "... as torch/version.py says"
like "$(fw_jq $E pytorch .gpu_why)" "torch/version.py: cuda = '11.8'$" \
    "gpu_why quotes the file"
is "$(fw_jq $E pytorch .cudnn)" 8.7.0.84 "cuDNN 8.7.0.84, from the matrix"
like "$(fw_jq $E pytorch .cudnn_source)" '^the matrix: pytorch ' "... and says so"
is "$(fw_jq $E pytorch '[.needs[].soname] | sort | join(" ")')" \
    "libcublas.so.11 libcudart.so.11.0 libcudnn.so.8" \
    "its needs are the CUDA libraries libtorch_cuda.so links, not libc10"
is "$(fw_need $E pytorch libcudart.so.11.0 '[.how, .from, .expected_package] | join(" ")')" \
    "linked wheel nvidia-cuda-runtime-cu11" \
    "libcudart.so.11.0: linked, expected from nvidia-cuda-runtime-cu11"
is "$(fw_need $E pytorch libcudart.so.11.0 .expected_dir)" \
    "$S/nvidia/cuda_runtime/lib" "... in the wheel's lib dir"
is "$(fw_need $E pytorch libcudart.so.11.0 .requester)" \
    "$S/torch/lib/libtorch_cuda.so" "... needed by libtorch_cuda.so"
is "$(fw_need $E pytorch libcudart.so.11.0 .resolved)" \
    /usr/local/cuda-11.8/lib64/libcudart.so.11.0 \
    "... but the loader takes the toolkit's copy"
is "$(fw_need $E pytorch libcudart.so.11.0 .via)" ld_library_path "... through LD_LIBRARY_PATH"
is "$(fw_need $E pytorch libcudart.so.11.0 .shadowed_via)" ld_library_path \
    "shadowed_via: ld_library_path"
like "$(fw_need $E pytorch libcudart.so.11.0 '[.other_copies[] | if type == "object" then .path else . end] | join(" ")')" \
    "$S/nvidia/cuda_runtime/lib/libcudart.so.11.0" "the wheel's copy is among the other copies"
is "$(fw_need $E pytorch libcublas.so.11 '[.via, .shadowed_via] | join(" ")')" \
    "runpath " "libcublas.so.11 (not in the toolkit) comes through the RUNPATH, unshadowed"
is "$(fw_need $E pytorch libcublas.so.11 .target)" "$S/nvidia/cublas/lib/libcublas.so.11" \
    "... from the wheel"
is "$(fw_jq $E pytorch '[.loads, .gpu_ready] | join(" ")')" "true false" \
    "it loads, but is not GPU-ready while shadowed"

# Without LD_LIBRARY_PATH every need loads from the wheel torch expects.
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok
is "$(fw_jq $E pytorch '[.needs[] | select(.resolved == null or .shadowed_via != null)] | length')" 0 \
    "unshadowed: every need resolves"
is "$(fw_jq $E pytorch '[.needs[] | select(.via != "runpath")] | length')" 0 \
    "... through torch's RUNPATH"
is "$(fw_jq $E pytorch '[.needs[] | select((.expected_dir + "/") as $d | .target | startswith($d) | not)] | length')" 0 \
    "... each from its expected directory"
is "$(fw_jq $E pytorch .gpu_ready)" true "GPU-ready"

# A plain `pip install torch` (no +cuXXX): version.py names the CUDA,
# and the matrix build of that CUDA the cuDNN.
fx_new
E=/home/u/venvs/plain
fx_venv_env $E 3.11
S=$FX_SITE
fx_torch $S 2.3.1 12.1 libcudart.so.12
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E pytorch '[.gpu, .cuda, (.variant | tostring), .cudnn] | join(" ")')" \
    "yes 12.1 null 8.9.2.26" "torch 2.3.1 with cuda '12.1': the cu121 build's cuDNN"
is "$(fw_need $E pytorch libcudart.so.12 '[.from, (.resolved | tostring), .error] | join("|")')" \
    "any|null|libcudart.so.12: cannot open shared object file: No such file or directory" \
    "no wheel, no RUNPATH: expected anywhere, and not found"
is "$(fw_jq $E pytorch .loads)" false "it does not load"

# CPU builds: version.py says cuda = None, +cpu says so too.
fx_new
E=/home/u/venvs/cpu
fx_venv_env $E 3.11
S=$FX_SITE
fx_torch $S 2.2.0+cpu None
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E pytorch '[.gpu, .variant, (.needs | length), .loads, .gpu_ready] | join(" ")')" \
    "no cpu 0 true false" "torch +cpu: gpu no, no needs, loads, not GPU-ready"
like "$(fw_jq $E pytorch .gpu_why)" "torch/version.py: cuda = None$" "... as version.py says"
is "$(fw_jq $E pytorch .archs.read)" false "no GPU code is looked for"

# A version.py that is garbage: the version string decides.
head -c 3000 /dev/urandom > "$FX$S/torch/version.py"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok "a garbage version.py: no crash"
is "$(fw_jq $E pytorch .gpu)" no "... +cpu still says no GPU"
like "$(fw_jq $E pytorch .gpu_why)" "the version 2.2.0\+cpu is a CPU build" "... and says so"

# A version.py far larger than any build writes is not read.
head -c 600000 /dev/zero | tr '\0' '#' > "$FX$S/torch/version.py"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok "a huge version.py: no crash"
like "$(jq -r '.facts.notes[]? | tostring' "$FX_OUT")" "torch/version.py" \
    "... a note names it"

# A damaged libtorch_cuda.so: a need of its own that does not load.
fx_new
E=/home/u/venvs/broken
fx_venv_env $E 3.10
S=$FX_SITE
fx_torch $S 2.1.0+cu121 12.1 libcudart.so.12
printf 'garbage\0\0\0' > "$FX$S/torch/lib/libtorch_cuda.so"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok "a damaged libtorch_cuda.so: no crash"
is "$(fw_jq $E pytorch .gpu)" yes "still a CUDA build"
is "$(fw_need $E pytorch libtorch_cuda.so '[.from, .expected_dir, (.resolved | tostring)] | join(" ")')" \
    "bundled $S/torch/lib null" "libtorch_cuda.so itself is a need that does not resolve"
like "$(fw_need $E pytorch libtorch_cuda.so .error)" "libtorch_cuda.so: file too short" \
    "... with the loader's reason"
is "$(fw_jq $E pytorch .loads)" false "torch does not load"
is "$(fw_jq $E pytorch .archs.read)" false "its GPU code cannot be listed"
like "$(fw_jq $E pytorch .archs.error)" "libtorch_cuda.so" "... archs.error says why"

# Metadata without the package directory.
rm -rf "${FX:?}$S/torch"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok "torch's directory is missing: no crash"
is "$(fw_jq $E pytorch '[.gpu, .cuda] | join(" ")')" "yes 12.1" \
    "the version still says CUDA 12.1"
like "$(fw_need $E pytorch libtorch_cuda.so .error)" "No such file or directory" \
    "libtorch_cuda.so is a need that is not there"
like "$(jq -r '.facts.notes[]? | tostring' "$FX_OUT")" "directory is missing" \
    "a note says the directory is missing"

# conda's pytorch: the build string names CUDA and cuDNN.
fx_new
E=/opt/conda/envs/pt
fx_condaenv $E 3.10
fx_conda_meta $E pytorch 2.0.1 py3.10_cuda11.8_cudnn8.7.0_0 pytorch
fx_file "$E/lib/python3.10/site-packages/torch/__init__.py" ""
fx_doctor_env CONDA_PREFIX=$E
is "$(fw_jq $E pytorch '[.package, .gpu, .cuda, .cudnn, .variant] | join(" ")')" \
    "pytorch yes 11.8 8.7.0.84 cu118" \
    "conda pytorch py3.10_cuda11.8_cudnn8.7.0_0 (cuDNN 8.7.0, made precise by the matrix)"
like "$(fw_jq $E pytorch .cudnn_source)" "py3.10_cuda11.8_cudnn8.7.0_0" \
    "... the build string is the source"
fx_conda_meta $E pytorch 2.0.1 py3.10_cpu_0 pytorch
rm -f "$FX$E/conda-meta/pytorch-2.0.1-py3.10_cuda11.8_cudnn8.7.0_0.json"
fx_doctor_env CONDA_PREFIX=$E
is "$(fw_jq $E pytorch .gpu)" no "conda pytorch py3.10_cpu_0: gpu no"

done_testing
