# Fixture helpers for the environment tests. Source after fixture.sh.
#
#   fx_entries VAR          the entries of VAR as "value|empty|exists|dup"
#                           lines (exists: true/false/null, dup: index or null)
#   fx_finding CODE FILTER  jq FILTER on the first finding with CODE
#   fx_ran_ok               a TAP check that the last run exited 0 or 1,
#                           not 2 or a sanitizer's 98/99

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
