#!/bin/sh
# The ELF reader on libraries built for the purpose with $FIXTURE_CC:
# each field the linker was asked for, read back; the same answers with
# the section headers cleared (both hash styles); a 32-bit object; files
# that are not shared objects.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

cd "$ELF_TMP" || exit 99

cc_so() {	# OUTPUT SOURCE-TEXT CC-ARGS...
	out=$1
	src=$2
	shift 2
	printf '%s\n' "$src" > "$out.c"
	$FIXTURE_CC -shared -fPIC -o "$out" "$out.c" "$@" 2> "$out.log"
}

printf 'DEP_1 { global: dep_fn; local: *; };\n' > dep.map
cc_so libdep.so 'int dep_fn(void) { return 3; }' \
    -Wl,-soname,libdep.so.2 -Wl,--version-script=dep.map ||
	skip_all "$FIXTURE_CC cannot build a shared library: $(head -n 3 libdep.so.log)"
cc_so libother.so 'int other_fn(void) { return 4; }' -Wl,-soname,libother.so.3

printf 'FOO_1 { global: bar; foo; local: *; };\nFOO_2 { } FOO_1;\n' > v.map
vsrc='int dep_fn(void);
int other_fn(void);
int foo_v1(void) { return 1; }
int foo_v2(void) { return 2; }
int bar(void) { return dep_fn() + other_fn(); }
__asm__(".symver foo_v1,foo@FOO_1");
__asm__(".symver foo_v2,foo@@FOO_2");'

