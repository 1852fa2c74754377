#!/bin/sh
# Where the matrix cache lies, for each HOME and XDG_CACHE_HOME: the rule
# is util/homedir.c's home_dir() (an absolute HOME or none), the one
# env --install-rc uses. This pins the behaviour src/matrix/cache.c had
# with its own check: a relative, empty or unset HOME gives no cache
# (never one under the current directory).
. "$TESTS_SRCDIR/lib/tap.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq (Debian package: jq) is missing"

W=$(mktemp -d "${TMPDIR:-/tmp}/cudawiz-cachehome.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

cache_path() {	# ENV...: matrix show's cache_path, "null" when none
	(cd "$W" && env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C \
	    PATH=/usr/bin:/bin "$@" "$CUDAWIZ" matrix show --json) |
	    jq -r .cache_path
}

is "$(cache_path HOME="$W/h")" "$W/h/.cache/cudawiz/matrix.json" \
    "an absolute HOME: HOME/.cache/cudawiz"
is "$(cache_path HOME=/)" "/.cache/cudawiz/matrix.json" "HOME=/: /.cache/cudawiz"
is "$(cache_path HOME=h)" null "a relative HOME: no cache"
is "$(cache_path HOME=)" null "an empty HOME: no cache"
is "$(cache_path)" null "HOME unset: no cache"
is "$(cache_path HOME="$W/h" XDG_CACHE_HOME="$W/x")" "$W/x/cudawiz/matrix.json" \
    "XDG_CACHE_HOME first"
is "$(cache_path HOME="$W/h" XDG_CACHE_HOME=x)" "$W/h/.cache/cudawiz/matrix.json" \
    "a relative XDG_CACHE_HOME is ignored"
is "$(cache_path HOME=h XDG_CACHE_HOME="$W/x")" "$W/x/cudawiz/matrix.json" \
    "XDG_CACHE_HOME with a relative HOME"
is "$(ls -A "$W")" "" "nothing was made in the current directory"

done_testing
