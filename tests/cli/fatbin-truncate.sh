#!/bin/sh
# A library cut short while its fatbinaries are read (issue 16): libelf
# read the section headers and names from its own mapping of the file
# (ELF_C_READ_MMAP), so an upgrade truncating the library under
# `cudawiz doctor` (the framework probes read fatbinaries) killed it by
# SIGBUS. fatbin.c now reads through elfobj's guarded mapping.
#
# Deterministic, no timing: elfobj-seam walks a 4 MiB library whose
# fatbinary section and section headers lie past 4 MiB and cuts the file
# to 8 KiB when the first fatbinary entry is seen, while libelf still has
# the section headers and names after it to read.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

SEAM=${SEAM:-$(dirname "$CUDAWIZ")/tests/tools/elfobj-seam}
FATBIN=${FATBIN:-$(dirname "$CUDAWIZ")/tests/tools/fatbin-list}
OBJCOPY=${OBJCOPY:-objcopy}
[ -x "$SEAM" ] || skip_all "elfobj-seam is not built ($SEAM)"
[ -x "$FATBIN" ] || skip_all "fatbin-list is not built ($FATBIN)"
command -v "$OBJCOPY" >/dev/null 2>&1 || skip_all "$OBJCOPY is not installed (binutils)"

fx_new
W=$FX_TMP/cudawiz-fbcut.$$
mkdir -p "$W" || exit 99
fx_dirs="$fx_dirs $W"
printf 'const char cudawiz_pad[4 << 20] = { 1 };\nint cudawiz_big(void) { return cudawiz_pad[7]; }\n' |
    $FIXTURE_CC -shared -fPIC -x c -o "$W/big.so" - ||
    skip_all "cannot build a 4 MiB library with $FIXTURE_CC"
"$FATBIN" --blob "$W/blob" sm_75 &&
    "$OBJCOPY" --add-section .nv_fatbin="$W/blob" "$W/big.so" "$W/fb.so" ||
    skip_all "cannot add a .nv_fatbin section with $OBJCOPY"

out=$("$SEAM" read "$W/fb.so" 2>&1)
like "$out" '^ok$' "the library left alone reads (seam check)"

cp "$W/fb.so" "$W/t.so"
out=$("$SEAM" fatbin-cut 8192 "$W/t.so" 2>&1)
rc=$?
is "$rc" 0 "cut to 8 KiB during the fatbinary walk: the reader returns (exit $rc, not by a signal)"
like "$out" 'entries 1' "... after the one entry"
like "$out" 'maps 1' "... having read the file through the guarded mapping"
like "$out" 'error .*t\.so: the file changed while it was read' \
    "... and says the file is changing, not damaged"

# The cut at other sizes, from nothing to just short of the section: never
# a signal (8 cuts).
signalled=0
for size in 0 1 64 4096 4097 65536 1048576 4194304; do
	cp "$W/fb.so" "$W/t.so"
	"$SEAM" fatbin-cut "$size" "$W/t.so" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || { signalled=$((signalled + 1)); diag "cut to $size: exit $rc"; }
done
is "$signalled" 0 "8 cut sizes from 0 to 4 MiB: none dies"

done_testing
