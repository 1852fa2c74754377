#!/bin/sh
# Damaged fatbinaries: each header field set to what breaks it (zero,
# too small, past the end, huge, a loop back onto itself), the section
# cut at every byte (so at every header boundary), every prefix of a
# file, and thousands of seeded random changes aimed at the headers. Each
# must give an error naming the file or a listing that is correct for
# what is left: never a crash, a hang, an entry outside the file or a
# sanitizer report.
#
# FATBIN_SEED=N replays a run; FATBIN_COUNT=N changes its size.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

FATBIN=${FATBIN:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
[ -x "$FATBIN" ] || skip_all "$FATBIN is not built"
cd "$ELF_TMP" || exit 99
seed=${FATBIN_SEED:-$(date +%s)}
count=${FATBIN_COUNT:-3000}
diag "seed $seed (FATBIN_SEED=$seed replays this run)"

TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 120"

summary() {
	$TIMEOUT "$FATBIN" "$@" 2>&1 | sed '/^file /d' | tr '\n' ' ' |
	    sed 's/ $//'
}

# le VALUE N: VALUE as N little-endian bytes, for elf_patch.
le() {
	le_v=$1
	le_i=0
	while [ "$le_i" -lt "$2" ]; do
		printf '%d ' "$((le_v & 255))"
		le_v=$((le_v >> 8))
		le_i=$((le_i + 1))
	done
}

# damaged NAME OFFSET VALUE WIDTH PATTERN DESCRIPTION: a copy of base.elf
# with one field changed must give an error that matches PATTERN.
damaged() {
	cp base.elf "$1"
	# shellcheck disable=SC2046
	elf_patch "$1" "$2" $(le "$3" "$4")
	like "$(summary "$1")" "^error $1: $5" "$6"
}

# Two fatbinaries: sm_75 SASS and compute_75 PTX, then sm_80. The
# generator puts .nv_fatbin (section 2) at a 16-byte boundary after
# the 64-byte ELF header, three 64-byte section headers and the names.
"$FATBIN" --make base.elf .nv_fatbin=sm_75,compute_75/sm_80
is "$(summary base.elf)" "has_fatbin yes entries 3 sass sm_75 sm_80 ptx compute_75" \
    "the undamaged file"
e1=$("$FATBIN" --entries base.elf | awk '/^entry / { print $3; exit }')
fb=$((e1 - 16))			# the first fatbinary's header
sh=$((64 + 2 * 64))		# the .nv_fatbin section header
e2=$((e1 + 64 + 256))		# the PTX entry; the fatbinary holds 656 bytes

damaged hsize0.elf $((e1 + 4)) 0 4 '\.nv_fatbin, entry at offset [0-9]+: a header size of 0 bytes' \
    "an entry header size of zero"
damaged hsize63.elf $((e1 + 4)) 63 4 '.*a header size of 63 bytes' \
    "an entry header shorter than 64 bytes"
damaged hsizebig.elf $((e1 + 4)) 4294967295 4 '.*a header size of 4294967295 bytes' \
    "an entry header size past the fatbinary"
damaged psizeff.elf $((e1 + 8)) -1 8 '.*a payload of 18446744073709551615 bytes, but only [0-9]+ are left' \
    "an entry payload size of 2^64-1"
damaged psizepast.elf $((e1 + 8)) $((656 - 64 + 8)) 8 '.*a payload of 600 bytes, but only 592 are left' \
    "an entry payload past the end of its fatbinary by 8 bytes"
damaged psize0.elf $((e1 + 8)) 0 8 '.*entry at offset [0-9]+: a header size of [0-9]+ bytes' \
    "a zero payload size: the payload is read as the next header, and refused"
damaged fsize0.elf $((fb + 8)) 0 8 '\.nv_fatbin at offset [0-9]+: no fatbinary header \(magic 0x1010002' \
    "a zero fatbinary size: its first entry is read as the next fatbinary, and refused"
damaged fsizeff.elf $((fb + 8)) -1 8 '.*fatbinary at offset [0-9]+: 18446744073709551615 bytes of entries, but only [0-9]+ are left' \
    "a fatbinary size of 2^64-1"
damaged fsizeshort.elf $((fb + 8)) 40 8 '.*40 bytes are left at offset [0-9]+, too few for an entry header' \
    "a fatbinary size that ends inside an entry header"
damaged fhsize0.elf $((fb + 6)) 0 2 '.*fatbinary at offset [0-9]+: a header size of 0 bytes' \
    "a fatbinary header size of zero"
damaged fhsizeff.elf $((fb + 6)) 65535 2 '.*a header size of 65535 bytes' \
    "a fatbinary header size past the section"
damaged version.elf $((fb + 4)) 2 2 '.*version 2 is not one this program knows' \
    "an unknown fatbinary version"
damaged magic.elf "$fb" 0x12345678 4 '.*no fatbinary header \(magic 0x12345678, not 0xba55ed50\)' \
    "a wrong magic number"
damaged arch0.elf $((e1 + 28)) 0 4 '.*architecture 0 is out of range' \
    "architecture 0"
damaged archbig.elf $((e2 + 28)) 100000 4 '.*architecture 100000 is out of range' \
    "an absurd architecture number on a PTX entry"
damaged af.elf $((e1 + 40)) $((0x300011)) 8 '.*both the arch-specific and the family flag' \
    "both variant flags at once"
damaged secsize.elf $((sh + 32)) $((1 << 40)) 8 '\.nv_fatbin \(offset [0-9]+, 1099511627776 bytes\) lies outside the file' \
    "a section size past the end of the file"
damaged secoff.elf $((sh + 24)) -1 8 '\.nv_fatbin \(offset 18446744073709551615, .*lies outside the file' \
    "a section offset past the end of the file"
damaged nobits.elf $((sh + 4)) 8 4 '\.nv_fatbin has no contents in the file' \
    "a SHT_NOBITS fatbinary section"
damaged compressed.elf $((sh + 8)) $((0x802)) 8 '\.nv_fatbin is compressed' \
    "a SHF_COMPRESSED fatbinary section"
damaged name.elf "$sh" 65535 4 'section 2 has no readable name' \
    "a section name outside the string table"
cp base.elf cut.elf
truncate -s $((e1 + 100)) cut.elf 2>/dev/null ||
	dd if=base.elf of=cut.elf bs=1 count=$((e1 + 100)) 2>/dev/null
like "$(summary cut.elf)" '^error cut\.elf: \.nv_fatbin \(offset [0-9]+, [0-9]+ bytes\) lies outside the file' \
    "a file that ends inside its fatbinary section"

# A fatbinary entry whose payload size points back at itself cannot be
# written (sizes are unsigned), so the loop to rule out is a chain that
# never ends: the bound on headers ends it (fatbin-speed.sh tests it).

# mutate NAME FILE COUNT|truncate|cut SEED [LISTED]: LISTED, when given,
# is how many copies must list (the others must be refused).
mutate() {
	m_out=$($TIMEOUT "$FATBIN" --mutate "$4" "$3" "$2" 2>&1)
	m_rc=$?
	if [ "$m_rc" = 0 ]; then
		m_last=$(printf '%s\n' "$m_out" | tail -n 1)
		if [ -n "${5:-}" ]; then
			like "$m_last" " $5 listed, " "$1: $m_last"
		else
			tap_result 0 "$1: $m_last"
		fi
	else
		tap_result 1 "$1 (exit $m_rc, seed $4)"
		printf '%s\n' "$m_out" | tail -n 40 | sed 's/^/#   /'
		diag "replay: FATBIN_SEED=$seed; the files are rebuilt by this script"
	fi
}

multi='sm_90,sm_75,compute_90//sm_80,sm_75+z,2*sm_90/'
"$FATBIN" --make multi.elf --payload 8 ".nv_fatbin=$multi" \
    __nv_relfatbin=sm_86a,compute_86a
"$FATBIN" --make m32.elf --class 32 --payload 24 ".nv_fatbin=$multi/sm_120f" \
    __nv_relfatbin=lto_90,sm_100
"$FATBIN" --make var.elf --payload 40 \
    .nv_fatbin=sm_100f,sm_90a,compute_100f/sm_120a,kind9_0/compute_121

# Cut at every byte, each fatbinary section is listed exactly where it
# ends at a fatbinary boundary: 0 and after each of its 4 or 5.
mutate "the first section cut at every size" multi.elf cut "$seed" 5
mutate "a 32-bit file cut at every size" m32.elf cut "$seed" 6
mutate "112-byte headers cut at every size" var.elf cut "$seed" 4
mutate "every prefix of a file" multi.elf truncate "$seed"
mutate "$count random changes" multi.elf "$count" "$seed"
mutate "$count random changes, 32-bit" m32.elf "$count" "$((seed + 1))"
mutate "$count random changes, 112-byte headers" var.elf "$count" "$((seed + 2))"

printf 'int host_only(int x) { return x + 1; }\n' > host.c
"$FATBIN" --blob --payload 16 blob.bin "$multi"
if $FIXTURE_CC -shared -fPIC -o host.so host.c 2> cc.log &&
    command -v objcopy >/dev/null 2>&1 &&
    objcopy --add-section .nv_fatbin=blob.bin \
    --set-section-flags .nv_fatbin=alloc,readonly host.so dev.so 2>> cc.log; then
	mutate "$count random changes, a linked library" dev.so "$count" \
	    "$((seed + 3))"
else
	skip "a linked library" "$FIXTURE_CC or objcopy failed: $(head -n 1 cc.log)"
fi

# The real thing, where nvcc is there.
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
	printf '__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n' > k.cu
	if "$NVCC" -Xcompiler -fPIC -shared -cudart none -o nv.so k.cu \
	    -gencode arch=compute_75,code=sm_75 \
	    -gencode arch=compute_90a,code='[sm_90a,compute_90a]' \
	    > nvcc.log 2>&1; then
		mutate "an nvcc library cut at every size" nv.so cut "$seed"
		mutate "$count random changes, an nvcc library" nv.so "$count" \
		    "$((seed + 4))"
	else
		skip "nvcc library" "nvcc failed: $(head -n 1 nvcc.log)"
		skip "nvcc library" "nvcc failed"
	fi
else
	skip "an nvcc library cut at every size" "no nvcc (set NVCC or PATH)"
	skip "random changes, an nvcc library" "no nvcc (set NVCC or PATH)"
fi

done_testing
