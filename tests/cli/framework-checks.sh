#!/bin/sh
# Issue 19, point 5: rules the framework itself enforces, from the
# matrix's "checks" and framework rows. JAX compares cuDNN with the
# minimum of the jax package's release (0.4.31 raised it to 9.1), not
# jaxlib's; CTranslate2 4.5 and later dlopen() cuDNN 9 and cuBLAS 12.
# Real ELF files.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

E=/home/u/venvs/jax
jax_tree() {	# JAX_VERSION
	fx_new
	fx_healthy_gpu
	fx_venv_env $E 3.11
	S=$FX_SITE
	# jaxlib and its CUDA 12 plugin 0.4.30 (built with cuDNN 8.9), and
	# cuDNN 8.9.7 where LD_LIBRARY_PATH finds it.
	fx_jax $S 0.4.30 jax-cuda12-plugin
	fx_dist $S jax "$1"
	fx_file "$S/jax/__init__.py" ""
	fx_cudnn /opt/cudnn/lib 8.9.7
}

jax_tree 0.4.31
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/opt/cudnn/lib
fx_ran_ok
is "$(fw_need $E jax libcudnn.so.8 .resolved)" /opt/cudnn/lib/libcudnn.so.8 \
    "the plugin finds cuDNN 8 on LD_LIBRARY_PATH"
has_code FRAMEWORK_CUDA_MISMATCH "jax 0.4.31 with cuDNN 8.9.7: FRAMEWORK_CUDA_MISMATCH"
like "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .detail)" "jax 0.4.31 in .* checks at start-up that cuDNN is at least 9.1" \
    "... the jax package's minimum, not jaxlib's"
like "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .detail)" "minimum supported: 9100, installed cuDNN version: 8907" \
    "... in JAX's own words and numbers"
like "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .evidence)" "jax 0.4.31 requires cudnn >= 9.1 at start-up [(]matrix: unconfirmed; source: https://" \
    "... with the matrix's status and source"
like "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .fix)" "jax==0.4.30" \
    "... the fix: the jax release that matches the plugin"
is "$(fx_code_field FRAMEWORK_CUDA_MISMATCH .severity)" error "... an error (JAX stops)"

jax_tree 0.4.30
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/opt/cudnn/lib
fx_ran_ok
lacks_code FRAMEWORK_CUDA_MISMATCH "jax 0.4.30 with cuDNN 8.9.7: fine"

# CTranslate2: 4.5 needs cuDNN 9, 4.4 cuDNN 8 (both with cuBLAS 12).
E=/home/u/venvs/whisper
ct2_tree() {	# CT2_VERSION
	fx_new
	fx_healthy_gpu
	fx_venv_env $E 3.11
	S=$FX_SITE
	fx_dist $S ctranslate2 "$1"
	fx_file "$S/ctranslate2/__init__.py" ""
	fx_lib "$S/ctranslate2.libs/libctranslate2-bc15bf3f.so.$1" \
	    "libctranslate2-bc15bf3f.so.$1" -r '$ORIGIN/../nvidia/cublas/lib'
	fx_cudnn /opt/cudnn/lib 8.9.7
	fx_so /opt/cudnn/lib/libcublas.so.12.4.5.8 libcublas.so.12
	fx_link libcublas.so.12.4.5.8 /opt/cudnn/lib/libcublas.so.12
	fx_so /opt/cudnn/lib/libcublasLt.so.12.4.5.8 libcublasLt.so.12
	fx_link libcublasLt.so.12.4.5.8 /opt/cudnn/lib/libcublasLt.so.12
}

ct2_tree 4.5.0
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/opt/cudnn/lib
fx_ran_ok
is "$(fw_jq $E ctranslate2 '[.package, .gpu, .cuda, .cudnn] | join(" ")')" \
    "ctranslate2 yes 12 9" "ctranslate2 4.5.0: recognised, a CUDA 12 + cuDNN 9 build"
is "$(fw_jq $E ctranslate2 '[.needs[] | .soname + ":" + .how] | join(" ")')" \
    "libcublas.so.12:dlopen libcublasLt.so.12:dlopen libcudnn.so.9:dlopen" \
    "... which dlopen()s cuBLAS 12 and cuDNN 9"
