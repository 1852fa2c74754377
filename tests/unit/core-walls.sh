#!/bin/sh
# The pure layers (probe, matrix, diagnose) must link neither curses nor
# curl. Checks the core archive's undefined symbols against every symbol
# libncursesw and libcurl export, and first proves the check would catch one.
. "$TESTS_SRCDIR/lib/tap.sh"

command -v nm >/dev/null 2>&1 || skip_all "nm is not installed (Debian package: binutils)"
[ -f "$CORE_LIB" ] || skip_all "no core library at $CORE_LIB"

libfile() {	# the shared object behind a pkg-config module
	# lib*.so may be a linker script (Debian's libncursesw.so is one), so
	# take the first versioned file that really is ELF.
	dir=$($PKG_CONFIG --variable=libdir "$1" 2>/dev/null)
	for f in "$dir"/lib"$2".so.* "$dir/lib$2.so"; do
		[ -e "$f" ] || continue
		f=$(readlink -f "$f")
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		    { echo "$f"; return; }
	done
}

work=$(mktemp -d "${FX_TMP:-/tmp}/walls.XXXXXX")
trap 'rm -rf "$work"' EXIT

curses=$(libfile ncursesw ncursesw)
curl=$(libfile libcurl curl)
ok "found libncursesw ($curses)" test -n "$curses"
ok "found libcurl ($curl)" test -n "$curl"
{
	nm -D --defined-only "$curses" 2>/dev/null
	nm -D --defined-only "$curl" 2>/dev/null
	# ncursesw's terminfo part may live in libtinfo.
	t=$(libfile ncursesw tinfo)
	[ -n "$t" ] && nm -D --defined-only "$t" 2>/dev/null
} | awk '{print $NF}' | sed 's/@.*//' | sort -u > "$work/forbidden"
ok "collected the exported symbols ($(wc -l < "$work/forbidden"))" \
    test "$(wc -l < "$work/forbidden")" -gt 100

undefined() { nm -u "$1" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | sort -u; }

# The check must be able to fail: an archive that calls initscr().
printf 'void initscr(void); void cw_bad(void) { initscr(); }\n' > "$work/bad.c"
${FIXTURE_CC:-cc} -c -o "$work/bad.o" "$work/bad.c" && ar rc "$work/libbad.a" "$work/bad.o"
bad=$(undefined "$work/libbad.a" | comm -12 - "$work/forbidden")
is "$bad" "initscr" "the check catches a curses call in an archive"

hits=$(undefined "$CORE_LIB" | comm -12 - "$work/forbidden")
is "$hits" "" "libcudawiz-core.a uses no curses or curl symbol"

done_testing
