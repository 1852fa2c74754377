#!/bin/sh
# Caches built by this machine's ldconfig in a fixture tree: 64-bit
# libraries with glibc-hwcaps copies (so the extension is there), 32-bit
# and x32 ones. The reader must list them as ldconfig -p does, and the
# lookup must choose as glibc 2.36 does.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_ldcache.sh"

[ "$(uname -m)" = x86_64 ] || skip_all "the fixtures are x86-64 libraries"
ldc_find_ldconfig || skip_all "ldconfig is not installed (Debian package: libc-bin)"
[ "$(id -u)" = 0 ] || skip_all "ldconfig -r chroots, which needs root"
ldc_tmp
T=$LDC_TMP/tree
L=$T/usr/lib/cw
mkdir -p "$T/etc" "$T/var/cache/ldconfig"
printf '/usr/lib/cw\n/usr/lib32/cw\n/usr/libx32/cw\n' > "$T/etc/ld.so.conf"

ldc_so "$L/libfoo.so.1" libfoo.so.1 || skip_all "$FIXTURE_CC cannot build shared libraries"
ldc_so "$L/glibc-hwcaps/x86-64-v2/libfoo.so.1" libfoo.so.1
ldc_so "$L/glibc-hwcaps/x86-64-v3/libfoo.so.1" libfoo.so.1
ldc_so "$L/libbar.so.2" libbar.so.2
ldc_so "$L/glibc-hwcaps/x86-64-v3/libbaz.so.3" libbaz.so.3
ldc_so "$L/libisa.so.1" libisa.so.1
# A library that needs x86-64-v4 placed in the v2 directory: ldconfig
# records the ISA level, and the loader refuses it on a CPU below v4.
have_isa=yes
ldc_so "$L/glibc-hwcaps/x86-64-v2/libisa.so.1" libisa.so.1 -Wl,-z,x86-64-v4 ||
    have_isa=
ldc_so "$L/libnum.so.9" libnum.so.9
ldc_so "$L/libnum.so.10" libnum.so.10
have32=yes
ldc_so "$T/usr/lib32/cw/libfoo.so.1" libfoo.so.1 -m32 2>/dev/null || have32=
if [ -n "$have32" ]; then
	ldc_so "$T/usr/lib32/cw/libonly32.so.1" libonly32.so.1 -m32
	# A stand-in libc.so.6 as DT_NEEDED makes ldconfig mark it libc6.
	ldc_so "$LDC_TMP/libc32.so" libc.so.6 -m32
	ldc_so "$T/usr/lib32/cw/libsix.so.1" libsix.so.1 -m32 \
	    -Wl,--no-as-needed "$LDC_TMP/libc32.so"
fi
havex32=yes
ldc_so "$T/usr/libx32/cw/libfoo.so.1" libfoo.so.1 -mx32 2>/dev/null || havex32=

"$LDCONFIG" -X -r "$T" -f /etc/ld.so.conf -C /etc/ld.so.cache 2> "$LDC_TMP/ldconfig.err"
is "$?" 0 "ldconfig builds the fixture's cache"
sed 's/^/#   /' "$LDC_TMP/ldconfig.err"
C=$T/etc/ld.so.cache

ldc_same_as_ldconfig "$C" "the listing is ldconfig -p's"
is "$("$LDC_DUMP" --format "$C")" "format new
hwcaps 0 x86-64-v2
hwcaps 1 x86-64-v3" "new format, and the extension's subdirectories in order"
like "$("$LDC_DUMP" "$C")" 'libfoo.so.1 \(libc6,x86-64, hwcap: "x86-64-v3"\) => /usr/lib/cw/glibc-hwcaps/x86-64-v3/libfoo.so.1' \
    "a glibc-hwcaps entry carries its subdirectory"

V2=x86-64-v2 V3=x86-64-v3 V4=x86-64-v4
is "$(ldc_lookup "$C" libfoo.so.1 --active $V4,$V3,$V2)" \
    "libfoo.so.1 => /usr/lib/cw/glibc-hwcaps/x86-64-v3/libfoo.so.1" \
    "the best active subdirectory with an entry wins"
is "$(ldc_lookup "$C" libfoo.so.1 --active $V2)" \
    "libfoo.so.1 => /usr/lib/cw/glibc-hwcaps/x86-64-v2/libfoo.so.1" \
    "an active subdirectory lower down is taken when the better ones are not active"
is "$(ldc_lookup "$C" libfoo.so.1 --active $V2,$V3)" \
    "libfoo.so.1 => /usr/lib/cw/glibc-hwcaps/x86-64-v2/libfoo.so.1" \
    "the priority order given decides, not the names"
is "$(ldc_lookup "$C" libfoo.so.1 --active '')" \
    "libfoo.so.1 => /usr/lib/cw/libfoo.so.1" \
    "with none active, the plain entry"
