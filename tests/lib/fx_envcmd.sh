# Running `cudawiz env` on fixture trees. Source after fixture.sh.
#
#   fx_env_cmd N=V... [-- ARG...]   cudawiz env ARG... --root $FX with exactly
#                                   these variables; stdout in $FX_OUT, stderr
#                                   in $FX.stderr, status in $FX_RC

fx_env_cmd() {
	fx_vars=
	fx_n=0
	# Each value goes through a numbered variable so eval never sees it.
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		fx_n=$((fx_n + 1))
		eval "fx_v$fx_n=\$1"
		fx_vars="$fx_vars \"\$fx_v$fx_n\""
		shift
	done
	[ "${1:-}" = -- ] && shift
	eval "env -i \${ASAN_OPTIONS:+ASAN_OPTIONS=\"\$ASAN_OPTIONS\"} \
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} \
	    LC_ALL=C $fx_vars \"\$CUDAWIZ\" env --root \"\$FX\" \
	    \${FX_MATRIX:+--matrix \"\$FX_MATRIX\"} \"\$@\"" \
	    > "$FX_OUT" 2> "$FX.stderr"
	FX_RC=$?
}
