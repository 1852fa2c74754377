#!/bin/sh
# The real binary on a real terminal: cudawiz in a detached tmux session
# (a private server, 80x24, TERM=screen, LANG=C.UTF-8) on a broken
# fixture. Issue 20's flow: the first screen names the top finding's
# subject; Enter opens it and Esc returns; Enter, f, Enter, q (at most 6
# keys) write the script, prove it and quit, leaving its absolute path
# and activate line on the normal screen. Every finding's detail shows
# its fix lines whole (or cut with › at the box's edge), never split in
# a word. Every page walked by digit, the window shrunk to 60x20 and
# grown to 200x50 mid-walk, R probes again after the tree changed; then
# ended by SIGTERM mid-walk, and on this machine Esc stops a running
# check at once. A small sh wrapper in the pane saves `stty -g` before
# and after, and the terminal modes must be the same.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"
. "$TESTS_SRCDIR/lib/tmux.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (Debian package: tmux)"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"

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
# What doctor finds there, with the wrapper's environment (below).
env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda \
    VIRTUAL_ENV=/home/u/venvs/train LD_LIBRARY_PATH=/opt/cuda-11.8/lib64: \
    "$CUDAWIZ" doctor --json --root "$FX" --matrix "$FX_MATRIX" \
    > "$work/doctor.json"
# The top finding in one line: its subject, else its title.
top=$(jq -r '.findings[0] | .subject // .title' "$work/doctor.json")
fx_dirs="${fx_dirs:-} $work"
sock=cwtest-$$
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
echo ended > done
# The pane stays, for the test to read what was left on the screen.
sleep 60
EOF

