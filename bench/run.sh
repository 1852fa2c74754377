#!/bin/bash
# bench/run.sh [--quick] [--runs N]: the whole benchmark in one table.
#
#   - `cudawiz doctor --json` on this machine next to
#     `python3 -m torch.utils.collect_env` (interleaved A B A B …, the
#     median of each, and their ratio);
#   - `doctor --json --root` on generated trees with 1, 10, 100 and 1,000
#     Python environments (BENCH_PACKAGES packages each, default 300) and
#     with 1, 5 and 20 CUDA toolkits, with the growth per added one;
#   - `why` on a 50-library closure, the matrix load, and `env` for every
#     shell and format;
#   - the peak RSS of every command (GNU time -v), against a target of
#     20 MB for doctor on the 100-environment tree;
#   - then bench/scale.sh's table: doctor on 1 … 10,000 LD_LIBRARY_PATH
#     and ld.so.conf directories and 1 … 100 Python environments.
#
# Wall times are medians of whole processes (fork and exec included: what
# a user waits for), timed by hyperfine when it is installed and by a
# plain loop otherwise. Peak RSS is the median of a few runs under
# /usr/bin/time -v ("Maximum resident set size").
#
# Options: -q, --quick   fewer repetitions (a rough look in a few minutes)
#          -r, --runs N  repetitions of each timed command (default 21)
# Environment: CUDAWIZ (default build/cudawiz), BUILD (default build/, for
# bench/matrix-load), PYTHON (default /usr/bin/python3: the interpreter
# Debian's python3-torch is installed for), BENCH_TMP (where the trees are
# generated, default /dev/shm when it has room, else $TMPDIR or /tmp;
# about 3 GB for 1,000 environments, each tree removed once timed),
# BENCH_PACKAGES, BENCH_ENVS (default "1 10 100 1000"), BENCH_TOOLKITS
# (default "1 5 20"), CC.
#
# bash, not sh: EPOCHREALTIME times the fallback loop and the interleaved
# runs without starting a date(1) process per sample.
set -eu

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}

runs=21
quick=no
while [ $# -gt 0 ]; do
	case $1 in
	-q|--quick) quick=yes ;;
	-r|--runs) [ $# -ge 2 ] || { usage >&2; exit 2; }; runs=$2; shift ;;
	--runs=*) runs=${1#--runs=} ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
if [ "$quick" = yes ]; then
	runs=5
	pairs=3		# collect_env pairs: it takes a second or more each
	rss_runs=1
else
	pairs=7
	rss_runs=3
fi
case $runs in ''|*[!0-9]*|0) echo "run.sh: --runs takes a positive number" >&2; exit 2 ;; esac
# The 1,000-environment tree takes over a second a run.
big_runs=$(( runs / 4 > 3 ? runs / 4 : 3 ))
[ "$quick" = no ] || big_runs=2

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
cudawiz=${CUDAWIZ:-$build/cudawiz}
python=${PYTHON:-/usr/bin/python3}
packages=${BENCH_PACKAGES:-300}
env_sizes=${BENCH_ENVS:-1 10 100 1000}
tk_sizes=${BENCH_TOOLKITS:-1 5 20}
# 20 MB (decimal: 19,531 KiB), the stricter reading of the target for
# doctor on the 100-environment tree.
rss_target_kb=19531

die() { echo "run.sh: $*" >&2; exit 2; }
[ -x "$cudawiz" ] || die "no cudawiz at $cudawiz: run ./bootstrap build (or set CUDAWIZ)"
/usr/bin/time -v true >/dev/null 2>&1 ||
    die "GNU time is needed at /usr/bin/time for the peak RSS (Debian package: time)"
command -v python3 >/dev/null || die "python3 is needed to generate the Python environments"
command -v "${CC:-cc}" >/dev/null || die "a C compiler (CC, default cc) is needed to build the trees' libraries"
# A --root or activation from the caller's shell would change what is timed.
unset CUDAWIZ_ROOT CUDAWIZ_LOCALEDIR 2>/dev/null || true

