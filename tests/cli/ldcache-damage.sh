#!/bin/sh
# Damaged caches: each kind of damage gives -1 and a message naming the
# file and the damage; no cache at all is ENOENT; and fuzzed copies of
# caches in all three layouts never crash the reader (the ASan build runs
# this too). LDCACHE_SEED=N replays a fuzzing run.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_ldcache.sh"

ldc_need_python
ldc_tmp
D=$LDC_TMP

# damaged FILE PATTERN DESC: exit status 2 and a message matching PATTERN.
damaged() {
	out=$("$LDC_DUMP" "$1" 2>&1)
	rc=$?
	if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -Eq -- "$2"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		diag "exit $rc: $out"
		diag "wanted exit 2 and: $2"
	fi
}

# A new-format cache whose layout the checks below poke at: the header
# (48 bytes), three entries of 24 bytes from offset 48, the strings, and
# the extension directory, whose offset is at 32, at the end.
NEW="format new
generator mkldcache.py damage test
hwcaps x86-64-v3
entry libz.so.1 0x303 /usr/lib/glibc-hwcaps/x86-64-v3/libz.so.1 subdir=x86-64-v3
entry libz.so.1 0x303 /usr/lib/libz.so.1
entry liba.so.2 0x303 /usr/lib/liba.so.2"
printf '%s\n' "$NEW" | ldc_mkcache "$D/new"
is "$("$LDC_DUMP" "$D/new" | head -n 1)" "3 libs found in cache \`$D/new'" \
    "(the undamaged cache reads)"
size=$(wc -c < "$D/new")
ext=$(python3 -c 'import struct,sys; print(struct.unpack_from("<I", open(sys.argv[1], "rb").read(), 32)[0])' "$D/new")

mk() {	# NAME DIRECTIVE...: the new cache with directives after it
	n=$1
	shift
	{ printf '%s\n' "$NEW"; printf '%s\n' "$@"; } | ldc_mkcache "$D/$n"
}

: > "$D/empty"
damaged "$D/empty" "$D/empty: damaged ld.so.cache: the file is empty" "an empty file"
printf 'hello, world\n' > "$D/text"
damaged "$D/text" "$D/text: not an ld.so.cache: it starts with neither" "a file of another kind"
mk cut20 "truncate 20"
damaged "$D/cut20" "the header is cut short \(20 of 48 bytes\)" "a new header cut short"
printf 'ld.so-1.7.0' > "$D/oldcut"
damaged "$D/oldcut" "the header is cut short \(11 of 16 bytes\)" "an old header cut short"
mk nlibs "poke 20 4 0xffffffff"
damaged "$D/nlibs" "4294967295 entries of 24 bytes do not fit in the $((size - 48)) bytes after the header" \
    "an entry count larger than the file"
mk cutentries "truncate 100"
damaged "$D/cutentries" "3 entries of 24 bytes do not fit in the 52 bytes after the header" \
    "entries cut short"
mk key "poke 76 4 0x7fffffff"
damaged "$D/key" "entry 1: the name's offset 2147483647 lies outside the file \($size bytes\)" \
    "a name's offset outside the file"
mk value "poke 104 4 $size"
damaged "$D/value" "entry 2: the path's offset $size lies outside the file" \
    "a path's offset just past the end"
# The generator string ends the file without a NUL.
mk unterminated "poke 104 4 $((size - 3))"
damaged "$D/unterminated" "entry 2: the path at offset $((size - 3)) runs to the end of the file unterminated" \
    "a string running to the end of the file"
mk endian "poke 28 1 3"
damaged "$D/endian" "its byte order mark \(3\) is not this machine's \(2\)" \
    "a cache of the other byte order"
mk endian1 "poke 28 1 1"
damaged "$D/endian1" "its byte order mark \(1\) is not this machine's" \
    "a cache ldconfig marked invalid"
mk extalign "poke 32 4 $((ext + 2))"
damaged "$D/extalign" "the extension directory's offset $((ext + 2)) is not a multiple of 4" \
    "a misaligned extension directory"
mk extout "poke 32 4 $(((size + 4) / 4 * 4))"
damaged "$D/extout" "the extension directory at offset $(((size + 4) / 4 * 4)) lies outside the file" \
    "an extension directory past the end"
mk extmagic "poke $ext 4 0"
damaged "$D/extmagic" "the extension directory at offset $ext does not start with its magic number" \
    "an extension directory without its magic number"
mk extcount "poke $((ext + 4)) 4 1000000"
damaged "$D/extcount" "the extension directory's 1000000 sections run past the end of the file" \
    "too many extension sections"
mk extsect "poke $((ext + 8 + 8)) 4 $((size - 2))"
damaged "$D/extsect" "extension section 0 \(4 bytes at offset $((size - 2))\) lies outside the file" \
    "an extension section past the end"
mk extwrap "poke $((ext + 8 + 8)) 4 0xfffffffc"
damaged "$D/extwrap" "extension section 0 \(4 bytes at offset 4294967292\) lies outside the file" \
    "an extension section whose end wraps around"
