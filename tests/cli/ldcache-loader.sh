#!/bin/sh
# The lookup against the real loader: a chroot holding this machine's
# ld.so and libc, a program that needs libraries found only through the
# cache, copies of them in glibc-hwcaps and legacy hwcap subdirectories,
# and the cache ldconfig builds. `ld.so --list` in the chroot says which
# copy glibc loads; ldcache-dump must say the same, told the glibc-hwcaps
# and legacy subdirectories `ld.so --help` reports as supported. CPUs
# are varied with glibc.cpu.hwcaps tunables, which both ld.so runs see.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_ldcache.sh"

LDSO=/lib64/ld-linux-x86-64.so.2
[ "$(uname -m)" = x86_64 ] || skip_all "the fixtures are x86-64 libraries"
ldc_find_ldconfig || skip_all "ldconfig is not installed (Debian package: libc-bin)"
[ "$(id -u)" = 0 ] || skip_all "ldconfig -r and chroot need root"
CHROOT=$(command -v chroot 2>/dev/null || echo /usr/sbin/chroot)
[ -x "$CHROOT" ] || skip_all "chroot is not installed (Debian package: coreutils)"
[ -x "$LDSO" ] || skip_all "no $LDSO"
"$LDSO" --help 2>/dev/null | grep -q 'Subdirectories of glibc-hwcaps' ||
    skip_all "$LDSO --help does not list glibc-hwcaps subdirectories (glibc < 2.33)"

ldc_tmp
T=$LDC_TMP/tree
L=$T/usr/lib/cw
mkdir -p "$T/etc" "$T/var/cache/ldconfig" "$T/lib64" "$T/usr/bin" "$L"

# A program per library (`ld.so --list` stops at the first one it cannot
# find), linked against stand-ins; then the loader and libc.
for n in libfoo.so.1 libisa.so.1 libv3.so.1; do
	ldc_so "$LDC_TMP/link/$n" "$n" ||
	    skip_all "$FIXTURE_CC cannot build shared libraries"
	printf 'int main(void) { return 0; }\n' |
	    $FIXTURE_CC -x c -o "$T/usr/bin/needs-$n" - -x none \
	    -Wl,--no-as-needed "$LDC_TMP/link/$n" ||
	    skip_all "$FIXTURE_CC cannot link a program"
done
LIBC=$(LD_LIBRARY_PATH=$LDC_TMP/link "$LDSO" --list "$T/usr/bin/needs-libfoo.so.1" \
    2>/dev/null | awk '$1 == "libc.so.6" { print $3 }')
[ -f "$LIBC" ] || skip_all "cannot find this machine's libc.so.6"
LIBCDIR=$(dirname "$LIBC")
mkdir -p "$T$LIBCDIR"
if ! cp -L "$LDSO" "$T/lib64/" || ! cp -L "$LIBC" "$T$LIBCDIR/"; then
	skip_all "cannot copy the loader and libc"
fi
printf '/usr/lib/cw\n%s\n' "$LIBCDIR" > "$T/etc/ld.so.conf"
"$CHROOT" "$T" /lib64/ld-linux-x86-64.so.2 --help > /dev/null 2>&1 ||
    skip_all "cannot run the loader in a chroot"

SUBDIRS="glibc-hwcaps/x86-64-v4 glibc-hwcaps/x86-64-v3 glibc-hwcaps/x86-64-v2
tls/haswell/x86_64 haswell/x86_64 tls haswell x86_64 avx512_1 xeon_phi"

# The copies: built once, then copied into place.
ldc_so "$LDC_TMP/link/libisa-v4.so.1" libisa.so.1 -Wl,-z,x86-64-v4 2>/dev/null ||
    cp "$LDC_TMP/link/libisa.so.1" "$LDC_TMP/link/libisa-v4.so.1"
put() {	# BUILT DEST
	mkdir -p "$(dirname "$2")" && cp "$LDC_TMP/link/$1" "$2"
}

# setup SUBDIR...: libfoo.so.1 in the library directory and those
# subdirectories; libisa.so.1 plain and, needing x86-64-v4, in the v2
# subdirectory; libv3.so.1 only in the v3 one. Then ldconfig.
setup() {
	rm -rf "$L"
	put libfoo.so.1 "$L/libfoo.so.1"
	for d in "$@"; do
		put libfoo.so.1 "$L/$d/libfoo.so.1"
	done
	put libisa.so.1 "$L/libisa.so.1"
	put libisa-v4.so.1 "$L/glibc-hwcaps/x86-64-v2/libisa.so.1"
	put libv3.so.1 "$L/glibc-hwcaps/x86-64-v3/libv3.so.1"
	"$LDCONFIG" -X -r "$T" -f /etc/ld.so.conf -C /etc/ld.so.cache
}

# supported SECTION: the names ld.so --help marks supported in a section.
supported() {
	awk -v sect="$1" '
		/^[^ ]/ { on = index($0, sect) == 1; next }
		on && /supported/ { printf "%s%s", sep, $1; sep = "," }' \
	    "$LDC_TMP/help"
}