timer=loop
if command -v hyperfine >/dev/null 2>&1 && command -v jq >/dev/null 2>&1; then
	timer=hyperfine
fi

# The largest tree is hundreds of thousands of small files (about 3 GB at
# 1,000 environments of 300 packages): on tmpfs it is written and removed
# in a minute or two, on a busy disk it took a quarter of an hour.
# Warm reads, which is what is timed, cost the same on both. So
# /dev/shm when it and the memory have twice the room, else TMPDIR.
tmp_dir() {
	local most=1 n need
	for n in $env_sizes; do [ "$n" -le "$most" ] || most=$n; done
	need=$(( most * packages * 20 ))	# KiB: 10 per package, twice over
	if [ -d /dev/shm ] && [ -w /dev/shm ] &&
	    [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -gt "$need" ] 2>/dev/null &&
	    [ "$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)" -gt "$need" ] 2>/dev/null; then
		echo /dev/shm
	else
		echo "${TMPDIR:-/tmp}"
	fi
}
work=$(mktemp -d "${BENCH_TMP:-$(tmp_dir)}/cudawiz-bench.XXXXXX")
# chmod first: a tree the run left read-only must not survive rm.
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
rows=$work/rows
# The load average before and after says whether other work shared the
# CPUs while this ran (the numbers are then worth less).
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
started=$(date -u '+%Y-%m-%d %H:%M UTC')
: > "$rows"
progress() { printf '%s\n' "run.sh: $*" >&2; }

# ------------------------------------------------------------- measuring

