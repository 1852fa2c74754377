#!/bin/sh
# cudawiz matrix update over https with a self-signed certificate: the CA
# variables the curl tool honours, and no way from https back to http.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/httpd.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"
jq '.date = "2099-01-01"' "$src" > "$HD_DIR/matrix.json"
hd_start --tls

http_requests() {
	grep -c '^http ' "$HD_LOG"
}

# Without our certificate the server is not trusted.
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_TLS_URL/matrix.json"
is "$HD_RC" 1 "an untrusted certificate: exit 1"
like "$(cat "$HD_ERR")" 'certificate' "an untrusted certificate: says so"
like "$(cat "$HD_ERR")" 'CURL_CA_BUNDLE' "an untrusted certificate: says how to add one"
is "$(wc -l < "$HD_ERR" | tr -d ' ')" 1 "an untrusted certificate: one line"
hd_unchanged "an untrusted certificate: no cache"

# CURL_CA_BUNDLE, as the curl tool reads it.
hd_cudawiz CURL_CA_BUNDLE="$HD_CERT" -- matrix update --url "$HD_TLS_URL/matrix.json"
is "$HD_RC" 0 "CURL_CA_BUNDLE names the CA: exit 0"
hd_cudawiz -- matrix show --json
is "$(jq -r .source "$HD_OUT")" cache "the https download is the cache"
is "$(jq -r .date "$HD_OUT")" 2099-01-01 "with the served data"

# SSL_CERT_FILE too (the cache is current: 304).
hd_cudawiz SSL_CERT_FILE="$HD_CERT" -- matrix update --url "$HD_TLS_URL/matrix.json"
is "$HD_RC" 0 "SSL_CERT_FILE names the CA: exit 0"
like "$(cat "$HD_OUT")" 'up to date' "SSL_CERT_FILE: 304, up to date"

# CURL_CA_BUNDLE wins over SSL_CERT_FILE, as in curl.
hd_snapshot
hd_cudawiz CURL_CA_BUNDLE="$HD_WORK/missing.pem" SSL_CERT_FILE="$HD_CERT" -- \
    matrix update --url "$HD_TLS_URL/matrix.json"
is "$HD_RC" 1 "CURL_CA_BUNDLE comes first"
like "$(cat "$HD_ERR")" 'missing\.pem' "the error names the CA file used"
hd_unchanged "a missing CA file: the cache is unchanged"

# SSL_CERT_DIR, a hashed directory.
mkdir -p "$HD_WORK/certs"
cp "$HD_CERT" "$HD_WORK/certs/test.pem"
if openssl rehash "$HD_WORK/certs" >/dev/null 2>&1; then
	hd_cudawiz SSL_CERT_DIR="$HD_WORK/certs" -- matrix update --url "$HD_TLS_URL/matrix.json"
	is "$HD_RC" 0 "SSL_CERT_DIR names the CA: exit 0"
else
	skip "SSL_CERT_DIR names the CA" "openssl rehash is not available"
fi

# https must never lead to http: refused before the http server is asked.
before=$(http_requests)
hd_snapshot
hd_cudawiz CURL_CA_BUNDLE="$HD_CERT" -- \
    matrix update --url "$HD_TLS_URL/to?url=$HD_URL/matrix.json"
is "$HD_RC" 1 "a redirect from https to http: exit 1"
like "$(cat "$HD_ERR")" 'from https to plain http' "a redirect from https to http: says so"
is "$(wc -l < "$HD_ERR" | tr -d ' ')" 1 "a redirect from https to http: one line"
is "$(http_requests)" "$before" "the http server never saw the request"
hd_unchanged "a redirect from https to http: the cache is unchanged"

# https to https, and the name the certificate gives.
hd_cudawiz CURL_CA_BUNDLE="$HD_CERT" -- matrix update --url "$HD_TLS_URL/chain/2/matrix.json"
is "$HD_RC" 0 "redirects within https are followed"
port=${HD_TLS_URL##*:}
hd_cudawiz CURL_CA_BUNDLE="$HD_CERT" -- matrix update --url "https://localhost:$port/matrix.json"
is "$HD_RC" 0 "https://localhost matches the certificate's name"
hd_cudawiz CURL_CA_BUNDLE="$HD_CERT" https_proxy=http://127.0.0.1:1 -- \
    matrix update --url "$HD_TLS_URL/matrix.json"
is "$HD_RC" 0 "loopback https never goes through a proxy either"
# Loopback http may go up to https.
hd_cudawiz CURL_CA_BUNDLE="$HD_CERT" -- \
    matrix update --url "$HD_URL/to?url=$HD_TLS_URL/matrix.json"
is "$HD_RC" 0 "a redirect from loopback http to https is followed"

done_testing
