#!/bin/sh
# matrix update where libcurl cannot be loaded (it is dlopen()ed, never
# linked): the one command that needs it says what to install and exits
# 2 (something to install first, not a failed download); the cache is
# untouched and every other command works. libcurl is hidden in a mount
# namespace of the test's own (/dev/null bound over each libcurl*.so.4),
# so this needs root or a user namespace; else it skips.
. "$TESTS_SRCDIR/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
command -v unshare >/dev/null 2>&1 ||
    skip_all "unshare is not installed (Debian package: util-linux)"
if [ "$(id -u)" = 0 ]; then
	ns="unshare -m"
else
	ns="unshare -r -m"
fi
$ns true 2>/dev/null || skip_all "no mount namespace here ($ns is refused)"

work=$(mktemp -d "$FX_TMP/matrix-no-libcurl.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
libs=$(ls /usr/lib/*/libcurl*.so.4 /lib/*/libcurl*.so.4 2>/dev/null)
[ -n "$libs" ] || skip_all "no libcurl*.so.4 here to hide (the hint is then what any run prints)"

# run ARG...: cudawiz in the namespace with every libcurl*.so.4 hidden,
# HOME (and so the cache) in $work; stdout, stderr, status in $work.
run() {
	# shellcheck disable=SC2086
	env -i PATH=/usr/bin:/bin HOME="$work" LC_ALL=C \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
	    $ns sh -c 'for f in $1; do mount --bind /dev/null "$f" || exit 97; done
		shift; exec "$@"' - "$libs" "$CUDAWIZ" "$@" \
	    > "$work/out" 2> "$work/err"
	echo $? > "$work/rc"
}

run matrix update
is "$(cat "$work/rc")" 2 "no libcurl: matrix update exits 2"
like "$(cat "$work/err")" 'cannot load libcurl.*apt install libcurl4.*dnf install libcurl' \
    "... and says what to install, on Debian/Ubuntu and RHEL/Fedora"
is "$(wc -l < "$work/err" | tr -d ' ')" 1 "... in one line"
ok "... with no cache written" test ! -e "$work/.cache/cudawiz"

run matrix update --json
is "$(cat "$work/rc")" 2 "--json: exits 2 too"
like "$(jq -r '.error // empty' "$work/out" 2>/dev/null)" 'libcurl4' \
    "--json: the document names the package"

run doctor --json --root "$work"
ok "doctor runs without libcurl (exit $(cat "$work/rc"))" \
    test "$(cat "$work/rc")" -le 1
is "$(jq -r .schema "$work/out")" cudawiz/doctor/1 "... and its JSON is whole"

done_testing
