#!/bin/sh
# elfobj_check() against the real dynamic loader. Each damaged candidate
# is put first on LD_LIBRARY_PATH, in front of a good copy, and loaded
# with dlopen(): where glibc stops with an error, elfobj_check must say
# FATAL with glibc's very words; where glibc loads the good copy, it must
# say the file is skipped; where glibc loads the candidate, OK. The
# verdicts and words are also checked on their own, so a machine without
# glibc still tests them.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

GOOD=$ELF_TMP/good
BAD=$ELF_TMP/bad
CAND=$BAD/libfoo.so.1
mkdir -p "$GOOD" "$BAD"
cd "$ELF_TMP" || exit 99

printf 'int foo(void) { return 42; }\n' > foo.c
$FIXTURE_CC -shared -fPIC -o "$GOOD/libfoo.so.1" -Wl,-soname,libfoo.so.1 \
    foo.c 2> cc.log ||
	skip_all "$FIXTURE_CC cannot build a shared library: $(head -n 3 cc.log)"

# The fixture is native: its class, byte order and machine are the
# loader's.
byte() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }
cls=$(byte "$GOOD/libfoo.so.1" 4)
data=$(byte "$GOOD/libfoo.so.1" 5)
# put FILE OFFSET SIZE VALUE: a number in the file's byte order.
put() {
	p_bytes=
	p_i=0
	while [ "$p_i" -lt "$3" ]; do
		if [ "$data" = 1 ]; then
			p_shift=$((8 * p_i))
		else
			p_shift=$((8 * ($3 - 1 - p_i)))
		fi
		p_bytes="$p_bytes $((($4 >> p_shift) & 255))"
		p_i=$((p_i + 1))
	done
	# shellcheck disable=SC2086
	elf_patch "$1" "$2" $p_bytes
}
if [ "$cls" = 2 ]; then
	o_phoff=32 o_phoff_size=8 o_phentsize=54 ehsize=64
else
	o_phoff=28 o_phoff_size=4 o_phentsize=42 ehsize=52
fi
machine=$(od -An -tu2 -j 18 -N2 "$GOOD/libfoo.so.1" | tr -d ' ')
[ "$data" = 1 ] || machine=$(( (machine >> 8) | ((machine & 255) << 8) ))
if [ "$machine" = 62 ]; then other=183; else other=62; fi
if [ "$data" = 1 ]; then
	wrong_data=2 data_msg="ELF file data encoding not little-endian"
else
	wrong_data=1 data_msg="ELF file data encoding not big-endian"
fi
if [ "$cls" = 2 ]; then
	class_msg="wrong ELF class: ELFCLASS32"
else
	class_msg="wrong ELF class: ELFCLASS64"
fi

# The loader's verdict: the file dlopen() took, or its error.
cat > dlo.c <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int
main(int argc, char **argv)
{
	Dl_info info;
	void *h = dlopen(argv[1], RTLD_NOW), *sym;

	(void)argc;
	if (h == NULL) {
		printf("error %s\n", dlerror());
		return 0;
	}
	sym = dlsym(h, "foo");
	if (sym == NULL || dladdr(sym, &info) == 0) {
		printf("loaded ?\n");
		return 0;
	}
	printf("loaded %s\n", info.dli_fname);
	return 0;
}
EOF
glibc=
if ! getconf GNU_LIBC_VERSION >/dev/null 2>&1; then
	glibc_why="the C library is not glibc"
elif ! $FIXTURE_CC -o dlo dlo.c -ldl 2> dlo.log; then
	glibc_why="cannot build the dlopen helper: $(head -n 1 dlo.log)"
elif [ "$(LD_LIBRARY_PATH=$GOOD ./dlo libfoo.so.1)" != "loaded $GOOD/libfoo.so.1" ]; then
	glibc_why="the dlopen helper does not load the good copy"
else
	glibc=$(getconf GNU_LIBC_VERSION)
	diag "comparing with the real loader of $glibc"
fi

loader_says() {
	LD_LIBRARY_PATH=$BAD:$GOOD ${DROP:-} ./dlo libfoo.so.1 2>&1
}

