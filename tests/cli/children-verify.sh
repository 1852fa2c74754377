#!/bin/sh
# Issue 16, points 7 and 12: what a vendor library starts inside the helper. A fake
# libcuda whose constructor leaves a sleeping child holding the helper's
# pipes, one whose child escapes into its own session, one that lists the
# descriptors it can reach, and a cudawiz ended by SIGTERM while a hanging
# library's daemon sleeps. The helper's exit is the end of the run (not
# the pipes a grandchild holds), nothing it started outlives cudawiz, and
# it inherits no descriptor of cudawiz's but its pipes; a record forged
# on the helper's pipe by a library that does not know the run's token
# is garbage.
. "$TESTS_SRCDIR/lib/tap.sh"

[ -x "$CUDAWIZ" ] || skip_all "cudawiz is not built ($CUDAWIZ)"
[ -x "$CUDAWIZ_HELPER" ] || skip_all "no helper at $CUDAWIZ_HELPER"
command -v jq > /dev/null 2>&1 || skip_all "jq (Debian package: jq) is not installed"
[ -n "$FIXTURE_CC" ] || skip_all "FIXTURE_CC is not set"
command -v timeout > /dev/null 2>&1 || skip_all "no timeout(1) (Debian package: coreutils)"
[ -r /proc/self/cmdline ] || skip_all "no /proc"
# The parent would find the machine's real driver before the fake.
[ -e /sys/module/nvidia ] && skip_all "this machine has an NVIDIA driver loaded"

W=$(mktemp -d "$FX_TMP/children-verify.XXXXXX") || exit 99