start() {	# a fresh session running the wrapper in $work
	rm -f "$work/stty.before" "$work/stty.after" "$work/rc" "$work/done" \
	    "$work/pid"
	# A server told to exit (or ending with its last pane) may still
	# hold the socket: a session made meanwhile dies with it. Try again
	# until the session is there (a count, not a time).
	tries=0
	while [ "$tries" -lt 20 ]; do
		tries=$((tries + 1))
		env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8 TERM=screen \
		    CUDAWIZ="$CUDAWIZ" FX="$FX" FX_MATRIX="$FX_MATRIX" \
		    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
		    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
		    tmux -f /dev/null -L "$sock" new-session -d -s cw -x 80 -y 24 \
		    -c "$work" "sh ./run.sh" 2>/dev/null &&
		    T has-session -t cw 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# ------------------------------------------------------ the flow

start
ok "the wizard starts in tmux at 80x24" wait_for "page 1 of 10"
# The subject may be cut at the box's edge: its first 40 characters.
top40=$(printf '%s' "$top" | cut -c 1-40)
ok "(a) the first screen names the top finding: $top40" \
    wait_for "$(printf '%s' "$top40" | sed 's/[][\.*^$(){}+?|/]/\\&/g')"
ok "... and the recommended action" wait_for "Enter"
first=$(screen)

# (c) Enter opens the top finding's detail; Esc returns to the list.
keys Enter
ok "Enter opens a detail" wait_for "f: fix this|f: "
keys Escape
ok "(c) Esc from the detail returns to the first screen" \
    wait_for "page 1 of 10"
sleep 0.3
is "$(screen)" "$first" "... as it was"

# The copy key in a detail: the status line names the file the fix went
# to (OSC 52 goes to the terminal besides), and the file holds it.
keys Enter
ok "Enter opens the detail again" wait_for "f: "
keys c
ok "c: the status line says where the copy is" \
    wait_for "(also in|written to) /tmp/cudawiz-copy-"
copied=$(screen | grep -o '/tmp/cudawiz-copy-[A-Za-z0-9]*\.txt' | head -n 1)
jq -r '.findings[0].fix[]?' "$work/doctor.json" > "$work/top-fixes"
ok "... and the file holds one of the top finding's fix lines ($copied)" \
    grep -qxF -f "$work/top-fixes" "${copied:-/nonexistent}"
ok "... a file only its owner reads" \
    test "$(stat -c %a "${copied:-/nonexistent}" 2>/dev/null)" = 600
[ -n "$copied" ] && rm -f "$copied"
keys Escape
ok "Esc: back to the first screen" wait_for "page 1 of 10"

# (b) The flow with defaults: Enter, f, Enter (write and check), q.
nkeys=0
keys Enter; nkeys=$((nkeys + 1))
ok "(b) Enter: the top finding's detail" wait_for "f: "
keys f; nkeys=$((nkeys + 1))
ok "f: the Fix page, prefilled" wait_for "cudawiz → Fix .*page 9 of 10"
keys Enter; nkeys=$((nkeys + 1))
ok "Enter: written and checked" \
    wait_for "What it changes|What the frameworks need|--root"
# The pattern above can show before the write ends (under ASan or
# valgrind the write and its check take seconds): wait for the file.
ok "... the script is on disk" wait_file "$work/cudawiz-env.sh"
is "$(head -n 1 "$work/cudawiz-env.sh" 2>/dev/null)" "# cudawiz-format: sh" \
    "... a sh script"
keys q; nkeys=$((nkeys + 1))
ok "q quits" wait_file "$work/done"
ok "(b) ... in at most 6 keys ($nkeys)" test "$nkeys" -le 6
# The farewell reaches the pane after the wizard has exited: on a busy
# machine tmux may draw it later than "done" appears, so wait for it.
work_re=$(printf '%s' "$work" | sed 's/[][\.*^$(){}+?|/]/\\&/g')
ok "(e) the normal screen shows the script's absolute path" \
    wait_for "$work_re/cudawiz-env\\.sh"
ok "(e) ... and the activate line" \
    wait_for "(\\. |source ).*$work_re/cudawiz-env\\.sh"
rc=$(cat "$work/rc" 2>/dev/null)
ok "... with doctor's exit status (0 or 1; here $rc)" test "$rc" = 0 -o "$rc" = 1
ok "(f) the pane's terminal modes were saved" test -s "$work/stty.before"
is "$(cat "$work/stty.after" 2>/dev/null)" "$(cat "$work/stty.before" 2>/dev/null)" \
    "(f) stty -g after q is stty -g before"

# ------------------------------------------- (d) every detail's fixes
# Each finding of the Diagnosis page (8) opened in turn (Down i times,
# Enter), its screens captured down to the end (PgDn), Esc back. Every
# fix line doctor gives must then stand whole on one row, or run to a
# row's › (cut at the box's edge, scrolled with Left/Right).

T kill-server >/dev/null 2>&1
rm -f "$work/cudawiz-env.sh"
start
ok "again: the wizard starts" wait_for "page 1 of 10"
keys 8
ok "8: the Diagnosis page" wait_for "cudawiz → Diagnosis .*page 8 of 10"
nf=$(jq '.findings | length' "$work/doctor.json")
: > "$work/rows"
i=0
while [ "$i" -lt "$nf" ]; do
	keys Home
	j=0
	while [ "$j" -lt "$i" ]; do keys Down; j=$((j + 1)); done
	keys Enter
	sleep 0.3
	k=0
	while [ "$k" -lt 6 ]; do	# a detail of 6 screens at most
		screen >> "$work/rows"
		keys PageDown
		sleep 0.1
		k=$((k + 1))
	done
	keys Escape
	sleep 0.2
	i=$((i + 1))
done
jq -r '.findings[].fix[]?' "$work/doctor.json" | sort -u > "$work/fixes"
bad=$(awk 'NR == FNR { row[NR] = $0; n = NR; next }
	{
		line = $0; whole = 0
		for (r = 1; r <= n && !whole; r++) {
			if (index(row[r], line)) whole = 1
			else {
				# Cut: the row holds a long prefix of the line and ›.
				p = index(row[r], "›")
				if (p == 0) continue
				for (k = length(line) - 1; k >= 20 && !whole; k--)
					if (index(row[r], substr(line, 1, k) "›") ||
					    index(row[r], substr(line, 1, k) " ›"))
						whole = 1
			}
		}
		if (!whole) print line
	}' "$work/rows" "$work/fixes")
is "$bad" "" "(d) every fix line of every detail is on one row, or cut with ›"
ok "... and there were fix lines to look for ($(wc -l < "$work/fixes"))" \
    test -s "$work/fixes"

# --------------------------------------------------- pages and sizes

keys 1
ok "1: the first page" wait_for "page 1 of 10"
n=1
while [ "$n" -lt 10 ]; do
	n=$((n + 1))
	keys Right
	ok "Right: page $n" wait_for "page $n of 10"
	if [ "$n" = 3 ]; then
		T resize-window -t cw -x 60 -y 20
		ok "resized to 60x20: the page, compact" wait_for "page 3 of 10|3/10"
		T resize-window -t cw -x 200 -y 50
		# The title's right part far right: the 60-column screen
		# shows "page 3 of 10" too, until the pane is redrawn.
		ok "resized to 200x50: the page again" \
		    wait_for "^.{150,}page 3 of 10"
		col=$(screen | head -n 1 | awk '{ print index($0, "page 3 of 10") }')
		ok "... laid out across the 200 columns (title's right part at $col)" \
		    test "${col:-0}" -gt 150
		T resize-window -t cw -x 80 -y 24
		ok "back to 80x24" wait_for "^.{1,100}page $n of 10 *$"
	fi
done
keys 0
ok "0: the tenth page" wait_for "page 10 of 10"

# R: the tree changed meanwhile (the missing LD_LIBRARY_PATH entry now
# exists): probing again drops the finding about it.
keys 8
ok "8: Diagnosis lists the missing path" wait_for "ENV_PATH_MISSING|does not exist"
mkdir -p "$FX/opt/cuda-11.8/lib64"
keys R
sleep 1
keys 8
ok "R: probed again" wait_for "cudawiz → Diagnosis .*page 8 of 10"
unlike "$(screen)" "ENV_PATH_MISSING|environment does not exist" \
    "R: the finding about the missing path is gone"
rmdir "$FX/opt/cuda-11.8/lib64"
keys q
ok "q quits" wait_file "$work/done"
is "$(cat "$work/stty.after" 2>/dev/null)" "$(cat "$work/stty.before" 2>/dev/null)" \
    "stty -g after the walk is stty -g before"

# ------------------------------------------------------ SIGTERM

T kill-server >/dev/null 2>&1
start
ok "again: the wizard starts" wait_for "page 1 of 10"
keys Right Right
ok "... walked to page 3" wait_for "page 3 of 10"
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
sleep 600
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
echo ended > done
WRAPPER
start
ok "on this machine: the wizard starts" wait_for "page 1 of 10"
keys 7
ok "... 7: Live verification" wait_for "cudawiz → Live verification .*page 7 of 10"
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

# ------------------------------------ Esc stops a running check at once
# The helper sleeps 600 s, longer than every wait here: "stopped" with 0
# checks finished, and the helper gone, can only be the wizard's doing
# (no clock is asserted: a loaded machine or valgrind is slow, not wrong).
T kill-server >/dev/null 2>&1
rm -f "$work/slow.pids"
start
ok "once more on this machine" wait_for "page 1 of 10"
keys 7
ok "... 7: Live verification" wait_for "cudawiz → Live verification .*page 7 of 10"
keys r
ok "... r runs the checks" wait_for "running check 1 of"
ok "... the stand-in helper has started" wait_file "$work/slow.pids"
t0=$(date +%s)
keys Escape
ok "Esc: the checks stop" wait_for "stopped: 0 of [0-9]+ checks finished"
t1=$(date +%s)
printf '# stopped after %s s\n' "$((t1 - t0))"
left=
for h in $(cat "$work/slow.pids" 2>/dev/null); do
	kill -0 "$h" 2>/dev/null && left="$left $h"
done
is "${left# }" "" "... and the helper is gone"
keys q
ok "q quits" wait_file "$work/done"
is "$(cat "$work/stty.after" 2>/dev/null)" "$(cat "$work/stty.before" 2>/dev/null)" \
    "stty -g after a stopped check is stty -g before"

done_testing
