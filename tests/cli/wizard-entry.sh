#!/bin/sh
# `cudawiz` with no command: the doctor report off a terminal (a pipe,
# TERM=dumb, --json), the wizard on one (run inside script(1)'s
# pseudo-terminal, quit with q, the terminal given back; Esc does not
# quit; mouse clicks asked for unless --no-mouse).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

fx_new
fx_healthy_gpu

out=$(env -i TERM=xterm "$CUDAWIZ" --root "$FX" --matrix "$FX_MATRIX" </dev/null)
like "$out" 'Summary: ' "stdout a pipe: the doctor report"
unlike "$out" "$(printf '\033')" "and no escape sequence in it"
out=$(env -i TERM=xterm "$CUDAWIZ" --root "$FX" --matrix "$FX_MATRIX" --ascii)
like "$out" 'Summary: ' "--ascii is accepted off a terminal"
out=$(env -i TERM=xterm "$CUDAWIZ" --json --root "$FX" --matrix "$FX_MATRIX" | jq -r .schema)
is "$out" cudawiz/doctor/1 "--json with no command: doctor's JSON"
# Asked for by name off a terminal: no report in its place, a reason.
out=$(env -i TERM=xterm "$CUDAWIZ" wizard --root "$FX" --matrix "$FX_MATRIX" </dev/null \
    2>"$FX.stderr")
is "$?/$out" "2/" "'wizard' off a terminal: exit 2, nothing on stdout"
like "$(cat "$FX.stderr")" 'the wizard needs a terminal.*doctor' "... saying it needs one and naming doctor"

if ! command -v script >/dev/null 2>&1 || ! command -v timeout >/dev/null 2>&1; then
	skip "TERM=dumb on a terminal: the doctor report" "script(1) or timeout(1) missing (Debian package: bsdutils, coreutils)"
	skip "on a terminal: the wizard starts" "script(1) missing"
	skip "q quits it, exit status as doctor's" "script(1) missing"
	skip "the terminal is given back" "script(1) missing"
	skip "the wizard was up when SIGTERM came" "script(1) missing"
	skip "SIGTERM ends it" "script(1) missing"
	skip "and the terminal is given back first" "script(1) missing"
	skip "the wizard asks for mouse clicks" "script(1) missing"
	skip "--no-mouse: q quits" "script(1) missing"
	skip "--no-mouse: it does not ask for clicks" "script(1) missing"
	skip "Esc does not quit" "script(1) missing"
	skip "'wizard' on a terminal: the wizard" "script(1) missing"
	done_testing
	exit
fi

# script(1) gives cudawiz a pseudo-terminal for stdin and stdout.
cmd="'$CUDAWIZ' --root '$FX' --matrix '$FX_MATRIX'"
out=$( (sleep 1; printf q) | env -i TERM=dumb PATH=/usr/bin:/bin \
    timeout 30 script -qec "$cmd" /dev/null 2>&1)
like "$out" 'Summary: ' "TERM=dumb on a terminal: the doctor report"

out=$( (sleep 2; printf q; sleep 1) | env -i TERM=xterm LANG=C.UTF-8 PATH=/usr/bin:/bin \
    timeout 30 script -qec "$cmd; echo \"exit=\$?\"" /dev/null 2>&1)
like "$out" 'page 1 of 10' "on a terminal: the wizard starts"
like "$out" 'exit=0' "q quits it, exit status as doctor's (no error finding: 0)"
# ncurses leaves the alternate screen (rmcup) when it gives the
# terminal back.
like "$out" "$(printf '\033')\\[\\?1049l" "the terminal is given back"
# xterm's mouse reporting, on while the wizard runs.
like "$out" "$(printf '\033')\\[\\?([0-9]+;)*1000h" "the wizard asks for mouse clicks"
out=$( (sleep 2; printf q; sleep 1) | env -i TERM=xterm LANG=C.UTF-8 PATH=/usr/bin:/bin \
    timeout 30 script -qec "$cmd --no-mouse; echo \"exit=\$?\"" /dev/null 2>&1)
like "$out" 'exit=0' "--no-mouse: q quits"
unlike "$out" "$(printf '\033')\\[\\?([0-9]+;)*1000h" "--no-mouse: it does not ask for clicks"

out=$( (sleep 2; printf q; sleep 1) | env -i TERM=xterm LANG=C.UTF-8 PATH=/usr/bin:/bin \
    timeout 30 script -qec "'$CUDAWIZ' wizard --root '$FX' --matrix '$FX_MATRIX'; echo \"exit=\$?\"" /dev/null 2>&1)
like "$(printf '%s' "$out" | tr '\n' ' ')" 'page 1 of 10.*exit=0' \
    "'wizard' on a terminal: the wizard, as with no command; q quits"

# Esc means back, never quit: still running when timeout(1) ends it.
out=$( (sleep 2; printf '\033'; sleep 4) | env -i TERM=xterm LANG=C.UTF-8 PATH=/usr/bin:/bin \
    timeout 30 script -qec "timeout --foreground -s TERM 4 $cmd; echo \"exit=\$?\"" /dev/null 2>&1)
like "$out" 'exit=124' "Esc does not quit"

# SIGTERM while it waits for a key: the terminal restored, then the
# signal itself ends it (timeout(1) says 124 when it sent one).
out=$( (sleep 4) | env -i TERM=xterm LANG=C.UTF-8 PATH=/usr/bin:/bin \
    timeout 30 script -qec "timeout --foreground -s TERM 2 $cmd; echo \"exit=\$?\"" /dev/null 2>&1)
like "$out" 'page 1 of 10' "the wizard was up when SIGTERM came"
like "$out" 'exit=124' "SIGTERM ends it"
like "$(printf '%s' "$out" | sed -n '/page 1 of 10/,$p')" \
    "$(printf '\033')\\[\\?1049l" "and the terminal is given back first"

done_testing
