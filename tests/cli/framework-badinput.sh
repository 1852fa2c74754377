#!/bin/sh
# The files a framework writes about itself, damaged every way a reader
# can trip over: cut off in the middle of a key or a value, unterminated
# quotes, NUL bytes, random bytes, a directory or a dangling link where
# the file should be. Each run must finish with valid JSON and no
# sanitizer report, and the framework must still be reported.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

fx_new
E=/home/u/venvs/bad
fx_venv_env $E 3.10
S=$FX_SITE
fx_torch $S 2.1.0 12.1 libcudart.so.12
fx_tensorflow $S tensorflow 2.13.0 11.8 8
fx_paddle $S paddlepaddle-gpu 2.6.1 12.0 8.9.1
fx_onnxruntime $S onnxruntime-gpu 1.18.0 libcudart.so.12
fx_cupy $S cupy-cuda12x 13.1.0 12.x

files="torch/version.py tensorflow/python/platform/build_info.py
paddle/version/__init__.py onnxruntime/capi/build_and_package_info.py
cupy/.data/_wheel.json"

# check LABEL: one run, valid JSON, every framework still there.
check() {
	fx_doctor_env VIRTUAL_ENV=$E
	fx_ran_ok "$1: doctor ran"
	is "$(jq -r --arg p "$E" '[.facts.python_envs[] | select(.prefix == $p) |
	    .frameworks[].name] | sort | join(" ")' "$FX_OUT" 2>/dev/null)" \
	    "cupy onnxruntime paddlepaddle pytorch tensorflow" "$1: all five reported"
}

n=0
for content in \
    "cuda" "cuda:" "cuda =" "cuda = '" "cuda = '12.1" "cuda: Optional[str" \
    "'cuda'" "('cuda_version'," "('cuda_version', '11" "{'cudnn_version':" \
    "cuda_version = '99999999999999999999.1'" "cuda = '12.1' '12.2'" \
    "is_cuda_build = Tru" "cuda_version = 'False" '{"cuda": ' '{"cuda": 12}' \
    '[1, 2]' '{"cuda": "11.x", "cuda": "12.x"}'; do
	n=$((n + 1))
	for f in $files; do
		printf '%s' "$content" > "$FX$S/$f"
	done
	check "cut-off content $n ($content)"
done

# NUL bytes and random bytes.
for seed in 1 2 3; do
	for f in $files; do
		{ printf "cuda = '1"; head -c $((seed * 997)) /dev/urandom; printf '\0cuda = None'; } \
		    > "$FX$S/$f"
	done
	check "random bytes $seed"
done

# A directory, a dangling link and a link loop where the files should be.
for f in $files; do
	rm -f "$FX$S/$f"
	mkdir -p "$FX$S/$f"
done
check "directories"
for f in $files; do
	rm -rf "${FX:?}$S/$f"
	ln -s nowhere "$FX$S/$f"
done
check "dangling links"
for f in $files; do
	rm -f "$FX$S/$f"
	ln -s "$(basename "$f").2" "$FX$S/$f"
	ln -s "$(basename "$f")" "$FX$S/$f.2"
done
check "link loops"
is "$(fw_jq $E pytorch '[.gpu, .cuda] | join(" ")')" "yes 12.1" \
    "torch/version.py unreadable: libtorch_cuda.so says a CUDA 12 build, the matrix says 12.1"

done_testing
