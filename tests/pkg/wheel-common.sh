# Sourced by the wheel tests (tests/pkg/wheel-*.sh), after tap.sh and
# fixture.sh: the wheel for ARCH of this build's version, or a failure
# that shows the end of the logs of the goals that should have made it.
#
#   wheel_find ARCH GOAL...   sets whl (and version); when the file is
#                             missing, fails the test with each
#                             dist/make-GOAL.log's tail and exits
#   wheel_pip_env             pip without this user's configuration,
#                             version check or cache

: "${DIST_DIR:=$(dirname "$CUDAWIZ")/dist}"

wheel_find() {
	wheel_arch=$1
	shift
	version=$("$CUDAWIZ" --version | sed -n '1{s/ (.*//;s/^cudawiz //;p;}')
	whl=$DIST_DIR/cudawiz-$version-py3-none-manylinux_2_28_$wheel_arch.whl
	if [ -f "$whl" ]; then
		ok "the build made $(basename "$whl")" test -s "$whl"
		return 0
	fi
	diag "no $whl; the end of the build's logs:"
	for g in "$@"; do
		[ -f "$DIST_DIR/make-$g.log" ] &&
		    tail -n 20 "$DIST_DIR/make-$g.log" | sed "s/^/#   make $g: /"
	done
	tap_result 1 "the build made $(basename "$whl")"
	done_testing
	exit 1
}

wheel_pip_env() {
	PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
	export PIP_CONFIG_FILE PIP_DISABLE_PIP_VERSION_CHECK PIP_NO_CACHE_DIR
}
