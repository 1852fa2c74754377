#!/bin/sh
# bench/why.sh [RUNS]: time `cudawiz why` on a library with a 50-entry
# DT_NEEDED closure (issue 4's target: under 5 ms).
#
# The tree (bench/gen-closure.sh): top.so needs lib00 … lib49; each libNN
# lives in its own directory and needs the next two, reached through
# DT_RUNPATH with $ORIGIN; LD_LIBRARY_PATH holds 20 directories that have
# none of them, so every search walks a realistic path. Timed three
# ways: the whole command (`why --from top.so`, process start and probes
# included), the command for one name (`why lib00.so.1 --from top.so`),
# and the resolver alone in-process (bench/why-resolve), each the median
# of RUNS.
set -eu
runs=${1:-21}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
cudawiz=${CUDAWIZ:-$build/cudawiz}
resolver=$build/bench/why-resolve
[ -x "$cudawiz" ] || { echo "no cudawiz at $cudawiz: run ./bootstrap" >&2; exit 2; }

tree=$(mktemp -d)
[ -n "${KEEP_TREE:-}" ] && echo "tree: $tree"
[ -n "${KEEP_TREE:-}" ] || trap 'rm -rf "$tree"' EXIT
sh "$top/bench/gen-closure.sh" "$tree"
LD_LIBRARY_PATH=$(cat "$tree/llp")
export LD_LIBRARY_PATH

median() {
	sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}
time_cmd() {	# NAME CMD...
	name=$1; shift
	rm -f "$tree.$name"
	"$@" >/dev/null 2>&1 || true
	# hyperfine runs the command bare; the fallback's date(1) calls add
	# the start of a process (about 1 ms) to every run.
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N -i -w 3 -r "$runs" --export-json "$tree.$name" \
		    "$(printf '%s ' "$@")" >/dev/null 2>&1
		ms=$(jq '.results[0].median * 1000' "$tree.$name")
		how=hyperfine
	else
		k=0
		while [ "$k" -lt "$runs" ]; do
			t0=$(date +%s%N)
			"$@" >/dev/null 2>&1 || true
			t1=$(date +%s%N)
			echo $(( (t1 - t0) / 1000 )) >> "$tree.$name"
			k=$((k + 1))
		done
		ms=$(median < "$tree.$name" | awk '{print $1 / 1000}')
		how=date
	fi
	printf '%-44s %8.2f ms (%s)\n' "$name" "$ms" "$how"
}

n=$("$cudawiz" why --json --from "$tree/top.so" | grep -c '"name"' || true)
echo "closure entries: $n (50 libraries, each needing the next two)"
time_cmd "why --from top.so --json (whole command)" "$cudawiz" why --json --from "$tree/top.so"
time_cmd "why --from top.so (text)" "$cudawiz" why --from "$tree/top.so"
time_cmd "why libcwb00.so.1 --from top.so --json" "$cudawiz" why --json libcwb00.so.1 --from "$tree/top.so"
time_cmd "why libc.so.6 (text)" "$cudawiz" why libc.so.6
if [ -x "$resolver" ]; then
	"$resolver" "$tree/top.so" "$runs"
else
	echo "(no $resolver: make check builds it)"
fi