# procs MARK: the pids of live processes whose command line holds MARK
# (each fake's directory: the helper's --lib names it, and a forked child
# keeps the helper's command line). The last character goes in brackets:
# grep's own command line then does not match (it may read its own).
procs() {
	grep -l -a -e "${1%?}[${1#"${1%?}"}]" /proc/[0-9]*/cmdline 2> /dev/null |
	    sed 's|^/proc/\([0-9]*\)/cmdline$|\1|'
}
cleanup() {
	# A failed run leaves its sleepers: they go with the test.
	for p in $(procs "$W/"); do kill -KILL "$p" 2> /dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT

NO_SEGV_HANDLER="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"

fake() {	# NAME MODE [CFLAGS...]: $W/NAME/libcuda.so.1
	name=$1
	mode=$2
	shift 2
	mkdir -p "$W/$name"
	$FIXTURE_CC -shared -fPIC -O1 -o "$W/$name/libcuda.so.1" \
	    -DFAKE_MODE="FAKE_$mode" "$@" \
	    "$TESTS_SRCDIR/tools/fake_libcuda.c" -lm 2> "$W/cc.err" || {
		cat "$W/cc.err" >&2
		echo "Bail out! cannot build the fake libcuda ($name)"
		exit 99
	}
}
fake fork FORK
fake setsid SETSID
fake sethang SETSID -DFAKE_HANG_INIT
fake fds FDS -DFAKE_FDLIST="\"$W/fds.list\""
fake forge FORGE

# pv NAME [ARGS]: cudawiz verify --json with fake NAME first on
# LD_LIBRARY_PATH; timeout(1) only guards against a hang.
pv() {
	name=$1
	shift
	timeout 300 env -i PATH=/usr/bin:/bin HOME=/nonexistent \
	    ASAN_OPTIONS="$NO_SEGV_HANDLER" UBSAN_OPTIONS="${UBSAN_OPTIONS-}" \
	    LD_LIBRARY_PATH="$W/$name" CUDAWIZ_HELPER="$CUDAWIZ_HELPER" \
	    "$CUDAWIZ" verify --json "$@" > "$W/p.json" 2> "$W/p.err"
	prc=$?
}
drv() { jq -r ".verify.runs[] | select(.kind == \"driver\") | $1" "$W/p.json" 2>/dev/null; }
codes() { jq -r '[.findings[].code] | unique | join(" ")' "$W/p.json" 2>/dev/null; }

# --- a child that keeps the helper's stdout and stderr -----------------
# The helper is done in a moment; its child holds both pipes for minutes.
# The verify timeout (30 s here) is far beyond the run and far below the
# child's sleep: a parent that waited for the pipes' EOF times out.
pv fork --quick --timeout 30
is "$(drv '[.outcome, (.records | map(.check) | last)] | join(" ")')" "done end" \
    "a library leaving a child on the pipes: the run is done at the helper's end"
unlike "$(codes)" VERIFY_TIMEOUT "... no VERIFY_TIMEOUT"
is "$(procs "$W/fork/" | wc -l | tr -d ' ')" 0 "... and the child is gone with cudawiz"

# --- a child in its own session ----------------------------------------
pv setsid --quick --timeout 30
is "$(drv .outcome)" done "a library leaving a daemon (setsid, orphaned): done"
is "$(procs "$W/setsid/" | wc -l | tr -d ' ')" 0 "... and the daemon is gone with cudawiz"

# --- descriptors --------------------------------------------------------
# Descriptor 9 is open in cudawiz (the test's shell gives it); none of
# cudawiz's descriptors may reach the library.
rm -f "$W/fds.list"
pv fds --quick 9> "$W/inherited-fd"
is "$(drv .outcome)" done "a library listing its descriptors: done"
ok "... it listed them" test -s "$W/fds.list"
is "$(grep -c inherited-fd "$W/fds.list")" 0 "... cudawiz's descriptor 9 is not among them"
if [ -n "${CUDAWIZ_UNDER_VALGRIND-}" ]; then
	skip "... only the helper's record pipe" "valgrind's own descriptors are there too"
else
	is "$(grep -v -c ' pipe:' "$W/fds.list")" 0 \
	    "... every one above 2 is a pipe (the helper's records)"
fi

# --- a forged record ----------------------------------------------------
# The library writes an end record of its own to the records' pipe; it
# lacks the run's token, so it is garbage, not a record.
pv forge --quick
is "$(drv '[.records[] | select(.forged)] | length')" 0 \
    "a library forging a record on the helper's pipe: the forgery is no record"
ok "... it is counted as garbage" [ "$(drv .garbage_lines)" -ge 1 ]
is "$(drv '[.records[] | select(.check == "end")] | length')" 1 "... one end, the helper's"

# --- SIGTERM while a library hangs, its daemon asleep -------------------
env -i PATH=/usr/bin:/bin HOME=/nonexistent ASAN_OPTIONS="$NO_SEGV_HANDLER" \
    UBSAN_OPTIONS="${UBSAN_OPTIONS-}" LD_LIBRARY_PATH="$W/sethang" \
    CUDAWIZ_HELPER="$CUDAWIZ_HELPER" "$CUDAWIZ" verify --json --timeout 240 \
    > "$W/p.json" 2> "$W/p.err" &
cw=$!
# The helper and the daemon, both named by the fake's path; counted
# tries, each a tenth of a second, only so that a broken run ends.
n=0
while [ "$(procs "$W/sethang/" | wc -l)" -lt 2 ] && [ $n -lt 1200 ]; do
	sleep 0.1
	n=$((n + 1))
done
ok "SIGTERM: the helper hangs in cuInit, its daemon sleeps" \
    [ "$(procs "$W/sethang/" | wc -l)" -ge 2 ]
kill -TERM "$cw"
n=0
while kill -0 "$cw" 2> /dev/null && [ $n -lt 1200 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -KILL "$cw" 2> /dev/null
wait "$cw"
is "$?" 143 "... cudawiz ends of the SIGTERM (128+15)"
is "$(procs "$W/sethang/" | wc -l | tr -d ' ')" 0 "... and leaves neither the helper nor the daemon"

done_testing
