#!/bin/sh
# --install-rc from many runs at once (issue 16, point 8): each run reads
# the rc file, appends its line and renames the new file over the old
# one; without a lock two runs read the same old text and the later
# rename drops the earlier line while both report success. 20 runs, each
# with its own script, into one rc file: every run says it added its
# line, and the file ends with 20 distinct lines. Also the lock file
# itself: next to the rc file, 0600, never the rc file; a lock another
# process holds is waited for, not broken, and one held for good is a
# clear error after 10 seconds.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

N=20
RC=$W/home/.bashrc
mkdir -p "$W/home"
printf '# mine\n' > "$RC"

# The runs start together: each waits for a go file before it runs.
i=0
while [ $i -lt $N ]; do
	i=$((i + 1))
	(
		while [ ! -e "$W/go" ]; do sleep 0.01 2>/dev/null || sleep 1; done
		"$R" --format sh --install-rc "$RC" "$W/s$i.sh" > "$W/out.$i" 2> "$W/err.$i"
		echo $? > "$W/rc.$i"
	) &
done
: > "$W/go"
wait

okruns=0 changed=0
i=0
while [ $i -lt $N ]; do
	i=$((i + 1))
	[ "$(cat "$W/rc.$i" 2>/dev/null)" = 0 ] && okruns=$((okruns + 1))
	grep -q '^changed: yes$' "$W/out.$i" && changed=$((changed + 1))
done
is "$okruns" $N "all $N concurrent runs exit 0"
is "$changed" $N "each of them says it added its line"
is "$(grep -c ' # cudawiz-env ' "$RC")" $N "the rc file has $N cudawiz lines"
is "$(grep ' # cudawiz-env ' "$RC" | sort -u | wc -l | tr -d ' ')" $N "... all distinct"
missing=
i=0
while [ $i -lt $N ]; do
	i=$((i + 1))
	grep -qxF ". '$W/s$i.sh' # cudawiz-env $W/s$i.sh" "$RC" || missing="$missing s$i.sh"
done
is "$missing" "" "... one for each run's script"
is "$(head -n 1 "$RC")" "# mine" "the rc file's own line is kept first"
for f in "$W"/err.*; do
	[ -s "$f" ] && { diag "$(cat "$f")"; break; }
done

ok "the lock file lies next to the rc file" test -f "$RC.cudawiz-lock"
is "$(stat -c %a "$RC.cudawiz-lock")" 600 "... mode 0600"
is "$(stat -c %s "$RC.cudawiz-lock")" 0 "... and empty: the rc file is never the lock"

# A lock someone holds is waited for: the run finishes after it is let go.
if command -v flock >/dev/null 2>&1; then
	rm -f "$W/held"
	flock "$RC.cudawiz-lock" sh -c ': > "$1"; while [ ! -e "$2" ]; do sleep 0.05; done' \
	    sh "$W/held" "$W/release" &
	holder=$!
	while [ ! -e "$W/held" ]; do sleep 0.01 2>/dev/null || sleep 1; done
	"$R" --format sh --install-rc "$RC" "$W/late.sh" > "$W/late.out" 2>&1 &
	late=$!
	sleep 0.3 2>/dev/null || sleep 1
	# The run is still waiting while the lock is held (if it were not,
	# its line would be there already).
	is "$(grep -c 'late.sh' "$RC")" 0 "a held lock: the run waits, the rc file untouched"
	: > "$W/release"
	wait "$holder"
	wait "$late"
	is "$?" 0 "... and succeeds once the lock is let go"
	is "$(grep -c 'late.sh' "$RC")" 1 "... adding its line"

	# A lock that is never let go: after its 10 seconds of waiting the
	# run gives up with a clear error and leaves the rc file alone.
	rm -f "$W/held" "$W/release"
	cp "$RC" "$W/rc.before"
	flock "$RC.cudawiz-lock" sh -c ': > "$1"; while [ ! -e "$2" ]; do sleep 0.05; done' \
	    sh "$W/held" "$W/release" &
	holder=$!
	while [ ! -e "$W/held" ]; do sleep 0.01 2>/dev/null || sleep 1; done
	"$R" --format sh --install-rc "$RC" "$W/never.sh" > "$W/never.out" 2> "$W/never.err"
	is "$?" 1 "a lock held for good: the run fails"
	like "$(cat "$W/never.err")" "cannot lock $RC: another run has held $RC.cudawiz-lock for 10 seconds" \
	    "... saying which lock it waited for"
	ok "... the rc file is unchanged" cmp -s "$RC" "$W/rc.before"
	: > "$W/release"
	wait "$holder"
else
	for d in "a held lock is waited for" "a held lock: the run succeeds after" \
	    "a held lock: the line is added" "a lock held for good: the run fails" \
	    "a lock held for good: says why" "a lock held for good: rc unchanged"; do
		skip "$d" "flock (Debian package: util-linux) is missing"
	done
fi

done_testing
