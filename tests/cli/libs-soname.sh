#!/bin/sh
# Names against files on fixture trees: SONAME_OFF_SEARCH_PATH (the file
# exists, no step reaches it; the fix names its directory) against
# SONAME_NOT_FOUND (it exists nowhere), SONAME_SPOOF_SYMLINK (a name that
# claims a version its target is not), SONAME_VERSION_MISMATCH (a file
# whose SONAME is another version), OPTIONAL_LIB_MISSING for TensorRT.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

field() {	# CODE FILTER: arrays joined with newlines
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)][0] | $2 |
	    if type == \"array\" then join(\"\\n\") else tostring end" \
	    "$FX_OUT" 2>/dev/null
}

# A runfile toolkit nobody added to the search.
fx_new
fx_toolkit 12.4.1
fx_doctor
fx_ran_ok
has_code SONAME_OFF_SEARCH_PATH "a toolkit's runtime off the search path: SONAME_OFF_SEARCH_PATH"
is "$(field SONAME_OFF_SEARCH_PATH .severity)" warning "... a warning (no runtime resolves at all)"
lacks_code SONAME_NOT_FOUND "... not SONAME_NOT_FOUND: it exists"
like "$(field SONAME_OFF_SEARCH_PATH .detail)" \
    '^libcudart.so.12 exists in /usr/local/cuda-12.4/lib64, but no step' \
    "the detail names the directory"
like "$(field SONAME_OFF_SEARCH_PATH .fix)" \
    '^export LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64"\$\{LD_LIBRARY_PATH:\+:\$LD_LIBRARY_PATH\}"$' \
    "the fix prepends that directory"
like "$(field SONAME_OFF_SEARCH_PATH .fix)" \
    "^printf '%s\\\\n' /usr/local/cuda-12.4/lib64 \\| sudo tee /etc/ld.so.conf.d/usr-local-cuda-12.4-lib64.conf$" \
    "or adds an ld.so.conf.d file"
like "$(field SONAME_OFF_SEARCH_PATH .evidence)" 'not in default directories: ' \
    "the evidence says where the loader looked"

# Its library directory on PATH instead: LIBDIR_ON_PATH says it, once.
FX_ENV="PATH=/usr/local/cuda-12.4/lib64"
fx_doctor
has_code LIBDIR_ON_PATH "the runtime's directory on PATH: LIBDIR_ON_PATH"
lacks_code SONAME_OFF_SEARCH_PATH "... and SONAME_OFF_SEARCH_PATH does not repeat it"
FX_ENV=

# A second toolkit beside a configured one: information only.
fx_toolkit 13.0.0
fx_file /etc/ld.so.conf "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
fx_doctor
is "$(field SONAME_OFF_SEARCH_PATH .severity)" info \
    "CUDA 12 off the path while CUDA 13 resolves: information"

# A path with a space and a quote is quoted in the fix; ld.so.conf cannot
# hold such a directory safely, so that alternative is left out.
fx_new
tk="/opt/my cuda's"
fx_file "$tk/version.json" '{ "cuda": { "name": "CUDA SDK", "version": "12.4.1" } }'
fx_cudart "$tk/lib64" 12.4.127
fx_doctor_env "CUDA_HOME=$tk"
is "$(field SONAME_OFF_SEARCH_PATH .fix | grep -v '^#')" \
    "export LD_LIBRARY_PATH='/opt/my cuda'\\''s/lib64'\"\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"" \
    "a directory with a space and a quote is quoted, and gets no ld.so.conf line"

# NVML missing where the driver works: SONAME_NOT_FOUND.
fx_new
fx_healthy_gpu
rm -f "$FX"/usr/lib/x86_64-linux-gnu/libnvidia-ml*
fx_doctor
has_code SONAME_NOT_FOUND "NVML exists nowhere while the driver runs: SONAME_NOT_FOUND"
like "$(field SONAME_NOT_FOUND .detail)" '^The dynamic loader cannot find libnvidia-ml.so.1' \
    "... naming it"
like "$(field SONAME_NOT_FOUND .evidence)" "the loader's error: libnvidia-ml.so.1: cannot open shared object file" \
    "the evidence gives glibc's error"
lacks_code SONAME_OFF_SEARCH_PATH "not OFF_SEARCH_PATH"

# A spoofed name on LD_LIBRARY_PATH.
fx_new
fx_so /opt/hack/libcudart.so.10.2.89 libcudart.so.10.2
fx_link libcudart.so.10.2.89 /opt/hack/libcudart.so.10.1
FX_ENV="LD_LIBRARY_PATH=/opt/hack"
fx_doctor
has_code SONAME_SPOOF_SYMLINK "libcudart.so.10.1 -> libcudart.so.10.2.89: SONAME_SPOOF_SYMLINK"
like "$(field SONAME_SPOOF_SYMLINK .evidence)" '^/opt/hack/libcudart.so.10.2.89 has SONAME libcudart.so.10.2$' \
    "the evidence gives the target's SONAME"
like "$(field SONAME_SPOOF_SYMLINK .fix)" '^sudo rm -- /opt/hack/libcudart.so.10.1$' \
    "the fix removes the link"
lacks_code SONAME_VERSION_MISMATCH "not VERSION_MISMATCH as well"

# A file under a soname that is another library.
fx_new
fx_so /usr/lib/x86_64-linux-gnu/libcudnn.so.9 libcudnn.so.8
fx_doctor
has_code SONAME_VERSION_MISMATCH "a file named libcudnn.so.9 whose SONAME is libcudnn.so.8"
is "$(field SONAME_VERSION_MISMATCH .severity)" error "... an error"
like "$(field SONAME_VERSION_MISMATCH .detail)" 'that file is libcudnn.so.8' "the detail says what it is"
lacks_code SONAME_SPOOF_SYMLINK "a regular file is no spoofed link"

# TensorRT: absent is normal; installed off the path is worth a note.
fx_new
fx_toolkit 13.0.0
fx_file /etc/ld.so.conf "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
fx_doctor
lacks_code OPTIONAL_LIB_MISSING "no TensorRT anywhere: nothing said"
is "$(fx_jq '[.facts.libraries[] | select(.soname == "libnvinfer.so.10")][0].optional')" true \
    "libnvinfer.so.10 is resolved as optional"
fx_toolkit 12.4.1
fx_so /usr/local/cuda-12.4/targets/x86_64-linux/lib/libnvinfer.so.10.3.0 libnvinfer.so.10
fx_link libnvinfer.so.10.3.0 /usr/local/cuda-12.4/targets/x86_64-linux/lib/libnvinfer.so.10
fx_doctor
has_code OPTIONAL_LIB_MISSING "TensorRT in a toolkit directory off the path: OPTIONAL_LIB_MISSING"
is "$(field OPTIONAL_LIB_MISSING .severity)" info "... information only"
like "$(field OPTIONAL_LIB_MISSING .fix)" \
    '^export LD_LIBRARY_PATH=/usr/local/cuda-12.4/(targets/x86_64-linux/lib|lib64)"' \
    "... with the fix that reaches it"
is "$FX_RC" 0 "information and the info-level runtime note leave the exit status 0"

done_testing
