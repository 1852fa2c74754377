#!/bin/sh
# A hostile tree: names that are not text. Newlines, bytes that are not
# UTF-8 (\377\376) and terminal escapes in conda environment names, venv
# directories, toolkit directories, library file names, a SONAME and a
# DT_NEEDED entry, dist-info names, METADATA values and LD_LIBRARY_PATH
# entries. The JSON must stay valid UTF-8 (bad bytes become U+FFFD, a
# newline stays a newline), the text report must not pass bad bytes or
# escapes to the terminal, the script must quote every name, and the
# answers about the well-named parts must not change.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

NL='
'
BAD=$(printf '\377\376')
ESC=$(printf '\033')
TITLE="$ESC]0;owned$(printf '\007')"

# strict_utf8 FILE: the whole file is UTF-8 (jq alone would repair it).
strict_utf8() {
	if command -v iconv >/dev/null 2>&1; then
		iconv -f UTF-8 -t UTF-8 < "$1" > /dev/null 2>&1
	else
		python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1" \
		    2>/dev/null
	fi
}
command -v iconv >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1 ||
    skip_all "neither iconv nor python3 is installed to check UTF-8"

hostile_baseline

fx_new
fx_healthy_gpu
L=/usr/lib/x86_64-linux-gnu
fx_so "$L/libcudart.so.12.4.127${NL}evil" libcudart.so.12
fx_link "libcudart.so.12.4.127${NL}evil" $L/libcudart.so.12
fx_so "$L/libcudnn${BAD}.so.9" libcudnn.so.9
fx_so "$L/libtitle${TITLE}.so.1" libtitle.so.1
fx_lib "$L/libodd.so.1" "libodd${BAD}.so.1" "libmissing${BAD}.so.2"
TK="/usr/local/cuda-12.4${NL}x"
fx_file "$TK/version.json" '{ "cuda": { "version": "12.4.1" } }'
fx_so "$TK/lib64/libcudart.so.12" libcudart.so.12
fx_file "/usr/local/cuda-${BAD}/version.json" '{ "cuda": { "version": "11.8.0" } }'
fx_conda_base /opt/conda 3.11
E1="/opt/conda/envs/bad${NL}name"
E2="/opt/conda/envs/inv${BAD}utf"
E3="/opt/conda/envs/esc${TITLE}"
fx_conda_env "$E1" 3.11
fx_conda_env "$E2" 3.11
fx_conda_env "$E3" 3.11
S="$E1/lib/python3.11/site-packages"
fx_dist_info "$S" torch 2.4.0 "Requires-Dist: nvidia-cudnn-cu12 ==9.1.0.70${BAD}"
fx_dir "$S/nvidia_cublas${NL}cu12-12.1.0.dist-info"
fx_dir "$S/nvidia_cudnn_cu12-9.1${BAD}.0.dist-info"
fx_dir "$S/nvidia_nccl${TITLE}_cu12-2.20.5.dist-info"
printf 'Metadata-Version: 2.1\nName: nvidia-cufft-cu12\nVersion: 11.2\377.1\n' |
    fx_file "$S/nvidia_cufft_cu12-11.2.1.dist-info/METADATA"
fx_venv "/home/u/.virtualenvs/v${NL}2" 3.11
fx_file /etc/ld.so.conf "$L"

set -- HOME=/home/u CONDA_PREFIX="$E1" \
    "LD_LIBRARY_PATH=/opt/lib${NL}dir:/opt/${BAD}:/x${TITLE}:$TK/lib64"

