#!/bin/sh
# The findings doctor draws from the frameworks of each environment, end
# to end on the issue's scenarios (real ELF files, the real loader model,
# the embedded matrix): each names the root cause once and a fix that is
# concrete for that environment. The rules themselves are unit-tested in
# test_rules_python.c; this checks that probe and rules meet.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

RUNPATH='$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'

# fixes CODE: the fix lines of CODE, one per line.
fixes() { fx_code_field "$1" '.fix'; }
# count CODE: how many CODE findings.
count() { jq --arg c "$1" '[.findings[] | select(.code == $c)] | length' "$FX_OUT"; }

# spaCy on cupy-cuda11x, a machine with CUDA 12 only: one SONAME_NOT_FOUND
# for libcudart.so.11.0, naming both, offering cupy-cuda12x.
fx_new
fx_healthy_gpu
fx_toolkit 12.4.1
fx_file /etc/ld.so.conf.d/cuda.conf /usr/local/cuda-12.4/targets/x86_64-linux/lib
E=/home/u/venvs/nlp
fx_venv_env $E 3.10
S=$FX_SITE
fx_cupy $S cupy-cuda11x 12.3.0 11.x
fx_spacy $S 3.7.2
fx_doctor_env VIRTUAL_ENV=$E
is "$FX_RC" 1 "spaCy on cupy-cuda11x: doctor exits 1"
is "$(count SONAME_NOT_FOUND)" 1 "one SONAME_NOT_FOUND (one per environment and soname)"
like "$(fx_code_field SONAME_NOT_FOUND .detail)" "libcudart\.so\.11\.0" "... for libcudart.so.11.0"
like "$(fx_code_field SONAME_NOT_FOUND .detail)" "silently runs on the CPU" \
    "... which says the framework silently runs on the CPU"
like "$(fixes SONAME_NOT_FOUND)" "^$E/bin/python3\.10 -m pip install cupy-cuda12x==12\.3\.0$" \
    "... and offers the CUDA 12 build of the same CuPy, with this env's own pip"
like "$(fixes SONAME_NOT_FOUND)" "^$E/bin/python3\.10 -m pip uninstall -y cupy-cuda11x$" \
    "... after removing the CUDA 11 build"
lacks_code FRAMEWORK_CUDA_MISMATCH "no second finding for the same cause"

# TensorFlow 2.10 in a conda env with cudatoolkit 11.2 and cudnn 8.1, a
# system CUDA 12 on LD_LIBRARY_PATH; conda's python carries RPATH
# $ORIGIN/../lib, so the env's own libraries win: nothing to report.
tf_conda() {
	E=/home/u/miniconda3/envs/tf
	fx_tf_conda $E "${1:-}"
}
tf_conda
fx_doctor_env CONDA_PREFIX=$E LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
is "$(jq -r '[.findings[] | select(.severity == "error") | .code] | join(" ")' "$FX_OUT")" "" \
    "TF 2.10 in its conda env, CUDA 12 on LD_LIBRARY_PATH: python's RPATH wins, no error"
# A python without that RPATH (some builds, an env copied by hand).
tf_conda norpath
fx_doctor_env CONDA_PREFIX=$E LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64
is "$FX_RC" 1 "... without the RPATH: doctor exits 1"
like "$(fx_code_field SONAME_NOT_FOUND .detail)" "tensorflow 2\.10\.0 in the conda environment tf" \
    "SONAME_NOT_FOUND names TensorFlow and the env"
like "$(fixes SONAME_NOT_FOUND)" "^export LD_LIBRARY_PATH=$E/lib\"" \
    "... and puts the env's lib/, where the copies are, on the search path"

# TensorFlow built with cuDNN 8.1 meeting cuDNN 8.0 first.
fx_new
fx_healthy_gpu
fx_toolkit 11.2.2
for l in libcublas libcublasLt; do
	fx_so /usr/local/cuda-11.2/targets/x86_64-linux/lib/$l.so.11 $l.so.11
