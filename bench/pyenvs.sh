#!/bin/sh
# bench/pyenvs.sh [RUNS]: time `cudawiz doctor` on trees with 1, 10, 50 and
# 200 conda environments of 300 packages each (bench/gen-pyenvs.py; every
# fifth env holds PyTorch cu118 with real ELF files), to check issue 5's
# target: under 100 ms at 50 environments, and linear in their number.
# Prints the median of RUNS (hyperfine when present) and ms per env.
set -eu
runs=${1:-11}
top=$(cd "$(dirname "$0")/.." && pwd)
cudawiz=${CUDAWIZ:-$top/build/cudawiz}
[ -x "$cudawiz" ] || { echo "no cudawiz at $cudawiz: run ./bootstrap" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to generate the trees" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
libs=$work/libs
sh "$top/bench/gen-pyenv-libs.sh" "$libs"

median_ms() {	# CMD... -> median ms
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N -i -w 2 -r "$runs" --export-json "$work/h.json" \
		    "$(printf '%s ' "$@")" >/dev/null 2>&1
		jq '.results[0].median * 1000' "$work/h.json"
	else
		k=0
		: > "$work/t"
		while [ "$k" -lt "$runs" ]; do
			t0=$(date +%s%N)
			"$@" >/dev/null 2>&1 || true
			t1=$(date +%s%N)
			echo $(( (t1 - t0) / 1000 )) >> "$work/t"
			k=$((k + 1))
		done
		sort -n "$work/t" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] / 1000}'
	fi
}

export HOME=/home/u
unset CONDA_PREFIX VIRTUAL_ENV LD_LIBRARY_PATH 2>/dev/null || true
printf '%-6s %-10s %12s %12s %10s\n' envs packages "doctor ms" "--json ms" "ms/env"
for n in 1 10 50 200; do
	tree=$work/t$n
	LIBDIR=$libs python3 "$top/bench/gen-pyenvs.py" "$tree" "$n" 300
	envs=$("$cudawiz" doctor --json --root "$tree" | jq '.facts.python_envs | length')
	pk=$("$cudawiz" doctor --json --root "$tree" | jq '[.facts.python_envs[].package_count] | add')
	t=$(median_ms "$cudawiz" doctor --root "$tree")
	j=$(median_ms "$cudawiz" doctor --json --root "$tree")
	printf '%-6s %-10s %12.2f %12.2f %10.3f\n' "$envs" "$pk" "$t" "$j" \
	    "$(echo "$t $n" | awk '{print $1 / $2}')"
	rm -rf "$tree"
done
