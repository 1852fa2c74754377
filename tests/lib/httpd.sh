# The loopback test server (httpd.py) and a clean cudawiz for the matrix
# tests. Source after tap.sh.
#
#   hd_start [--tls]        start the server on the files in $HD_DIR; sets
#                           HD_URL (http://127.0.0.1:PORT), HD_PORT6 (empty
#                           without IPv6) and, with --tls, HD_TLS_URL and
#                           HD_CERT (a fresh self-signed certificate)
#   hd_requests             how many requests the server has seen
#   hd_cudawiz [NAME=VALUE]... [--] ARG...
#                           cudawiz with a clean environment (no proxy or
#                           CA variables unless given), XDG_CACHE_HOME at
#                           $HD_CACHE; stdout in $HD_OUT, stderr in $HD_ERR,
#                           exit status in $HD_RC
#   hd_snapshot / hd_unchanged DESCRIPTION
#                           keep a copy of the cache, and later check (TAP)
#                           that it is byte-identical to that copy
#
# Skips the whole test when python3 is missing, and --tls when openssl is.

: "${CUDAWIZ:?CUDAWIZ must name the cudawiz binary (make check sets it)}"
: "${FX_TMP:=${TMPDIR:-/tmp}}"

command -v python3 >/dev/null 2>&1 ||
    skip_all "python3 is not installed (Debian package: python3)"

HD_WORK=$(mktemp -d "$FX_TMP/httpd.XXXXXX") || exit 99
HD_DIR=$HD_WORK/www
HD_LOG=$HD_WORK/requests.log
HD_CACHE=$HD_WORK/cache
HD_MATRIX=$HD_CACHE/cudawiz/matrix.json
HD_OUT=$HD_WORK/out
HD_ERR=$HD_WORK/err
HD_PID=
mkdir -p "$HD_DIR" "$HD_WORK/home"
: > "$HD_LOG"

hd_cleanup() {
	[ -n "$HD_PID" ] && kill "$HD_PID" 2>/dev/null
	[ -n "${FX_KEEP:-}" ] || rm -rf "$HD_WORK"
}
trap hd_cleanup EXIT

hd_start() {
	hd_tls=
	if [ "${1:-}" = --tls ]; then
		command -v openssl >/dev/null 2>&1 ||
		    skip_all "openssl is not installed (Debian package: openssl)"
		HD_CERT=$HD_WORK/cert.pem
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
		    -subj /CN=localhost \
		    -addext subjectAltName=IP:127.0.0.1,DNS:localhost \
		    -keyout "$HD_WORK/key.pem" -out "$HD_CERT" \
		    > "$HD_WORK/openssl.log" 2>&1 ||
		    skip_all "openssl cannot make a test certificate: $(tail -n 1 "$HD_WORK/openssl.log")"
		hd_tls=1
	fi
	python3 "$TESTS_SRCDIR/lib/httpd.py" --dir "$HD_DIR" \
	    --port-file "$HD_WORK/ports" --log "$HD_LOG" \
	    --lifetime "${HD_LIFETIME:-300}" \
	    ${hd_tls:+--cert "$HD_CERT" --key "$HD_WORK/key.pem"} \
	    > "$HD_WORK/httpd.out" 2>&1 &
	HD_PID=$!
	hd_i=0
	while [ ! -s "$HD_WORK/ports" ]; do
		hd_i=$((hd_i + 1))
		if [ $hd_i -gt 100 ] || ! kill -0 "$HD_PID" 2>/dev/null; then
			sed 's/^/# httpd: /' "$HD_WORK/httpd.out"
			skip_all "the loopback test server did not start"
		fi
		sleep 0.1
	done
	HD_URL=http://127.0.0.1:$(awk '$1 == "http" { print $2 }' "$HD_WORK/ports")
	HD_PORT6=$(awk '$1 == "http6" { print $2 }' "$HD_WORK/ports")
	[ -n "$hd_tls" ] &&
	    HD_TLS_URL=https://127.0.0.1:$(awk '$1 == "https" { print $2 }' "$HD_WORK/ports")
	return 0
}

hd_requests() {
	wc -l < "$HD_LOG" | tr -d ' '
}

hd_cudawiz() {
	hd_vars=
	hd_n=0
	# Each value goes through a numbered variable so eval never sees it.
	while [ $# -gt 0 ] && [ "$1" != -- ] && case $1 in *=*) true ;; *) false ;; esac; do
		hd_n=$((hd_n + 1))
		eval "hd_v$hd_n=\$1"
		hd_vars="$hd_vars \"\$hd_v$hd_n\""
		shift
	done
	[ "${1:-}" = -- ] && shift
	eval "env -i \${ASAN_OPTIONS:+ASAN_OPTIONS=\"\$ASAN_OPTIONS\"} \
	    \${UBSAN_OPTIONS:+UBSAN_OPTIONS=\"\$UBSAN_OPTIONS\"} \
	    LC_ALL=C PATH=\"\$PATH\" HOME=\"\$HD_WORK/home\" \
	    XDG_CACHE_HOME=\"\$HD_CACHE\" $hd_vars \"\$CUDAWIZ\" \"\$@\"" \
	    > "$HD_OUT" 2> "$HD_ERR"
	HD_RC=$?
}

hd_snapshot() {
	rm -rf "$HD_WORK/snapshot"
	mkdir -p "$HD_WORK/snapshot"
	[ -e "$HD_MATRIX" ] && cp -p "$HD_MATRIX" "$HD_WORK/snapshot/matrix.json"
	return 0
}

hd_unchanged() {
	if [ -e "$HD_WORK/snapshot/matrix.json" ]; then
		if cmp -s "$HD_WORK/snapshot/matrix.json" "$HD_MATRIX"; then
			tap_result 0 "$1"
		else
			tap_result 1 "$1"
			diag "the cache changed: $(cmp "$HD_WORK/snapshot/matrix.json" "$HD_MATRIX" 2>&1)"
		fi
	elif [ -e "$HD_MATRIX" ]; then
		tap_result 1 "$1"
		diag "a cache appeared where there was none"
	else
		tap_result 0 "$1"
	fi
	# No temporary file may be left beside it either.
	hd_left=$(ls -A "$HD_CACHE/cudawiz" 2>/dev/null | grep -v -x -e matrix.json -e matrix.json.etag)
	is "$hd_left" "" "$1: no temporary file left"
}
