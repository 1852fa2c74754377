#!/bin/sh
# contrib/systemd's service and timer: `systemd-analyze verify` accepts
# both without a warning (a copy of the service whose ExecStart names the
# binary just built, which verify wants to exist); the service is the
# oneshot the docs describe, with no network, and the timer starts it
# every five minutes; its command line, run with -o pointed elsewhere,
# writes metrics promtool accepts.
. "$TESTS_SRCDIR/lib/tap.sh"

: "${CUDAWIZ:?CUDAWIZ must name the cudawiz binary (make check sets it)}"
command -v systemd-analyze >/dev/null 2>&1 ||
    skip_all "systemd-analyze is not installed (Debian package: systemd)"

SRC=$TESTS_SRCDIR/../contrib/systemd
SVC=$SRC/cudawiz-metrics.service
TIMER=$SRC/cudawiz-metrics.timer
T=$(mktemp -d "${TMPDIR:-/tmp}/cudawiz-prom-systemd.XXXXXX") ||
    skip_all "cannot make a temporary directory"
trap 'rm -rf "$T"' EXIT

# key FILE KEY: the values of KEY= in FILE, one a line.
key() {
	sed -n "s/^$2=//p" "$1"
}

sed "s|^ExecStart=/usr/bin/cudawiz |ExecStart=$CUDAWIZ |" "$SVC" > "$T/cudawiz-metrics.service"
cp "$TIMER" "$T/cudawiz-metrics.timer"
# --man=no: Documentation= names cudawiz(1), which is not installed here.
(cd "$T" && systemd-analyze verify --man=no ./cudawiz-metrics.service \
    ./cudawiz-metrics.timer) > "$T/verify.out" 2>&1
rc=$?
is "$rc" 0 "systemd-analyze verify accepts the service and the timer"
is "$(cat "$T/verify.out")" "" "and warns about nothing"

exec_start=$(key "$SVC" ExecStart)
is "$exec_start" \
    "/usr/bin/cudawiz doctor --format prometheus --no-verify -o /var/lib/prometheus/node-exporter/cudawiz.prom" \
    "the service writes Debian's textfile directory"
is "$(key "$SVC" Type)" oneshot "a oneshot service"
is "$(key "$SVC" SuccessExitStatus)" 1 "an error finding (exit 1) is no failure of the unit"
is "$(key "$SVC" ReadWritePaths)" /var/lib/prometheus/node-exporter \
    "it may write only the textfile directory"
is "$(key "$SVC" ProtectSystem)" strict "the rest of the system is read-only"
is "$(key "$SVC" PrivateNetwork)" yes "no network"
is "$(key "$SVC" ProtectKernelLogs)" "" "/dev/kmsg stays readable (no ProtectKernelLogs)"
is "$(key "$SVC" PrivateDevices)" "" "devices stay visible (no PrivateDevices)"
is "$(key "$TIMER" OnUnitActiveSec)" 5min "the timer runs it every five minutes"
is "$(key "$TIMER" WantedBy)" timers.target "enabled with the timers"

# The command line itself, on this machine, into a scratch directory.
set -- $(printf '%s\n' "$exec_start" | sed "s|^/usr/bin/cudawiz ||; s| -o .*||")
"$CUDAWIZ" "$@" -o "$T/cudawiz.prom" 2> "$T/run.err"
rc=$?
ok "its command line runs (exit $rc: doctor's)" test "$rc" -le 1
if command -v promtool >/dev/null 2>&1; then
	ok "and writes metrics promtool accepts" sh -c 'promtool check metrics < "$1"' \
	    sh "$T/cudawiz.prom"
else
	skip "and writes metrics promtool accepts" \
	    "promtool is not installed (Debian package: prometheus)"
fi

done_testing
