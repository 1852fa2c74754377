# TAP helpers for the shell tests. Source it, call the checks, end with
# done_testing. Every check prints one "ok N" or "not ok N" line; a failing
# check prints what it got on stderr-free "# " lines so the log explains it.

tap_n=0
tap_failed=0

tap_result() {	# STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		printf 'ok %d - %s\n' "$tap_n" "$2"
	else
		tap_failed=$((tap_failed + 1))
		printf 'not ok %d - %s\n' "$tap_n" "$2"
	fi
}

# ok DESCRIPTION COMMAND...: passes when COMMAND succeeds.
ok() {
	tap_desc=$1
	shift
	if "$@"; then tap_result 0 "$tap_desc"; else tap_result 1 "$tap_desc"; fi
}

# is GOT EXPECTED DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		printf '#   got:      %s\n#   expected: %s\n' "$1" "$2" | head -n 40
	fi
}

# like GOT PATTERN DESCRIPTION: grep -E PATTERN matches somewhere in GOT.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		printf '%s\n' "$1" | head -n 40 | sed 's/^/#   got: /'
		printf '#   wanted to match: %s\n' "$2"
	fi
}

# unlike GOT PATTERN DESCRIPTION
unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		tap_result 1 "$3"
		printf '%s\n' "$1" | grep -E -- "$2" | head -n 20 | sed 's/^/#   matched: /'
	else
		tap_result 0 "$3"
	fi
}

skip() {	# DESCRIPTION REASON
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s # SKIP %s\n' "$tap_n" "$1" "$2"
}

skip_all() {	# REASON
	printf '1..0 # SKIP %s\n' "$1"
	exit 0
}

diag() {
	printf '# %s\n' "$*"
}

done_testing() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" = 0 ]
}
