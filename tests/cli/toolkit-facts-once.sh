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
done_testing
