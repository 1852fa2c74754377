#!/bin/sh
# bench/wizard.sh [RUNS]: the wizard's speed targets (issue 20): a page
# switch under 5 ms, and the first screen under doctor + 50 ms.
#
# Run from a build directory (or set BUILD) after `make check`, or after
# `make tests/tools/wizard-render cudawiz`: tests/tools/wizard-render runs
# the wizard's own loop on a grid screen with keys from a file, as the
# golden tests do, on their two fixture trees (healthy and broken, built
# by the golden test's own healthy() and broken()), at 80x24 and 200x50.
#
#   start-up     wizard-render to the first screen, then the end of its
#                keys, next to `cudawiz doctor --json --root` on the same
#                tree and matrix: the difference of the medians
#   page switch  wizard-render with N page keys (Right/Left through every
#                page and back, then the digits 1-9 and 0), minus the
#                same run with no keys, divided by N; the median of RUNS
#
# Each screen wizard-render draws is also printed as text, so a key's time
# here includes turning the grid into text, which a terminal does not
# need: an upper bound. The report says how many of the keys changed the
# screen; a key the wizard does not bind would be timed as free.
# RUNS measures (default 5), each of REPS runs (default 5); the medians.
# Environment: BUILD (the build directory, default .), SWITCHES (N,
# default 200), SIZES (default "80x24 200x50"), REPS.
set -eu
runs=${1:-5}
reps=${REPS:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${BUILD:-.}" && pwd)
render=$build/tests/tools/wizard-render
switches=${SWITCHES:-200}
sizes=${SIZES:-80x24 200x50}
CUDAWIZ=$build/cudawiz
for p in "$CUDAWIZ" "$render"; do
	[ -x "$p" ] || { echo "no $p: run make tests/tools/wizard-render cudawiz in the build directory" >&2; exit 2; }
done
export CUDAWIZ

# The golden test's fixture builders, sourced as the test sources them;
# its healthy() and broken() are read out of it rather than copied, so
# the trees timed are the trees the goldens show.
TESTS_SRCDIR=$top/tests
export TESTS_SRCDIR
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
eval "$(sed -n '/^healthy() {$/,/^}$/p; /^broken() {$/,/^}$/p' \
    "$TESTS_SRCDIR/cli/wizard-golden.sh")"
command -v healthy >/dev/null 2>&1 && command -v broken >/dev/null 2>&1 || {
	echo "tests/cli/wizard-golden.sh has no healthy() or broken()" >&2; exit 2; }

work=$(mktemp -d)
fx_dirs="${fx_dirs:-} $work"

# The key files: none (the first screen only), and N page switches.
: > "$work/none.keys"
awk -v n="$switches" 'BEGIN {
	# Right through the pages and back with Left (the wizard stops at
	# the ends, so 8 each way stays inside its 9 pages), then the
	# digits 2-9, 0 and 1, which ends on the first page again.
	k = 0
	while (k < n) {
		for (i = 0; i < 8 && k < n; i++) { print "right"; k++ }
		for (i = 0; i < 8 && k < n; i++) { print "left"; k++ }
		for (d = 2; d <= 11 && k < n; d++) { print d % 10; k++ }
	}
}' > "$work/switch.keys"

# A measure is R runs of one command in a loop under GNU time: the CPU
# time (user + system) and the wall time of one run, in microseconds. On
# a loaded machine the wall time is mostly the wait for a core; the CPU
# time is what the wizard itself costs, so the verdicts are on it (GNU
# time counts in 10 ms, hence the loop).
# measure NAME CMD...: appends "cpu_us wall_us" to $work/NAME
measure() {
	name=$1
	shift
	/usr/bin/time -f '%U %S %e' -o "$work/t" sh -c '
		r=$1; shift; i=0
		while [ "$i" -lt "$r" ]; do "$@" > /dev/null 2>&1; i=$((i + 1)); done
	' sh "$reps" "$@" || true
	awk -v r="$reps" '{ printf "%d %d\n", ($1 + $2) * 1e6 / r, $3 * 1e6 / r }' \
	    "$work/t" >> "$work/$name"
}

# The commands timed, as scripts (the loop above runs them in a child
# shell): the environment and arguments the golden test gives them.
# write_cmds SIZE
write_cmds() {
	for k in none switch; do
		printf '%s\n' "cd '$work' && exec env -i LC_ALL=C $FX_ENV '$render'" \
		    " --root '$FX' --matrix '$FX_MATRIX' --size $1 --keys '$work/$k.keys'" |
		    tr -d '\n' > "$work/$k.sh"
	done
	printf '%s' "exec env -i LC_ALL=C $FX_ENV '$CUDAWIZ' doctor --json" \
	    " --root '$FX' --matrix '$FX_MATRIX'" > "$work/doctor.sh"
}

median() {
	sort -n | awk '{ a[NR] = $1 } END {
		if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
col() { cut -d' ' -f"$1" "$work/$2" | median; }

ms() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1000 }'; }
verdict() { awk -v v="$1" -v lim="$2" 'BEGIN { print (v < lim ? "yes" : "NO") }'; }

echo "machine: $(nproc 2>/dev/null || echo ?) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
echo "cudawiz: $("$CUDAWIZ" --version)   $runs measures of $reps runs each (medians); $switches page keys a run"
echo "CPU ms (user + system) a run; the wall ms follow in brackets"
printf '%-8s %-7s %16s %16s %16s %5s %14s %5s %8s\n' tree size \
    doctor first-screen extra '<+50' 'ms/key' '<5' changed
worst=ok
for tree in healthy broken; do
	$tree
	for size in $sizes; do
		write_cmds "$size"
		rm -f "$work/d" "$work/s0" "$work/sn"
		sh "$work/none.sh" > /dev/null 2>&1 || true	# warm the cache
		i=0
		while [ "$i" -lt "$runs" ]; do
			measure d sh "$work/doctor.sh"
			measure s0 sh "$work/none.sh"
			measure sn sh "$work/switch.sh"
			i=$((i + 1))
		done
		# How many keys changed the screen.
		sh "$work/switch.sh" > "$work/screens" 2>/dev/null || true
		changed=$(awk '/^=== / { if (have) { if (seen && cur != prev) c++
			prev = cur; seen = 1 }
		    have = 1; cur = ""; next }
		    { cur = cur $0 "\n" }
		    END { if (seen && cur != prev) c++; print c + 0 }' "$work/screens")
		for c in 1 2; do
			d=$(col $c d); s0=$(col $c s0); sn=$(col $c sn)
			eval "d$c=\$d s0$c=\$s0"
			eval "extra$c=$(awk -v a="$s0" -v b="$d" 'BEGIN { print a - b }')"
			eval "key$c=$(awk -v a="$sn" -v b="$s0" -v n="$switches" 'BEGIN { print (a - b) / n }')"
		done
		v1=$(verdict "$extra1" 50000)
		v2=$(verdict "$key1" 5000)
		[ "$v1$v2" = yesyes ] || worst=missed
		printf '%-8s %-7s %16s %16s %16s %5s %14s %5s %8s\n' "$tree" "$size" \
		    "$(ms "$d1") ($(ms "$d2"))" "$(ms "$s01") ($(ms "$s02"))" \
		    "$(ms "$extra1") ($(ms "$extra2"))" "$v1" \
		    "$(ms "$key1") ($(ms "$key2"))" "$v2" "$changed/$switches"
	done
done
echo "targets on CPU time (page switch < 5 ms, start-up < doctor + 50 ms): $worst"