is "$(ldc_lookup "$C" libfoo.so.1 --active $V4)" \
    "libfoo.so.1 => /usr/lib/cw/libfoo.so.1" \
    "an active subdirectory without an entry falls through to the plain one"
is "$(ldc_lookup "$C" libbar.so.2 --active $V4,$V3,$V2)" \
    "libbar.so.2 => /usr/lib/cw/libbar.so.2" "a plain-only library"
is "$(ldc_lookup "$C" libbaz.so.3 --active '')" "libbaz.so.3 => not found" \
    "a glibc-hwcaps-only library is not found with none active"
is "$(ldc_lookup "$C" libbaz.so.3 --active $V3,$V2)" \
    "libbaz.so.3 => /usr/lib/cw/glibc-hwcaps/x86-64-v3/libbaz.so.3" \
    "… and found with its subdirectory active"
is "$(ldc_lookup "$C" libbaz.so.3 --active $V2)" "libbaz.so.3 => not found" \
    "… but not with another one active"
if [ -n "$have_isa" ]; then
	is "$(ldc_lookup "$C" libisa.so.1 --active $V4,$V3,$V2)" \
	    "libisa.so.1 => /usr/lib/cw/glibc-hwcaps/x86-64-v2/libisa.so.1" \
	    "a library needing x86-64-v4 is used on a v4 CPU"
	is "$(ldc_lookup "$C" libisa.so.1 --active $V3,$V2)" \
	    "libisa.so.1 => /usr/lib/cw/libisa.so.1" \
	    "… and passed over below v4, whatever its directory"
else
	skip "ISA levels in the cache" "$FIXTURE_CC's linker lacks -z x86-64-v4"
	skip "ISA levels in the cache" "$FIXTURE_CC's linker lacks -z x86-64-v4"
fi
is "$(ldc_lookup "$C" libnum.so.9 libnum.so.10 libnum.so.010)" \
    "libnum.so.9 => /usr/lib/cw/libnum.so.9
libnum.so.10 => /usr/lib/cw/libnum.so.10
libnum.so.010 => /usr/lib/cw/libnum.so.10" \
    "numbers in names compare as numbers, as in _dl_cache_libcmp"
is "$(ldc_lookup "$C" libfoo.so.1 --abi aarch64 --active $V3)" \
    "libfoo.so.1 => not found" "no entry of another ABI is returned"

if [ -n "$have32" ]; then
	is "$(ldc_lookup "$C" libonly32.so.1 --active $V4,$V3,$V2)" \
	    "libonly32.so.1 => not found" "a 32-bit entry is never returned for x86-64"
	is "$(ldc_lookup "$C" libfoo.so.1 libsix.so.1 libonly32.so.1 libbar.so.2 --abi i386)" \
	    "libfoo.so.1 => /usr/lib32/cw/libfoo.so.1
libsix.so.1 => /usr/lib32/cw/libsix.so.1
libonly32.so.1 => /usr/lib32/cw/libonly32.so.1
libbar.so.2 => not found" "i386 takes ELF and libc6 entries, and no 64-bit one"
	like "$("$LDC_DUMP" "$C")" 'libsix.so.1 \(libc6\) => ' \
	    "the i386 library with libc.so.6 is marked libc6"
else
	for what in "32-bit entries for x86-64" "i386 lookups" "libc6 marking"; do
		skip "$what" "$FIXTURE_CC cannot build -m32"
	done
fi
if [ -n "$havex32" ]; then
	is "$(ldc_lookup "$C" libfoo.so.1 libbar.so.2 --abi x32)" \
	    "libfoo.so.1 => /usr/libx32/cw/libfoo.so.1
libbar.so.2 => not found" "x32 takes only x32 entries"
else
	skip "x32 entries" "$FIXTURE_CC cannot build -mx32"
fi

# Every name: with none active, the first plain x86-64 entry ldconfig -p
# lists for it.
"$LDC_DUMP" "$C" | awk '$2 == "(libc6,x86-64)" && !seen[$1]++ {
	print $1 " => " $4 }' > "$LDC_TMP/want"
# shellcheck disable=SC2046
ldc_lookup "$C" $(awk '{ print $1 }' "$LDC_TMP/want") > "$LDC_TMP/got"
is "$(cat "$LDC_TMP/got")" "$(cat "$LDC_TMP/want")" \
    "every name resolves to its first plain entry"

"$LDC_DUMP" --fuzz "$C" --all --flips 3000 ${LDCACHE_SEED:+--seed "$LDCACHE_SEED"} \
    > "$LDC_TMP/fuzz" 2>&1
is "$?" 0 "every truncation and 3000 damaged copies: 0 or -1 with a message"
grep -v '^ok' "$LDC_TMP/fuzz" | head -n 25 | sed 's/^/# /'

done_testing
