#!/bin/sh
# explain's input: the arguments (joined), standard input with "-", empty
# and blank input, input over the size cap, binary garbage, text nothing
# recognises, a whole traceback; and the exit codes of each.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

fx_new
fx_file /etc/ld.so.conf ""

# --- usage errors: no argument, empty, blank, empty stdin
fx_explain_text
is "$FX_RC" 2 "no argument: exit 2"
like "$(cat "$FX.stderr")" "usage: .*explain TEXT" "no argument: usage on stderr"
fx_explain_text -- ""
is "$FX_RC" 2 "empty argument: exit 2"
like "$(cat "$FX.stderr")" "the input is empty" "empty argument: says so"
fx_explain_text -- "  	 "
is "$FX_RC" 2 "blank argument: exit 2"
printf '\n\n  \n' > "$FX.in"
FX_STDIN=$FX.in fx_explain_text -- -
is "$FX_RC" 2 "blank standard input: exit 2"
FX_STDIN=/dev/null fx_explain_text -- -
is "$FX_RC" 2 "empty standard input: exit 2"
is "$(cat "$FX_OUT")" "" "a usage error prints no report"

# --- standard input with "-"
cat > "$FX.in" <<'MSG'
Traceback (most recent call last):
  File "train.py", line 1, in <module>
    import torch
RuntimeError: CUDA error: no kernel image is available for execution on the device
CUDA kernel errors might be asynchronously reported at some other API call
MSG
FX_STDIN=$FX.in fx_explain -- -
is "$FX_RC" 1 "stdin: a recognised error, exit 1"
is "$(jq -r '.recognised | length' "$FX_OUT")" 1 "stdin: one message"
is "$(jq -r '.recognised[0].kind' "$FX_OUT")" no_kernel_image "stdin: no kernel image"
is "$(jq -r '.recognised[0].line' "$FX_OUT")" 4 "stdin: on line 4"
is "$(jq -r '.input_info.lines' "$FX_OUT")" 5 "stdin: five lines read"
like "$(jq -r '.input' "$FX_OUT")" '^Traceback' "the input is in the document"
has_code GPU_ARCH_UNSUPPORTED
like "$(fixes GPU_ARCH_UNSUPPORTED)" "nvidia-smi --query-gpu=name,compute_cap" \
    "no GPU seen here: the fix finds its compute capability"

# --- the arguments are one text, joined
fx_explain -- ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory
is "$(jq -r '.recognised[0].soname' "$FX_OUT")" libcudnn.so.8 "unquoted words are joined into one message"
is "$FX_RC" 1 "... not found here: exit 1"

# --- text nothing recognises: 0, honest, with what it could pick out
fx_explain_text -- "my model trains slowly on CUDA 11.8 with cuDNN 8.9.2 and cudart64_110.dll, error CUBLAS_STATUS_ALLOC_FAILED"
is "$FX_RC" 0 "unrecognised: exit 0"
like "$(cat "$FX_OUT")" "^Not recognised" "unrecognised: says so first"
like "$(cat "$FX_OUT")" "versions +CUDA 11\\.8, cuDNN 8\\.9\\.2" "unrecognised: versions picked out"
like "$(cat "$FX_OUT")" "DLLs +cudart64_110\\.dll" "unrecognised: the DLL picked out"
like "$(cat "$FX_OUT")" "errors +CUBLAS_STATUS_ALLOC_FAILED" "unrecognised: the error name picked out"
unlike "$(cat "$FX_OUT")" "No problems found" "unrecognised: no empty findings section"
fx_explain -- "my model trains slowly on CUDA 11.8"
is "$(jq -r '.recognised_any' "$FX_OUT")" false "JSON: recognised_any false"
is "$(jq -r '.recognised | length' "$FX_OUT")" 0 "JSON: recognised is empty"
is "$(jq -r '.findings | length' "$FX_OUT")" 0 "JSON: no findings"

# --- over the cap: cut, and said
big=$FX.big
{
	printf 'ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n'
	head -c 1100000 /dev/zero | tr '\0' 'x'
	printf '\nImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n'
} > "$big"
FX_STDIN=$big fx_explain -- -
is "$(jq -r '.input_info.truncated' "$FX_OUT")" true "huge input: truncated"
is "$(jq -r '.input_info.bytes' "$FX_OUT")" 1048576 "huge input: cut at 1 MiB"
is "$(jq -r '[.recognised[].soname] | join(",")' "$FX_OUT")" libcudnn.so.8 \
    "huge input: what came before the cut is recognised, not what came after"