done
E=/home/u/venvs/tf
fx_venv_env $E 3.9
S=$FX_SITE
fx_cudnn /opt/cudnn-8.0/lib64 8.0.5
fx_cudnn /usr/local/cuda-11.2/lib64 8.1.1
fx_tensorflow $S tensorflow-gpu 2.6.0 11.2 8
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/opt/cudnn-8.0/lib64:/usr/local/cuda-11.2/lib64
is "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .severity)" error \
    "cuDNN 8.0.5 for a build with 8.1: FRAMEWORK_CUDA_MISMATCH, an error"
like "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .detail)" "built with cuDNN 8\.1.*is cuDNN 8\.0\.5" \
    "... saying both versions"
like "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .evidence)" \
    "a copy that fits: /usr/local/cuda-11.2/targets/x86_64-linux/lib/libcudnn.so.8.1.1" \
    "... and where the copy that fits is"
like "$(fixes FRAMEWORK_CUDA_MISMATCH)" "^export LD_LIBRARY_PATH=/usr/local/cuda-11.2/lib64$" \
    "... the fix drops the old directory and keeps the rest"
lacks_code SONAME_NOT_FOUND "every other need resolves"

# PyTorch cu118 wheels shadowed by a system toolkit on LD_LIBRARY_PATH.
fx_new
fx_healthy_gpu
fx_toolkit 11.8.0
E=/home/u/venvs/torch
fx_venv_env $E 3.10
S=$FX_SITE
for w in nvidia-cuda-runtime-cu11 nvidia-cublas-cu11 nvidia-cudnn-cu11; do
	fx_nvidia_wheel $S $w 11.8.89
done
fx_torch $S 2.1.0+cu118 11.8 -r "$RUNPATH" libcudart.so.11.0 libcublas.so.11 libcudnn.so.8
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64
is "$(fx_code_field LIB_SHADOWED .severity)" error "torch's wheels shadowed: LIB_SHADOWED, an error"
like "$(fx_code_field LIB_SHADOWED .detail)" \
    "LD_LIBRARY_PATH entry /usr/local/cuda-11\.8/lib64 comes before the copies bundled with or expected by torch 2\.1\.0\+cu118" \
    "... naming the entry and the framework"
like "$(fx_code_field LIB_SHADOWED .evidence)" "shadowed: $S/nvidia/cuda_runtime/lib/libcudart.so.11.0" \
    "... and the wheel's copy it hides"
like "$(fixes LIB_SHADOWED)" "^unset LD_LIBRARY_PATH$" \
    "the fix: LD_LIBRARY_PATH held only that entry, so unset it"
# Unshadowed, the same environment has nothing to say.
fx_doctor_env VIRTUAL_ENV=$E
lacks_code LIB_SHADOWED "without LD_LIBRARY_PATH: no LIB_SHADOWED"
is "$(jq -r '[.findings[] | select(.severity == "error") | .code] | join(" ")' "$FX_OUT")" "" \
    "... and no error"

# CuPy beside torch needs the same libcudart.so.11.0 from the same wheel:
# still one finding, the soname named once, each framework's expectation
# in the evidence.
fx_cupy $S cupy-cuda11x 12.3.0 11.x
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64
is "$(count LIB_SHADOWED)" 1 "torch and CuPy shadowed alike: one LIB_SHADOWED"
is "$(fx_code_field LIB_SHADOWED .detail | grep -o 'libcudart\.so\.11\.0' | wc -l)" 1 \
    "... naming libcudart.so.11.0 once"
like "$(fx_code_field LIB_SHADOWED .evidence)" "cupy-cuda11x 12\.3\.0 expects it in $S/nvidia/cuda_runtime/lib" \
    "... and what CuPy expects among the evidence"

