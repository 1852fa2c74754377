#!/bin/sh
# Damaged files: every prefix of a small real library, and thousands of
# seeded random changes to it (and to a copy without section headers, a
# DT_HASH copy and a 32-bit one), must each give 0 or -1 with a message
# naming the file, from elfobj_read() (with symbols) and elfobj_check()
# alike; never a crash, a hang or a sanitizer report.
#
# ELF_DAMAGE_SEED=N replays a run; ELF_DAMAGE_COUNT=N changes its size.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_elf.sh"

cd "$ELF_TMP" || exit 99
seed=${ELF_DAMAGE_SEED:-$(date +%s)}
count=${ELF_DAMAGE_COUNT:-3000}
diag "seed $seed (ELF_DAMAGE_SEED=$seed replays this run)"

# A hang would stop the whole suite; timeout(1) turns it into a failure.
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 120"

printf 'DEP_1 { global: dep_fn; local: *; };\n' > dep.map
printf 'int dep_fn(void) { return 3; }\n' > dep.c
printf 'FOO_1 { global: bar; foo; local: *; };\nFOO_2 { } FOO_1;\n' > v.map
cat > v.c <<'EOF'
int dep_fn(void);
int foo_v1(void) { return 1; }
int foo_v2(void) { return 2; }
int bar(void) { return dep_fn(); }
__asm__(".symver foo_v1,foo@FOO_1");
__asm__(".symver foo_v2,foo@@FOO_2");
EOF
$FIXTURE_CC -shared -fPIC -o libdep.so -Wl,-soname,libdep.so.2 \
    -Wl,--version-script=dep.map dep.c 2> cc.log &&
$FIXTURE_CC -shared -fPIC -o libv.so -Wl,-soname,libv.so.1 \
    -Wl,--version-script=v.map -Wl,--enable-new-dtags -Wl,-rpath,/opt/x \
    -Wl,--no-as-needed -L. -l:libdep.so v.c 2>> cc.log ||
	skip_all "$FIXTURE_CC cannot build the fixture: $(head -n 3 cc.log)"
cp libv.so stripped.so && elf_strip_sections stripped.so

# mutate NAME FILE COUNT|truncate SEED
mutate() {
	m_out=$($TIMEOUT "$ELFDUMP" --mutate "$4" "$3" "$ELF_TMP/scratch.so" \
	    "$2" 2>&1)
	m_rc=$?
	if [ "$m_rc" = 0 ]; then
		tap_result 0 "$1: $(printf '%s\n' "$m_out" | tail -n 1)"
	else
		tap_result 1 "$1 (exit $m_rc, seed $4)"
		printf '%s\n' "$m_out" | tail -n 40 | sed 's/^/#   /'
		diag "replay: ELF_DAMAGE_SEED=$seed; the file is rebuilt by this script"
	fi
}

like "$("$ELFDUMP" --symbols libv.so)" '^sym def foo@@FOO_2$' \
    "the fixture reads whole before it is damaged"
mutate "every prefix of $(wc -c < libv.so | tr -d ' ') bytes" libv.so truncate "$seed"
mutate "every prefix, without section headers" stripped.so truncate "$seed"
mutate "$count random changes" libv.so "$count" "$seed"
mutate "$count random changes, without section headers" stripped.so \
    "$count" "$((seed + 1))"

if $FIXTURE_CC -shared -fPIC -o libsysv.so -Wl,-soname,libsysv.so.1 \
    -Wl,--version-script=v.map -Wl,--hash-style=sysv -Wl,--no-as-needed \
    -L. -l:libdep.so v.c 2> sysv.log; then
	elf_strip_sections libsysv.so
	mutate "$count random changes, DT_HASH, without section headers" \
	    libsysv.so "$count" "$((seed + 2))"
else
	skip "DT_HASH fixture" "$(head -n 1 sysv.log)"
fi

if $FIXTURE_CC -shared -fPIC -m32 -nostdlib -o lib32.so \
    -Wl,-soname,lib32.so.1 -Wl,--version-script=v.map v.c \
    -Wl,--unresolved-symbols=ignore-all 2> m32.log; then
	mutate "$count random changes, 32-bit" lib32.so "$count" "$((seed + 3))"
else
	skip "32-bit fixture" "$FIXTURE_CC -m32 failed: $(head -n 1 m32.log)"
fi

done_testing
