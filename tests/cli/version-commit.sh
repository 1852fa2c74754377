#!/bin/sh
# --version names the build: one first line "cudawiz VERSION (commit
# HASH, matrix YYYY-MM-DD)". Built from git, HASH is HEAD's short hash
# (12 digits, "-dirty" after it for uncommitted changes); from a tarball,
# the one `make dist` recorded. The date is data/matrix.json's, the
# built-in matrix. The helper names its commit too.
. "$TESTS_SRCDIR/lib/tap.sh"

top=$TESTS_SRCDIR/..
out=$("$CUDAWIZ" --version); rc=$?
is "$rc" 0 "--version exits 0"
first=$(printf '%s\n' "$out" | sed -n 1p)
like "$first" '^cudawiz [0-9][0-9.a-z~-]* \(commit [0-9a-z.-]+, matrix [0-9]{4}-[0-9]{2}-[0-9]{2}\)$' \
    "the first line is 'cudawiz VERSION (commit HASH, matrix DATE)'"
is "$(printf '%s\n' "$first" | sed 's/ (.*//')" "cudawiz $(sed -n \
    's/^AC_INIT(\[cudawiz\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")" \
    "the part before ' (' is the name and configure.ac's version"
is "$("$CUDAWIZ" -V | sed -n 1p)" "$first" "-V says the same"

commit=$(printf '%s\n' "$first" | sed -n 's/.*(commit \([^,]*\),.*/\1/p')
date=$(printf '%s\n' "$first" | sed -n 's/.*, matrix \([0-9-]*\))$/\1/p')
if command -v jq > /dev/null 2>&1; then
	is "$date" "$(jq -r .date "$top/data/matrix.json")" \
	    "the matrix date is data/matrix.json's"
else
	skip "the matrix date" "jq is not installed (Debian package: jq)"
fi
if [ -r "$top/.tarball-commit" ]; then
	is "$commit" "$(sed -n 1p "$top/.tarball-commit")" \
	    "from a tarball: the commit make dist recorded"
elif [ -e "$top/.git" ] && command -v git > /dev/null 2>&1 &&
    head=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null); then
	is "${commit%-dirty}" "$head" "the commit is HEAD's (git rev-parse --short=12)"
	like "$commit" '^[0-9a-f]{12,}(-dirty)?$' "a short hash, -dirty at most after it"
else
	is "$commit" "unknown" "neither git nor a tarball's record: unknown"
fi

hv=$("$CUDAWIZ_HELPER" --version); rc=$?
is "$rc" 0 "cudawiz-verify --version exits 0"
is "$hv" "cudawiz-verify $(printf '%s\n' "$first" | sed 's/^cudawiz \([^ ]*\) .*/\1/') (commit $commit)" \
    "the helper names the same version and commit"
done_testing
