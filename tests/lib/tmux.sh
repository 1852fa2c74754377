# The wizard in tmux, shared by the terminal tests (wizard-tmux.sh,
# wizard-terminfo.sh). The sourcing test sets $sock (its private tmux
# server) and starts a session named cw; these look at its pane.

T() { tmux -f /dev/null -L "$sock" "$@"; }

# -J joins the rows a long line wrapped onto (a script path under a deep
# build directory is longer than 80 columns), and keeps each row's
# trailing blanks, which sed drops.
screen() { T capture-pane -p -J -t cw 2>/dev/null | sed 's/ *$//'; }

# True once the pane shows a line matching PATTERN (300 looks, 30 s at
# most: a valgrind run on a busy machine is slow, a passing one quick).
wait_for() {
	i=0
	while [ "$i" -lt 300 ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	printf '# the pane shows:\n'
	screen | sed 's/^/#   /'
	return 1
}

wait_file() {	# FILE: true once it exists and is not empty (30 s at most)
	i=0
	while [ "$i" -lt 300 ]; do
		[ -s "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

keys() { T send-keys -t cw "$@"; }
