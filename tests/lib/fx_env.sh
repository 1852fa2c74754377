# Fixture helpers for the environment tests. Source after fixture.sh.
#
#   fx_doctor_env NAME=VALUE... [-- ARG...]
#                           like fx_doctor, but every NAME=VALUE is one
#                           word, so values may hold spaces and quotes
#   fx_entries VAR          the entries of VAR as "value|empty|exists|dup"
#                           lines (exists: true/false/null, dup: index or null)
#   fx_finding CODE FILTER  jq FILTER on the first finding with CODE
#   fx_ran_ok               a TAP check that the last run exited 0 or 1,
#                           not 2 or a sanitizer's 98/99

fx_doctor_env() {
	fx_vars=
	fx_n=0
	# Collect the variables as positional parameters of env below.
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		fx_n=$((fx_n + 1))
		eval "fx_v$fx_n=\$1"
		fx_vars="$fx_vars \"\$fx_v$fx_n\""
		shift
	done
	[ "${1:-}" = -- ] && shift
	eval "env -i \${ASAN_OPTIONS:+ASAN_OPTIONS=\"\$ASAN_OPTIONS\"} \
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} \
	    LC_ALL=C $fx_vars \"\$CUDAWIZ\" doctor --json --root \"\$FX\" \"\$@\"" \
	    > "$FX_OUT" 2> "$FX.stderr"
	FX_RC=$?
	if ! jq -e . "$FX_OUT" > /dev/null 2>&1; then
		diag "doctor did not print valid JSON (exit $FX_RC):"
		head -c 2000 "$FX_OUT" | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$FX.stderr" | head -n 20
	fi
}

fx_entries() {
	jq -r --arg v "$1" '.facts.env[$v].entries[] |
	    "\(.value)|\(.empty)|\(.exists)|\(.duplicate_of)"' "$FX_OUT" 2>/dev/null
}

fx_finding() {
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)][0] | $2" \
	    "$FX_OUT" 2>/dev/null
}

fx_ran_ok() {
	case $FX_RC in
	0 | 1) tap_result 0 "${1:-doctor ran (exit $FX_RC)}" ;;
	*) tap_result 1 "${1:-doctor ran}"; diag "exit status $FX_RC"
	   sed 's/^/#   stderr: /' "$FX.stderr" | head -n 30 ;;
	esac
}
