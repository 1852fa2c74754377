#!/bin/sh
# cudawiz matrix update against the loopback server: success, 304, and
# every way a download can fail. After each failure the cache must be
# byte-identical to what it was.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/httpd.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"

# A matrix newer than the embedded one, so the cache is what runs use.
# With a section from a newer release, which loads but is not kept.
jq '.date = "2099-01-01" | .future_section = [{"x": 1}]' "$src" > "$HD_DIR/matrix.json"
jq '.date = "2099-01-02" | .cuda_releases[0].version = "11.8; rm -rf ~"' \
    "$src" > "$HD_DIR/badfield.json"
printf '{"schema": "cudawiz/matrix/1", "date": ' > "$HD_DIR/invalid.json"
printf 'this is not json\n' > "$HD_DIR/notjson.txt"
hd_start

# fails DESCRIPTION PATTERN ARG...: an update that must fail with one line
# matching PATTERN on stderr and leave the cache as it was.
fails() {
	fd=$1 fp=$2
	shift 2
	hd_snapshot
	hd_cudawiz -- matrix update "$@"
	is "$HD_RC" 1 "$fd: exit 1"
	like "$(cat "$HD_ERR")" "$fp" "$fd: says why"
	is "$(wc -l < "$HD_ERR" | tr -d ' ')" 1 "$fd: in one line"
	hd_unchanged "$fd: the cache is unchanged"
}

# --offline never touches the network.
hd_cudawiz -- --offline matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 1 "--offline: update exits 1"
like "$(cat "$HD_ERR")" 'offline' "--offline: says why"
is "$(wc -l < "$HD_ERR" | tr -d ' ')" 1 "--offline: one line"
is "$(hd_requests)" 0 "--offline: the server saw no request"
ok "--offline: no cache appears" test ! -e "$HD_MATRIX"

# Failures with no cache yet: none appears.
fails "404 (no cache yet)" 'HTTP status 404' --url "$HD_URL/404"
ok "no cache directory is left behind by a failure" \
    test ! -e "$HD_MATRIX"

# Success.
hd_cudawiz -- matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 0 "update from the loopback server exits 0"
like "$(cat "$HD_OUT")" 'Updated .*matrix.json' "it says what it updated"
ok "the cache exists" test -f "$HD_MATRIX"
is "$(jq -r .schema "$HD_MATRIX")" cudawiz/matrix/1 "the cache is a cudawiz matrix"
is "$(jq -r .date "$HD_MATRIX")" 2099-01-01 "the cache holds the fetched data"
is "$(jq '.published | length' "$HD_MATRIX")" "$(jq '.published | length' "$src")" \
    "the cache keeps every published row"
is "$(jq -r 'has("future_section")' "$HD_MATRIX")" false "an unknown section is not kept"
like "$(cat "$HD_OUT" "$HD_ERR" 2>/dev/null)" '1 key this cudawiz does not know is not kept' \
    "and the update says so"
is "$(stat -c %a "$HD_CACHE/cudawiz")" 700 "the cache directory is 0700"
like "$(cat "$HD_MATRIX.etag" 2>/dev/null)" "$(printf 'url\t')$HD_URL/matrix.json$(printf '\t')\"" \
    "the sidecar keeps the URL's ETag"
hd_cudawiz -- matrix show --json
is "$(jq -r .source "$HD_OUT")" cache "show --json: source cache"
is "$(jq -r .path "$HD_OUT")" "$HD_MATRIX" "show --json: the cache's path"
is "$(jq -r .date "$HD_OUT")" 2099-01-01 "show --json: its date"
like "$(jq -r .checked "$HD_OUT")" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' "show --json: when it was checked"
hd_cudawiz -- matrix path
is "$(cat "$HD_OUT")" "$HD_MATRIX" "matrix path prints the cache file"

# 304: the second update sends the ETag and keeps the cache.
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 0 "304: exit 0"
like "$(cat "$HD_OUT")" 'up to date' "304: says up to date"
like "$(tail -n 1 "$HD_LOG")" 'inm="' "304: the request carried If-None-Match"
hd_unchanged "304: the cache is unchanged"
hd_cudawiz -- --json matrix update --url "$HD_URL/matrix.json"
is "$(jq -r .result "$HD_OUT")" up-to-date "304: --json says up-to-date"
is "$(jq -r '.sources[0].status' "$HD_OUT")" 304 "304: --json gives the status"

# Every failure keeps the cache byte-identical.
fails "404" 'HTTP status 404' --url "$HD_URL/404"
like "$(cat "$HD_ERR")" "$HD_URL/404" "404: the error names the URL"
t0=$(date +%s)
fails "a server that never answers" 'timed out' --timeout 1 --url "$HD_URL/hang"
ok "it gave up within the timeout" test $(($(date +%s) - t0)) -lt 10
fails "a 50 MB body" 'bytes; refusing it' --url "$HD_URL/big"
fails "a 50 MB body without Content-Length" 'larger than' --url "$HD_URL/big-stream"
fails "invalid JSON" 'not a valid cudawiz matrix' --url "$HD_URL/invalid.json"
fails "not JSON" 'neither JSON nor a directory listing' --url "$HD_URL/notjson.txt"
fails "a bad field" 'cuda_releases\[0\]\.version' --url "$HD_URL/badfield.json"
like "$(cat "$HD_ERR")" 'rm -rf' "a bad field: the error shows the value"
fails "a truncated body" "$HD_URL/truncated/matrix.json" \
    --url "$HD_URL/truncated/matrix.json"
