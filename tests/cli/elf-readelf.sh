#!/bin/sh
# The ELF reader against readelf (binutils) on real libraries: every one
# the CUDA toolkit in /usr/local/cuda carries, and a sample of the
# system's. SONAME, NEEDED in order, RPATH, RUNPATH, NODEFLIB, version
# definitions, version needs with their weak flags, and every global
# dynamic symbol with its version must agree. A copy with its section
# headers cleared must give the same answers (found through PT_DYNAMIC
# and the hash tables alone).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

command -v readelf >/dev/null 2>&1 ||
	skip_all "readelf is not installed (Debian package: binutils)"

# The facts of one kind: dyn, ver or sym.
part() {	# KIND
	case $1 in
	dyn) grep -E '^(needed|soname|rpath|runpath|nodeflib)( |$)' ;;
	ver) grep -E '^(verdef|verneed) ' ;;
	sym) grep -E '^sym ' ;;
	esac
}

compare() {	# FILE LABEL
	want=$(elf_readelf "$1" | elf_canon)
	got=$(elf_dump --symbols "$1" | elf_canon)
	want_sym=$(printf '%s\n' "$want" | part sym)
	ndef=$(printf '%s\n' "$want_sym" | grep -c '^sym def ')
	nundef=$(printf '%s\n' "$want_sym" | grep -c '^sym undef ')
	nver=$(printf '%s\n' "$want_sym" | grep -c '@')
	is "$(printf '%s\n' "$got" | part dyn)" \
	    "$(printf '%s\n' "$want" | part dyn)" \
	    "$2: SONAME, NEEDED, RPATH, RUNPATH, NODEFLIB as readelf -d"
	is "$(printf '%s\n' "$got" | part ver)" \
	    "$(printf '%s\n' "$want" | part ver)" \
	    "$2: version definitions and needs as readelf -V"
	ok "$2: readelf lists dynamic symbols" test -n "$want_sym"
	is "$(printf '%s\n' "$got" | part sym)" "$want_sym" \
	    "$2: $ndef defined, $nundef undefined symbols, $nver with a version, as readelf --dyn-syms"
}

# The same answers from a copy without section headers.
compare_stripped() {	# FILE LABEL
	copy=$ELF_TMP/stripped
	cp "$1" "$copy" && chmod u+w "$copy" && elf_strip_sections "$copy"
	is "$(readelf -h "$copy" 2>/dev/null | awk '/Number of section headers/ { print $NF }')" \
	    0 "$2: the copy has no section headers"
	is "$(elf_dump --symbols "$copy")" "$(elf_dump --symbols "$1")" \
	    "$2: the copy without section headers reads the same"
	rm -f "$copy"
}

# --- The CUDA toolkit's libraries, each file once.
cuda=/usr/local/cuda/lib64
if [ -d "$cuda" ]; then
	for f in "$cuda"/*.so*; do
		[ -f "$f" ] && readlink -f "$f"
	done | sort -u > "$ELF_TMP/cuda.list"
	n=$(wc -l < "$ELF_TMP/cuda.list")
	ok "CUDA toolkit: shared libraries found ($n)" test "$n" -gt 0
	while read -r f; do
		compare "$f" "${f##*/}"
	done < "$ELF_TMP/cuda.list"
else
	skip "CUDA toolkit libraries" "$cuda does not exist"
fi

# --- A sample of the system's libraries: every fortieth, and libc.
sysdir=
for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu \
    /usr/lib64 /usr/lib; do
	if [ -d "$d" ]; then
		sysdir=$d
		break
	fi
done
if [ -n "$sysdir" ]; then
	find "$sysdir" -maxdepth 1 -type f -name 'lib*.so*' | LC_ALL=C sort |
	    awk 'NR % 40 == 1' > "$ELF_TMP/sys.list"
	libc=$(find "$sysdir" -maxdepth 1 -name 'libc.so.6' | head -n 1)
	[ -n "$libc" ] && readlink -f "$libc" >> "$ELF_TMP/sys.list"
	while read -r f; do
		# Skip linker scripts and other files that are not ELF.
		[ "$(od -An -c -N4 "$f" | tr -d ' ')" = '177ELF' ] || continue
		compare "$f" "${f##*/}"
		size=$(wc -c < "$f")
		[ "$size" -lt 8000000 ] && compare_stripped "$f" "${f##*/}"
	done < "$ELF_TMP/sys.list"
else
	skip "system libraries" "no system library directory"
fi

# --- PT_INTERP of a program: this test tool itself.
want=$(readelf -lW "$ELFDUMP" 2>/dev/null |
    sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
if [ -n "$want" ]; then
	is "$("$ELFDUMP" "$ELFDUMP" | sed -n 's/^interp //p')" "$want" \
	    "PT_INTERP of a program as readelf -l"
else
	skip "PT_INTERP of a program" "elfobj-dump has no PT_INTERP (static?)"
fi

done_testing
