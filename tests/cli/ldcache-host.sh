#!/bin/sh
# This machine's /etc/ld.so.cache: listed exactly as `ldconfig -p` lists
# it, and every name looked up as glibc would.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_ldcache.sh"

C=/etc/ld.so.cache
ldc_find_ldconfig || skip_all "ldconfig is not installed (Debian package: libc-bin)"
[ -r "$C" ] || skip_all "this machine has no readable $C"
ldc_tmp

ldc_same_as_ldconfig "$C" "$C is listed line by line as ldconfig -p lists it"
is "$("$LDC_DUMP" --root / "$C" | head -n 1)" "$("$LDC_DUMP" "$C" | head -n 1)" \
    "--root / reads the same file"

# Every name, for the ABIs this machine's cache holds: the first entry of
# the name with those flags and no hwcap, as glibc's search takes for a
# cache without glibc-hwcaps entries. (With them, the plain entry is
# still the answer when none is active.)
"$LDC_DUMP" "$C" > "$LDC_TMP/list"
for abi in "x86-64 libc6,x86-64" "i386 libc6|ELF" "x32 libc6,x32" \
    "aarch64 libc6,AArch64"; do
	name=${abi%% *}
	want=${abi#* }
	awk -v want="$want" '
		BEGIN { n = split(want, w, "|") }
		NR > 1 && /^\t/ {
			f = $2; gsub(/[()]/, "", f)
			for (i = 1; i <= n; i++)
				if (f == w[i] && !seen[$1]++)
					print $1 " => " $4
		}' "$LDC_TMP/list" > "$LDC_TMP/want.$name"
	if [ ! -s "$LDC_TMP/want.$name" ]; then
		skip "every $name name" "the cache has no $name entries"
		continue
	fi
	# shellcheck disable=SC2046
	ldc_lookup "$C" $(awk '{ print $1 }' "$LDC_TMP/want.$name") \
	    --abi "$name" --active '' > "$LDC_TMP/got.$name"
	is "$(cat "$LDC_TMP/got.$name")" "$(cat "$LDC_TMP/want.$name")" \
	    "every $name name ($(wc -l < "$LDC_TMP/want.$name")) resolves to its first entry"
done

# A name the cache cannot have.
is "$(ldc_lookup "$C" libcudawiz-no-such-library.so.1)" \
    "libcudawiz-no-such-library.so.1 => not found" "an absent name is not found"

# The cache of a real machine, damaged: a sample of truncations (every one
# in the first and last 4 KiB) and random changes, under the seed printed.
"$LDC_DUMP" --fuzz "$C" --flips 2000 ${LDCACHE_SEED:+--seed "$LDCACHE_SEED"} \
    > "$LDC_TMP/fuzz" 2>&1
is "$?" 0 "truncated and damaged copies of $C: 0 or -1 with a message"
grep -v '^ok' "$LDC_TMP/fuzz" | head -n 25 | sed 's/^/# /'

done_testing