median() {	# numbers on stdin, one a line -> their median
	sort -n | awk '{ a[NR] = $1 }
	    END { if (NR == 0) print ""; else if (NR % 2) print a[(NR + 1) / 2];
	          else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

now_us() {	# microseconds; the radix character of EPOCHREALTIME follows the locale
	local t=$EPOCHREALTIME
	echo "${t//[!0-9]/}"
}

shq() {	# one word quoted for hyperfine's POSIX-style splitting
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

prepare=	# a command run untimed before each timed run (hyperfine --prepare)

time_ms() {	# RUNS CMD... -> median wall ms
	local n=$1 k=0 t0 t1 cmd='' a
	shift
	if [ "$timer" = hyperfine ]; then
		for a in "$@"; do cmd="$cmd $(shq "$a")"; done
		# -N: no shell between hyperfine and the command, so the
		# numbers are the command's; -i: doctor exits 1 when it
		# finds an error, which is a result, not a failure.
		hyperfine -N -i -w 2 -r "$n" ${prepare:+--prepare "$prepare"} \
		    --export-json "$work/h.json" "${cmd# }" >/dev/null 2>&1 ||
		    die "hyperfine failed on: $*"
		jq '.results[0].median * 1000' "$work/h.json"
		return
	fi
	: > "$work/t"
	while [ "$k" -le "$n" ]; do	# run 0 warms the caches, untimed
		[ -z "$prepare" ] || $prepare
		t0=$(now_us)
		"$@" >/dev/null 2>&1 || true
		t1=$(now_us)
		[ "$k" -eq 0 ] || echo $(( t1 - t0 )) >> "$work/t"
		k=$((k + 1))
	done
	median < "$work/t" | awk '{ print $1 / 1000 }'
}

rss_kb() {	# CMD... -> median peak RSS in KiB
	local k=0
	: > "$work/r"
	while [ "$k" -lt "$rss_runs" ]; do
		[ -z "$prepare" ] || $prepare
		/usr/bin/time -v -o "$work/tv" "$@" >/dev/null 2>&1 || true
		sed -n 's/.*Maximum resident set size (kbytes): *//p' "$work/tv" >> "$work/r"
		k=$((k + 1))
	done
	median < "$work/r"
}

row() {	# LABEL MS RSS_KB RUNS NOTE: one line of the table
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >> "$rows"
}

section() { printf '#\t%s\n' "$1" >> "$rows"; }

measure_only() {	# LABEL RUNS CMD...: time and RSS of one command into last_ms, last_kb
	local label=$1 n=$2
	shift 2
	progress "$label"
	last_ms=$(time_ms "$n" "$@")
	last_kb=$(rss_kb "$@")
}

measure() {	# LABEL RUNS CMD...: the same, as a row of its own
	measure_only "$@"
	row "$1" "$last_ms" "$last_kb" "$2"
}

# ---------------------------------------------------------- this machine

section "this machine"
measure "doctor --json" "$runs" "$cudawiz" doctor --json

if "$python" -c 'import torch.utils.collect_env' >/dev/null 2>&1; then
	# Interleaved, so both see the same machine state (the other
	# helpers of a shared VM, the page cache, the CPU clock).
	progress "collect_env next to doctor --json, $pairs pairs"
	"$cudawiz" doctor --json >/dev/null 2>&1 || true
	"$python" -m torch.utils.collect_env >/dev/null 2>&1 || true
	: > "$work/a"
	: > "$work/b"
	i=0
	while [ "$i" -lt "$pairs" ]; do
		t0=$(now_us)
		"$cudawiz" doctor --json >/dev/null 2>&1 || true
		t1=$(now_us)
		"$python" -m torch.utils.collect_env >/dev/null 2>&1 || true
		t2=$(now_us)
		echo $(( t1 - t0 )) >> "$work/a"
		echo $(( t2 - t1 )) >> "$work/b"
		i=$((i + 1))
	done
	a_ms=$(median < "$work/a" | awk '{ print $1 / 1000 }')
	b_ms=$(median < "$work/b" | awk '{ print $1 / 1000 }')
	tv=$("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null || echo '?')
	row "python3 -m torch.utils.collect_env" "$b_ms" \
	    "$(rss_kb "$python" -m torch.utils.collect_env)" "$pairs" "torch $tv"
	ratio=$(awk -v a="$a_ms" -v b="$b_ms" 'BEGIN { printf "%.0f", b / a }')
	row "  collect_env / doctor --json" "-" "-" "$pairs" \
	    "${ratio}x (A B interleaved: doctor $(printf '%.2f' "$a_ms") ms, collect_env $(printf '%.0f' "$b_ms") ms)"
else
	ratio=
	row "python3 -m torch.utils.collect_env" "-" "-" "0" \
	    "not measured: $python cannot import torch"
	progress "no collect_env: $python cannot import torch; the other rows follow"
fi

# The env rows write for one conda environment (the conda format needs
# one, and the others then plan for its frameworks too): a generated
# environment with PyTorch cu118 and its nvidia-* wheels, made active
# the way `conda activate` does, on this machine's toolkits and driver.
progress "generating a conda environment for the env rows"
libs=$work/libs
sh "$top/bench/gen-pyenv-libs.sh" "$libs"
LIBDIR=$libs python3 "$top/bench/gen-pyenvs.py" "$work/condaenv" 1 "$packages"
condaenv=$work/condaenv/home/u/miniconda3/envs/env000
for fmt in sh fish csh pwsh conda lmod tcl direnv; do
	# conda writes two files into the environment, keeping a backup of
	# the last ones: removed before each run so every run does the same.
	if [ "$fmt" = conda ]; then prepare="rm -rf $condaenv/etc"; fi
	CONDA_PREFIX=$condaenv measure "env --shell $fmt" "$runs" \
	    "$cudawiz" env --shell "$fmt"
	prepare=
done

if [ ! -x "$build/bench/matrix-load" ] && [ -f "$build/Makefile" ]; then
	progress "building bench/matrix-load and bench/why-resolve"
	make -s -C "$build" bench/matrix-load bench/why-resolve >/dev/null 2>&1 || true
fi
if [ -x "$build/bench/matrix-load" ]; then
	progress "matrix load, in process"
	n=$(( runs * 10 ))
	ms=$("$build/bench/matrix-load" "$n" | sed -n 's/.* median \([0-9.]*\) ms.*/\1/p')
	row "matrix load (parse + validate, in process)" "$ms" "-" "$n" "bench/matrix-load"
else
	row "matrix load (parse + validate, in process)" "-" "-" "0" \
	    "no $build/bench/matrix-load: make check builds it"
fi
measure "matrix show --json" "$runs" "$cudawiz" matrix show --json

# ------------------------------------------------------------------- why

section "why, 50-library closure (199 entries, 20 dirs on LD_LIBRARY_PATH)"
progress "generating the closure"
sh "$top/bench/gen-closure.sh" "$work/closure"
(
	LD_LIBRARY_PATH=$(cat "$work/closure/llp")
	export LD_LIBRARY_PATH
	measure "why --from top.so --json" "$runs" "$cudawiz" why --json --from "$work/closure/top.so"
	measure "why --from top.so" "$runs" "$cudawiz" why --from "$work/closure/top.so"
	if [ -x "$build/bench/why-resolve" ]; then
		ms=$("$build/bench/why-resolve" "$work/closure/top.so" "$(( runs * 5 ))" |
		    sed -n 's/^resolve_closure alone (median) *\([0-9.]*\) ms.*/\1/p')
		row "resolve_closure (in process)" "$ms" "-" "$(( runs * 5 ))" "bench/why-resolve"
	fi
)
rm -rf "$work/closure"

# --------------------------------------------------------- --root trees

# Inside a tree HOME is /home/u (where gen-pyenvs.py lists the
# environments); nothing of the caller's activation leaks in.
export HOME=/home/u
unset CONDA_PREFIX VIRTUAL_ENV LD_LIBRARY_PATH PYTHONPATH PYTHONHOME \
    CUDA_HOME CUDA_PATH 2>/dev/null || true

growth() {	# PREV_N PREV_MS PREV_KB N MS KB UNIT -> "+x ms, +y KiB per UNIT"
	awk -v pn="$1" -v pm="$2" -v pk="$3" -v n="$4" -v m="$5" -v k="$6" -v u="$7" \
	    'BEGIN { printf "%+.3f ms, %+.0f KiB per added %s", (m - pm) / (n - pn), (k - pk) / (n - pn), u }'
}

section "doctor --json --root: Python environments ($packages packages each, 1 toolkit)"
prev=
for n in $env_sizes; do
	tree=$work/py$n
	progress "generating $n Python environments"
	LIBDIR=$libs python3 "$top/bench/gen-pyenvs.py" "$tree" "$n" "$packages"
	sh "$top/bench/gen-tree.sh" "$tree" 1 1
	r=$runs
	[ "$n" -lt 500 ] || r=$big_runs
	[ "$n" -eq 1 ] && label="1 environment" || label="$n environments"
	measure_only "$label" "$r" "$cudawiz" doctor --json --root "$tree"
	note=
	if [ -n "$prev" ]; then
		# shellcheck disable=SC2086
		note=$(growth $prev "$n" "$last_ms" "$last_kb" environment)
	else
		first="$n $last_ms $last_kb"
	fi
	[ "$n" -ne 100 ] || rss100=$last_kb
	last_n=$n
	prev="$n $last_ms $last_kb"
	row "$label" "$last_ms" "$last_kb" "$r" "$note"
	progress "removing the tree"
	rm -rf "$tree"
done
# shellcheck disable=SC2086 # a list of numbers, split on purpose
set -- $env_sizes
if [ $# -gt 2 ] && [ -n "${first:-}" ]; then	# else it repeats the one step
	# shellcheck disable=SC2086
	row "  overall, ${first%% *} to $last_n" "-" "-" "-" "$(growth $first $prev environment)"
fi

section "doctor --json --root: CUDA toolkits (1 cuDNN, no Python)"
prev=
for t in $tk_sizes; do
	tree=$work/tk$t
	sh "$top/bench/gen-tree.sh" "$tree" "$t" 1
	[ "$t" -eq 1 ] && label="1 toolkit" || label="$t toolkits"
	measure_only "$label" "$runs" "$cudawiz" doctor --json --root "$tree"
	note=
	# shellcheck disable=SC2086
	[ -z "$prev" ] || note=$(growth $prev "$t" "$last_ms" "$last_kb" toolkit)
	prev="$t $last_ms $last_kb"
	row "$label" "$last_ms" "$last_kb" "$runs" "$note"
	rm -rf "$tree"
done

# ----------------------------------------------------------------- table

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
# shellcheck disable=SC1091 # the running system's, not ours to follow
distro=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")
mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
if [ "$timer" = hyperfine ]; then
	how="$(hyperfine --version) (-N, 2 warm-up runs)"
else
	how="a plain loop (bash EPOCHREALTIME, 1 warm-up run; no hyperfine)"
fi
echo "cudawiz $("$cudawiz" --version | sed -n '1s/^cudawiz //p') ($cudawiz)"
echo "date:    $started to $(date -u '+%H:%M UTC')"
echo "machine: ${cpu:-$(uname -m)}, $(nproc) cores, ${mem:-? GiB}; Linux $(uname -r); ${distro:-unknown distribution}"
echo "timing:  median wall of whole processes by $how;"
[ "$quick" = yes ] && mode="; --quick" || mode=
echo "         peak RSS: GNU time -v, median of $rss_runs run(s)$mode"
echo "trees:   under $(dirname "$work")"
echo "load:    $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') at the end (1, 5, 15 min)"
echo
printf '%-52s %10s %10s %5s  %s\n' "benchmark" "median ms" "peak RSS" "runs" "notes"
while IFS='	' read -r label ms kb n note; do
	if [ "$label" = "#" ]; then
		printf '%s\n' "-- $ms"
		continue
	fi
	[ "$ms" = - ] || [ -z "$ms" ] || ms=$(printf '%.2f' "$ms")
	[ "$kb" = - ] || [ -z "$kb" ] || kb=$(awk -v k="$kb" 'BEGIN { printf "%.1f MiB", k / 1024 }')
	printf '%-52s %10s %10s %5s  %s\n' "$label" "${ms:--}" "${kb:--}" "$n" "$note" | sed 's/ *$//'
done < "$rows"
if [ -z "${ratio:-}" ]; then
	echo
	echo "collect_env was not measured: $python cannot import torch. On Debian or"
	echo "Ubuntu: sudo apt-get install python3-torch; elsewhere: pip install torch"
	echo "and run again with PYTHON set to that interpreter."
fi
if [ -n "${rss100:-}" ]; then
	verdict=$( [ "$rss100" -le "$rss_target_kb" ] && echo "holds" || echo "is missed")
	echo
	echo "target: doctor on the 100-environment tree under 20 MB peak RSS:" \
	    "$rss100 KiB = $(awk -v k="$rss100" 'BEGIN { printf "%.1f MB", k * 1.024 / 1000 }'), $verdict"
fi

# Growth with hostile sizes (issue 16): a table of its own.
echo
progress "bench/scale.sh"
if [ "$quick" = yes ]; then scale_opts=--quick; else scale_opts="--runs $runs"; fi
# shellcheck disable=SC2086 # the options, split on purpose
CUDAWIZ=$cudawiz BENCH_PACKAGES=$packages bash "$top/bench/scale.sh" $scale_opts

# The wizard's targets (issue 20): page switches and its first screen
# against doctor; needs tests/tools/wizard-render (make check builds it).
echo
progress "bench/wizard.sh"
if [ -x "$build/tests/tools/wizard-render" ]; then
	if [ "$quick" = yes ]; then wruns=3; else wruns=$runs; fi
	BUILD=$build sh "$top/bench/wizard.sh" "$wruns"
else
	echo "bench/wizard.sh: no $build/tests/tools/wizard-render (make -C $build tests/tools/wizard-render)"
fi