is "$(fw_need $E ctranslate2 libcudnn.so.9 '.resolved | tostring')" null \
    "... cuDNN 9 is not here (only 8.9.7)"
has_code SONAME_NOT_FOUND "ctranslate2 4.5 with only cuDNN 8: SONAME_NOT_FOUND"
like "$(fx_code_field SONAME_NOT_FOUND .detail)" "ctranslate2 4.5.0 .*needs libcudnn.so.9" \
    "... naming ctranslate2 and cuDNN 9"

ct2_tree 4.4.0
fx_doctor_env VIRTUAL_ENV=$E LD_LIBRARY_PATH=/opt/cudnn/lib
fx_ran_ok
is "$(fw_jq $E ctranslate2 '[.cuda, .cudnn, .gpu_ready] | join(" ")')" "12 8 true" \
    "ctranslate2 4.4.0 with cuBLAS 12 and cuDNN 8.9.7: ready"
lacks_code SONAME_NOT_FOUND "... nothing missing"

# TensorFlow 1.x links the driver's libcuda.so.1 (DT_NEEDED of
# _pywrap_tensorflow_internal.so): in a container without the driver the
# import fails, not the first GPU use. The matrix records it as an
# "import" check.
E=/home/u/venvs/tf1
fx_new
fx_file /proc/sys/kernel/osrelease "6.1.0-13-amd64"
fx_venv_env $E 3.7
S=$FX_SITE
fx_dist $S tensorflow-gpu 1.14.0
fx_file "$S/tensorflow/__init__.py" ""
fx_lib "$S/tensorflow/python/_pywrap_tensorflow_internal.so" \
    _pywrap_tensorflow_internal.so libcuda.so.1 libcudart.so.10.0
fx_doctor_env VIRTUAL_ENV=$E
is "$(fw_need $E tensorflow libcuda.so.1 '[.how, (.resolved | tostring)] | join(" ")')" \
    "linked null" "tensorflow-gpu 1.14: libcuda.so.1 is linked (needed), and absent"
like "$(jq -r '.findings[] | select(.code == "SONAME_NOT_FOUND") | .detail' "$FX_OUT")" \
    "needs libcuda.so.1, which the dynamic loader cannot find in its process. Importing it fails" \
    "... so the finding says the import fails, not the first GPU use"
is "$(jq -r '[.frameworks[] | select(.name == "tensorflow") | .checks[]? |
    select(.when == "import") | .library + " " + .versions.min + "-" + .versions.max] | join(",")' \
    "$TESTS_SRCDIR/../data/matrix.json")" "libcuda 1.5-1.12,libcuda 1.13-1.15" \
    "the matrix: TensorFlow 1.x links libcuda at import"
is "$(jq -r '[.frameworks[] | select(.name == "pytorch") | .checks[]? |
    select(.when == "runpath") | .library + " " + .versions.min] | join(",")' \
    "$TESTS_SRCDIR/../data/matrix.json")" "nvidia-wheels 2.1" \
    "... and torch 2.1 and later find the nvidia wheels through RUNPATH"

# The schema: "checks", "ptx" and "ccs_source" are optional (a document
# without them loads), and a check's "when" is validated with its path.
jq 'del(.frameworks[].checks) | del(.frameworks[].builds[].ptx) |
    del(.frameworks[].builds[].ccs_source)' "$TESTS_SRCDIR/../data/matrix.json" \
    > "$FX_TMP/checks-old.$$.json"
"$CUDAWIZ" matrix show --matrix "$FX_TMP/checks-old.$$.json" > /dev/null 2>&1
is "$?" 0 "a matrix without checks, ptx and ccs_source still loads"
jq '(.frameworks[] | select(.name == "jax") | .checks[]?.when) |= "later"' \
    "$TESTS_SRCDIR/../data/matrix.json" > "$FX_TMP/checks-bad.$$.json"
like "$("$CUDAWIZ" matrix show --matrix "$FX_TMP/checks-bad.$$.json" 2>&1)" \
    'frameworks\[[0-9]+\]\.checks\[0\]\.when: "later" is not startup, import or runpath' \
    "a bad when is rejected with its JSON path"
rm -f "$FX_TMP/checks-old.$$.json" "$FX_TMP/checks-bad.$$.json"

done_testing