# verdict NAME VERDICT [WHY]: what elfobj_check says of $CAND, and what
# the real loader does with it.
verdict() {
	v_got=$(${DROP:-} "$ELFDUMP" --check native native "$CAND")
	is "$v_got" "check $2${3:+ $3}" "$1: $2${3:+ ($3)}"
	if [ -z "$glibc" ]; then
		skip "$1: as the real loader" "$glibc_why"
		return
	fi
	v_real=$(loader_says)
	case $2 in
	OK)	is "$v_real" "loaded $CAND" "$1: the real loader takes it" ;;
	FATAL)	v_msg=$(printf '%s\n' "$v_real" |
		    sed "s|^error $CAND: ||; s|^error libfoo\\.so\\.1: ||")
		like "$v_real" '^error ' "$1: the real loader stops"
		is "$v_msg" "$3" "$1: with the same words" ;;
	*)	is "$v_real" "loaded $GOOD/libfoo.so.1" \
		    "$1: the real loader goes on to the next directory" ;;
	esac
}

fresh() {
	rm -rf "$CAND"
	cp "$GOOD/libfoo.so.1" "$CAND"
}

# --- The control: the good file itself.
fresh
verdict "an intact library" OK

# --- open() and read().
rm -rf "$CAND"
verdict "no file" NOENT "No such file or directory"
ln -s nowhere "$CAND"
verdict "a dangling symlink" NOENT "No such file or directory"
rm -f "$CAND"
mkdir "$CAND"
verdict "a directory" FATAL "cannot read file data: Is a directory"
rmdir "$CAND"
: > "$CAND"
verdict "an empty file" FATAL "file too short"
printf 'INPUT(libfoo.so.0)\n' > "$CAND"
verdict "a short linker script" FATAL "file too short"
head -c $((ehsize - 1)) "$GOOD/libfoo.so.1" > "$CAND"
verdict "one byte short of an ELF header" FATAL "file too short"
head -c "$ehsize" "$GOOD/libfoo.so.1" > "$CAND"
verdict "an ELF header and no program headers" FATAL "cannot read file data"

# --- e_ident, each field, in glibc's order.
fresh; elf_patch "$CAND" 0 0x7e
verdict "bad magic" FATAL "invalid ELF header"
{ printf '/* GNU ld script */\nGROUP ( /lib/libfoo.so.1.0 /lib/libfoo_nonshared.a )\n'; } > "$CAND"
verdict "a linker script" FATAL "invalid ELF header"
fresh; elf_patch "$CAND" 4 $((3 - cls))
verdict "the other ELF class" WRONG_CLASS "$class_msg"
fresh; elf_patch "$CAND" 4 0
verdict "ELFCLASSNONE" WRONG_CLASS "$class_msg"
fresh; elf_patch "$CAND" 0 0x7e 0x45 0x4c 0x46 $((3 - cls))
verdict "bad magic and class: magic first" FATAL "invalid ELF header"
fresh; elf_patch "$CAND" 4 $((3 - cls)) "$wrong_data"
verdict "other class and byte order: class first" WRONG_CLASS "$class_msg"
fresh; elf_patch "$CAND" 5 "$wrong_data"
verdict "the other byte order" FATAL "$data_msg"
fresh; elf_patch "$CAND" 5 0
verdict "ELFDATANONE" FATAL "$data_msg"
fresh; elf_patch "$CAND" 6 0
verdict "EI_VERSION 0" FATAL "ELF file version ident does not match current one"
fresh; elf_patch "$CAND" 7 9
verdict "OS ABI FreeBSD" FATAL "ELF file OS ABI invalid"
fresh; elf_patch "$CAND" 7 3
verdict "OS ABI GNU" OK
fresh; elf_patch "$CAND" 7 3 1
verdict "OS ABI GNU, ABI version 1 (UNIQUE)" OK
fresh; elf_patch "$CAND" 7 3 9
verdict "OS ABI GNU, ABI version 9" FATAL "ELF file ABI version invalid"
fresh; elf_patch "$CAND" 8 1
verdict "OS ABI SYSV, ABI version 1" FATAL "ELF file ABI version invalid"
if [ "$machine" = 62 ]; then
	# LIBC_ABI_MAX is 4 on x86-64: UNIQUE, IFUNC and ABSOLUTE.
	fresh; elf_patch "$CAND" 7 3 3
	verdict "OS ABI GNU, ABI version 3 on x86-64" OK
	fresh; elf_patch "$CAND" 7 3 4
	verdict "OS ABI GNU, ABI version 4 on x86-64" FATAL "ELF file ABI version invalid"
