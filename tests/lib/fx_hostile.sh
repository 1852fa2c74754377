# Bounds for the hostile-tree tests (tests/cli/hostile-*.sh): trees built
# to break a probe (100,000 names, link loops, a 1 GB file, FIFOs, names
# that are not text). Every run must end in bounded time and memory with
# a normal exit status, and its JSON must parse. Source after fixture.sh.
#
#   hostile_baseline    peak RSS of doctor on an empty tree, in
#                       HOSTILE_BASE_KB: the ceilings are relative to it,
#                       so a sanitizer build is held to the same margin
#   hostile_run LABEL WORDS [N=V...] [-- ARG...]
#                       cudawiz WORDS on $FX the way fx_cmd_env runs it
#                       (exactly these variables, as user 65534 after
#                       fx_drop_privileges), under `timeout
#                       $HOSTILE_TIMEOUT` and GNU time. Output in $FX_OUT,
#                       stderr in $FX.stderr, exit status in $FX_RC, wall
#                       time and peak RSS in HOSTILE_S and HOSTILE_KB. TAP
#                       checks: LABEL finishes in time, exits 0 or 1 (or
#                       one of the statuses in HOSTILE_EXIT), stays
#                       under HOSTILE_BASE_KB + HOSTILE_MARGIN_KB (three
#                       times the margin under ASan), and with
#                       --json in WORDS prints JSON that parses
#   hostile_note PATH   the problems noted for PATH in the last JSON run,
#                       one a line
#   hostile_notes_like PATTERN  the notes ("PATH: problem" lines) that
#                       match PATTERN (grep -E)

: "${HOSTILE_TIMEOUT:=60}"
# 150 MB over an empty run: reading a 1 GB file, or keeping 100,000 of
# anything with its JSON, goes far past it.
: "${HOSTILE_MARGIN_KB:=153600}"

hostile_timeout=$(command -v timeout 2>/dev/null) ||
    skip_all "timeout (Debian package: coreutils) is missing"
# GNU time reports the peak RSS of the whole tree it waited for (%M).
hostile_time=
hostile_time_why="GNU time is missing (Debian package: time)"
if [ -x /usr/bin/time ] &&
    /usr/bin/time -o /dev/null -f %M true >/dev/null 2>&1; then
	hostile_time=/usr/bin/time
fi
HOSTILE_BASE_KB=0
# AddressSanitizer's redzones and quarantine take about three times the
# heap (its documentation's figure): the margin scales with it, and still
# catches a 1 GB read.
hostile_scale=1
grep -aq __asan_init "$CUDAWIZ" 2>/dev/null && hostile_scale=3

# Call it before the first fx_new of the test: it makes a tree of its own.
hostile_baseline() {
	fx_new
	hostile_exec "doctor --json"
	[ -n "$HOSTILE_KB" ] && HOSTILE_BASE_KB=$HOSTILE_KB
	diag "baseline: doctor on an empty tree, ${HOSTILE_S:-?}s, peak RSS $((HOSTILE_BASE_KB / 1024)) MB"
}

# hostile_exec WORDS [N=V...] [-- ARG...]: the run alone, no checks.
hostile_exec() {
	h_drop=${FX_DROP:-}
	rm -f "$FX.time"
	# fx_cmd_env puts FX_DROP between env -i and cudawiz, split into
	# words: the wrappers run there, with absolute paths (the PATH they
	# see is the test's, inside the tree).
	case $h_drop in
	setpriv\ *) h_run="$(command -v setpriv) ${h_drop#setpriv }" ;;
	*) h_run=$h_drop ;;
	esac
	FX_DROP="${hostile_time:+$hostile_time -o $FX.time -f %e:%M} \
$hostile_timeout -k 5 $HOSTILE_TIMEOUT $h_run"
	fx_cmd_env "$@"
	FX_DROP=$h_drop
	HOSTILE_S= HOSTILE_KB=
	if [ -s "$FX.time" ]; then
		h_line=$(tail -n 1 "$FX.time")
		HOSTILE_S=${h_line%%:*}
		HOSTILE_KB=${h_line##*:}
		case $HOSTILE_KB in *[!0-9]* | '') HOSTILE_KB= ;; esac
	fi
}

hostile_run() {
	h_label=$1
	shift
	hostile_exec "$@"
	diag "$h_label: exit $FX_RC, ${HOSTILE_S:-?}s, peak RSS $((${HOSTILE_KB:-0} / 1024)) MB"
	case $FX_RC in
	124 | 137) tap_result 1 "$h_label: finishes within ${HOSTILE_TIMEOUT}s" ;;
	*) tap_result 0 "$h_label: finishes within ${HOSTILE_TIMEOUT}s" ;;
	esac
	h_want=${HOSTILE_EXIT:-0 1}
	case " $h_want " in
	*" $FX_RC "*) tap_result 0 "$h_label: exits $(echo "$h_want" | sed 's/ / or /g')" ;;
	*) tap_result 1 "$h_label: exits $(echo "$h_want" | sed 's/ / or /g') (got $FX_RC)"
	   sed 's/^/#   stderr: /' "$FX.stderr" | head -n 30 ;;
	esac
	if [ -z "$hostile_time" ]; then
		skip "$h_label: peak RSS bounded" "$hostile_time_why"
	elif [ -z "$HOSTILE_KB" ]; then
		tap_result 1 "$h_label: peak RSS measured"
		sed 's/^/#   time: /' "$FX.time" 2>/dev/null
	else
		h_max=$((HOSTILE_BASE_KB + HOSTILE_MARGIN_KB * hostile_scale))
		ok "$h_label: peak RSS $((HOSTILE_KB / 1024)) MB within $((h_max / 1024)) MB" \
		    [ "$HOSTILE_KB" -le "$h_max" ]
	fi
	case " $1 " in
	*" --json "*)
		if jq -e . "$FX_OUT" > /dev/null 2>&1; then
			tap_result 0 "$h_label: the JSON parses"
		else
			tap_result 1 "$h_label: the JSON parses"
			head -c 1000 "$FX_OUT" | sed 's/^/#   /'
		fi ;;
	esac
}

hostile_note() {
	jq -r --arg p "$1" '.facts.notes[] | select(.path == $p) | .problem' \
	    "$FX_OUT" 2>/dev/null
}

hostile_notes_like() {
	jq -r '.facts.notes[] | "\(.path): \(.problem)"' "$FX_OUT" 2>/dev/null |
	    grep -E -- "$1"
}
