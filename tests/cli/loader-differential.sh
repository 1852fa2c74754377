#!/bin/sh
# The differential test: `cudawiz why --from FILE --json` against the real
# glibc loader (ld.so in trace mode, what ldd runs) on seeded random
# library trees built by tests/lib/gentree.py. One TAP test per tree; a
# tree where cudawiz and glibc disagree is kept, with the commands that
# replay both sides.
#
#   DIFF_TREES  how many trees (default 300)
#   DIFF_SEED   the first seed (default: fixed, so every run checks the
#               same trees; set it to explore others)
#   DIFF_JOBS   trees built and compared at once (default 2)
. "$TESTS_SRCDIR/lib/tap.sh"

: "${diff_modes:=list}"
: "${diff_first:=1}"
: "${FX_TMP:=${TMPDIR:-/tmp}}"
ldso=/lib64/ld-linux-x86-64.so.2
probe=${DIFF_PROBE:-$(dirname "$CUDAWIZ")/tests/tools/dlopen-probe}

[ "$(uname -m)" = x86_64 ] ||
    skip_all "the trees are built for x86-64 and this is $(uname -m)"
command -v python3 >/dev/null 2>&1 ||
    skip_all "python3 is not installed (Debian package: python3)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 6))' ||
    skip_all "python3 is older than 3.6"
for tool in ld as; do
	command -v $tool >/dev/null 2>&1 ||
	    skip_all "$tool is not installed (Debian package: binutils)"
done
[ -x "$ldso" ] || skip_all "no glibc loader at $ldso"
"$ldso" --version 2>/dev/null | grep -q 'GLIBC\|GNU C Library' ||
    skip_all "$ldso is not glibc's loader"
[ -x "$probe" ] || skip_all "$probe is not built"

mkdir -p "$FX_TMP" || exit 99
work=$(mktemp -d "$FX_TMP/cudawiz-diff.XXXXXX") || exit 99
if [ "${diff_selftest:-}" = yes ]; then
	exec python3 "$TESTS_SRCDIR/lib/gentree.py" selftest --work "$work" \
	    --probe "$probe"
fi
# gentree.py removes the work directory when every tree agrees, and keeps
# it (with the failing trees in it) when not.
exec python3 "$TESTS_SRCDIR/lib/gentree.py" run --work "$work" \
    --probe "$probe" --cudawiz "$CUDAWIZ" --modes "$diff_modes" \
    --first "${DIFF_SEED:-$diff_first}" --count "${DIFF_TREES:-300}" \
    --jobs "${DIFF_JOBS:-2}"
