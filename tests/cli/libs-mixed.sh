#!/bin/sh
# The search path as a whole: MIXED_CUDA_VERSIONS when LD_LIBRARY_PATH
# holds runtimes of two CUDA majors (information when only ld.so.conf
# does), LIB_SHADOWED when an older copy hides a newer one later in the
# search.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"

field() {	# CODE FILTER: arrays joined with newlines
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)][0] | $2 |
	    if type == \"array\" then join(\"\\n\") else tostring end" \
	    "$FX_OUT" 2>/dev/null
}

fx_new
fx_toolkit 11.8.0
fx_toolkit 12.4.1
FX_ENV="LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64:/usr/local/cuda-12.4/lib64 PATH=/usr/local/cuda-12.4/bin"
fx_doctor
fx_ran_ok
has_code MIXED_CUDA_VERSIONS "LD_LIBRARY_PATH with CUDA 11.8 and 12.4: MIXED_CUDA_VERSIONS"
is "$(field MIXED_CUDA_VERSIONS .severity)" warning "... a warning"
like "$(field MIXED_CUDA_VERSIONS .evidence)" \
    '^/usr/local/cuda-11.8/lib64: libcudart.so.11.0 \(CUDA 11\), via LD_LIBRARY_PATH$' \
    "the evidence names each directory and runtime"
like "$(field MIXED_CUDA_VERSIONS .fix)" '^export LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64$' \
    "the fix keeps the major of the nvcc on PATH"

FX_ENV="PATH=/usr/local/cuda-12.4/bin"
fx_file /etc/ld.so.conf "/usr/local/cuda-11.8/lib64
/usr/local/cuda-12.4/lib64"
fx_doctor
is "$(field MIXED_CUDA_VERSIONS .severity)" info "side-by-side toolkits through ld.so.conf: information"

FX_ENV="LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64 PATH=/usr/local/cuda-12.4/bin"
rm -f "$FX/etc/ld.so.conf"
fx_doctor
lacks_code MIXED_CUDA_VERSIONS "one major on the path: no MIXED_CUDA_VERSIONS"

# An old runtime on LD_LIBRARY_PATH hides the system's newer one.
fx_new
fx_so /opt/old/libcudart.so.12.0.146 libcudart.so.12
fx_link libcudart.so.12.0.146 /opt/old/libcudart.so.12
fx_so /usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127 libcudart.so.12
fx_link libcudart.so.12.4.127 /usr/lib/x86_64-linux-gnu/libcudart.so.12
FX_ENV="LD_LIBRARY_PATH=/opt/old"
fx_doctor
has_code LIB_SHADOWED "12.0 on LD_LIBRARY_PATH before the system's 12.4: LIB_SHADOWED"
is "$(field LIB_SHADOWED .severity)" warning "... a warning: the older one wins"
like "$(field LIB_SHADOWED .evidence)" \
    '^shadowed: /usr/lib/x86_64-linux-gnu/libcudart.so.12 \(/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127\), which a default directory would reach next$' \
    "the evidence names the shadowed copy and the step that would reach it"
like "$(field LIB_SHADOWED .fix)" '^unset LD_LIBRARY_PATH$' "the fix drops the shadowing directory"
is "$(fx_jq '[.facts.libraries[] | select(.soname == "libcudart.so.12")][0].copies[0].reached_via')" \
    default "the copy's reached_via says which step"

# The newer one first: information.
fx_new
fx_so /opt/new/libcudart.so.12.8.90 libcudart.so.12
fx_link libcudart.so.12.8.90 /opt/new/libcudart.so.12
fx_so /usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127 libcudart.so.12
fx_link libcudart.so.12.4.127 /usr/lib/x86_64-linux-gnu/libcudart.so.12
FX_ENV="LD_LIBRARY_PATH=/opt/new"
fx_doctor
is "$(field LIB_SHADOWED .severity)" info "a newer copy first: information"

done_testing