FX_STDIN=$big fx_explain_text -- -
like "$(cat "$FX_OUT")" "only the first 1024 KiB of the input were read" "huge input: the text report says so"
# An endless pipe is not read to its end.
yes 'cudaErrorNoDevice' | env -i LC_ALL=C "$CUDAWIZ" --json --root "$FX" \
    ${FX_MATRIX:+--matrix "$FX_MATRIX"} explain - > "$FX_OUT" 2>/dev/null
rc=$?
ok "endless input: finishes (exit $rc)" [ "$rc" -le 1 ]
is "$(jq -r '.recognised[0].repeats' "$FX_OUT")" $((1048576 / 18 - 1)) "endless input: repeats counted up to the cap"

json_ok() {
	jq -e . "$FX_OUT" > /dev/null 2>&1
}

# --- binary garbage: no crash, valid JSON, the bytes counted
head -c 200000 /dev/urandom > "$FX.bin" 2>/dev/null ||
	awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 256) }' > "$FX.bin"
FX_STDIN=$FX.bin fx_explain -- -
ok "binary: exit 0 or 1 (got $FX_RC)" [ "$FX_RC" -le 1 ]
ok "binary: valid JSON" json_ok
ok "binary: control bytes counted" [ "$(jq -r '.input_info.nontext_bytes' "$FX_OUT")" -gt 0 ]
FX_STDIN=$FX.bin fx_explain_text -- -
ok "binary: the text report too (exit $FX_RC)" [ "$FX_RC" -le 1 ]
like "$(cat "$FX_OUT")" "bytes that are not text were read as blanks" "binary: the text report says so"
printf 'junk\0\0\001\033[31m ImportError: libcudnn.so.8: cannot open shared object file: No such file\0tail' > "$FX.bin"
FX_STDIN=$FX.bin fx_explain -- -
is "$(jq -r '.recognised[0].soname' "$FX_OUT")" libcudnn.so.8 "a message between NULs and escapes is still found"
like "$(jq -r '.input' "$FX_OUT")" 'No such file.tail$' "the input after a NUL is kept in the document"

# --- a traceback with several messages, repeats folded
cat > "$FX.in" <<'MSG'
2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory
2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory
2023-01-01 W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory
2023-01-01 E cuda_dnn.cc:362] Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or higher minor version.
MSG
FX_STDIN=$FX.in fx_explain -- -
is "$(jq -r '[.recognised[].kind] | join(",")' "$FX_OUT")" \
    dlopen_failed,dlopen_failed,cudnn_version_mismatch "traceback: three distinct messages, in order"
is "$(jq -r '.recognised[0].repeats' "$FX_OUT")" 1 "traceback: the repeat counted"
is "$(jq -r '[.findings[] | select(.code == "SONAME_NOT_FOUND")] | length' "$FX_OUT")" 2 \
    "traceback: one not-found finding per library"
has_code FRAMEWORK_CUDA_MISMATCH
FX_STDIN=$FX.in fx_explain_text -- -
like "$(cat "$FX_OUT")" "Recognised 3 messages in 4 lines of input" "text: the count"
like "$(cat "$FX_OUT")" "\\(and 1 more line\\)" "text: the repeat"
like "$(cat "$FX_OUT")" "ERROR +SONAME_NOT_FOUND" "text: the findings"

# A pasted message may start with '-': after `explain`, only cudawiz's
# own options are options.
fx_explain -- "-> CUDA driver version is insufficient for CUDA runtime version" --offline
ok "text starting with '-' is text, not an option (exit $FX_RC)" [ "$FX_RC" -le 1 ]
like "$(jq -r .input "$FX_OUT")" "^-> CUDA driver version" "... and is the input"
unlike "$(jq -r .input "$FX_OUT")" "offline" "... while --offline after it is still an option"
fx_explain -- -q -x
is "$(jq -r .input "$FX_OUT")" "-q -x" "words that look like short options are text"

done_testing
