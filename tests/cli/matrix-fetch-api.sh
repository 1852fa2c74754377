#!/bin/sh
# fetch.c's own interface against the loopback server: URL rules, progress
# and cancel, conditional GET, caps, timeouts, redirects (tests/unit/test_fetch.c).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/httpd.sh"

bin=$(dirname "$CUDAWIZ")/tests/unit/test_fetch
[ -x "$bin" ] || skip_all "no $bin (make check builds it)"

printf '{"hello": "%s"}\n' "$(head -c 3000 /dev/zero | tr '\0' x)" > "$HD_DIR/doc.json"
hd_start
# Proxies in the caller's environment must not take the loopback requests.
env -u http_proxy -u https_proxy -u all_proxy -u ALL_PROXY -u HTTPS_PROXY \
    "$bin" "$HD_URL" doc.json "$(wc -c < "$HD_DIR/doc.json" | tr -d ' ')"
