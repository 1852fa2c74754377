# Helpers for the ld.so.cache tests. Source after tap.sh.
#
#   LDC_DUMP            the ldcache-dump check program
#   ldc_tmp             make $LDC_TMP, a scratch directory removed at exit
#   ldc_need_python     skip_all unless python3 runs
#   ldc_find_ldconfig   set LDCONFIG to glibc's ldconfig, or fail
#   ldc_mkcache OUT     write the cache spec read from stdin to OUT
#                       (tests/lib/mkldcache.py)
#   ldc_same_as_ldconfig FILE DESC
#                       TAP check: ldcache-dump's listing of FILE is
#                       ldconfig -p's, line by line
#   ldc_lookup FILE ARG...   ldcache-dump FILE --lookup ARG..., stdout only
#   ldc_so PATH SONAME [CFLAG...]   build a small shared library

: "${CUDAWIZ:?CUDAWIZ must name the cudawiz binary (make check sets it)}"
: "${FIXTURE_CC:=cc}"
: "${FX_TMP:=${TMPDIR:-/tmp}}"
: "${TESTS_SRCDIR:?TESTS_SRCDIR must name the tests directory}"

LDC_DUMP=${LDC_DUMP:-$(dirname "$CUDAWIZ")/tests/tools/ldcache-dump}
LDC_MK=$TESTS_SRCDIR/lib/mkldcache.py
[ -x "$LDC_DUMP" ] || skip_all "$LDC_DUMP is not built"

ldc_cleanup() {
	[ -n "${LDC_TMP:-}" ] && [ -z "${FX_KEEP:-}" ] && rm -rf "$LDC_TMP"
}
trap ldc_cleanup EXIT

ldc_tmp() {
	LDC_TMP=$(mktemp -d "$FX_TMP/cudawiz-ldc.XXXXXX") || exit 99
}

ldc_need_python() {
	python3 -c 'import struct' 2>/dev/null ||
	    skip_all "python3 is not installed (Debian package: python3)"
}

ldc_find_ldconfig() {
	LDCONFIG=
	for c in "$(command -v ldconfig 2>/dev/null)" /sbin/ldconfig \
	    /usr/sbin/ldconfig; do
		if [ -n "$c" ] && [ -x "$c" ]; then
			LDCONFIG=$c
			return 0
		fi
	done
	return 1
}

ldc_mkcache() {
	cat > "$1.spec" && python3 "$LDC_MK" "$1.spec" "$1"
}

ldc_same_as_ldconfig() {
	ldc_ours=$("$LDC_DUMP" "$1" 2>&1)
	ldc_theirs=$(LC_ALL=C "$LDCONFIG" -p -C "$1" 2>&1)
	if [ "$ldc_ours" = "$ldc_theirs" ]; then
		tap_result 0 "$2"
	else
		tap_result 1 "$2"
		printf '%s\n' "$ldc_ours" > "$1.ours"
		printf '%s\n' "$ldc_theirs" > "$1.theirs"
		diff "$1.theirs" "$1.ours" | head -n 20 | sed 's/^/#   /'
	fi
}

ldc_lookup() {
	ldc_file=$1
	shift
	"$LDC_DUMP" "$ldc_file" --lookup "$@" 2>/dev/null
}

ldc_so() {
	ldc_path=$1
	ldc_soname=$2
	shift 2
	mkdir -p "$(dirname "$ldc_path")"
	printf 'int ldc_%s(void) { return 1; }\n' \
	    "$(printf '%s' "$ldc_soname" | tr -c 'A-Za-z0-9' '_')" |
	    $FIXTURE_CC -shared -fPIC -nostdlib -o "$ldc_path" \
	    -Wl,-soname,"$ldc_soname" "$@" -x c - 2>&1 | head -n 5 >&2
	[ -s "$ldc_path" ]
}
