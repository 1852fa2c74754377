#!/bin/sh
# The built-in matrix is parsed and checked at build time: src/matrix/
# mkembedded turns data/matrix.json into C initialisers (embedded.c). A
# document the parser refuses must fail the build, naming what is wrong;
# text with quotes, backslashes, "??=" (a trigraph in strict C), "*/" and
# characters beyond ASCII must come out of the C compiler as the same
# bytes. (tests/unit/test_matrix checks that the built-in rows are
# data/matrix.json's, field for field.)
. "$TESTS_SRCDIR/lib/tap.sh"

build=$(cd "$(dirname "$CUDAWIZ")" && pwd)
gen=$build/src/matrix/mkembedded
src=$TESTS_SRCDIR/../data/matrix.json
[ -x "$gen" ] || skip_all "no generator at $gen"
[ -r "$src" ] || skip_all "no matrix source at $src"

work=$(mktemp -d "${FX_TMP:-/tmp}/embed.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run FILE...: the generator's status, stdout in $work/out, stderr in $err.
run() {
	rc=0
	"$gen" "$@" > "$work/out" 2> "$work/err" || rc=$?
	err=$(cat "$work/err")
}

run "$src"
is "$rc" 0 "data/matrix.json is generated"
like "$(cat "$work/out")" '^const struct matrix matrix_builtin = \{' "  into the definition of matrix_builtin"

# One bad value: the build stops, and says where and why.
sed '0,/"version": "13.3.0"/s//"version": "13.3; rm -rf ~"/' "$src" > "$work/bad.json"
run "$work/bad.json"
is "$rc" 1 "a document with a bad version fails the generator"
like "$err" 'bad\.json is not a valid matrix.*cuda_releases\[0\]\.version: "13\.3; rm -rf ~" is not a version' \
    "  naming the document, the field and the value"
is "$(wc -c < "$work/out" | tr -d ' ')" 0 "  and writing no C"

head -c 1000 "$src" > "$work/cut.json"
run "$work/cut.json"
is "$rc" 1 "a document cut short fails it"
like "$err" 'not valid JSON' "  as JSON that is not valid"

run "$work/none.json"
is "$rc" 1 "a missing document fails it"
like "$err" 'cannot read .*none\.json: No such file' "  saying it cannot be read"

run
is "$rc" 2 "no argument is a usage error"

# Awkward text, through the C compiler and back. The JSON names every
# special character by its \u escape, so no shell or sed quoting is
# involved; what the program prints must be exactly these bytes.
want='CUDA 13.3 "q" back\slash ??= */ é€😀 ?'
sed 's/"label": "CUDA 13\.3",/"label": "CUDA 13.3 \\u0022q\\u0022 back\\u005cslash ??= *\\u002f \\u00e9\\u20ac\\ud83d\\ude00 ?",/' \
    "$src" > "$work/odd.json"
cc=${FIXTURE_CC:-cc}
if ! command -v "${cc%% *}" >/dev/null 2>&1; then
	skip "the generated C keeps awkward text" "no C compiler ($cc; Debian package: gcc)"
else
	run "$work/odd.json"
	is "$rc" 0 "a label with quotes, a backslash, ??=, */ and UTF-8 is generated"
	cp "$work/out" "$work/odd.c"
	cat > "$work/main.c" <<'C'
#include "config.h"

#include <stdio.h>

#include "matrix/internal.h"

int
main(void)
{
	const struct matrix_cuda_release *r = &matrix_builtin.cuda_releases.v[0];

	printf("%s\n%zu %zu\n", r->label, matrix_builtin.gpus.n,
	    matrix_builtin.frameworks.v[0].builds.n);
	return 0;
}
C
	# Strict C11: trigraphs are on, and every warning is an error.
	if $cc -std=c11 -Wall -Wextra -Werror -I"$build" -I"$TESTS_SRCDIR/../src" \
	    -o "$work/odd" "$work/main.c" "$work/odd.c" 2> "$work/cc.err"; then
		tap_result 0 "  it compiles as strict C11 without a warning"
		"$work/odd" > "$work/printed"
		is "$(sed -n 1p "$work/printed")" "$want" "  and holds the label's exact bytes"
		gpus=$(grep -c '"pci_ids"' "$src")
		like "$(sed -n 2p "$work/printed")" "^$gpus [0-9]+\$" "  and all $gpus GPUs"
	else
		tap_result 1 "  it compiles as strict C11 without a warning"
		sed 's/^/#   /' "$work/cc.err" | head -n 20
	fi
fi

done_testing
