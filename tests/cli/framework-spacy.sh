#!/bin/sh
# spaCy runs its GPU work on CuPy (thinc's cupy extra), and CuPy
# dlopen()s the CUDA runtime of the CUDA it was built for. spaCy with
# cupy-cuda11x on a machine with only CUDA 12 runtimes silently stays on
# the CPU: the facts must show libcudart.so.11.0 missing for both.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

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
fx_ran_ok
is "$(fw_jq $E cupy '[.package, .gpu, .variant, .cuda] | join(" ")')" \
    "cupy-cuda11x yes cuda11x 11" "cupy-cuda11x: a CUDA 11 build"
like "$(fw_jq $E cupy .cuda_source)" 'cupy/.data/_wheel.json: cuda "11.x"$' \
    "... as cupy/.data/_wheel.json says"
is "$(fw_need $E cupy libcudart.so.11.0 '[.how, (.resolved | tostring)] | join(" ")')" \
    "dlopen null" "CuPy dlopen()s libcudart.so.11.0, which is not found"
like "$(fw_need $E cupy libcudart.so.11.0 .requester)" \
    "cupy_backends/cuda/api/runtime\.cpython-310-x86_64-linux-gnu\.so$" \
    "... from its runtime module"
is "$(fw_jq $E cupy .loads)" false "CuPy does not load"
is "$(fw_jq $E spacy '[.package, .gpu, .gpu_through, .cuda] | join(" ")')" \
    "spacy yes cupy 11" "spaCy: GPU through CuPy, CUDA 11"
is "$(fw_jq $E spacy '[.needs[].soname] | join(" ")')" libcudart.so.11.0 \
    "spaCy needs what CuPy needs"
is "$(fw_need $E spacy libcudart.so.11.0 .error)" \
    "libcudart.so.11.0: cannot open shared object file: No such file or directory" \
    "... and does not get it"
is "$(fw_jq $E spacy '[.loads, .gpu_ready] | join(" ")')" "false false" \
    "spaCy: not GPU-ready (it runs on the CPU)"

# The CUDA 12 build of CuPy on the same machine loads.
rm -rf "${FX:?}$S"/cupy_cuda11x-* "$FX$S/cupy"
fx_cupy $S cupy-cuda12x 13.0.0 12.x
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_need $E cupy libcudart.so.12 '[.via, .target] | join(" ")')" \
    "ld.so.conf /usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so.12.4.1" \
    "cupy-cuda12x: libcudart.so.12 through ld.so.conf"
is "$(fw_jq $E spacy '[.cuda, .loads, .gpu_ready] | join(" ")')" "12 true true" \
    "spaCy with it: GPU-ready"

# Without _wheel.json the package name says which CUDA.
rm -f "$FX$S/cupy/.data/_wheel.json"
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E cupy '[.cuda, .cuda_source] | join(" | ")')" \
    "12 | the package name cupy-cuda12x (any CUDA 12.x)" "cupy-cuda12x: CUDA 12.x by its name"

# A damaged _wheel.json is a note, not a crash.
printf '{"cuda": 12' | fx_file "$S/cupy/.data/_wheel.json"
fx_doctor_env VIRTUAL_ENV=$E
fx_ran_ok "a damaged _wheel.json: no crash"
like "$(jq -r '.facts.notes[]? | tostring' "$FX_OUT")" "_wheel.json" "... a note names it"

# spaCy without CuPy: CPU only.
fx_new
E=/home/u/venvs/cpu
fx_venv_env $E 3.10
S=$FX_SITE
fx_spacy $S 3.7.2
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_jq $E spacy '[.gpu, (.gpu_through | tostring), (.needs | length)] | join(" ")')" \
    "no null 0" "spaCy without CuPy: gpu no"
like "$(fw_jq $E spacy .gpu_why)" "no CuPy package" "... because there is no CuPy"

done_testing
