#!/bin/sh
# bench/doctor.sh [RUNS]: time `cudawiz doctor --json` on this machine and on
# a generated tree with 20 toolkits and 50 cuDNN copies, next to
# `python3 -m torch.utils.collect_env` (Debian's python3-torch), with the
# runs interleaved so both see the same machine state.
#
# Prints the median wall time and peak RSS of each, and the speed ratio.
# Wall time is measured around each process (fork + exec included: what a
# user waits for); RSS is GNU time's maximum resident set size.
# Environment: CUDAWIZ (default build/cudawiz), PYTHON (default
# /usr/bin/python3, the interpreter Debian's python3-torch belongs to).
set -eu
runs=${1:-15}
top=$(cd "$(dirname "$0")/.." && pwd)
cudawiz=${CUDAWIZ:-$top/build/cudawiz}
python=${PYTHON:-/usr/bin/python3}
[ -x "$cudawiz" ] || { echo "no cudawiz at $cudawiz: run ./bootstrap build" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed (Debian package: time)" >&2; exit 2; }

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
sh "$top/bench/gen-tree.sh" "$tree" 20 50

torch=no
if "$python" -c 'import torch' >/dev/null 2>&1; then
	torch=yes
else
	echo "note: $python cannot import torch (Debian package: python3-torch); skipping collect_env" >&2
fi

# one NAME CMD...: run once, append "ms rss_kb" to $tree.NAME
one() {
	name=$1; shift
	t0=$(date +%s%N)
	/usr/bin/time -f %M -o "$tree.rss" "$@" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000 )) $(tail -n 1 "$tree.rss")" >> "$tree.$name"
}

median() {	# column of file -> median
	sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}

rm -f "$tree".host "$tree".tree "$tree".torch
"$cudawiz" doctor --json >/dev/null 2>&1 || true	# warm the page cache
torch_runs=$(( runs < 5 ? runs : 5 ))
i=0
while [ "$i" -lt "$runs" ]; do
	one host env "$cudawiz" doctor --json
	one tree "$cudawiz" doctor --json --root "$tree"
	if [ "$torch" = yes ] && [ "$i" -lt "$torch_runs" ]; then
		one torch "$python" -m torch.utils.collect_env
	fi
	i=$((i + 1))
done

row() {	# LABEL NAME
	[ -s "$tree.$2" ] || return 0
	ms=$(cut -d' ' -f1 "$tree.$2" | median)
	kb=$(cut -d' ' -f2 "$tree.$2" | median)
	awk -v l="$1" -v ms="$ms" -v kb="$kb" -v n="$(wc -l < "$tree.$2")" \
	    'BEGIN { printf "%-48s %10.2f ms %9.1f MiB %4d runs\n", l, ms / 1000, kb / 1024, n }'
}

echo "cudawiz $("$cudawiz" --version | cut -d' ' -f2) on $(uname -n), $(nproc) cores, $(date -u +%Y-%m-%d)"
printf '%-48s %13s %13s\n' "command" "median wall" "median RSS"
row "cudawiz doctor --json (this machine)" host
row "cudawiz doctor --json (20 toolkits, 50 cuDNN)" tree
row "python3 -m torch.utils.collect_env" torch
if [ -s "$tree.torch" ]; then
	h=$(cut -d' ' -f1 "$tree.host" | median)
	t=$(cut -d' ' -f1 "$tree.torch" | median)
	awk -v h="$h" -v t="$t" 'BEGIN { printf "collect_env takes %.0f times as long as cudawiz doctor\n", t / h }'
fi
