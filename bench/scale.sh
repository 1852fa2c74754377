#!/bin/bash
# bench/scale.sh [--quick] [--runs N]: how doctor's time and memory grow
# with hostile sizes (issue 16, point 4): `doctor --json --root` on trees
# with N distinct LD_LIBRARY_PATH directories and with an ld.so.conf of N
# directories (N = 1, 100, 1,000, 10,000; every directory real and
# empty, so each library search walks all of them), and on N Python
# environments (1, 10, 100 by default; bench/gen-pyenvs.py, 300 packages
# each). Each row: median wall ms, CPU ms (user + system), peak RSS, the
# JSON's size, and the growth per added directory or environment since
# the row before.
# Also doctor --json on this machine and on an empty --root tree.
#
# bench/run.sh runs it after its own table. Targets: 10,000
# LD_LIBRARY_PATH directories under 1 s, 64 MiB and 2 MB of JSON.
#
# Options: -q, --quick   fewer runs; -r, --runs N (default 11)
# Environment: CUDAWIZ (default build/cudawiz), BENCH_DIRS (default
# "1 100 1000 10000"), BENCH_SCALE_ENVS (default "1 10 100"),
# BENCH_PACKAGES (default 300), BENCH_TMP (default /dev/shm when
# writable, else $TMPDIR or /tmp).
set -eu

runs=11
while [ $# -gt 0 ]; do
	case $1 in
	-q|--quick) runs=3 ;;
	-r|--runs) [ $# -ge 2 ] || { echo "scale.sh: --runs takes a number" >&2; exit 2; }; runs=$2; shift ;;
	--runs=*) runs=${1#--runs=} ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "scale.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
case $runs in ''|*[!0-9]*|0) echo "scale.sh: --runs takes a positive number" >&2; exit 2 ;; esac

top=$(cd "$(dirname "$0")/.." && pwd)
cudawiz=${CUDAWIZ:-$top/build/cudawiz}
dir_sizes=${BENCH_DIRS:-1 100 1000 10000}
env_sizes=${BENCH_SCALE_ENVS:-1 10 100}
packages=${BENCH_PACKAGES:-300}
die() { echo "scale.sh: $*" >&2; exit 2; }
[ -x "$cudawiz" ] || die "no cudawiz at $cudawiz (set CUDAWIZ)"
/usr/bin/time -v true >/dev/null 2>&1 ||
    die "GNU time is needed at /usr/bin/time for the peak RSS (Debian package: time)"
unset CUDAWIZ_ROOT CUDAWIZ_LOCALEDIR 2>/dev/null || true

