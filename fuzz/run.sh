#!/bin/sh
# make fuzz: build every target with clang's libFuzzer, ASan and UBSan, and
# run each for a set time, its corpus seeded from fuzz/corpus/NAME.
#
#   fuzz/run.sh SRCDIR WORKDIR SECONDS TARGET...
#
# New inputs libFuzzer finds go to WORKDIR/corpus/NAME (the committed
# corpus is only read); a crash leaves WORKDIR/crashes/NAME/crash-* and
# fails the run. Copy a crash input into fuzz/corpus/NAME/ once it is fixed:
# make check replays it from then on. FUZZ_CC names the compiler (clang);
# FUZZ_FLAGS adds libFuzzer options (e.g. -jobs=2).
set -eu

[ $# -ge 4 ] || { echo "usage: $0 SRCDIR WORKDIR SECONDS TARGET..." >&2; exit 2; }
src=$1 work=$2 secs=$3
shift 3
cc=${FUZZ_CC:-clang}

command -v "$cc" >/dev/null 2>&1 || {
	echo "fuzz: $cc not found (Debian: apt-get install clang)" >&2; exit 1; }

san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
mkdir -p "$work"
if [ ! -f "$work/config.status" ]; then
	echo "fuzz: configuring the instrumented build in $work"
	(cd "$work" && "$src/configure" --quiet CC="$cc" \
	    CFLAGS="-g -O1 -fno-omit-frame-pointer $san" \
	    LDFLAGS="-fsanitize=address,undefined") || {
		echo "fuzz: configure failed; see $work/config.log" >&2; exit 1; }
fi
jobs=$(nproc 2>/dev/null || echo 2)
make -s -C "$work" -j"$jobs" fuzz-binaries FUZZ_TARGETS="$*"

failed=
for t in "$@"; do
	mkdir -p "$work/corpus/$t" "$work/crashes/$t"
	echo "fuzz: $t for ${secs}s"
	# A target's dictionary (fuzz/NAME.dict: magics, keys, wordings)
	# helps libFuzzer past the checks a random byte rarely passes.
	dict=
	[ -f "$src/fuzz/$t.dict" ] && dict="-dict=$src/fuzz/$t.dict"
	# Leaks are reported by the replay under ASan; here they would stop
	# the run at the first one instead of finding crashes.
	if ! ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-} \
	    "$work/fuzz/fz-$t" -max_total_time="$secs" -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
	    -artifact_prefix="$work/crashes/$t/" $dict ${FUZZ_FLAGS:-} \
	    "$work/corpus/$t" "$src/fuzz/corpus/$t" > "$work/$t.log" 2>&1; then
		failed="$failed $t"
		tail -n 40 "$work/$t.log" >&2
	fi
	grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' \
	    "$work/$t.log" | tr '\n' ' ' | sed 's/ $/\n/'
done
if [ -n "$failed" ]; then
	echo "fuzz: crashes or errors in:$failed (inputs in $work/crashes/)" >&2
	exit 1
fi
echo "fuzz: no crash in $# targets"
