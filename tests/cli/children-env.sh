#!/bin/sh
# Issue 16, point 7: the shell of `cudawiz env --check`. A script that
# starts a background job (sleep 300 &) gets its answer when the shell is
# done, not when the job lets go of the pipe, and the job is gone
# afterwards; the shell inherits none of cudawiz's descriptors.
. "$TESTS_SRCDIR/lib/tap.sh"

[ -x "$CUDAWIZ" ] || skip_all "cudawiz is not built ($CUDAWIZ)"
command -v timeout > /dev/null 2>&1 || skip_all "no timeout(1) (Debian package: coreutils)"
command -v sleep > /dev/null 2>&1 || skip_all "no sleep(1) (Debian package: coreutils)"
[ -r /proc/self/cmdline ] || skip_all "no /proc"

W=$(mktemp -d "$FX_TMP/children-env.XXXXXX") || exit 99

# procs MARK: the pids of live processes whose command line holds MARK.
# The last character goes in brackets: grep's own command line then does
# not match (it may read its own).
procs() {
	grep -l -a -e "${1%?}[${1#"${1%?}"}]" /proc/[0-9]*/cmdline 2> /dev/null |
	    sed 's|^/proc/\([0-9]*\)/cmdline$|\1|'
}
cleanup() {
	for p in $(procs "$W/"); do kill -KILL "$p" 2> /dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT

# The job's command line names $W: sleep by a link in it.
ln -s "$(command -v sleep)" "$W/bgsleep" || exit 99

# check FILE: env --check FILE --json in a clean environment, with
# descriptor 9 open; timeout(1) only guards against a hang.
check() {
	timeout 300 env -i PATH=/usr/bin:/bin HOME=/nonexistent \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
	    "$CUDAWIZ" env --check "$1" --timeout 30 --json \
	    > "$W/out.json" 2> "$W/err" 9> "$W/inherited-fd"
	rc=$?
}

cat > "$W/bg.sh" <<SCRIPT
# cudawiz-format: sh
"$W/bgsleep" 300 &
if (: >&9) 2> /dev/null; then echo open > "$W/fd9"; fi
export CUDA_HOME=/opt/cw-children
SCRIPT
check "$W/bg.sh"
# The shell is done at once; the job holds the pipe for 300 s, the
# timeout is 30 s: a cudawiz that waits for the pipe runs out of time.
is "$rc" 0 "a script that starts sleep 300 &: answered (exit 0)"
unlike "$(cat "$W/err")" "did not finish" "... not timed out"
like "$(cat "$W/out.json")" '"after": "/opt/cw-children"' \
    "... with what the script exported"
is "$(procs "$W/bgsleep" | wc -l | tr -d ' ')" 0 "... and the job is gone with cudawiz"
ok "the shell did not get cudawiz's descriptor 9" test ! -e "$W/fd9"

done_testing