base=${BENCH_TMP:-}
if [ -z "$base" ]; then
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then base=/dev/shm; else base=${TMPDIR:-/tmp}; fi
fi
work=$(mktemp -d "$base/cudawiz-scale.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
rows=$work/rows
: > "$rows"
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
started=$(date -u '+%Y-%m-%d %H:%M UTC')
progress() { printf 'scale.sh: %s\n' "$*" >&2; }

timer=loop
command -v hyperfine >/dev/null 2>&1 && command -v jq >/dev/null 2>&1 && timer=hyperfine

median() {
	sort -n | awk '{ a[NR] = $1 }
	    END { if (NR == 0) print ""; else if (NR % 2) print a[(NR + 1) / 2];
	          else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

now_us() { local t=$EPOCHREALTIME; echo "${t//[!0-9]/}"; }

# time_ms CMD...: the median wall ms of runs runs. The environment of the
# command is this script's (LD_LIBRARY_PATH set by the caller).
time_ms() {
	local k=0 t0 t1 cmd='' a
	if [ "$timer" = hyperfine ]; then
		for a in "$@"; do cmd="$cmd '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
		hyperfine -N -i -w 2 -r "$runs" --export-json "$work/h.json" \
		    "${cmd# }" >/dev/null 2>&1 || die "hyperfine failed on: $*"
		jq '.results[0].median * 1000' "$work/h.json"
		return
	fi
	: > "$work/t"
	while [ "$k" -le "$runs" ]; do	# run 0 warms the caches, untimed
		t0=$(now_us)
		"$@" >/dev/null 2>&1 || true
		t1=$(now_us)
		[ "$k" -eq 0 ] || echo $(( t1 - t0 )) >> "$work/t"
		k=$((k + 1))
	done
	median < "$work/t" | awk '{ print $1 / 1000 }'
}

# rss_cpu CMD...: the medians of 3 runs' peak RSS (KiB, into last_kb) and
# CPU time (user + system ms, into last_cpu): on a loaded machine the CPU
# time moves less than the wall time.
rss_cpu() {
	local k=0
	: > "$work/r"
	: > "$work/c"
	while [ "$k" -lt 3 ]; do
		/usr/bin/time -v -o "$work/tv" "$@" >/dev/null 2>&1 || true
		sed -n 's/.*Maximum resident set size (kbytes): *//p' "$work/tv" >> "$work/r"
		awk -F': *' '/User time \(seconds\)|System time \(seconds\)/ { t += $2 }
		    END { print t * 1000 }' "$work/tv" >> "$work/c"
		k=$((k + 1))
	done
	last_kb=$(median < "$work/r")
	last_cpu=$(median < "$work/c")
}

json_bytes() { "$@" 2>/dev/null | wc -c | tr -d ' '; }

row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "${6:-}" >> "$rows"; }
section() { printf '#\t%s\n' "$1" >> "$rows"; }

# measure LABEL UNIT N CMD...: a row, with the growth since the last row
# of the section (prev: "N ms kb").
measure() {
	local label=$1 unit=$2 n=$3 ms kb bytes note=
	shift 3
	progress "$label"
	ms=$(time_ms "$@")
	rss_cpu "$@"
	kb=$last_kb
	bytes=$(json_bytes "$@")
	if [ -n "$prev" ]; then
		# shellcheck disable=SC2086
		note=$(awk -v pn="${prev%% *}" -v rest="${prev#* }" -v n="$n" -v m="$ms" -v k="$kb" -v u="$unit" \
		    'BEGIN { split(rest, p, " "); printf "%+.4f ms, %+.2f KiB per added %s", (m - p[1]) / (n - pn), (k - p[2]) / (n - pn), u }')
	fi
	prev="$n $ms $kb"
	row "$label" "$ms" "$last_cpu" "$kb" "$bytes" "$note"
}

# A tree with n empty directories /L/0 … under it, and the driver's
# /proc entry so doctor has the usual shape.
dirs_tree() {	# TREE N
	mkdir -p "$1/L" "$1/usr/lib/x86_64-linux-gnu" "$1/proc/driver/nvidia" "$1/etc"
	(cd "$1/L" && awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) print i }' | xargs mkdir -p)
}

section "this machine"
prev=
measure "doctor --json" - 1 "$cudawiz" doctor --json
mkdir -p "$work/empty"
prev=
measure "doctor --json --root (an empty tree)" - 1 "$cudawiz" doctor --json --root "$work/empty"

section "doctor --json --root: distinct LD_LIBRARY_PATH directories"
prev=
for n in $dir_sizes; do
	tree=$work/llp$n
	dirs_tree "$tree" "$n"
	llp=$(awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%s/L/%d", (i ? ":" : ""), i }')
	LD_LIBRARY_PATH=$llp measure "$n director$([ "$n" -eq 1 ] && echo y || echo ies)" \
	    directory "$n" "$cudawiz" doctor --json --root "$tree"
	rm -rf "$tree"
done

section "doctor --json --root: ld.so.conf directories (4,096 are kept)"
prev=
for n in $dir_sizes; do
	tree=$work/conf$n
	dirs_tree "$tree" "$n"
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "/L/%d\n", i }' > "$tree/etc/ld.so.conf"
	measure "$n director$([ "$n" -eq 1 ] && echo y || echo ies)" \
	    directory "$n" "$cudawiz" doctor --json --root "$tree"
	rm -rf "$tree"
done

if command -v python3 >/dev/null 2>&1; then
	section "doctor --json --root: Python environments ($packages packages each)"
	sh "$top/bench/gen-pyenv-libs.sh" "$work/libs"
	prev=
	for n in $env_sizes; do
		tree=$work/py$n
		progress "generating $n Python environments"
		LIBDIR=$work/libs python3 "$top/bench/gen-pyenvs.py" "$tree" "$n" "$packages"
		sh "$top/bench/gen-tree.sh" "$tree" 1 1
		HOME=/home/u measure "$n environment$([ "$n" -eq 1 ] || echo s)" \
		    environment "$n" "$cudawiz" doctor --json --root "$tree"
		rm -rf "$tree"
	done
else
	progress "no python3: the Python environment rows are left out"
fi

if [ "$timer" = hyperfine ]; then
	how="$(hyperfine --version) (-N, 2 warm-up runs), $runs runs"
else
	how="a plain loop (bash EPOCHREALTIME, 1 warm-up run; no hyperfine), $runs runs"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "cudawiz $("$cudawiz" --version | sed -n '1s/^cudawiz //p') ($cudawiz)"
echo "date:    $started to $(date -u '+%H:%M UTC')"
echo "machine: ${cpu:-$(uname -m)}, $(nproc) cores; Linux $(uname -r)"
echo "timing:  median wall of whole processes by $how; peak RSS: GNU time -v, median of 3"
echo "load:    $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') at the end (1, 5, 15 min)"
echo
printf '%-40s %10s %8s %9s %9s  %s\n' "benchmark" "median ms" "CPU ms" "peak RSS" "JSON" "growth since the row before (wall)"
while IFS='	' read -r label ms cpu kb bytes note; do
	if [ "$label" = "#" ]; then
		printf '%s\n' "-- $ms"
		continue
	fi
	ms=$(printf '%.2f' "$ms")
	kb=$(awk -v k="$kb" 'BEGIN { printf "%.1f MiB", k / 1024 }')
	bytes=$(awk -v b="$bytes" 'BEGIN { if (b >= 1048576) printf "%.2f MiB", b / 1048576; else printf "%.0f KiB", b / 1024 }')
	cpu=$(printf '%.0f' "$cpu")
	printf '%-40s %10s %8s %9s %9s  %s\n' "$label" "$ms" "$cpu" "$kb" "$bytes" "$note" | sed 's/ *$//'
done < "$rows"
