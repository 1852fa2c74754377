#!/bin/sh
# valgrind-report.sh LOGDIR: the verdict of `make check-valgrind` on the
# per-process memcheck logs cudawiz-valgrind (tests/tools/valgrind-run.c)
# left in LOGDIR. It reads the logs rather than trusting exit statuses,
# because a test that expects cudawiz to fail passes whatever non-zero
# status it gets.
#
# A log fails the gate when its error summary counts an error (definite
# leaks count: --errors-for-leak-kinds=definite) or it reports bytes
# definitely lost. A log without a summary comes from a process that
# exec'd a program valgrind does not follow (the child cudawiz forks to
# run its helper, ld.so or a shell) or that a test killed: it fails only
# when it says more than valgrind's preamble, since an error reported
# between fork and exec would otherwise go unseen.
# Exit 0 when every log is clean, 1 otherwise (each bad log is printed),
# 2 when there are no logs at all: the wrapper never ran, and a pass
# would prove nothing.
set -u
dir=${1:?usage: valgrind-report.sh LOGDIR}

total=0
finished=0
bad=0
unfinished=
for log in "$dir"/vg.*.log; do
	[ -e "$log" ] || continue
	total=$((total + 1))
	errors=$(sed -n 's/^==[0-9]*== ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log")
	lost=$(sed -n 's/^==[0-9]*==    definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" |
	    tr -d ,)
	if [ -z "$errors" ]; then
		cmd=$(sed -n 's/^==[0-9]*== Command: //p' "$log" | head -n 1)
		unfinished="$unfinished
  $(basename "$log"): $cmd"
		said=$(grep -Ev '^==[0-9]+== ?(Memcheck, a memory error detector|Copyright \(C\)|Using Valgrind-|Command: |Parent PID: |$)' \
		    "$log" | head -n 1)
		[ -z "$said" ] && continue
	else
		finished=$((finished + 1))
	fi
	if [ -z "$errors" ] || [ "$errors" != 0 ] ||
	    { [ -n "$lost" ] && [ "$lost" != 0 ]; }; then
		bad=$((bad + 1))
		echo "=== valgrind: $log"
		cat "$log"
	fi
done

if [ "$total" = 0 ]; then
	echo "valgrind: no logs in $dir: cudawiz never ran under valgrind" >&2
	exit 2
fi
# Listed so that a process which should have finished but died can be
# told from the expected exec's and kills.
printf 'processes without a summary:%s\n' "$unfinished" > "$dir/unfinished.txt"
echo "valgrind: $finished processes checked, $bad with errors or definite leaks;" \
    "$((total - finished)) without a summary (exec'd or killed: $dir/unfinished.txt)"
# The sampling rule (tests/gates.mk, VALGRIND_SAMPLE) counts every process
# it saw in sample.TEST.WORD.count; those over the logs ran unwatched.
if [ -e "$dir/sample" ]; then
	seen=$(cat "$dir"/sample.*.count 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	echo "valgrind: sampling $(cat "$dir/sample"): $seen runs through the" \
	    "wrapper, $total memcheck logs (forks included)" \
	    "(counts per test and command: $dir/sample.*.count)"
fi
[ "$bad" = 0 ]
