#!/bin/sh
# The Compatibility page's matrix update (u) against the loopback HTTPS
# server the matrix tests use (tests/lib/httpd.sh): progress frames with
# a bar and the source, the success screen with the new date and the
# cache written, a cancel by Esc or Ctrl-C before the first request, an
# unreachable URL, and --offline. wizard-render runs on this machine
# (--root /: under --root nothing is fetched, as `matrix update --root`
# refuses), so screens are matched, not compared whole.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/httpd.sh"

[ -x "${WIZARD_RENDER:-}" ] || skip_all "no wizard-render (make check builds it)"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"
jq '.date = "2099-01-01"' "$src" > "$HD_DIR/matrix.json"
hd_start --tls
URL=$HD_TLS_URL/matrix.json

render() {	# KEYS [ARG...]: screens in $HD_OUT, status in $rc, $out
	keys=$1
	shift
	env -i PATH=/usr/bin:/bin HOME="$HD_WORK/home" LC_ALL=C \
	    XDG_CACHE_HOME="$HD_CACHE" CURL_CA_BUNDLE="$HD_CERT" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
	    "$WIZARD_RENDER" --root / --keys "$TESTS_SRCDIR/wizard/$keys" \
	    --connect-timeout 3000 "$@" > "$HD_OUT" 2> "$HD_ERR"
	rc=$?
	out=$(cat "$HD_OUT")
}
# The screen under a header (the first one so named).
screen() { awk -v h="$1" '/^=== /{on = ($0 == h) && !seen; if (on) seen = 1} on' "$HD_OUT"; }
# The last screen under a header (after the keys that move on).
last() { awk -v h="$1" '/^=== /{if ($0 == h) {n++; buf = ""} on = ($0 == h)} on {buf = buf $0 "\n"} END {printf "%s", buf}' "$HD_OUT"; }
progress() { awk '/^=== /{on = ($0 ~ /^=== \(progress\)/)} on' "$HD_OUT"; }
worked() { screen '=== (worked) (80x24) ==='; }

# Before anything: the page offers u, in its help and its status line.
render update-offline.keys --offline
is "$rc" 0 "offline: wizard-render exits 0"
like "$(screen '=== ? (80x24) ===')" "Keys: Compatibility" "the fifth right is the Compatibility page"
like "$(screen '=== ? (80x24) ===')" "u +fetch newer compatibility data" "its help names u"
like "$(screen '=== ? (80x24) ===')" "Esc, q, Ctrl-C +while it fetches: cancel" "and the cancel"
like "$(screen '=== space (80x24) ===')" " u: update  j/k: scroll" "the status line names u"
like "$(screen '=== space (80x24) ===')" "--offline: the wizard does not fetch" \
    "offline: the page says it will not fetch"
like "$(worked)" "not fetched: matrix update needs the network, and --offline" \
    "offline: u says why nothing was fetched"
is "$(hd_requests)" 0 "offline: the server saw no request"
ok "offline: no cache appears" test ! -e "$HD_MATRIX"

# Success.
render update-run.keys --url "$URL"
is "$rc" 0 "run: wizard-render exits 0"
like "$(screen '=== u (80x24) ===')" "u: fetch newer data now" "run: the page offers u"
like "$(progress)" "fetching source 1 of 1:" "run: a progress frame names the source's number"
like "$(progress)" "$URL" "run: and its URL"
like "$(progress)" '\[[█░]{30}\]' "run: and a progress bar"
like "$(progress)" "Esc, q or Ctrl-C cancels the update" "run: and how to cancel"
like "$(worked)" "updated: newer data \(2099-01-01\) is now in use" \
    "run: the result, with no key pressed"
like "$(worked)" "date +2099-01-01" "run: the page shows the new date"
like "$(worked)" "source +fetched copy" "run: and the new source (the cache, in words)"
unlike "$(worked)" "fetching source" "run: no progress once done"
like "$(last '=== left (80x24) ===')" "date +2099-01-01" "run: the new date stays (Right, then Left)"
is "$(jq -r .date "$HD_MATRIX")" 2099-01-01 "run: the cache holds the fetched data"

# Esc and Ctrl-C by the first frame: no request, the cache as it was.
hd_snapshot
n0=$(hd_requests)
render update-cancel.keys --url "$URL" --ascii
is "$rc" 0 "esc: wizard-render exits 0"
like "$(progress)" '\[-{30}\] 0 B so far' "esc: an ASCII progress bar under --ascii"
like "$(worked)" "update cancelled: the data in use and the cache are unchanged" \
    "esc: the page says it was cancelled"
like "$(last '=== right (80x24) ===')" "Live verification" "esc: the wizard goes on"
is "$(hd_requests)" "$n0" "esc: the server saw no request"
hd_unchanged "esc: the cache is unchanged"

render update-intr.keys --url "$URL"
is "$rc" 0 "ctrl-c: wizard-render exits 0"
like "$(worked)" "update cancelled" "ctrl-c: the page says it was cancelled"
like "$(worked)" "date +2099-01-01" "ctrl-c: the matrix in use stays"
hd_unchanged "ctrl-c: the cache is unchanged"

# Nothing listens on port 1: a clear error on the page, nothing changed.
render update-run.keys --url "https://127.0.0.1:1/matrix.json"
is "$rc" 0 "unreachable: wizard-render exits 0"
like "$(worked)" "update failed: https://127.0.0.1:1/matrix.json: " \
    "unreachable: the page says the update failed, naming the URL"
like "$(worked)" "the data in use and the cache" "unreachable: and that nothing changed"
hd_unchanged "unreachable: the cache is unchanged"

done_testing
