#!/bin/sh
# Bounded conda-meta reads (issue 16, point 5): a conda record is read up
# to 64 MiB when the scanner finds no build and channel, and a tree can
# name hundreds of records of each kind. Made free by hard links, 256
# records that are one 64 MiB file took minutes for one environment.
# Now each file is read once per run (same st_dev and st_ino), one
# environment's records cost at most 128 MiB and the run's 512 MiB, and
# a note says what was not read. Checked by counts: the records read, the
# notes, and (with strace) the bytes read. The records are sparse files
# ('{"files": ["' and then zeros, which the scanner reads as a string),
# so the tree takes no room on disk.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"

command -v truncate >/dev/null 2>&1 ||
    skip_all "truncate (Debian package: coreutils) is missing"
# Scanning 512 MiB of records byte by byte under memcheck takes minutes.
[ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ] &&
    skip_all "under valgrind: scanning 512 MiB of records is too slow there"

fx_new
W=$FX_TMP/cudawiz-conda.$$
mkdir -p "$W" || exit 99
fx_dirs="$fx_dirs $W"
record() {	# FILE SIZE
	mkdir -p "$(dirname "$1")"
	printf '{"files": ["' > "$1" && truncate -s "$2" "$1" ||
	    skip_all "cannot make a sparse file in $FX_TMP"
}

# The base environment: 256 hard links to one 64 MiB record.
C=/opt/conda
fx_conda_base $C 3.11
record "$W/big.json" 64M
i=0
while [ $i -lt 256 ]; do
	ln "$W/big.json" "$FX$C/conda-meta/cuda-x$i-1.0-0.json" ||
	    skip_all "cannot hard-link in $FX_TMP"
	i=$((i + 1))
done
# Four more, each with three distinct 50 MiB records and a small one:
# the first three environments stop at 128 MiB each, in their third
# record, and the run's 512 MiB end in the last.
for e in b c d e; do
	fx_conda_env $C/envs/$e 3.11
	for n in 1 2 3; do
		record "$FX$C/envs/$e/conda-meta/cuda-y$n-1.0-0.json" 50M
	done
	fx_conda_pkg $C/envs/$e cuda-z 1.0 0 conda-forge
done

FX_DROP=
# LeakSanitizer stops the world with ptrace, which fails under strace.
strace_why="strace (Debian package: strace) is missing or cannot trace here"
if grep -aq __asan_init "$CUDAWIZ" 2>/dev/null; then
	strace_why="an AddressSanitizer build: LeakSanitizer cannot run under strace"
elif command -v strace >/dev/null 2>&1 &&
    strace -qq -e trace=read -o /dev/null true 2>/dev/null; then
	# fx_cmd_env runs FX_DROP's words in front of cudawiz.
	FX_DROP="$(command -v strace) -f -qq -e trace=read -e signal=none -s 0 -o $W/trace --"
fi
fx_cmd_env "doctor --json" CONDA_PREFIX=$C PATH=$C/bin
traced=$FX_DROP
FX_DROP=
is "$FX_RC" 0 "doctor ends normally (exit $FX_RC)"
is "$(fx_jq .schema)" cudawiz/doctor/1 "its JSON parses"

pkgs() {	# PREFIX JQ-FILTER
	jq -r --arg p "$1" "[.facts.python_envs[] | select(.prefix == \$p) | .packages[] | $2]" "$FX_OUT"
}
notes() {	# PATH
	jq -r --arg p "$1" '.facts.notes[] | select(.path == $p) | .problem' "$FX_OUT"
}
is "$(pkgs $C 'select(.name | startswith("cuda-x"))' | jq length)" 256 \
    "the 256 records are all listed, from their file names"
is "$(pkgs $C 'select(.metadata_error // "" | test("larger than 64 MiB"))' | jq length)" 1 \
    "the 64 MiB file is read once, not once per hard link"
like "$(notes $C/conda-meta)" '^255 records are hard links to a record read already' \
    "a note counts the 255 links not read again"

env_cut=0
run_cut=0
for e in b c d e; do
	n=$(notes $C/envs/$e/conda-meta)
	case $n in
	*"at most 128 MiB of one environment"*) env_cut=$((env_cut + 1)) ;;
	*"at most 512 MiB of conda records in one run"*) run_cut=$((run_cut + 1)) ;;
	esac
done
is "$env_cut" 3 "three environments stop at their 128 MiB, with a note"
is "$run_cut" 1 "the last stops at the run's 512 MiB, with a note"
is "$(jq -r '[.facts.python_envs[].packages[] | select(.metadata_error // "" | test("read only in part"))] | length' "$FX_OUT")" \
    4 "one record of each is read in part, and says so"
is "$(pkgs $C/envs/b 'select(.name == "cuda-z") | .version' | jq -r '.[0]')" \
    1.0 "a record not read keeps what its file name says"

if [ -n "$traced" ]; then
	bytes=$(awk '/= [0-9]+$/ { s += $NF } END { printf "%d", s }' "$W/trace")
	mib=$((bytes / 1048576))
	# 512 MiB of records and the few small files around them.
	ok "bytes read by the whole run: $mib MiB, at most 530 (over 16 GiB before)" \
	    [ "$mib" -le 530 ]
else
	skip "bytes read by the whole run" "$strace_why"
fi

done_testing