fi
fresh; elf_patch "$CAND" 9 1
verdict "padding byte 9" FATAL "nonzero padding in e_ident"
fresh; elf_patch "$CAND" 15 0x80
verdict "padding byte 15" FATAL "nonzero padding in e_ident"

# --- The rest of the header.
fresh; put "$CAND" 20 4 0
verdict "e_version 0" FATAL "ELF file version does not match current one"
fresh; put "$CAND" 18 2 "$other"
mname=$("$ELFDUMP" "$CAND" | sed -n 's/^machine //p')
verdict "another machine" WRONG_MACHINE \
    "incompatible ELF machine: $(if [ "$other" = 183 ]; then echo AArch64; else echo x86-64; fi)"
is "$mname" "$other" "another machine: elfobj_read reads its e_machine"
fresh; put "$CAND" 18 2 "$other"; put "$CAND" 20 4 0
verdict "another machine and e_version 0: version first" FATAL \
    "ELF file version does not match current one"
fresh; put "$CAND" 18 2 "$other"; put "$CAND" 16 2 1
verdict "another machine and ET_REL: machine first" WRONG_MACHINE \
    "incompatible ELF machine: $(if [ "$other" = 183 ]; then echo AArch64; else echo x86-64; fi)"

# Debian's glibc skips a file of another machine before it finds fault
# with the rest of e_ident; upstream glibc calls these fatal. elfobj
# models Debian's; on another glibc the loader side is skipped.
mdesc="incompatible ELF machine: $(if [ "$other" = 183 ]; then echo AArch64; else echo x86-64; fi)"
fresh; elf_patch "$CAND" 5 "$wrong_data"; put "$CAND" 18 2 "$other"
debian=
if [ -n "$glibc" ] && [ "$(loader_says)" = "loaded $GOOD/libfoo.so.1" ]; then
	debian=yes
fi
verdict_debian() {	# NAME VERDICT WHY
	if [ -n "$debian" ] || [ -z "$glibc" ]; then
		verdict "$@"
	else
		is "$("$ELFDUMP" --check native native "$CAND")" "check $2 $3" \
		    "$1: $2 ($3)"
		skip "$1: as the real loader" \
		    "$glibc does not skip other machines before e_ident faults (no Debian patch)"
	fi
}
verdict_debian "other byte order and another machine: machine first" \
    WRONG_MACHINE "$mdesc"
fresh; elf_patch "$CAND" 7 9; put "$CAND" 18 2 "$other"
verdict_debian "OS ABI FreeBSD and another machine: machine first" \
    WRONG_MACHINE "$mdesc"
fresh; elf_patch "$CAND" 9 1; put "$CAND" 18 2 "$other"
verdict_debian "padding and another machine: machine first" \
    WRONG_MACHINE "$mdesc"
fresh; elf_patch "$CAND" 0 0x7e; put "$CAND" 18 2 "$other"
verdict "bad magic and another machine: magic first" FATAL "invalid ELF header"
# A big-endian header of the loader's machine: e_machine read in the
# loader's byte order names another machine.
fresh; elf_patch "$CAND" 5 "$wrong_data"; elf_patch "$CAND" 18 \
    $(od -An -tu1 -j 19 -N1 "$GOOD/libfoo.so.1") \
    $(od -An -tu1 -j 18 -N1 "$GOOD/libfoo.so.1")
swapped=$(( ((machine & 255) << 8) | (machine >> 8) ))
verdict_debian "a header in the other byte order" WRONG_MACHINE \
    "incompatible ELF machine: machine $swapped"

fresh; put "$CAND" 16 2 1
verdict "ET_REL" FATAL "only ET_DYN and ET_EXEC can be loaded"
fresh; put "$CAND" 16 2 4
verdict "ET_CORE" FATAL "only ET_DYN and ET_EXEC can be loaded"
fresh; put "$CAND" 16 2 2
verdict "ET_EXEC" FATAL "cannot dynamically load executable"
fresh; put "$CAND" "$o_phentsize" 2 32
verdict "e_phentsize 32" FATAL "ELF file's phentsize not the expected size"
fresh; put "$CAND" "$o_phoff" "$o_phoff_size" 1048576
verdict "program headers past the end" FATAL "cannot read file data"

