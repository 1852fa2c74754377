#!/bin/sh
# The fatbinary reader on files made here, without nvcc: ELF files that
# fatbin-list --make writes (64- and 32-bit, either byte order) and a
# real shared library from the C compiler with a .nv_fatbin section added
# by objcopy, holding hand-made fatbinaries: several in one section,
# empty ones, padding, both sections, every entry kind and variant.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

FATBIN=${FATBIN:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
[ -x "$FATBIN" ] || skip_all "$FATBIN is not built"
cd "$ELF_TMP" || exit 99

# summary ARG...: fatbin-list's lines for one file, without the "file"
# line, joined into one.
summary() {
	"$FATBIN" "$@" 2>&1 | sed '/^file /d' | tr '\n' ' ' | sed 's/ $//'
}

"$FATBIN" --make one.elf .nv_fatbin=sm_75
is "$(summary one.elf)" "has_fatbin yes entries 1 sass sm_75 ptx -" \
    "one fatbinary with one SASS entry"

# Four fatbinaries, two of them empty; duplicates and unsorted input.
multi='sm_90,sm_75,compute_90//sm_80,sm_75+z,2*sm_90/'
"$FATBIN" --make multi.elf ".nv_fatbin=$multi"
is "$(summary multi.elf)" \
    "has_fatbin yes entries 7 sass sm_75 sm_80 sm_90 ptx compute_90" \
    "four fatbinaries in one section: sorted, unique, every entry counted"
ent=$("$FATBIN" --entries multi.elf)
is "$(printf '%s\n' "$ent" | grep -c '^entry ')" 7 "--entries lists 7 entries"
is "$(printf '%s\n' "$ent" | grep -c ' compressed$')" 1 \
    "the compressed flag is seen on the one entry that has it"
like "$ent" '^entry \.nv_fatbin [0-9]+ 1 compute_90 hdr=80 payload=256$' \
    "a PTX entry with an 80-byte header"

"$FATBIN" --make var.elf \
    .nv_fatbin=sm_100f,sm_90a,sm_100,sm_90,sm_100a,compute_100f,compute_90a/sm_120a,sm_121
is "$(summary var.elf)" "has_fatbin yes entries 9 sass sm_90 sm_90a sm_100 sm_100a sm_100f sm_120a sm_121 ptx compute_90a compute_100f" \
    "arch-specific (a) and family (f) variants, sorted by number, plain first"
like "$("$FATBIN" --entries var.elf)" '^entry \.nv_fatbin [0-9]+ 2 sm_100f hdr=112 ' \
    "sm_100 and newer SASS with 112-byte entry headers"

"$FATBIN" --make kinds.elf .nv_fatbin=lto_90,kind4_52,sm_80,kind9_0
is "$(summary kinds.elf)" "has_fatbin yes entries 4 sass sm_80 ptx -" \
    "LTO-IR and unknown kinds are counted but name no architecture"

"$FATBIN" --make both.elf .nv_fatbin=sm_75 __nv_relfatbin=sm_80,compute_80/sm_86
is "$(summary both.elf)" \
    "has_fatbin yes entries 4 sass sm_75 sm_80 sm_86 ptx compute_80" \
    ".nv_fatbin and __nv_relfatbin together"
like "$("$FATBIN" --entries both.elf)" '^entry __nv_relfatbin [0-9]+ 1 compute_80 ' \
    "entries of __nv_relfatbin name their section"

"$FATBIN" --make look.elf .nv_fatbinx=sm_75 .nv_fatbin.bak=sm_80 nv_fatbin=sm_86 \
    .data=sm_90
is "$(summary look.elf)" "has_fatbin no entries 0 sass - ptx -" \
    "sections with similar names are not fatbinary sections"

"$FATBIN" --make empty.elf .nv_fatbin=-
is "$(summary empty.elf)" "has_fatbin yes entries 0 sass - ptx -" \
    "an empty .nv_fatbin section"
"$FATBIN" --make emptyfb.elf .nv_fatbin=/
is "$(summary emptyfb.elf)" "has_fatbin yes entries 0 sass - ptx -" \
    "a section of two empty fatbinaries (nvcc writes one for PTX-only code)"

"$FATBIN" --make m32.elf --class 32 ".nv_fatbin=$multi" __nv_relfatbin=compute_86a
is "$(summary m32.elf)" \
    "has_fatbin yes entries 8 sass sm_75 sm_80 sm_90 ptx compute_86a compute_90" \
    "a 32-bit ELF file"

"$FATBIN" --make msb.elf --msb .nv_fatbin=sm_75
like "$(summary msb.elf)" '^error msb\.elf: \.nv_fatbin: a big-endian file' \
    "a big-endian file with a fatbinary section is refused, saying why"
"$FATBIN" --make msb32.elf --msb --class 32 .data=sm_75
is "$(summary msb32.elf)" "has_fatbin no entries 0 sass - ptx -" \
    "a big-endian 32-bit file without one reads as having none"

# 264-byte payloads leave each fatbinary 8 bytes off a 16-byte boundary:
# what a linker pads with zeros.
"$FATBIN" --make pad.elf --payload 260 '.nv_fatbin=sm_75/%8/sm_80/%8'
is "$(summary pad.elf)" "has_fatbin yes entries 2 sass sm_75 sm_80 ptx -" \
    "zero padding up to 16-byte boundaries is skipped"
"$FATBIN" --make pad2.elf --payload 260 '.nv_fatbin=sm_75/%24/sm_80'
like "$(summary pad2.elf)" '^error pad2\.elf: \.nv_fatbin at offset [0-9]+: no fatbinary header \(magic 0, not 0xba55ed50\)$' \
    "a whole aligned block of zeros is not padding"
"$FATBIN" --make pad3.elf '.nv_fatbin=sm_75/%4/sm_80'
like "$(summary pad3.elf)" '^error pad3\.elf: \.nv_fatbin at offset [0-9]+: no fatbinary header' \
    "zeros at an aligned position are not padding"

# A library from the real toolchain, and the same with a section added.
printf 'int host_only(int x) { return x + 1; }\n' > host.c
if $FIXTURE_CC -shared -fPIC -o host.so host.c 2> cc.log; then
	is "$(summary host.so)" "has_fatbin no entries 0 sass - ptx -" \
	    "a host-only library from $FIXTURE_CC has no fatbinary"
	"$FATBIN" --blob blob.bin "sm_86,compute_86/sm_90a+z"
	if command -v objcopy >/dev/null 2>&1 &&
	    objcopy --add-section .nv_fatbin=blob.bin \
	    --set-section-flags .nv_fatbin=alloc,readonly host.so dev.so \
	    2> objcopy.log; then
		is "$(summary dev.so)" \
		    "has_fatbin yes entries 3 sass sm_86 sm_90a ptx compute_86" \
		    "a fatbinary section added to a real library by objcopy"
		cp dev.so nosh.so && elf_strip_sections nosh.so
		like "$(summary nosh.so)" '^error nosh\.so: no section headers' \
		    "without section headers: an error, not 'no fatbinary'"
		mkdir -p root/usr/lib root/opt
		cp dev.so root/usr/lib/libdev.so.1
		ln -s /usr/lib/libdev.so.1 root/opt/libdev.so
		is "$(summary --root root /opt/libdev.so)" \
		    "has_fatbin yes entries 3 sass sm_86 sm_90a ptx compute_86" \
		    "--root: an absolute symlink resolves inside the root"
		like "$(summary --root root /usr/lib/missing.so)" \
		    '^error /usr/lib/missing\.so: ' \
		    "--root: a missing file is an error naming it"
	else
		skip "objcopy --add-section" "objcopy failed or is absent: $(head -n 1 objcopy.log 2>/dev/null)"
		skip "no section headers" "needs objcopy"
		skip "--root symlink" "needs objcopy"
		skip "--root missing" "needs objcopy"
	fi
else
	skip "host-only library" "$FIXTURE_CC -shared failed: $(head -n 1 cc.log)"
fi

cp one.elf nosh.elf && elf_strip_sections nosh.elf
like "$(summary nosh.elf)" '^error nosh\.elf: no section headers, so its fatbinary sections cannot be found$' \
    "a generated file without section headers"
printf 'not an ELF file\n' > text.so
like "$(summary text.so)" '^error text\.so: not (a readable ELF|an ELF) file' \
    "a text file is an error naming the file"
like "$(summary missing.so)" '^error missing\.so: ' "a missing file"
mkdir -p adir.so
like "$(summary adir.so)" '^error adir\.so: ' "a directory"
: > zero.so
like "$(summary zero.so)" '^error zero\.so: ' "an empty file"
"$FATBIN" text.so one.elf > two.out
is "$(grep -c '^file ' two.out) $(grep -c '^error ' two.out) $(grep -c '^sass sm_75$' two.out)" \
    "2 1 1" "one bad file among several does not stop the others"

is "$("$FATBIN" --cc sm_86 compute_90a sm_100f sm_120 sm_75 compute_121 sm_103a sm_999 | tr '\n' ' ')" \
    "sm_86 8.6 compute_90a 9.0 sm_100f 10.0 sm_120 12.0 sm_75 7.5 compute_121 12.1 sm_103a 10.3 sm_999 99.9 " \
    "fatbin_arch_cc turns names into compute capabilities"
is "$("$FATBIN" --cc sm_ sm_9 sm_1000 sm_090 sm_90b sm_90aa SM_90 compute90 '' 'sm_86 ' lto_90 sm_-1 sm_8.6 compute_ sm_0 | awk '{print $NF}' | tr -d '\n')" \
    "---------------" "fatbin_arch_cc refuses what is not an architecture name"

done_testing