hostile_run "doctor --json" "doctor --json" "$@"
ok "the JSON is valid UTF-8" strict_utf8 "$FX_OUT"
prefixes=$(fx_jq '.facts.python_envs[].prefix')
like "$prefixes" "^/opt/conda/envs/bad$" "a newline in an environment's name stays a newline..."
like "$prefixes" "^name$" "... in the JSON string"
like "$prefixes" '^/opt/conda/envs/inv��utf$' "bytes that are not UTF-8 become U+FFFD"
# The exact bytes are kept beside the document: inv\377\376utf in hex.
raw=$(jq -r '.raw_strings[] | select(.shown == "/opt/conda/envs/inv\ufffd\ufffdutf")
    | .bytes_hex' "$FX_OUT")
is "$raw" "$(printf '/opt/conda/envs/inv\377\376utf' | od -An -v -tx1 | tr -d ' \n')" \
    "raw_strings keeps the exact bytes of a name shown with U+FFFD"
is "$(jq '[.raw_strings[].bytes_hex] | length == (unique | length)' "$FX_OUT")" true \
    "raw_strings names each string once"
like "$prefixes" "^/opt/conda/envs/esc$ESC" "an escape stays as it is in JSON (\\u001b)"
like "$(fx_jq '.facts.python_envs[].prefix | select(startswith("/home/u/.virtualenvs"))')" \
    '^/home/u/.virtualenvs/v$' "the venv with a newline in its name is found"
pkgs=$(jq -r --arg p "$E1" '.facts.python_envs[] | select(.prefix == $p) | .packages[] |
    "\(.name)=\(.version)"' "$FX_OUT")
like "$pkgs" '^torch=2\.4\.0$' "torch is read"
like "$pkgs" '^nvidia_cudnn_cu12=9\.1��\.0$' "a dist-info name with bad bytes is read, the bytes replaced"
like "$pkgs" '^nvidia-cufft-cu12=11\.2�\.1$' "a METADATA value with bad bytes too"
like "$(jq -r --arg p "$E1" '.facts.python_envs[] | select(.prefix == $p) | .packages[] |
    select(.name == "torch") | .requires[]' "$FX_OUT")" '^nvidia-cudnn-cu12 ==9\.1\.0\.70��$' \
    "a Requires-Dist with bad bytes is kept, the bytes replaced"
is "$(fx_jq '[.facts.toolkits[].root] | sort | join("|")')" \
    "/usr/local/cuda-12.4${NL}x|/usr/local/cuda-��" "both odd toolkit directories are found"
is "$(fx_jq '.facts.toolkits[] | select(.root | startswith("/usr/local/cuda-12.4")) | .version')" \
    12.4.1 "the one with a newline has its version"

hostile_run "doctor (text)" doctor "$@"
ok "the text report is valid UTF-8" strict_utf8 "$FX_OUT"
unlike "$(cat "$FX_OUT")" "$ESC" "no escape reaches the terminal"
like "$(cat "$FX_OUT")" 'inv\\xff\\xfeutf' "bad bytes are shown as escapes"

hostile_run "why --json libcudart.so.12" "why --json libcudart.so.12" "$@"
is "$(fx_jq '.resolved')" "$TK/lib64/libcudart.so.12" \
    "LD_LIBRARY_PATH entries with odd names are searched, in order"
ok "why's JSON is valid UTF-8" strict_utf8 "$FX_OUT"

hostile_run "why --from a library with odd names" "why --json" "$@" -- --from $L/libodd.so.1
is "$(fx_jq '.closure[0].name')" "libmissing��.so.2" "a DT_NEEDED entry with bad bytes is named"
ok "the JSON is valid UTF-8" strict_utf8 "$FX_OUT"

hostile_run "why (text) a name with bad bytes" "why libcudnn${BAD}.so.9" "$@"
ok "the text is valid UTF-8" strict_utf8 "$FX_OUT"

hostile_run "env --shell sh" "env --shell sh" "$@"
ok "the script is valid sh" sh -n "$FX_OUT"
unlike "$(cat "$FX.stderr")" "$ESC" "no escape reaches the terminal through stderr"
cp "$FX_OUT" "$FX.env.sh"
fx_dirs="$fx_dirs $FX.env.sh"
# Sourced with the odd LD_LIBRARY_PATH, then undone: it must give the
# value back byte for byte.
got=$(env -i "LD_LIBRARY_PATH=/opt/lib${NL}dir:/opt/${BAD}:/x${TITLE}" \
    sh -c '. "$1" && cudawiz_deactivate_cuda && printf %s "$LD_LIBRARY_PATH"' \
    sh "$FX.env.sh" | od -An -c | tr -s ' \n' ' ')
want=$(printf '%s' "/opt/lib${NL}dir:/opt/${BAD}:/x${TITLE}" | od -An -c | tr -s ' \n' ' ')
is "$got" "$want" "sourced and undone, the odd LD_LIBRARY_PATH comes back as it was"

done_testing