# A conda env mixing cudatoolkit 11.8 with torch cu121's nvidia-*-cu12
# wheels and a stray cu11 wheel.
fx_new
fx_healthy_gpu
E=/opt/conda/envs/mix
fx_condaenv $E 3.10
S=$FX_SITE
fx_conda_meta $E cudatoolkit 11.8.0 h4ba93d1_13
fx_cudart $E/lib 11.8.89
for w in nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cudnn-cu12; do
	fx_nvidia_wheel $S $w 12.1.105
done
fx_nvidia_wheel $S nvidia-cublas-cu11 11.11.3.6
fx_torch $S 2.4.0+cu121 12.1 -r "$RUNPATH" libcudart.so.12 libcublas.so.12 libcudnn.so.9
fx_doctor_env CONDA_PREFIX=$E
has_code CONDA_CUDA_CONFLICT "cudatoolkit 11 beside cu12 wheels: CONDA_CUDA_CONFLICT"
like "$(fx_code_field CONDA_CUDA_CONFLICT .evidence)" \
    "pip wheel nvidia-cuda-runtime-cu12 12\.1\.105 is CUDA 12, beside the environment's CUDA 11 packages" \
    "... the evidence names the wheels"
like "$(fixes CONDA_CUDA_CONFLICT)" "keep CUDA 12" "... keeps torch's CUDA 12"
like "$(fixes CONDA_CUDA_CONFLICT)" "^conda remove -p $E cudatoolkit$" "... removes cudatoolkit"
unlike "$(fixes CONDA_CUDA_CONFLICT)" "uninstall.*-cu12" "... and never torch's own wheels"
is "$(fx_code_field PIP_CUDA_WHEELS_MIXED .severity)" error \
    "cu11 and cu12 wheels of cublas: PIP_CUDA_WHEELS_MIXED"
like "$(fixes PIP_CUDA_WHEELS_MIXED)" "-m pip uninstall -y nvidia-cublas-cu11$" \
    "... the cu11 wheel goes"

# A driver too old for the runtime torch bundles: 470 runs CUDA 11.4,
# torch cu121 needs 12.x (minor-version compatibility from 525).
fx_new
fx_healthy_gpu
fx_nv_loaded 470.239.06
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libcuda.so* "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so*
fx_nv_libs 470.239.06
E=/home/u/venvs/torch
fx_venv_env $E 3.11
S=$FX_SITE
for w in nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cudnn-cu12; do
	fx_nvidia_wheel $S $w 12.1.105
done
fx_torch $S 2.4.0+cu121 12.1 -r "$RUNPATH" libcudart.so.12 libcublas.so.12 libcudnn.so.9
fx_doctor_env VIRTUAL_ENV=$E
is "$(jq '[.findings[] | select(.code == "DRIVER_TOO_OLD" and (.detail | test("torch")))] | length' "$FX_OUT")" 1 \
    "driver 470 under torch cu121: one DRIVER_TOO_OLD naming torch"
like "$(jq -r '.findings[] | select(.code == "DRIVER_TOO_OLD" and (.detail | test("torch"))) | .detail' "$FX_OUT")" \
    "470\.239\.06" "... with the driver's version"
like "$(jq -r '.findings[] | select(.code == "DRIVER_TOO_OLD" and (.detail | test("torch"))) | .fix | join("\n")' "$FX_OUT")" \
    "cu118" "... and the build of torch this driver can run (cu118) as one way out"
is "$(count DRIVER_TOO_OLD)" 1 \
    "the wheel's runtime is torch's: no second finding for the same file"
# A system toolkit is not a framework's alone (its nvcc, its programs):
# it keeps its own finding.
fx_toolkit 12.4.1
fx_doctor_env VIRTUAL_ENV=$E
is "$(count DRIVER_TOO_OLD)" 2 "with a system CUDA 12.4 too: two findings"
like "$(jq -r '.findings[] | select(.code == "DRIVER_TOO_OLD") | .detail' "$FX_OUT")" \
    "CUDA 12\.4\.1 at /usr/local/cuda-12\.4 needs" "... the toolkit's own"

done_testing
