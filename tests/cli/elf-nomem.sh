#!/bin/sh
# Out of memory inside libelf is out of memory, not damage (issue 16,
# point 11). A valid library with 60,000 (empty) section headers makes
# libelf allocate its section list, several MiB, when it opens the file;
# elfobj-seam caps the address space 512 KiB above what it uses once the
# file is mapped, so that allocation fails. The reader must end the way
# xalloc does (status 2, "out of memory", the file named), not call the
# file damaged or read on without its sections.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

SEAM=${SEAM:-$(dirname "$CUDAWIZ")/tests/tools/elfobj-seam}
[ -x "$SEAM" ] || skip_all "elfobj-seam is not built ($SEAM)"
command -v python3 >/dev/null 2>&1 ||
    skip_all "python3 (Debian package: python3) is missing"
# The sanitizers and valgrind manage memory their own way: a cap on the
# address space stops them, not libelf.
grep -aq __asan_init "$SEAM" 2>/dev/null &&
    skip_all "an AddressSanitizer build: RLIMIT_AS stops ASan's allocator"
[ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ] &&
    skip_all "under valgrind: RLIMIT_AS stops valgrind, not libelf"

fx_new
W=$FX_TMP/cudawiz-nomem.$$
mkdir -p "$W" || exit 99
fx_dirs="$fx_dirs $W"
printf 'int cudawiz_nomem(void) { return 1; }\n' |
    $FIXTURE_CC -shared -fPIC -x c -o "$W/small.so" -Wl,-soname,libsmall.so.1 - ||
    skip_all "cannot build a library with $FIXTURE_CC"
# 60,000 SHT_NULL section headers after the file, e_shstrndx 0: a file
# ld.so loads (it never reads section headers) and readelf accepts.
python3 - "$W/small.so" "$W/many.so" 60000 <<'PY' || exit 99
import struct, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(src, 'rb').read())
d += b'\0' * ((-len(d)) % 8)
shoff = len(d)
d += b'\0' * (64 * n)
struct.pack_into('<Q', d, 0x28, shoff)
struct.pack_into('<HHH', d, 0x3a, 64, n, 0)
open(dst, 'wb').write(d)
PY

out=$("$SEAM" read "$W/many.so" 2>&1)
like "$out" '^ok$' "with memory, the file with 60,000 sections reads"

out=$("$SEAM" nomem "$W/many.so" 2>&1)
rc=$?
is "$rc" 2 "libelf out of memory: the reader ends with status 2, as xalloc does"
like "$out" "cudawiz: .*many\\.so: out of memory while reading it \\(libelf: out of memory\\)" \
    "... saying out of memory, and which file"
unlike "$out" 'damaged|not a readable ELF|cannot be read' "... never that the file is damaged"

done_testing
