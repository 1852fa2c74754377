#!/bin/sh
# cudawiz fleet on N generated reports (default 1,000; bench/gen-fleet.py
# makes them from this machine's own doctor --json report): wall time and
# peak RSS (GNU time) of `fleet DIR` and `fleet --json DIR`, the median
# of RUNS runs each, against issue 22's targets (< 1 s, < 200 MB). From a
# build directory: sh ../bench/fleet.sh [N [RUNS]]; BENCH_FLEET_PAD_KB
# grows each report to about that many KB (0: as doctor wrote it).
set -eu
N=${1:-1000}
RUNS=${2:-5}
CUDAWIZ=${CUDAWIZ:-./cudawiz}
PAD=${BENCH_FLEET_PAD_KB:-0}
here=$(dirname "$0")
[ -x /usr/bin/time ] || { echo "needs GNU time (Debian package: time)" >&2; exit 2; }
tmp=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/cudawiz-fleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The template: this machine's report (exit 1 is an error finding, fine).
"$CUDAWIZ" doctor --json --no-verify > "$tmp/template.json" || [ $? -eq 1 ]
python3 "$here/gen-fleet.py" "$tmp/template.json" "$tmp/fleet" "$N" --pad-kb "$PAD"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -srm), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$CUDAWIZ" --version | head -n 1)"
echo "# $N reports, $(du -sk "$tmp/fleet" | cut -f1) KB, template $(wc -c < "$tmp/template.json") bytes, pad $PAD KB"
printf '%-18s %10s %8s %10s %8s %8s\n' command wall_s cpu_s max_rss_MB '<1s' '<200MB'
for mode in text json; do
	opt=
	[ $mode = json ] && opt=--json
	: > "$tmp/times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		# shellcheck disable=SC2086
		/usr/bin/time -f '%e %M %U %S' -o "$tmp/t" "$CUDAWIZ" fleet $opt \
		    "$tmp/fleet" > "$tmp/out" 2> /dev/null || [ $? -eq 1 ]
		# GNU time says "Command exited with non-zero status 1" first.
		tail -n 1 "$tmp/t" >> "$tmp/times"
		i=$((i + 1))
	done
	# Medians of wall and of CPU (user + system): on a shared machine
	# the wall time includes the wait for a core.
	mid=$(( (RUNS + 1) / 2 ))
	wall=$(cut -d' ' -f1 "$tmp/times" | sort -n | sed -n "${mid}p")
	cpu=$(awk '{ print $3 + $4 }' "$tmp/times" | sort -n | sed -n "${mid}p")
	rss=$(cut -d' ' -f2 "$tmp/times" | sort -n | tail -n 1)
	awk -v m="fleet $opt" -v w="$wall" -v c="$cpu" -v r="$rss" 'BEGIN {
	    mb = r / 1024
	    printf "%-18s %10.3f %8.3f %10.1f %8s %8s\n", m, w, c, mb,
	        w < 1 ? "yes" : "NO", mb < 200 ? "yes" : "NO" }'
done
# What the run found, as a check that the mix was read as meant.
"$CUDAWIZ" fleet --json "$tmp/fleet" > "$tmp/out" 2> /dev/null || :
jq -c '.summary' "$tmp/out" 2>/dev/null | sed 's/^/# summary: /' || :
