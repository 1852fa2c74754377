#!/bin/sh
# bench/portable.sh [RUNS]: the portable build against the dynamic one, in
# the same run: stripped sizes, wall time of `--version` and of
# `doctor --json --root TREE` (hyperfine when installed, else the median
# of RUNS timed runs, default 31), and instructions executed (valgrind
# callgrind, when installed), which do not depend on the machine's load.
#
# Environment: BUILD (default build/: its cudawiz is the dynamic build;
# run `make portable` there first, dist/build-ARCH/cudawiz is the other).
set -eu
runs=${1:-31}
build=${BUILD:-build}
dyn=$build/cudawiz
por=$(ls -d "$build"/dist/cudawiz-*-"$(uname -m)"-linux/cudawiz 2>/dev/null | head -n 1)
[ -x "$dyn" ] || { echo "no $dyn: build first" >&2; exit 2; }
[ -n "$por" ] && [ -x "$por" ] || { echo "no portable binary under $build/dist: make portable" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
sh "$(dirname "$0")/gen-tree.sh" "$tree" 5 5 >/dev/null
strip -o "$work/dyn-stripped" "$dyn"

echo "size (stripped)"
printf '  dynamic   %9d bytes (+ %s)\n' "$(wc -c <"$work/dyn-stripped")" \
    "$(ldd "$dyn" | awk '/=>/{print $1}' | grep -Ev '^(libc|libm|libdl|libpthread)\.' | tr '\n' ' ')"
printf '  portable  %9d bytes\n' "$(wc -c <"$por")"

# median_ms CMD...: the median wall time of runs runs, in ms.
median_ms() {
	i=0
	while [ "$i" -lt "$runs" ]; do
		t0=$(date +%s%N); "$@" >/dev/null 2>&1 || :; t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
		i=$((i + 1))
	done | sort -n | awk '{a[NR]=$1} END {printf "%.2f ms", a[int((NR+1)/2)]/1000}'
}

for what in "--version" "doctor --json --root $tree"; do
	echo "$what"
	# shellcheck disable=SC2086
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N -w 3 -r "$runs" --export-json "$work/h.json" \
		    -n dynamic "$dyn $what" -n portable "$por $what" -i >/dev/null 2>&1
		jq -r '.results[] | "  \(.command)\t\(.median*1000*100|round/100) ms median (\(.mean*1000*100|round/100) ± \(.stddev*1000*100|round/100))"' "$work/h.json"
	else
		printf '  dynamic\t%s\n' "$(median_ms $dyn $what)"
		printf '  portable\t%s\n' "$(median_ms $por $what)"
	fi
	vg=$(command -v valgrind.bin || command -v valgrind || :)
	if [ -n "$vg" ]; then
		for b in dynamic portable; do
			[ $b = dynamic ] && bin=$dyn || bin=$por
			n=$($vg --tool=callgrind --callgrind-out-file=/dev/null $bin $what 2>&1 >/dev/null |
			    sed -n 's/.*Collected : //p')
			printf '  %s\t%s instructions (callgrind)\n' "$b" "$n"
		done
	fi
done