fails "plain http to another host" 'refusing plain http' \
    --url http://example.com/matrix.json
fails "a redirect off loopback" 'redirect refused' \
    --url "$HD_URL/to?url=http://example.com/matrix.json"
fails "four redirects" 'more than 3 redirects' --url "$HD_URL/chain/4/matrix.json"
fails "nothing listening" '127.0.0.1' --url http://127.0.0.1:1/matrix.json
fails "another scheme" 'refusing the file scheme' --url file:///etc/passwd
fails "a good URL then a bad one" 'HTTP status 404' \
    --url "$HD_URL/matrix.json" --url "$HD_URL/404"
hd_cudawiz -- --json matrix update --url "$HD_URL/404"
is "$(jq -r .result "$HD_OUT")" failed "--json: a failure is a JSON document too"
like "$(jq -r .error "$HD_OUT")" '404' "--json: with the error"

# The other loopback names.
port=${HD_URL##*:}
hd_cudawiz -- matrix update --url "http://localhost:$port/matrix.json"
is "$HD_RC" 0 "http://localhost is loopback"
if [ -n "$HD_PORT6" ]; then
	hd_cudawiz -- matrix update --url "http://[::1]:$HD_PORT6/matrix.json"
	is "$HD_RC" 0 "http://[::1] is loopback"
else
	skip "http://[::1] is loopback" "no IPv6 loopback on this machine"
fi

# Three redirects are fine.
hd_cudawiz -- matrix update --url "$HD_URL/chain/3/matrix.json"
is "$HD_RC" 0 "three redirects are followed"

# The proxy variables are libcurl's: https goes through https_proxy (here
# the test server, which refuses the tunnel), loopback never does.
hd_snapshot
hd_cudawiz https_proxy="$HD_URL" -- matrix update --url https://example.invalid/matrix.json
is "$HD_RC" 1 "https through https_proxy: exit 1 when the proxy refuses"
like "$(tail -n 1 "$HD_LOG")" 'CONNECT example.invalid:443' "https_proxy is used"
hd_unchanged "a proxy that refuses: the cache is unchanged"
hd_cudawiz http_proxy=http://127.0.0.1:1 all_proxy=http://127.0.0.1:1 -- \
    matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 0 "a loopback URL never goes through a proxy"

# A loopback source stays on loopback at every hop, whatever the scheme
# (issue 16, point 12): a 302 from the loopback server to https on
# another host is refused before any connection to that host. With
# https_proxy naming the test server, a connection would be its CONNECT.
hd_snapshot
connects=$(grep -c CONNECT "$HD_LOG")
hd_cudawiz https_proxy="$HD_URL" -- matrix update \
    --url "$HD_URL/to?url=https://example.invalid/matrix.json"
is "$HD_RC" 1 "a redirect from loopback http to https elsewhere: exit 1"
like "$(cat "$HD_ERR")" 'refusing the redirect from a loopback address to another host \(https://example\.invalid/matrix\.json\)' \
    "... refused, naming where it led"
is "$(wc -l < "$HD_ERR" | tr -d ' ')" 1 "... in one line"
is "$(grep -c CONNECT "$HD_LOG")" "$connects" "... before any connection to example.invalid"
hd_unchanged "... the cache is unchanged"

# A changed document replaces the cache.
jq '.date = "2099-03-03"' "$src" > "$HD_DIR/matrix.json"
hd_cudawiz -- matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 0 "a changed document: exit 0"
is "$(jq -r .date "$HD_MATRIX")" 2099-03-03 "a changed document replaces the cache"

# An unusable cache directory: nothing can be written, and it says where.
hd_cudawiz XDG_CACHE_HOME=/dev/null/cache -- matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 1 "an unusable cache directory: exit 1"
like "$(cat "$HD_ERR")" 'cannot create the cache directory /dev/null' \
    "an unusable cache directory: says which"

# Usage errors.
hd_cudawiz -- matrix update --timeout abc
is "$HD_RC" 2 "--timeout abc: exit 2"
hd_cudawiz -- matrix update --connect-timeout 0
is "$HD_RC" 2 "--connect-timeout 0: exit 2"
hd_cudawiz -- matrix show --url "$HD_URL/matrix.json"
is "$HD_RC" 2 "--url with show: exit 2"
hd_cudawiz -- doctor --url "$HD_URL/matrix.json"
is "$HD_RC" 2 "--url with doctor: exit 2"
hd_cudawiz -- --root "$HD_DIR" matrix update --url "$HD_URL/matrix.json"
is "$HD_RC" 1 "under --root nothing is fetched"

done_testing
