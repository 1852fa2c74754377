#!/bin/sh
# Facts stated once and right (issue 19 point 9): a toolkit or cuDNN newer
# than the compatibility data is a NEWER_THAN_MATRIX note, not silence;
# the toolkit's release is its version, with the components beside it; a
# directory reached through a symlink is one directory.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

newest_cuda=$(jq -r '[.cuda_releases[].version] | sort_by(split(".") | map(tonumber)) | last' "$FX_MATRIX")
newest_cudnn=$("$CUDAWIZ" matrix show --matrix "$FX_MATRIX" 2>/dev/null | sed -n 's/^Newest cuDNN: *//p')
[ -n "$newest_cudnn" ] || newest_cudnn=$("$CUDAWIZ" matrix show 2>/dev/null | sed -n 's/^Newest cuDNN: *//p')

# --- known releases: no note
fx_new
fx_toolkit 12.4.1
fx_cudnn /usr/local/cuda-12.4/targets/x86_64-linux/lib 9.1.0
fx_cudnn_header /usr/local/cuda-12.4/include/cudnn_version.h 9.1.0
fx_doctor
lacks_code NEWER_THAN_MATRIX "CUDA 12.4.1 and cuDNN 9.1.0: known, no NEWER_THAN_MATRIX"

# --- a toolkit and a cuDNN past the data's newest
fx_new
fx_toolkit 99.1.0
fx_cudnn /usr/local/cuda-99.1/targets/x86_64-linux/lib 99.2.0
fx_cudnn_header /usr/local/cuda-99.1/include/cudnn_version.h 99.2.0
fx_doctor
has_code NEWER_THAN_MATRIX "CUDA 99.1 and cuDNN 99.2: NEWER_THAN_MATRIX"
is "$(fx_finding NEWER_THAN_MATRIX .severity)" info "... a note (info)"
like "$(fx_finding NEWER_THAN_MATRIX '.evidence | join("\n")')" \
    "CUDA 99.1.0 at /usr/local/cuda-99.1: the newest CUDA the data knows is $newest_cuda" \
    "... naming the toolkit and the data's newest CUDA"
like "$(fx_finding NEWER_THAN_MATRIX '.evidence | join("\n")')" \
    "cuDNN 99.2.0 in .*: the newest cuDNN the data knows is $newest_cudnn" \
    "... and the cuDNN"
is "$(fx_finding NEWER_THAN_MATRIX '.fix | join("|")')" "cudawiz matrix update" \
    "... fix: cudawiz matrix update"
is "$FX_RC" 0 "... a note alone: exit 0"

# --- the release is the toolkit's version, components beside it
fx_new
fx_toolkit 12.4.1
fx_doctor
is "$(fx_tk_json .release)" 12.4.1 "version.json: the release is its cuda version"
is "$(fx_tk_json '.components | join(",")')" "cudart 12.4.1" "... cuda_cudart's version beside it"
"$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX" > "$FX.txt" 2>/dev/null
like "$(grep '^  /usr/local/cuda-12.4 ' "$FX.txt")" "CUDA 12\.4\.1  \(cudart 12\.4\.1\)" "... the text line"

# A toolkit assembled from NVIDIA's wheels, as /usr/local/cuda-13.0 is on
# this project's machine: no version.json, lib64 a link to lib.
wheel_toolkit() {
	tk=/usr/local/cuda-13.0
	fx_dir $tk/dist-info/nvidia_cuda_runtime-13.0.96.dist-info
	fx_dir $tk/dist-info/nvidia_cuda_nvcc-13.0.88.dist-info
	fx_so $tk/lib/libcudart.so.13.0.96 libcudart.so.13
	fx_link libcudart.so.13.0.96 $tk/lib/libcudart.so.13
	fx_link lib $tk/lib64
	fx_file $tk/bin/nvcc "#!/bin/sh"
	chmod +x "$FX$tk/bin/nvcc"
	fx_link cuda-13.0 /usr/local/cuda
}
fx_new
wheel_toolkit
fx_doctor
is "$(fx_tk_json .release)" 13.0 "wheel toolkit: the release is 13.0"
is "$(fx_tk_json .version)" 13.0.96 "... the version fact stays the runtime wheel's"
is "$(fx_tk_json '.components | join(",")')" "cudart 13.0.96,nvcc 13.0.88" "... cudart and nvcc beside it"
"$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX" > "$FX.txt" 2>/dev/null
like "$(grep '^  /usr/local/cuda-13.0 ' "$FX.txt")" "CUDA 13\.0  \(cudart 13\.0\.96, nvcc 13\.0\.88\)" \
    "... the text line: CUDA 13.0 (cudart 13.0.96, nvcc 13.0.88)"
like "$(grep -A1 'libcudart.so.13 in /usr/local/cuda-13\.0/lib64$' "$FX.txt" | tail -n 1)" '^          = /usr/local/cuda-13\.0/lib$' \
    "... lib64 is named with the directory it links to, the one the Libraries section names"

# --- one directory through two links: env --check calls it unchanged.
# The script runs in this machine's shell, which drops directories that
# do not exist here, so the toolkit lies at a path that exists both in
# the tree and on this machine ($H, as env-check.sh does).
fx_new
H=$FX
K=$H/opt/cuda-13.0
fx_so $K/lib/libcudart.so.13.0.96 libcudart.so.13
fx_link libcudart.so.13.0.96 $K/lib/libcudart.so.13
fx_link lib $K/lib64
fx_link cuda-13.0 $H/opt/cuda
mkdir -p "$K/lib" && ln -s lib "$K/lib64" && ln -s cuda-13.0 "$H/opt/cuda"
printf '# cudawiz-format: sh\nexport LD_LIBRARY_PATH=%s/lib\n' "$K" > "$H/same.sh"
fx_cmd_env env PATH=/usr/bin:/bin LD_LIBRARY_PATH=$H/opt/cuda/lib64 -- --check "$H/same.sh" --json
is "$(jq -r '[.needs[] | select(.soname == "libcudart.so.13" and .framework == null)][0].verdict' "$FX_OUT")" \
    unchanged "env --check: cuda/lib64 and cuda-13.0/lib are one file, unchanged (not moved)"
done_testing
