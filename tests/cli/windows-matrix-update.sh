#!/bin/sh
# cudawiz.exe matrix update under Wine, over WinHTTP
# (src/matrix/fetch_win.c), against the loopback test server
# (tests/lib/httpd.py), in one prefix: an update writes the cache under the
# prefix's LOCALAPPDATA, matrix path names it, matrix show uses it; the
# second update is a 304; --offline, plain http to another host, a
# redirect off loopback (to http or https), four redirects, a 404, bodies over the cap (announced and not), a
# server that is down and a certificate Windows does not trust are each
# refused in one line, exit 1, the cache byte-identical. Needs mingw-w64
# (with windres), Wine, jq, cmake, curl and python3 (openssl for the TLS
# check); skips without.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
. "$TESTS_SRCDIR/lib/httpd.sh"

src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"
winfx_setup windows-matrix-update
# Wine's WinHTTP takes a proxy from http_proxy: none here unless a check
# gives one.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy no_proxy

jq '.date = "2099-01-01"' "$src" > "$HD_DIR/matrix.json"
printf '{"schema": "cudawiz/matrix/1", "date": ' > "$HD_DIR/invalid.json"
tls=
command -v openssl >/dev/null 2>&1 && tls=--tls
hd_start $tls

# The prefix's own LOCALAPPDATA, as cudawiz.exe sees it, and its cache.
WLAD=$("$WINE" cmd /c 'echo %LOCALAPPDATA%' 2>/dev/null </dev/null | tr -d '\r')
LAD=$("$WINE" winepath -u "$WLAD" 2>/dev/null </dev/null | tr -d '\r')
LAD=${LAD%/}
case $WLAD in
C:\\users\\*) ;;
*) echo "Bail out! cmd.exe gives no LOCALAPPDATA under C:\\users: '$WLAD'"; exit 99 ;;
esac
CACHE=$LAD/cudawiz/matrix.json
# hd_snapshot and hd_unchanged compare this file.
HD_MATRIX=$CACHE
HD_CACHE=$LAD

# win [NAME=VALUE]... -- ARG...: cudawiz.exe; stdout in $work/out, stderr
# in $work/err, exit status in $rc.
win() {
	vars=
	while [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # NAME=VALUE words, none with a space
	env $vars "$WINE" "$exe" "$@" >"$work/out.crlf" 2>"$work/err.crlf" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	tr -d '\r' <"$work/err.crlf" >"$work/err"
}
# fails DESCRIPTION PATTERN ARG...: an update that fails with one line
# matching PATTERN and leaves the cache as it was.
fails() {
	fd=$1 fp=$2
	shift 2
	hd_snapshot
	win -- matrix update "$@"
	is "$rc" 1 "$fd: exit 1"
	like "$(cat "$work/err")" "$fp" "$fd: says why"
	is "$(wc -l < "$work/err" | tr -d ' ')" 1 "$fd: in one line"
	hd_unchanged "$fd: the cache is unchanged"
}

# 1-4: --offline refuses, before any request.
win -- --offline matrix update --url "$HD_URL/matrix.json"
is "$rc" 1 "--offline: update exits 1"
like "$(cat "$work/err")" 'offline' "--offline: says why"
is "$(hd_requests)" 0 "--offline: the server saw no request"
ok "--offline: no cache appears" test ! -e "$CACHE"

# 5-13: the update.
win -- matrix update --url "$HD_URL/matrix.json"
is "$rc" 0 "update over http://127.0.0.1 exits 0"
like "$(cat "$work/out")" 'Updated .*matrix.json' "it says what it updated"
is "$(jq -r .date "$CACHE" 2>&1)" 2099-01-01 "the cache under LOCALAPPDATA holds the fetched data"
like "$(cat "$CACHE.etag" 2>/dev/null)" "$(printf 'url\t')$HD_URL/matrix.json$(printf '\t')\"" \
    "the sidecar keeps the ETag WinHTTP read"
win -- matrix path
is "$rc/$(cat "$work/out")" "0/$WLAD\\cudawiz\\matrix.json" "matrix path names the cache file"
win -- matrix show
like "$(cat "$work/out")" '2099-01-01' "matrix show shows the new data's date"
win -- matrix show --json
is "$(jq -r '.source + " " + .date' "$work/out" 2>&1)" "cache 2099-01-01" "show --json: source cache"
win -- --matrix 'C:\nonexistent.json' matrix show
is "$rc" 2 "--matrix FILE still wins over the cache (a missing one is an error)"

# 14-18: the second update is a 304.
hd_snapshot
win -- matrix update --url "$HD_URL/matrix.json"
is "$rc" 0 "304: exit 0"
like "$(cat "$work/out")" 'up to date' "304: says up to date"
like "$(tail -n 1 "$HD_LOG")" 'inm="' "304: the request carried If-None-Match"
hd_unchanged "304: the cache is unchanged"

# The refusals.
n=$(hd_requests)
fails "plain http to another host" 'refusing plain http' \
    --url http://example.com/matrix.json
is "$(hd_requests)" "$n" "... no request was made for it"
fails "a redirect from loopback to another host" 'redirect refused' \
    --url "$HD_URL/to?url=http://example.com/matrix.json"
fails "a redirect from loopback to https elsewhere" 'stays on this machine' \
    --url "$HD_URL/to?url=https://example.invalid/matrix.json"
fails "four redirects" 'more than 3 redirects' --url "$HD_URL/chain/4/matrix.json"
fails "a 50 MB body announced" 'announced more than 5000000 bytes' --url "$HD_URL/big"
fails "a 50 MB body without Content-Length" 'larger than 5000000 bytes' \
    --url "$HD_URL/big-stream"
fails "a server that is down" 'failed: http://127\.0\.0\.1:1/matrix\.json: cannot connect' \
    --url http://127.0.0.1:1/matrix.json
fails "404" "$HD_URL/404: the server answered HTTP status 404" --url "$HD_URL/404"
fails "invalid JSON" 'not a valid cudawiz matrix' --url "$HD_URL/invalid.json"
fails "another scheme" 'refusing the file scheme' --url file:///C:/windows/win.ini
fails "a server that never answers" 'timed out after 1000 ms' --timeout 1 --url "$HD_URL/hang"

# Redirects within loopback are followed by hand; a loopback URL never
# goes through the proxy Wine's WinHTTP takes from http_proxy.
win -- matrix update --url "$HD_URL/chain/3/matrix.json"
is "$rc" 0 "three redirects on loopback are followed"
win http_proxy=http://127.0.0.1:1 -- matrix update --url "$HD_URL/matrix.json"
is "$rc" 0 "a loopback URL never goes through a proxy"

# https with a certificate Windows' store does not hold: a TLS failure,
# said as one.
if [ -n "$tls" ]; then
	fails "https with an untrusted certificate" "$HD_TLS_URL/matrix.json: TLS failed .*certificate store" \
	    --url "$HD_TLS_URL/matrix.json"
else
	for i in 1 2 3 4 5; do
		skip "https with an untrusted certificate" "openssl is not installed"
	done
fi

done_testing