# --- Everything at once, RUNPATH (new dtags).
if cc_so libv.so "$vsrc" -Wl,-soname,libv.so.1 -Wl,--version-script=v.map \
    -Wl,--no-as-needed -L. -l:libdep.so -l:libother.so \
    -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../lib:/opt/x' \
    -Wl,-z,nodefaultlib; then
	out=$(elf_dump --symbols libv.so)
	is "$(printf '%s\n' "$out" | sed -n 's/^soname //p')" libv.so.1 "SONAME"
	is "$(printf '%s\n' "$out" | sed -n 's/^needed //p' | tr '\n' ' ')" \
	    "libdep.so.2 libother.so.3 libc.so.6 " "NEEDED, in link order"
	is "$(printf '%s\n' "$out" | sed -n 's/^runpath //p')" \
	    '$ORIGIN/../lib:/opt/x' "RUNPATH with --enable-new-dtags"
	unlike "$out" '^rpath ' "no RPATH with --enable-new-dtags"
	like "$out" '^nodeflib$' "DF_1_NODEFLIB from -z nodefaultlib"
	is "$(printf '%s\n' "$out" | sed -n 's/^verdef //p' | tr '\n' ' ')" \
	    "FOO_1 FOO_2 " "version definitions, the base (soname) left out"
	like "$out" '^verneed libdep\.so\.2 DEP_1$' "version need DEP_1 from libdep.so.2"
	like "$out" '^verneed libc\.so\.6 GLIBC_2\.[0-9.]+$' "version need from libc.so.6"
	unlike "$out" '^verneed .* weak$' "no need is weak"
	like "$out" '^sym def foo@@FOO_2$' "foo@@FOO_2: the default version"
	like "$out" '^sym def foo@FOO_1$' "foo@FOO_1: a hidden version"
	like "$out" '^sym def bar@@FOO_1$' "bar@@FOO_1"
	like "$out" '^sym undef dep_fn@@DEP_1$' "dep_fn needed at DEP_1"
	like "$out" '^sym undef other_fn$' "other_fn needed without a version"
	unlike "$out" '^sym def foo_v' "local symbols are left out"
	is "$(elf_dump --symbols libv.so | elf_canon)" \
	    "$(elf_readelf libv.so | elf_canon)" "all of it as readelf says"
	is "$("$ELFDUMP" --find foo FOO_1 def libv.so)" "found foo@FOO_1" \
	    "find_symbol: foo@FOO_1"
	is "$("$ELFDUMP" --find foo FOO_2 def libv.so)" "found foo@@FOO_2" \
	    "find_symbol: foo@FOO_2"
	is "$("$ELFDUMP" --find foo FOO_3 def libv.so)" "none" \
	    "find_symbol: no foo@FOO_3"
	is "$("$ELFDUMP" --find dep_fn - def libv.so)" "none" \
	    "find_symbol: dep_fn is not defined here"
	is "$("$ELFDUMP" --find dep_fn - undef libv.so)" "found dep_fn@@DEP_1" \
	    "find_symbol: dep_fn is needed, any version"

	# The same file without section headers: everything through
	# PT_DYNAMIC, the symbols counted by DT_GNU_HASH.
	cp libv.so stripped.so && elf_strip_sections stripped.so
	like "$(readelf -h stripped.so 2>&1)" 'Number of section headers: +0' \
	    "section headers cleared"
	is "$(elf_dump --symbols stripped.so)" "$out" \
	    "without section headers (DT_GNU_HASH): the same answers"

	# A need marked weak (VER_FLG_WEAK), which ld writes for no
	# ordinary input: set the flag of the first need's first version.
	vr=$(readelf -SW libv.so | sed -n 's/.*\.gnu\.version_r *VERNEED *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
	if [ -n "$vr" ]; then
		cp libv.so weak.so
		# vn_aux (offset 8 of the Verneed) locates the first Vernaux,
		# whose vna_flags sit at its offset 4.
		aux=$(od -An -tu4 -j $((0x$vr + 8)) -N4 weak.so | tr -d ' ')
		elf_patch weak.so $((0x$vr + aux + 4)) 2 0
		first=$(readelf -V weak.so | sed -n '/Version needs/,$p' |
		    awk '/Name:/ { sub(/.*Name: /, ""); sub(/ .*/, ""); print; exit }')
		like "$(readelf -V weak.so)" 'Flags: WEAK' "readelf sees the weak flag"
		like "$(elf_dump weak.so)" "^verneed [^ ]+ $first weak\$" \
		    "a weak version need is marked weak"
		is "$(elf_dump --symbols weak.so | elf_canon)" \
		    "$(elf_readelf weak.so | elf_canon)" "weak need as readelf says"
	else
		skip "weak version need" "readelf -S shows no .gnu.version_r"
	fi
else
	skip "fixture with versions, RUNPATH and NODEFLIB" "$(head -n 3 libv.so.log)"
fi

# --- RPATH (old dtags), no NODEFLIB.
if cc_so librp.so 'int f(void) { return 0; }' -Wl,-soname,librp.so.7 \
    -Wl,--disable-new-dtags -Wl,-rpath,/opt/a:/opt/b; then
	out=$(elf_dump librp.so)
	is "$(printf '%s\n' "$out" | sed -n 's/^rpath //p')" /opt/a:/opt/b \
	    "RPATH with --disable-new-dtags"
	unlike "$out" '^runpath ' "no RUNPATH with --disable-new-dtags"
	unlike "$out" '^nodeflib' "no DF_1_NODEFLIB without -z nodefaultlib"
	unlike "$out" '^verdef ' "no version definitions without a script"
	cp librp.so stripped-rp.so && elf_strip_sections stripped-rp.so
	is "$(elf_dump stripped-rp.so)" "$out" "RPATH without section headers"
else
	skip "fixture with RPATH" "$(head -n 3 librp.so.log)"
fi

# --- DT_HASH only: without section headers the symbols are counted
# from its nchain.
if cc_so libsysv.so "$vsrc" -Wl,-soname,libsysv.so.1 \
    -Wl,--version-script=v.map -Wl,--hash-style=sysv \
    -Wl,--no-as-needed -L. -l:libdep.so -l:libother.so; then
	cp libsysv.so stripped-sysv.so && elf_strip_sections stripped-sysv.so
	is "$(elf_dump --symbols stripped-sysv.so)" \
	    "$(elf_dump --symbols libsysv.so)" \
	    "without section headers (DT_HASH): the same symbols"
	is "$(elf_dump --symbols libsysv.so | elf_canon)" \
	    "$(elf_readelf libsysv.so | elf_canon)" "DT_HASH library as readelf says"
else
	skip "fixture with DT_HASH" "$(head -n 3 libsysv.so.log)"
fi

# --- No SONAME, no paths, no versions.
if cc_so libbare.so 'int f(void) { return 0; }'; then
	out=$(elf_dump libbare.so)
	unlike "$out" '^(soname|rpath|runpath|verdef) ' \
	    "a bare library: no SONAME, paths or versions"
	like "$("$ELFDUMP" libbare.so)" '^type 3$' "ET_DYN"
else
	skip "bare fixture" "$(head -n 3 libbare.so.log)"
fi

# --- A 32-bit library, where the compiler can make one.
if cc_so lib32.so 'int f(void) { return 0; }' -m32 -nostdlib \
    -Wl,-soname,lib32.so.1; then
	out=$("$ELFDUMP" lib32.so)
	like "$out" '^class 32$' "32-bit: ELFCLASS32"
	like "$out" '^machine 3$' "32-bit: EM_386"
	like "$out" '^soname lib32\.so\.1$' "32-bit: SONAME"
	cp lib32.so stripped32.so && elf_strip_sections stripped32.so
	is "$("$ELFDUMP" --symbols stripped32.so | sed 1d)" \
	    "$("$ELFDUMP" --symbols lib32.so | sed 1d)" \
	    "32-bit without section headers: the same answers"
else
	skip "32-bit fixture" "$FIXTURE_CC -m32 failed: $(head -n 1 lib32.so.log)"
fi

# --- A program: PT_INTERP, NEEDED, no SONAME.
printf 'int main(void) { return 0; }\n' > prog.c
if $FIXTURE_CC -o prog prog.c 2> prog.log; then
	out=$("$ELFDUMP" prog)
	like "$out" '^interp /' "a program has PT_INTERP"
	like "$out" '^needed libc\.so\.6$' "a program needs libc.so.6"
	unlike "$out" '^soname ' "a program has no SONAME"
else
	skip "program fixture" "$(head -n 3 prog.log)"
fi

# --- Not shared objects at all.
printf 'int g(void) { return 0; }\n' > obj.c
if $FIXTURE_CC -c -o obj.o obj.c 2> obj.log; then
	out=$("$ELFDUMP" obj.o)
	like "$out" '^type 1$' "an object file: ET_REL"
	unlike "$out" '^dynamic$' "an object file has no PT_DYNAMIC"
else
	skip "object file" "$(head -n 3 obj.log)"
fi
printf 'INPUT(libfoo.so.1)\n' > script.so
out=$("$ELFDUMP" script.so)
rc=$?
like "$out" "^error script\\.so: not an ELF file" \
    "a linker script: an error naming the file"
is "$rc" 1 "a linker script: exit status 1"
like "$("$ELFDUMP" missing.so)" "^error missing\\.so: No such file or directory" \
    "a missing file: the errno text"

done_testing