# An unknown section tag is skipped, as glibc skips it.
mk exttag "poke $((ext + 8)) 4 77"
is "$("$LDC_DUMP" --format "$D/exttag")" "format new" "an unknown extension section is skipped"
# A glibc-hwcaps name outside the file is a name glibc cannot match.
mk hwname "poke $((ext + 8 + 16 + 16)) 4 $((size + 100))"
is "$("$LDC_DUMP" --format "$D/hwname")" "format new
hwcaps 0 " "a glibc-hwcaps name outside the file stays empty"
is "$(ldc_lookup "$D/hwname" libz.so.1 --active x86-64-v3)" "libz.so.1 => /usr/lib/libz.so.1" \
    "… and its entries are never chosen"

# The old layouts.
ldc_mkcache "$D/old" <<'EOF'
format old
entry libz.so.1 0x303 /usr/lib/libz.so.1
entry liba.so.2 0x303 /usr/lib/liba.so.2
EOF
osize=$(wc -c < "$D/old")
{ cat "$D/old.spec"; echo "poke 12 4 1000"; } | ldc_mkcache "$D/oldcount"
damaged "$D/oldcount" "1000 entries of 12 bytes do not fit in the $((osize - 16)) bytes after the header" \
    "an old entry count larger than the file"
{ cat "$D/old.spec"; echo "poke 24 4 $osize"; } | ldc_mkcache "$D/oldvalue"
damaged "$D/oldvalue" "entry 0: the path's offset $osize lies outside the file" \
    "an old path offset outside the file (old strings count from the end of the entries)"
ldc_mkcache "$D/compat" <<'EOF'
format old+new
entry libz.so.1 0x303 /usr/lib/libz.so.1
entry liba.so.2 0x303 /usr/lib/liba.so.2
EOF
# Two old entries: the new header is at 16 + 24 = 40.
{ cat "$D/compat.spec"; echo "poke 60 4 1000"; } | ldc_mkcache "$D/compatcount"
damaged "$D/compatcount" "1000 entries of 24 bytes do not fit" \
    "old+new: the new part's count is checked too"
{ cat "$D/compat.spec"; echo "poke 40 1 0"; } | ldc_mkcache "$D/compatmagic"
is "$("$LDC_DUMP" --format "$D/compatmagic")" "format old" \
    "old+new without the new magic is the old format alone, as for glibc"

# No cache, and things that are not files.
"$LDC_DUMP" "$D/missing" > /dev/null 2> "$D/err"
is "$?" 3 "no cache: ENOENT"
like "$(cat "$D/err")" "$D/missing: No such file or directory" "… with its message"
mkdir -p "$D/root/etc"
"$LDC_DUMP" --root "$D/root" /etc/ld.so.cache > /dev/null 2>&1
is "$?" 3 "no cache inside a --root tree: ENOENT"
# SYSROOT_ENOTREG is -1, the value for damage: the message tells them apart.
mkdir "$D/root/etc/ld.so.cache"
"$LDC_DUMP" --root "$D/root" /etc/ld.so.cache > /dev/null 2> "$D/err"
is "$?" 2 "a directory in the cache's place is an error"
is "$(cat "$D/err")" "ldcache-dump: /etc/ld.so.cache: not a regular file" \
    "… naming the path inside the tree"
if mkfifo "$D/fifo" 2>/dev/null; then
	"$LDC_DUMP" "$D/fifo" > /dev/null 2> "$D/err"
	is "$?:$(cat "$D/err")" "2:ldcache-dump: $D/fifo: not a regular file" \
	    "a FIFO is refused without blocking"
else
	skip "a FIFO" "mkfifo failed"
fi
if truncate -s 65M "$D/huge" 2>/dev/null; then
	"$LDC_DUMP" "$D/huge" > /dev/null 2> "$D/err"
	is "$?" 4 "a 65 MiB file is refused"
	like "$(cat "$D/err")" "larger than 64 MiB" "… saying why"
else
	skip "a 65 MiB file" "truncate failed"
	skip "a 65 MiB file" "truncate failed"
fi

# Fuzzing: every truncation and random damage, in all three layouts.
ldc_mkcache "$D/fuzz-old" <<'EOF'
format old
entry libz.so.1 0x303 /usr/lib/libz.so.1
entry libz.so.1 0x3 /usr/lib32/libz.so.1
entry libelf.so.1 0x1 /usr/lib32/libelf.so.1
entry liba.so.2 0x303 /usr/lib/liba.so.2
EOF
ldc_mkcache "$D/fuzz-compat" <<'EOF'
format old+new
generator mkldcache.py fuzz test
hwcaps x86-64-v2 x86-64-v3
entry libz.so.1 0x303 /usr/lib/glibc-hwcaps/x86-64-v3/libz.so.1 subdir=x86-64-v3
entry libz.so.1 0x303 /usr/lib/glibc-hwcaps/x86-64-v2/libz.so.1 subdir=x86-64-v2 isa=3
entry libz.so.1 0x303 /usr/lib/tls/libz.so.1 hwcap=0x8000000000000000
entry libz.so.1 0x303 /usr/lib/libz.so.1
entry libz.so.1 0x3 /usr/lib32/libz.so.1
entry liba.so.2 0x303 /usr/lib/liba.so.2
EOF
for f in new fuzz-old fuzz-compat; do
	"$LDC_DUMP" --fuzz "$D/$f" --all --flips 3000 \
	    ${LDCACHE_SEED:+--seed "$LDCACHE_SEED"} > "$D/$f.fuzz" 2>&1
	is "$?" 0 "$f: every truncation and 3000 damaged copies give 0 or -1 with a message"
	grep -v '^ok' "$D/$f.fuzz" | head -n 25 | sed 's/^/# /'
done

done_testing
