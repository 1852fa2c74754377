#!/bin/sh
# A library rewritten while cudawiz reads it (issue 16, point 3): an
# upgrade's `cp new.so old.so` truncates the file cudawiz has mapped, and
# touching a page past the new end was SIGBUS (22 crashes in ~150 runs).
#
# Deterministic part: elfobj-seam cuts a 4 MiB library (its dynamic
# section 4 MiB in) to 8 KiB right after the reader mapped it: the read
# goes on over zeros, is done again, and ends with the short file's own
# damage; a file that keeps changing is said to be changing.
# Race part: a background loop copies a small and the 4 MiB library over
# the one `why` resolves, while `why` and `doctor` read it RUNS times
# (bounded by a count): no run may die by a signal.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

SEAM=${SEAM:-$(dirname "$CUDAWIZ")/tests/tools/elfobj-seam}
[ -x "$SEAM" ] || skip_all "elfobj-seam is not built ($SEAM)"
RUNS=200
# Under valgrind a run takes seconds: fewer runs, same check.
[ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ] && RUNS=12

fx_new
W=$FX_TMP/cudawiz-trunc.$$
mkdir -p "$W" || exit 99
fx_dirs="$fx_dirs $W"
# The dynamic section and the section headers lie past 4 MiB of data.
printf 'const char cudawiz_pad[4 << 20] = { 1 };\nint cudawiz_big(void) { return cudawiz_pad[7]; }\n' |
    $FIXTURE_CC -shared -fPIC -x c -o "$W/big.so" -Wl,-soname,libbig.so.1 - ||
    skip_all "cannot build a 4 MiB library with $FIXTURE_CC"
printf 'int cudawiz_small(void) { return 1; }\n' |
    $FIXTURE_CC -shared -fPIC -x c -o "$W/small.so" -Wl,-soname,libbig.so.1 - ||
    skip_all "cannot build a small library with $FIXTURE_CC"

# ---- deterministic: cut short after it was mapped
cp "$W/big.so" "$W/t.so"
out=$("$SEAM" truncate 8192 "$W/t.so" 2>&1)
rc=$?
is "$rc" 0 "cut to 8 KiB after mapping: the reader returns (exit $rc, no signal)"
like "$out" 'maps 2' "... and reads the file again"
like "$out" 'error .*t\.so: PT_DYNAMIC \(offset [0-9]+, [0-9]+ bytes\) lies outside the file \(8192 bytes\)' \
    "... and reports the short file's damage"

cp "$W/big.so" "$W/t.so"
out=$("$SEAM" flip 8192 "$W/t.so" 2>&1)
rc=$?
is "$rc" 0 "cut and rewritten at every read: the reader returns (exit $rc)"
like "$out" 'maps 3' "... after three tries"
like "$out" 'error .*t\.so: the file changed while it was read' \
    "... and says the file is changing, not damaged"

cp "$W/big.so" "$W/t.so"
out=$("$SEAM" truncate 99999999 "$W/t.so" 2>&1)
like "$out" 'maps 2' "grown after mapping: read again"
like "$out" '^ok$' "... and read whole"

# ---- the race, through cudawiz
L=/opt/big/lib
fx_dir $L
cp "$W/big.so" "$FX$L/libbig.so.1"
stop=$W/stop
(
	# Bounded by the stop file, and by a count in case it never comes.
	i=0
	while [ ! -e "$stop" ] && [ $i -lt 100000 ]; do
		cat "$W/small.so" > "$FX$L/libbig.so.1" 2>/dev/null
		cat "$W/big.so" > "$FX$L/libbig.so.1" 2>/dev/null
		truncate -s 4096 "$FX$L/libbig.so.1" 2>/dev/null
		cat "$W/big.so" > "$FX$L/libbig.so.1" 2>/dev/null
		i=$((i + 1))
	done
) &
writer=$!

signalled=0
first=
n=0
while [ $n -lt $RUNS ]; do
	if [ $((n % 4)) -eq 3 ]; then
		fx_cmd_env "doctor --json" LD_LIBRARY_PATH=$L
	else
		fx_cmd_env "why libbig.so.1" LD_LIBRARY_PATH=$L
	fi
	if [ "$FX_RC" -gt 2 ]; then
		signalled=$((signalled + 1))
		[ -z "$first" ] && first="run $n: exit $FX_RC: $(head -c 300 "$FX.stderr")"
	fi
	n=$((n + 1))
done
touch "$stop"
wait "$writer"

is "$signalled" 0 "$RUNS runs of why/doctor while the library is rewritten: none dies${first:+ ($first)}"

done_testing