# compare TUNABLES WHAT [LIB...]: one check per library (default: all three).
compare() {
	ctun=$1
	cwhat=$2
	shift 2
	[ $# -gt 0 ] || set -- libfoo.so.1 libisa.so.1 libv3.so.1
	env -i ${ctun:+GLIBC_TUNABLES=$ctun} "$CHROOT" "$T" \
	    /lib64/ld-linux-x86-64.so.2 --help > "$LDC_TMP/help" 2>&1
	active=$(supported "Subdirectories of glibc-hwcaps")
	legacy=$(supported "Legacy HWCAP subdirectories")
	isa=$(env -i ${ctun:+GLIBC_TUNABLES=$ctun} "$CHROOT" "$T" \
	    /lib64/ld-linux-x86-64.so.2 --list-diagnostics 2>/dev/null |
	    sed -n 's/^x86\.cpu_features\.isa_1=//p')
	for n in "$@"; do
		env -i ${ctun:+GLIBC_TUNABLES=$ctun} "$CHROOT" "$T" \
		    /lib64/ld-linux-x86-64.so.2 --list "/usr/bin/needs-$n" \
		    > "$LDC_TMP/list" 2>&1
		real=$(awk -v n="$n" '
			$1 == n { print n " => " $3 }
			/cannot open shared object file/ { print n " => not found" }' \
		    "$LDC_TMP/list")
		ours=$(ldc_lookup "$T/etc/ld.so.cache" "$n" --active "$active" \
		    --legacy "$legacy" ${isa:+--isa "$isa"})
		is "$ours" "$real" "$cwhat, ${ctun:-no tunables}: $n as the loader finds it"
		[ -n "$real" ] || sed 's/^/#   ld.so --list: /' "$LDC_TMP/list"
	done
	diag "glibc-hwcaps: $active; legacy: $legacy; ISA levels: ${isa:-?}"
}

# Tunables that take x86-64-v4 away, then v3 (and the haswell platform),
# then v2.
TUNABLES=" glibc.cpu.hwcaps=-AVX512F glibc.cpu.hwcaps=-AVX2 glibc.cpu.hwcaps=-AVX2,-SSE4_2,-POPCNT"

# shellcheck disable=SC2086
setup $SUBDIRS
for t in $TUNABLES ""; do compare "$t" "every subdirectory"; done
setup tls/haswell/x86_64 haswell/x86_64 tls haswell x86_64 avx512_1 xeon_phi
for t in $TUNABLES ""; do compare "$t" "legacy subdirectories only"; done
setup haswell avx512_1 xeon_phi
for t in $TUNABLES ""; do compare "$t" "platform subdirectories"; done
setup tls
compare "" "tls only"
setup
compare "" "plain only"

# Caches of the other layouts, written by tests/lib/mkldcache.py: the
# loader of glibc 2.36 still reads them.
if ! python3 -c 'import struct' 2>/dev/null; then
	skip "old-format caches against the loader" "python3 is not installed"
	done_testing
	exit
fi
setup glibc-hwcaps/x86-64-v3 glibc-hwcaps/x86-64-v2 tls
put libfoo.so.1 "$L/old/libfoo.so.1"
HW="entry libfoo.so.1 0x303 /usr/lib/cw/glibc-hwcaps/x86-64-v2/libfoo.so.1 subdir=x86-64-v2
entry libfoo.so.1 0x303 /usr/lib/cw/glibc-hwcaps/x86-64-v3/libfoo.so.1 subdir=x86-64-v3
entry libfoo.so.1 0x303 /usr/lib/cw/tls/libfoo.so.1 hwcap=0x8000000000000000
entry libfoo.so.1 0x303 /usr/lib/cw/libfoo.so.1
entry libfoo.so.1 0x3 /usr/lib/cw/old/libfoo.so.1
entry libv3.so.1 0x303 /usr/lib/cw/glibc-hwcaps/x86-64-v3/libv3.so.1 subdir=x86-64-v3"

printf 'format old\nentry libfoo.so.1 0x3 /usr/lib/cw/libfoo.so.1\nentry libfoo.so.1 0x303 /usr/lib/cw/old/libfoo.so.1\n' |
    ldc_mkcache "$T/etc/ld.so.cache"
compare "" "old format" libfoo.so.1
is "$real" "libfoo.so.1 => /usr/lib/cw/old/libfoo.so.1" \
    "(the loader takes the old format's x86-64 entry)"

printf 'format old+new\nhwcaps x86-64-v2 x86-64-v3\n%s\n' "$HW" |
    ldc_mkcache "$T/etc/ld.so.cache"
for t in $TUNABLES ""; do
	compare "$t" "old+new with glibc-hwcaps" libfoo.so.1 libv3.so.1
done

printf 'format old+new\nhwcaps-base new\nhwcaps x86-64-v2 x86-64-v3\n%s\n' "$HW" |
    ldc_mkcache "$T/etc/ld.so.cache"
compare "" "old+new, names as ldconfig -c compat stores them" libfoo.so.1 libv3.so.1
is "$real" "libv3.so.1 => not found" \
    "(the loader does not find glibc-hwcaps names stored as ldconfig -c compat does)"

printf 'format new\nhwcaps x86-64-v3 x86-64-v2\n%s\n' "$HW" |
    ldc_mkcache "$T/etc/ld.so.cache"
for t in $TUNABLES ""; do
	compare "$t" "unsorted glibc-hwcaps names" libfoo.so.1 libv3.so.1
done

# Entries in ascending order, the reverse of ldconfig's: the loader's
# bisection meets libisa.so.1 only.
ldc_mkcache "$T/etc/ld.so.cache" <<'EOF'
format new
order as-given
entry libaaa.so.1 0x303 /usr/lib/cw/libfoo.so.1
entry libfoo.so.1 0x303 /usr/lib/cw/libfoo.so.1
entry libisa.so.1 0x303 /usr/lib/cw/libisa.so.1
entry libv3.so.1 0x303 /usr/lib/cw/glibc-hwcaps/x86-64-v3/libv3.so.1
entry libzzz.so.1 0x303 /usr/lib/cw/libfoo.so.1
EOF
compare "" "entries out of order"
is "$real" "libv3.so.1 => not found" "(the loader misses an entry out of order)"

done_testing
