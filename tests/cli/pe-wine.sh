#!/bin/sh
# The PE reader on Wine's own DLLs, when Wine is installed: hundreds of
# real PE32+ (and a few PE32) files built by another toolchain, each
# read as objdump -p (machine, format, DLL flag, subsystem, imports in
# order, export names) and as windres decompiles its first version
# resource. Counts only: the set of DLLs is whatever this Wine ships.
# PE_WINE_MAX (120; 0: all) bounds the DLLs read, taken evenly across
# the sorted list: each costs an objdump and a windres run (all 546 of
# Wine 8 took 28 s on the 2-core build VM).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_pe.sh"

for t in objdump windres; do
	command -v "x86_64-w64-mingw32-$t" >/dev/null 2>&1 ||
	    skip_all "x86_64-w64-mingw32-$t is not installed (Debian package binutils-mingw-w64-x86-64)"
done
wine=
for d in /usr/lib/x86_64-linux-gnu/wine /usr/lib/wine /usr/lib64/wine; do
	[ -d "$d/x86_64-windows" ] && { wine=$d; break; }
done
[ -n "$wine" ] || skip_all "Wine's PE DLLs are not installed (no x86_64-windows under /usr/lib/*/wine; Debian package wine64)"

work=$(mktemp -d "${FX_TMP:-/tmp}/pe-wine.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

total=0
for f in "$wine"/x86_64-windows/*.dll "$wine"/i386-windows/*.dll; do
	[ -f "$f" ] && total=$((total + 1))
done
max=${PE_WINE_MAX:-120}
every=1
[ "$max" -gt 0 ] && [ "$total" -gt "$max" ] && every=$(((total + max - 1) / max))
i=0 n=0 nver=0 nexp=0 bad_facts=0 bad_ver=0
for f in "$wine"/x86_64-windows/*.dll "$wine"/i386-windows/*.dll; do
	[ -f "$f" ] || continue
	i=$((i + 1))
	[ $(((i - 1) % every)) = 0 ] || continue
	n=$((n + 1))
	pe_reference x86_64-w64-mingw32 "$f" > "$work/want"
	pe_ours "$f" > "$work/got"
	# objdump -p does not list delay-loaded DLLs: they are compared
	# nowhere here.
	grep -Ev '^(file-|product-|string |delay )' "$work/want" > "$work/want.f"
	grep -Ev '^(file-|product-|string |delay )' "$work/got" > "$work/got.f"
	grep -E '^(file-|product-|string )' "$work/want" | sort > "$work/want.v"
	grep -E '^(file-|product-|string )' "$work/got" | sort > "$work/got.v"
	[ -s "$work/want.v" ] && nver=$((nver + 1))
	grep -q '^export ' "$work/want.f" && nexp=$((nexp + 1))
	if ! cmp -s "$work/want.f" "$work/got.f"; then
		bad_facts=$((bad_facts + 1))
		[ "$bad_facts" -le 3 ] && { diag "$f:"; diff "$work/want.f" "$work/got.f" | head -n 10 | sed 's/^/#   /'; }
	fi
	if ! cmp -s "$work/want.v" "$work/got.v"; then
		bad_ver=$((bad_ver + 1))
		[ "$bad_ver" -le 3 ] && { diag "$f:"; diff "$work/want.v" "$work/got.v" | head -n 10 | sed 's/^/#   /'; }
	fi
done
ok "Wine ships PE DLLs ($total in $wine; $n read, one in $every)" test "$n" -gt 0
ok "some export names ($nexp DLLs) and version resources ($nver)" \
    test "$nexp" -gt 0 -a "$nver" -gt 0
is "$bad_facts" 0 "all $n DLLs: machine, format, DLL, subsystem, imports, exports as objdump -p"
is "$bad_ver" 0 "all $n DLLs: the first version resource as windres decompiles it"

done_testing
