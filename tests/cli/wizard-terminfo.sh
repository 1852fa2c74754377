#!/bin/sh
# The wizard without a terminfo database (a minimal container, Debian's
# base system, the portable binary anywhere): in a private mount
# namespace, empty directories hide /usr/share/terminfo, /lib/terminfo
# and /etc/terminfo, and cudawiz runs in tmux with TERM=xterm-256color,
# then screen (built-in entries: no note), then foo-256color (unknown:
# the closest built-in, xterm-256color, named in one line on stderr).
# Each time the first screen must draw and q must quit, and the private
# directory the entry was written to must be gone. Root uses
# `unshare --mount`; others `unshare -rm` where user namespaces are
# allowed; else the test skips.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/tmux.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (Debian package: tmux)"
command -v unshare >/dev/null 2>&1 || skip_all "unshare is not installed (Debian package: util-linux)"
if [ "$(id -u)" = 0 ]; then
	ns="unshare --mount"
else
	ns="unshare -r --mount"
fi

fx_new
fx_healthy_gpu
work=$(mktemp -d "$FX_TMP/wizard-terminfo.XXXXXX") || exit 99
mkdir "$work/empty" "$work/run"
fx_dirs="${fx_dirs:-} $work"
$ns sh -c 'mount --bind "$1" "$1"' sh "$work/empty" >/dev/null 2>&1 ||
    skip_all "cannot bind-mount in a private mount namespace ($ns refused)"
sock=cwterm-$$
trap 'T kill-server >/dev/null 2>&1; fx_cleanup' EXIT

# The wrapper: hides the databases, checks they are hidden (infocmp
# then finds nothing; a pass with them visible would prove nothing),
# runs the wizard with stderr to a file, and records its status.
cat > "$work/run.sh" <<'EOF2'
for d in /usr/share/terminfo /lib/terminfo /etc/terminfo; do
	if [ -d "$d" ]; then mount --bind "$PWD/empty" "$d" || exit 1; fi
done
if command -v infocmp >/dev/null 2>&1 && infocmp xterm >/dev/null 2>&1; then
	echo visible > hidden
else
	echo hidden > hidden
fi
TERM=$WANT_TERM "$CUDAWIZ" --root "$FX" --matrix "$FX_MATRIX" 2> err
echo $? > rc
echo ended > done
sleep 60
EOF2

run_with() {	# TERM: the wizard's first screen, then q
	rm -f "$work/rc" "$work/done" "$work/err" "$work/hidden"
	T kill-server >/dev/null 2>&1
	tries=0
	while [ "$tries" -lt 20 ]; do
		tries=$((tries + 1))
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work" \
		    LANG=C.UTF-8 TERM=screen WANT_TERM="$1" \
		    XDG_RUNTIME_DIR="$work/run" CUDAWIZ="$CUDAWIZ" FX="$FX" \
		    FX_MATRIX="$FX_MATRIX" \
		    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
		    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
		    tmux -f /dev/null -L "$sock" new-session -d -s cw \
		    -x 80 -y 24 -c "$work" "$ns sh ./run.sh" 2>/dev/null &&
		    T has-session -t cw 2>/dev/null && break
		sleep 0.2
	done
	ok "TERM=$1: the first screen draws" wait_for "page 1 of 10" ||
	    sed 's/^/# stderr: /' "$work/err" 2>/dev/null
	is "$(cat "$work/hidden" 2>/dev/null)" hidden \
	    "TERM=$1: the terminfo databases were hidden from it"
	keys q
	ok "TERM=$1: q quits" wait_file "$work/done"
	rc=$(cat "$work/rc" 2>/dev/null)
	ok "TERM=$1: doctor's exit status (0 or 1; here $rc)" \
	    test "$rc" = 0 -o "$rc" = 1
	is "$(ls -A "$work/run")" "" \
	    "TERM=$1: the private terminfo directory is gone"
}

run_with xterm-256color
is "$(cat "$work/err")" "" "xterm-256color is built in: nothing said"
run_with screen
is "$(cat "$work/err")" "" "screen is built in: nothing said"
run_with foo-256color
is "$(cat "$work/err")" \
    "cudawiz: no description of the terminal 'foo-256color'; using the built-in 'xterm-256color'" \
    "an unknown *-256color: xterm-256color, said in one line"
done_testing
