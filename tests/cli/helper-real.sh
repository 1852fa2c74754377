#!/bin/sh
# cudawiz-verify against this machine's real NVIDIA libraries, where it
# has them: the CUDA runtime and cuDNN of the toolkit in $CUDA_HOME
# (default /usr/local/cuda) and its stub libcuda. A build machine has no
# driver, so each fails in its own known way, which is the test: the
# runtime with cudaErrorInsufficientDriver (35), cuDNN's handle with
# CUDNN_STATUS_NOT_INITIALIZED, the stub's cuInit with
# CUDA_ERROR_STUB_LIBRARY (34); cuDNN's versions need no GPU and must be
# the ones its headers say. Then the same through `cudawiz verify`.
. "$TESTS_SRCDIR/lib/tap.sh"

[ -x "$CUDAWIZ_HELPER" ] || skip_all "no helper at $CUDAWIZ_HELPER"
command -v jq > /dev/null 2>&1 || skip_all "jq is not installed"

CUDA=${CUDA_HOME:-/usr/local/cuda}
[ -d "$CUDA" ] || skip_all "no CUDA toolkit at $CUDA"

W=$(mktemp -d "$FX_TMP/helper-real.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

first() {	# first existing file among the arguments
	for f in "$@"; do
		if [ -e "$f" ]; then echo "$f"; return; fi
	done
}
CUDART=$(first "$CUDA"/lib64/libcudart.so.[0-9]* "$CUDA"/lib/libcudart.so.[0-9]* \
    "$CUDA"/targets/*/lib/libcudart.so.[0-9]*)
CUDNN=$(first "$CUDA"/lib64/libcudnn.so.[0-9] "$CUDA"/lib/libcudnn.so.[0-9] \
    "$CUDA"/targets/*/lib/libcudnn.so.[0-9])
STUB=$(first "$CUDA/lib64/stubs/libcuda.so" "$CUDA"/targets/*/lib/stubs/libcuda.so)
CUDNN_H=$(first "$CUDA/include/cudnn_version.h" /usr/include/cudnn_version.h \
    /usr/include/x86_64-linux-gnu/cudnn_version.h)

# Without a loadable libcuda.so.1 a runtime cannot find a driver: the
# helper itself says whether one loads.
"$CUDAWIZ_HELPER" driver > "$W/drv" 2>/dev/null
if [ "$(jq -r 'select(.check == "load") | .ok' "$W/drv")" = false ]; then
	nodriver=
else
	nodriver="a libcuda.so.1 loads on this machine"
fi

# run MODE ARGS...: records in $W/out, exit status in $rc
run() {
	"$CUDAWIZ_HELPER" "$@" > "$W/out" 2> "$W/err"
	rc=$?
}
rec() {
	jq -c --arg c "$1" "select(.check == \$c) | $2" "$W/out" 2>/dev/null |
	    head -n 1 | sed 's/^"\(.*\)"$/\1/'
}
last_check() { tail -n 1 "$W/out" | jq -r .check 2>/dev/null; }
all_json() { jq -e . "$W/out" > /dev/null 2>&1; }

# --- the CUDA runtime ---------------------------------------------------
if [ -z "$CUDART" ]; then
	skip "libcudart: init" "no libcudart.so.N under $CUDA"
else
	LD_LIBRARY_PATH=$(dirname "$CUDART") run runtime --lib "$CUDART"
	diag "$(basename "$CUDART"): $(grep -v '"step"\|"symbols"' "$W/out" | tr '\n' ' ')"
	is "$rc" 0 "$(basename "$CUDART"): exit 0"
	ok "$(basename "$CUDART"): every line is JSON" all_json
	is "$(rec load '[.ok, .path] | map(tostring) | join(" ")')" "true $CUDART" \
	    "$(basename "$CUDART"): loaded, path from the loader"
	is "$(rec runtime_version '.version | type')" number \
	    "$(basename "$CUDART"): runtime_version is a number"
	is "$(rec symbols .ok)" true "$(basename "$CUDART"): every function found"
	if [ -z "$nodriver" ]; then
		is "$(rec init '[.ok, .code, .name] | map(tostring) | join(" ")')" \
		    "false 35 cudaErrorInsufficientDriver" \
		    "$(basename "$CUDART") without a driver: init is 35 cudaErrorInsufficientDriver"
		like "$(rec init .message)" "driver" "... with the runtime's own message"
		is "$(rec driver_version .version)" 0 "... and driver version 0"
		is "$(rec skip .what)" roundtrip "... the round trip is a skip"
	else
		for t in "init is 35" "message" "driver version 0" "round trip skipped"; do
			skip "$(basename "$CUDART") without a driver: $t" "$nodriver"
		done
	fi
	is "$(last_check)" end "$(basename "$CUDART"): the run ends with end"
fi

# --- cuDNN ---------------------------------------------------------------
if [ -z "$CUDNN" ]; then
	skip "libcudnn: versions" "no libcudnn.so.N under $CUDA"
else
	dir=$(dirname "$CUDNN")
	# The sub-libraries of cuDNN 9 load from LD_LIBRARY_PATH, as the
	# parent sets it: the cuDNN directory, then the runtime's.
	LD_LIBRARY_PATH="$dir${CUDART:+:$(dirname "$CUDART")}" \
	    run cudnn --lib "$CUDNN" ${CUDART:+--cudart "$CUDART"}
	diag "$(basename "$CUDNN"): $(grep -v '"step"\|"symbols"' "$W/out" | tr '\n' ' ')"
	is "$rc" 0 "$(basename "$CUDNN"): exit 0"
	ok "$(basename "$CUDNN"): every line is JSON" all_json
	is "$(jq -r 'select(.check == "symbols") | .ok' "$W/out" | tr '\n' ' ')" \
	    "$([ -n "$CUDART" ] && echo 'true true ' || echo 'true ')" \
	    "$(basename "$CUDNN"): every function found (and the runtime's)"
	if [ -n "$CUDNN_H" ]; then
		major=$(sed -n 's/^#define CUDNN_MAJOR *\([0-9]*\).*/\1/p' "$CUDNN_H")
		minor=$(sed -n 's/^#define CUDNN_MINOR *\([0-9]*\).*/\1/p' "$CUDNN_H")
		patch=$(sed -n 's/^#define CUDNN_PATCHLEVEL *\([0-9]*\).*/\1/p' "$CUDNN_H")
		# cuDNN 9 made the version MAJOR*10000+MINOR*100+PATCH.
		if [ "$major" -ge 9 ]; then
			want=$((major * 10000 + minor * 100 + patch))
		else
			want=$((major * 1000 + minor * 100 + patch))
		fi
		is "$(rec cudnn_version .version)" "$want" \
		    "$(basename "$CUDNN"): cudnnGetVersion is $want, as cudnn_version.h says"
	else
		skip "$(basename "$CUDNN"): cudnnGetVersion as the header says" "no cudnn_version.h"
	fi
	cv=$(rec cudnn_version .cudart_version)
	ok "$(basename "$CUDNN"): cudnnGetCudartVersion read live ($cv)" \
	    [ "${cv:-0}" -ge 1000 ] 2>/dev/null
	if [ -z "$nodriver" ]; then
		is "$(rec cudnn_create '[.ok, .code, .name] | map(tostring) | join(" ")')" \
		    "false 1001 CUDNN_STATUS_NOT_INITIALIZED" \
		    "$(basename "$CUDNN") without a driver: cudnnCreate fails, named"
		is "$(rec skip .what)" convolution "... the convolution is a skip"
	else
		skip "$(basename "$CUDNN") without a driver: cudnnCreate fails" "$nodriver"
		skip "... the convolution is a skip" "$nodriver"
	fi
	is "$(last_check)" end "$(basename "$CUDNN"): the run ends with end"
	# Only the front library on the path: cudnnGetVersion still answers.
	run cudnn --lib "$CUDNN"
	ok "$(basename "$CUDNN") alone, no LD_LIBRARY_PATH: versions" \
	    [ -n "$(rec cudnn_version .version)" ]
fi

# --- the stub libcuda ----------------------------------------------------
if [ -z "$STUB" ]; then
	skip "stub libcuda: cuInit 34" "no stubs/libcuda.so under $CUDA"
else
	run driver --lib "$STUB"
	diag "stub: $(grep -v '"step"\|"symbols"' "$W/out" | tr '\n' ' ')"
	is "$rc" 0 "stub: exit 0"
	is "$(rec init '[.ok, .code, .name] | map(tostring) | join(" ")')" \
	    "false 34 CUDA_ERROR_STUB_LIBRARY" "stub: cuInit returns 34 CUDA_ERROR_STUB_LIBRARY"
	is "$(rec skip .what)" device_count "stub: the devices are a skip"
	is "$(last_check):$(rec end .ok)" "end:false" "stub: the run ends, not ok"
fi

# --- through cudawiz -------------------------------------------------------
if [ ! -x "$CUDAWIZ" ]; then
	skip_parent="cudawiz is not built ($CUDAWIZ)"
elif [ -n "$nodriver" ]; then
	skip_parent=$nodriver
fi
pv() {	# LD_LIBRARY_PATH: cudawiz verify --json with the real helper
	env -i PATH=/usr/bin:/bin HOME=/nonexistent ASAN_OPTIONS="${ASAN_OPTIONS-}" \
	    UBSAN_OPTIONS="${UBSAN_OPTIONS-}" ${1:+LD_LIBRARY_PATH="$1"} \
	    CUDAWIZ_HELPER="$CUDAWIZ_HELPER" "$CUDAWIZ" verify --json \
	    > "$W/p.json" 2> "$W/p.err"
}
if [ -n "${skip_parent-}" ]; then
	skip "parent: runtime" "$skip_parent"
	skip "parent: cuDNN" "$skip_parent"
	skip "parent: stub" "$skip_parent"
else
	pv ""
	if [ -n "$CUDART" ]; then
		is "$(jq -r '.verify.runs[] |
		    select(.kind == "runtime" and (.lib | test("libcudart"))) |
		    [.outcome, (.records[] | select(.check == "init") | .code)] |
		    map(tostring) | join(" ")' "$W/p.json" | sort -u | head -n 1)" \
		    "done 35" "parent: the toolkit's runtime runs to its end, init 35"
	else
		skip "parent: runtime" "no libcudart"
	fi
	if [ -n "$CUDNN" ] && [ -n "${want-}" ]; then
		is "$(jq -r '[.verify.runs[] | select(.kind == "cudnn") | .outcome,
		    (.records[] | select(.check == "cudnn_version") | .version)] |
		    map(tostring) | unique | join(" ")' "$W/p.json")" \
		    "$want done" "parent: the cuDNN run is done, with its version"
	else
		skip "parent: cuDNN" "no cuDNN or no cudnn_version.h"
	fi
	if [ -n "$STUB" ]; then
		# A stub where the real one should be: the mistake it exists for.
		mkdir -p "$W/stub"
		ln -s "$STUB" "$W/stub/libcuda.so.1"
		pv "$W/stub"
		like "$(jq -r '[.findings[].code] | join(" ")' "$W/p.json")" STUB_LIBCUDA \
		    "parent: the stub found as libcuda.so.1 is STUB_LIBCUDA"
	else
		skip "parent: stub" "no stub libcuda"
	fi
fi

done_testing
