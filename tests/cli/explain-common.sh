# Helpers for the `cudawiz explain` tests (sourced, not run). Source after
# fixture.sh.
#
#   fx_explain [NAME=VALUE...] [-- ARG...]
#                        explain --json ARG... under --root $FX with exactly
#                        these variables, standard input from $FX_STDIN (or
#                        /dev/null); output in $FX_OUT, status in $FX_RC
#   fx_explain_text ...  the same without --json (output in $FX_OUT)
#   finding CODE FILTER  jq FILTER on the first finding of CODE
#   fixes CODE           that finding's fix lines, one per line
#   evidence CODE        its evidence lines

fx_explain_run() {	# MODE NAME=VALUE... [-- ARG...]
	fx_mode=$1
	shift
	fx_vars=
	fx_n=0
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		fx_n=$((fx_n + 1))
		eval "fx_v$fx_n=\$1"
		fx_vars="$fx_vars \"\$fx_v$fx_n\""
		shift
	done
	[ "${1:-}" = -- ] && shift
	eval "env -i \${ASAN_OPTIONS:+ASAN_OPTIONS=\"\$ASAN_OPTIONS\"} \
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} \
	    LC_ALL=C $fx_vars \"\$CUDAWIZ\" \$fx_mode --root \"\$FX\" \
	    \${FX_MATRIX:+--matrix \"\$FX_MATRIX\"} explain \"\$@\"" \
	    > "$FX_OUT" 2> "$FX.stderr" < "${FX_STDIN:-/dev/null}"
	FX_RC=$?
}

fx_explain() {
	fx_explain_run --json "$@"
	fx_lint_keep explain
	if ! jq -e . "$FX_OUT" > /dev/null 2>&1; then
		diag "explain did not print valid JSON (exit $FX_RC):"
		head -c 2000 "$FX_OUT" | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$FX.stderr" | head -n 20
	fi
}

fx_explain_text() {
	fx_explain_run --no-color "$@"
}

finding() {
	jq -r --arg c "$1" "[.findings[] | select(.code == \$c)][0] | $2" \
	    "$FX_OUT" 2>/dev/null
}

fixes() {
	finding "$1" '.fix // [] | .[]'
}

evidence() {
	finding "$1" '.evidence // [] | .[]'
}
