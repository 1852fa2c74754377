#!/bin/sh
# cudawiz fleet on damaged and hostile report files: each is listed by
# name with its reason, the good reports beside them are still reported,
# nothing waits (a FIFO) or reads without end (a 20 MB file), nothing
# crashes, and the exit status is 1.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fleet.sh"

command -v mkfifo > /dev/null 2>&1 || skip_all "mkfifo is not installed"
command -v truncate > /dev/null 2>&1 || skip_all "truncate is not installed"

fleet_base
W=$FX.fleet
D=$W/d
fx_dirs="$fx_dirs $W"
mkdir -p "$D" || exit 99

fleet_report "$D/good1.json" gpu01 60 .
fleet_report "$D/good2.json" gpu02 60 .
head -c 700 "$D/good1.json" > "$D/truncated.json"
printf '\177ELF\002\001\001\000\000\000\377\376junk' > "$D/binary.json"
printf '{"name": "left-pad", "version": "1.3.0"}\n' > "$D/foreign.json"
printf '{"schema": "cudawiz/spec/1", "items": {}}\n' > "$D/spec.json"
: > "$D/empty.json"
truncate -s 20M "$D/huge.json"
mkfifo "$D/fifo.json"
mkdir "$D/dir.json"
ln -s loop2.json "$D/loop1.json"
ln -s loop1.json "$D/loop2.json"
printf 'x' > "$D/gone-target"
ln -s gone-target "$D/vanished.json"
rm "$D/gone-target"
jq -c '. + {"schema": "cudawiz/doctor/1"}' "$D/good1.json" |
    sed 's/^{/{"schema": "cudawiz\/doctor\/1", /' > "$D/dupkey.json"
printf '{"schema": "cudawiz/doctor/1", "findings": [], "x": "a\\u0000b"}' > "$D/nul.json"
jq -c '.findings = [{"code": "SONAME_NOT_FOUND", "severity": "fatal"}]' \
    "$D/good1.json" > "$D/badsev.json"
{ cat "$D/good2.json"; echo '{}'; } > "$D/twodocs.json"
jq '.host.time_unix = -1' "$D/good1.json" > "$D/badtime.json"
unreadable=
if [ "$(id -u)" != 0 ]; then
	fleet_report "$D/noperm.json" gpu09 60 .
	chmod 000 "$D/noperm.json"
	unreadable=yes
fi

"$CUDAWIZ" fleet --json "$D" "$W/missing.json" > "$W/out" 2> "$W/err"
RC=$?
is "$RC" 1 "a fleet with damaged reports exits 1"
is "$(grep -c 'Sanitizer\|runtime error' "$W/err")" 0 "no sanitizer report"
is "$(jq -r '[.hosts[].name] | join(" ")' "$W/out")" "gpu01 gpu02" \
    "the good reports are still read"

reason() {	# FILE: the reason given for FILE
	jq -r --arg f "$1" '.unreadable[] | select(.file == $f) | .reason' "$W/out"
}
like "$(reason "$D/truncated.json")" "^not JSON: " "a truncated report: not JSON"
like "$(reason "$D/binary.json")" "^not JSON: " "binary junk: not JSON"
is "$(reason "$D/foreign.json")" 'not a cudawiz doctor report (no "schema")' \
    "a foreign JSON document"
is "$(reason "$D/spec.json")" 'not a cudawiz doctor report (schema "cudawiz/spec/1")' \
    "another cudawiz document, named by its schema"
is "$(reason "$D/empty.json")" "empty file" "an empty file"
is "$(reason "$D/huge.json")" "larger than 16777216 bytes" "a 20 MB file: too large"
is "$(reason "$D/fifo.json")" "is a FIFO, not a regular file" "a FIFO: not opened"
is "$(reason "$D/dir.json")" "is a directory, not a regular file" \
    "a directory named x.json"
like "$(reason "$D/loop1.json")" "[Tt]oo many levels of symbolic links" "a symlink loop"
is "$(reason "$D/vanished.json")" "no such file" \
    "a file gone since it was named (its link left dangling)"
is "$(reason "$W/missing.json")" "no such file" "a missing path"
like "$(reason "$D/dupkey.json")" "^not JSON: duplicate object key" "duplicate keys"
like "$(reason "$D/nul.json")" "^not JSON: .*NUL" "a \\u0000 in a string"
is "$(reason "$D/badsev.json")" "finding 1 has no valid code, severity or subject" \
    "a finding with a made-up severity"
like "$(reason "$D/twodocs.json")" "^not JSON: end of file expected" "two documents in one file"
is "$(reason "$D/badtime.json")" 'its "host" is not a host object' \
    "a time no run can have (before 1970)"
if [ -n "$unreadable" ]; then
	like "$(reason "$D/noperm.json")" "[Pp]ermission denied" "an unreadable file"
else
	skip "an unreadable file" "running as root, who reads every file"
fi
# 16 files in the directory (the loop is two) and the missing path.
n=17
[ -n "$unreadable" ] && n=18
is "$(jq '.unreadable | length' "$W/out")" $n "each damaged file listed once"

# The text view names them too, with a device and the FIFO named on
# the command line; the huge file and /dev/zero were not read: a bound
# by count (bytes read), not by time.
before=$(fx_rchar)
"$CUDAWIZ" fleet "$D" /dev/zero "$D/fifo.json" > "$W/out" 2> "$W/err"
RC=$?
after=$(fx_rchar)
is "$RC" 1 "text: exit 1"
like "$(cat "$W/out")" "  /dev/zero: is a character device, not a regular file" \
    "a device named as a report: not read"
like "$(cat "$W/out")" "  $D/fifo.json: is a FIFO, not a regular file
" "a FIFO named as a report: not opened"
like "$(sed -n '/^Unreadable/,/^$/p' "$W/out")" "  $D/fifo.json: is a FIFO, not a regular file" \
    "text: the FIFO by name with its reason"
if [ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ]; then
	# memcheck reads cudawiz's debug information and its own files in
	# the same process: megabytes that are not the report's.
	skip "the 20 MB file was not read" "under valgrind, which reads its own files in the process"
elif [ -n "$before" ] && [ -n "$after" ]; then
	ok "the 20 MB file was not read ($((after - before)) bytes in all)" \
	    [ $((after - before)) -lt 4000000 ]
else
	skip "the 20 MB file was not read" "/proc/self/io is not readable"
fi

done_testing
