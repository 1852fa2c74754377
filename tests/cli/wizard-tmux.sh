#!/bin/sh
# The real binary on a real terminal: cudawiz in a detached tmux session
# (a private server, 80x24, TERM=screen, LANG=C.UTF-8), every page walked
# with send-keys and checked by its title with capture-pane, the window
# shrunk below the minimum and grown to 200x50 mid-walk, a script written
# from the Fix page and found on disk, q to quit; then again, ended by
# SIGTERM mid-walk. Both times a small sh wrapper in the pane saves
# `stty -g` before and after, and the terminal modes must be the same.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (Debian package: tmux)"

# The broken machine of the golden screens, in short: a venv whose torch
# cannot find its runtime, LD_LIBRARY_PATH with a missing and an empty
# entry.
fx_new
fx_healthy_gpu
fx_toolkit 13.0.0
fx_link cuda-13.0 /usr/local/cuda
fx_dir /usr/bin
fx_dir /bin
fx_venv_env /home/u/venvs/train 3.11
fx_torch "$FX_SITE" 2.3.1 12.1 libcudart.so.12

work=$(mktemp -d "$FX_TMP/wizard-tmux.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $work"
sock=cwtest-$$
T() { tmux -f /dev/null -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; fx_cleanup' EXIT

# The wrapper: the pane's terminal modes before and after, the wizard's
# pid (the inner sh execs env, which execs cudawiz: one pid) and status.
cat > "$work/run.sh" <<'EOF'
TERM=screen; export TERM
SHELL=/bin/sh; export SHELL
stty -g > stty.before
sh -c 'echo $$ > pid; exec env PATH=/usr/local/cuda/bin:/usr/bin:/bin \
    CUDA_HOME=/usr/local/cuda VIRTUAL_ENV=/home/u/venvs/train \
    LD_LIBRARY_PATH=/opt/cuda-11.8/lib64: "$0" "$@"' \
    "$CUDAWIZ" --root "$FX" --matrix "$FX_MATRIX"
echo $? > rc
stty -g > stty.after
: > done
EOF

start() {	# a fresh session running the wrapper in $work
	rm -f "$work/stty.before" "$work/stty.after" "$work/rc" "$work/done" \
	    "$work/pid"
	env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8 TERM=screen \
	    CUDAWIZ="$CUDAWIZ" FX="$FX" FX_MATRIX="$FX_MATRIX" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
	    tmux -f /dev/null -L "$sock" new-session -d -s cw -x 80 -y 24 \
	    -c "$work" "sh ./run.sh"
}

screen() { T capture-pane -p -t cw 2>/dev/null; }

# True once the pane shows a line matching PATTERN (10 s at most).
wait_for() {
	i=0
	while [ "$i" -lt 100 ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	printf '# the pane shows:\n'
	screen | sed 's/^/#   /'
	return 1
}

wait_file() {	# FILE: true once it exists (10 s at most)
	i=0
	while [ "$i" -lt 100 ]; do
		[ -e "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

keys() { T send-keys -t cw "$@"; }

# ---------------------------------------------------------- the walk

start
ok "the wizard starts in tmux at 80x24" wait_for "cudawiz → Welcome .*page 1 of 10"

n=1
for title in "GPUs and driver" "Toolkits and cuDNN" \
    "Python environments and frameworks" "Environment variables" \
    "Compatibility" "Live verification" "Diagnosis" "Fix" "Done"; do
	n=$((n + 1))
	keys n
	ok "page $n: $title" wait_for "cudawiz → $title .*page $n of 10"
	if [ "$n" = 3 ]; then
		T resize-window -t cw -x 60 -y 20
		ok "resized to 60x20: the too-small notice" \
		    wait_for "Terminal too small: cudawiz needs 80.24, this one is 60.20"
		T resize-window -t cw -x 200 -y 50
		ok "resized to 200x50: the page again" \
		    wait_for "cudawiz → $title .*page $n of 10"
		col=$(screen | head -n 1 | awk '{ print index($0, "page 3 of 10") }')
		ok "... laid out across the 200 columns (title's right part at $col)" \
		    test "${col:-0}" -gt 150
		T resize-window -t cw -x 80 -y 24
		# Its title's right part back within 80 columns.
		ok "back to 80x24" wait_for "^.{1,100}page $n of 10 *$"
	fi
done

# Back to Fix, write the default script: End goes to Check, k to Write.
keys p
ok "back to Fix" wait_for "cudawiz → Fix .*page 9 of 10"
keys G k Enter
ok "Write: the page says where it wrote" wait_for "wrote \./cudawiz-env\.sh"
ok "the script is on disk" test -s "$work/cudawiz-env.sh"
is "$(head -n 1 "$work/cudawiz-env.sh" 2>/dev/null)" "# cudawiz-format: sh" \
    "... a sh script"
keys n
ok "Done says how to activate it" wait_for "activate:  \. \./cudawiz-env\.sh"
keys q
ok "q quits" wait_file "$work/done"
rc=$(cat "$work/rc" 2>/dev/null)
ok "... with doctor's exit status (0 or 1; here $rc)" test "$rc" = 0 -o "$rc" = 1
ok "the pane's terminal modes were saved" test -s "$work/stty.before"
is "$(cat "$work/stty.after" 2>/dev/null)" "$(cat "$work/stty.before" 2>/dev/null)" \
    "stty -g after q is stty -g before"

# ------------------------------------------------------ SIGTERM

T kill-server >/dev/null 2>&1
start
ok "again: the wizard starts" wait_for "cudawiz → Welcome .*page 1 of 10"
keys n n
ok "... walked to page 3" wait_for "cudawiz → Toolkits and cuDNN .*page 3 of 10"
pid=$(cat "$work/pid" 2>/dev/null)
ok "... its pid is known ($pid)" test -n "$pid"
[ -n "$pid" ] && kill -TERM "$pid"
ok "SIGTERM ends it" wait_file "$work/done"
is "$(cat "$work/rc" 2>/dev/null)" 143 "... killed by the signal itself (128 + 15)"
is "$(cat "$work/stty.after" 2>/dev/null)" "$(cat "$work/stty.before" 2>/dev/null)" \
    "stty -g after SIGTERM is stty -g before"

# ------------------------------------- SIGTERM during live verification
# This machine (no --root), the checks run from page 7 with a stand-in
# helper that takes its time: SIGTERM mid-check restores the terminal,
# and the helper does not outlive cudawiz.
T kill-server >/dev/null 2>&1
cat > "$work/slow" <<'HELPER'
#!/bin/sh
echo $$ >> "$0.pids"
echo "{\"check\":\"begin\",\"mode\":\"$1\"}"
sleep 20
echo '{"check":"end","ok":true,"ms":1}'
HELPER
chmod +x "$work/slow"
rm -f "$work/slow.pids"
cat > "$work/run.sh" <<'WRAPPER'
TERM=screen; export TERM
stty -g > stty.before
sh -c 'echo $$ > pid; exec env PATH=/usr/bin:/bin CUDAWIZ_HELPER="$1" "$0"' \
    "$CUDAWIZ" "$PWD/slow"
echo $? > rc
stty -g > stty.after
: > done
WRAPPER
start
ok "on this machine: the wizard starts" wait_for "cudawiz → Welcome .*page 1 of 10"
keys n n n n n n
ok "... walked to Live verification" wait_for "cudawiz → Live verification .*page 7 of 10"
keys r
ok "... r runs the checks, with progress" wait_for "running check 1 of"
# The frame is drawn before the helper is spawned; under the sanitizers
# the gap is long enough for SIGTERM to land before any helper exists.
ok "... the stand-in helper has started" wait_file "$work/slow.pids"
pid=$(cat "$work/pid" 2>/dev/null)
[ -n "$pid" ] && kill -TERM "$pid"
ok "SIGTERM mid-check ends it" wait_file "$work/done"
is "$(cat "$work/rc" 2>/dev/null)" 143 "... killed by the signal itself"
is "$(cat "$work/stty.after" 2>/dev/null)" "$(cat "$work/stty.before" 2>/dev/null)" \
    "stty -g after SIGTERM mid-check is stty -g before"
sleep 0.3
left=
for h in $(cat "$work/slow.pids" 2>/dev/null); do
	kill -0 "$h" 2>/dev/null && left="$left $h"
done
ok "a helper was running" test -s "$work/slow.pids"
is "${left# }" "" "... and none outlives cudawiz"

done_testing
