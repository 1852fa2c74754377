#!/bin/sh
# Every finding says in one line what it is about (its "subject" in the
# JSON): two findings of one code read differently, and only findings
# about the whole machine go without (the title says it). The wizard
# shows these lines; the rules set them (src/diagnose/subject.c).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

# Codes about the whole machine, or about the compatibility data: the
# title says what they are about.
WHOLE='NO_NVIDIA_GPU MATRIX_STALE'

# subjects CODE: the subjects of CODE's findings, one per line.
subjects() {
	jq -r --arg c "$1" '.findings[] | select(.code == $c) | .subject // "(none)"' "$FX_OUT"
}

# all_have_subjects LABEL: every finding of the last run has a one-line
# subject, unless its code is one of WHOLE.
all_have_subjects() {
	bad=$(jq -r --arg whole "$WHOLE" '
	    ($whole | split(" ")) as $w |
	    .findings[] | select((.code | IN($w[])) | not) |
	    select(.subject == null or .subject == "" or (.subject | test("\n"))) |
	    .code' "$FX_OUT" | sort -u | tr '\n' ' ')
	is "$bad" "" "$1: every finding has a one-line subject"
	n=$(jq '.findings | length' "$FX_OUT")
	ok "$1: there are findings to check ($n)" test "$n" -gt 0
	# The contract: a string or null, never absent.
	is "$(jq '[.findings[] | has("subject") and (.subject == null or (.subject | type) == "string")] | all' "$FX_OUT")" \
	    true "$1: \"subject\" is in every finding, a string or null"
}

# Two frameworks of one environment, no CUDA on the machine: cupy-cuda11x
# dlopens libcudart.so.11.0, torch links libcudart.so.12. Two
# SONAME_NOT_FOUND, each naming its library and who needs it.
fx_new
fx_healthy_gpu
E=/home/u/nlp
fx_venv_env $E 3.10
S=$FX_SITE
fx_cupy $S cupy-cuda11x 12.3.0 11.x
fx_torch $S 2.5.1+cu124 12.4 libcudart.so.12
fx_doctor_env VIRTUAL_ENV=$E
subj=$(subjects SONAME_NOT_FOUND)
is "$(printf '%s\n' "$subj" | grep -c .)" 2 "two SONAME_NOT_FOUND, one per library"
like "$subj" "^cupy-cuda11x 12\.3\.0 in $E needs libcudart\.so\.11\.0$" \
    "one says cupy-cuda11x in the env needs libcudart.so.11.0"
like "$subj" "^torch 2\.5\.1\+cu124 in $E needs libcudart\.so\.12$" \
    "the other says torch in the env needs libcudart.so.12"
is "$(printf '%s\n' "$subj" | sort -u | grep -c .)" 2 "... so the two read differently"
all_have_subjects "two missing runtimes"

# A broken shell environment over a toolkit: missing, empty and repeated
# search-path entries, a stubs directory on LD_LIBRARY_PATH, CUDA_HOME
# naming nothing, every GPU hidden.
fx_new
fx_healthy_gpu
fx_toolkit 12.4.1
T=/usr/local/cuda-12.4
fx_doctor_env LD_LIBRARY_PATH="/opt/gone/lib64::$T/targets/x86_64-linux/lib/stubs:$T/lib64:$T/lib64" \
    PATH="/usr/bin:/nowhere/bin:$T/lib64" CUDA_HOME=/opt/cuda-none CUDA_VISIBLE_DEVICES=-1
like "$(subjects ENV_PATH_MISSING)" "LD_LIBRARY_PATH entry /opt/gone/lib64" \
    "ENV_PATH_MISSING names the LD_LIBRARY_PATH entry"
like "$(subjects ENV_PATH_MISSING)" "CUDA_HOME=/opt/cuda-none" "... and the variable that names nothing"
like "$(subjects NO_VISIBLE_DEVICES)" "CUDA_VISIBLE_DEVICES=" "NO_VISIBLE_DEVICES names the variable"
all_have_subjects "a broken shell environment"

# A driver the module and the libraries disagree on, the GPU held by
# nouveau: the GPU and the library are named.
fx_new
fx_healthy_gpu
fx_so /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.14 libnvidia-ml.so.1
fx_link libnvidia-ml.so.550.54.14 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1
fx_doctor
like "$(subjects DRIVER_LIBRARY_MISMATCH)" "libnvidia-ml\.so\.550\.54\.14" \
    "DRIVER_LIBRARY_MISMATCH names the library of the other version"
all_have_subjects "a driver of two versions"

# A GPU whose module is not loaded, a stale link to a runtime in the
# loader's configuration and a copy of it off the search path.
fx_new
fx_healthy_gpu
rm -rf "$FX/sys/module/nvidia" "$FX/proc/driver/nvidia" "$FX/sys/bus/pci/devices/0000:01:00.0/driver"
fx_file /etc/ld.so.conf.d/rt.conf /opt/rt/lib
fx_dir /opt/rt/lib
ln -s libcudart.so.11.0.221 "$FX/opt/rt/lib/libcudart.so.11.0"
fx_so /opt/other/lib/libcudart.so.12 libcudart.so.12
fx_doctor
like "$(subjects DRIVER_NOT_LOADED)" "^GPU 0 " "DRIVER_NOT_LOADED names the GPU"
all_have_subjects "a GPU without its module"

# explain: a finding made from a message names what the message names.
fx_new
msg='ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory
RuntimeError: CUDA error: unknown error'
got=$(printf '%s\n' "$msg" | env -i "$CUDAWIZ" explain --json --root "$FX" - |
    jq -r '.findings[] | "\(.code) \(.subject)"')
like "$got" "^SONAME_NOT_FOUND libcudart\.so\.11\.0$" "explain: the missing library is the subject"
like "$got" "^RUNTIME_INIT_FAILED cudaErrorUnknown \(999\)$" "explain: so is the error code"

done_testing