# --- What open_verify() does not look at.
cat > abitag.s <<'EOF'
	.section .note.ABI-tag,"a",@note
	.p2align 2
	.long 4, 16, 1
	.asciz "GNU"
	.long 0, 99, 0, 0
EOF
if $FIXTURE_CC -shared -fPIC -o "$CAND" -Wl,-soname,libfoo.so.1 foo.c \
    abitag.s 2> abitag.log; then
	verdict "an ABI tag asking for Linux 99.0.0 (not checked in 2.36)" OK
else
	skip "ABI tag" "cannot assemble a note: $(head -n 1 abitag.log)"
fi

# --- A symbolic link loop: open() fails with ELOOP. glibc 2.36 then
# gives up on the rest of the search list (here the good copy) and goes
# on with the next list: ENDS_LIST. (ENOTDIR under an absolute entry
# that is a plain file is an ordinary skip.)
rm -rf "$CAND"
ln -s libfoo.so.1 "$CAND"
is "$("$ELFDUMP" --check native native "$CAND")" \
    "check ENDS_LIST Too many levels of symbolic links" "a symlink loop: ENDS_LIST"
if [ -n "$glibc" ]; then
	like "$(loader_says)" '^error .*cannot open shared object file' \
	    "a symlink loop: the real loader skips the rest of LD_LIBRARY_PATH"
else
	skip "a symlink loop: as the real loader" "$glibc_why"
fi

# --- A search directory that is a file: open() fails with ENOTDIR.
# glibc 2.36 goes on when the entry is absolute (stat() shows it is no
# directory), but takes a relative entry for an existing directory, and
# an error there ends the list.
rm -rf "$CAND"
: > "$BAD/notdir"
is "$("$ELFDUMP" --check native native "$BAD/notdir/libfoo.so.1")" \
    "check NOACCESS Not a directory" "a file as a directory: NOACCESS"
if [ -n "$glibc" ]; then
	is "$(LD_LIBRARY_PATH=$BAD/notdir:$GOOD ./dlo libfoo.so.1 2>&1)" \
	    "loaded $GOOD/libfoo.so.1" \
	    "a file as an absolute directory: the real loader goes on"
	like "$(LD_LIBRARY_PATH=bad/notdir:good ./dlo libfoo.so.1 2>&1)" \
	    '^error .*cannot open shared object file' \
	    "a file as a relative directory: the real loader skips the rest of the list"
else
	skip "a file as a directory: as the real loader" "$glibc_why"
fi
rm -f "$BAD/notdir"

# --- A FIFO would block the real loader; it is not run here.
rm -rf "$CAND"
if mkfifo "$CAND" 2>/dev/null; then
	is "$("$ELFDUMP" --check native native "$CAND")" \
	    "check FATAL cannot read file data: not a regular file" \
	    "a FIFO: FATAL at once, without blocking"
else
	skip "a FIFO" "mkfifo failed"
fi

# --- An unreadable file: EACCES lets the search go on. Root reads it
# anyway, so then both sides run as nobody.
rm -rf "$CAND"
fresh
chmod 000 "$CAND"
DROP=
can_drop=yes
if [ "$(id -u)" = 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		can_drop="running as root without setpriv (util-linux)"
	else
		chmod 755 "$ELF_TMP" "$GOOD" "$BAD"
		DROP="setpriv --reuid=65534 --regid=65534 --clear-groups --"
		$DROP sh -c 'test -x "$1" && test -r "$2/foo.c"' sh "$ELFDUMP" \
		    "$ELF_TMP" 2>/dev/null ||
			can_drop="running as root, and user 65534 cannot reach $ELF_TMP"
	fi
fi
if [ "$can_drop" = yes ]; then
	verdict "an unreadable file" NOACCESS "Permission denied"
	chmod 644 "$CAND"
	chmod 000 "$BAD"
	verdict "an unreadable directory" NOACCESS "Permission denied"
	chmod 755 "$BAD"
else
	skip "an unreadable file" "$can_drop"
fi
DROP=

done_testing
