#!/bin/sh
# Replays every fuzz target's corpus (fuzz/corpus/NAME/) through its replay
# program: every seed and every input that once crashed cudawiz must parse
# cleanly, under ASan and UBSan when the build has them. Also checks the
# bookkeeping: each fz_*.c is a target, each target has a corpus and a
# program, each corpus belongs to a target.
. "$TESTS_SRCDIR/lib/tap.sh"

: "${FUZZ_TARGETS:?FUZZ_TARGETS is set by make check}"
corpora=$FUZZ_SRCDIR/corpus

for src in "$FUZZ_SRCDIR"/fz_*.c; do
	t=${src##*/fz_}
	t=${t%.c}
	case " $FUZZ_TARGETS " in
	*" $t "*) tap_result 0 "fz_$t.c is listed in FUZZ_TARGETS" ;;
	*) tap_result 1 "fz_$t.c is listed in FUZZ_TARGETS" ;;
	esac
done
for dir in "$corpora"/*/; do
	t=$(basename "$dir")
	case " $FUZZ_TARGETS " in
	*" $t "*) tap_result 0 "corpus/$t belongs to a target" ;;
	*) tap_result 1 "corpus/$t belongs to a target" ;;
	esac
done

for t in $FUZZ_TARGETS; do
	n=$(find "$corpora/$t" -type f 2>/dev/null | wc -l)
	ok "$t: a seeded corpus ($n inputs)" test "$n" -gt 0
	out=$(timeout 300 "$FUZZ_BUILDDIR/replay-$t" "$corpora/$t" 2>"$FX_TMP/replay-$t.err")
	rc=$?
	is "$rc:$out" "0:replayed $n inputs" "$t: every input replays cleanly"
	if [ "$rc:$out" != "0:replayed $n inputs" ]; then
		# The last input named is the one that failed.
		grep '^replay: ' "$FX_TMP/replay-$t.err" | tail -n 1 | sed 's/^/# /'
		tail -n 30 "$FX_TMP/replay-$t.err" | sed 's/^/# /'
	fi
done

# The harness itself: a missing input is an error, not an empty pass.
first=${FUZZ_TARGETS%% *}
"$FUZZ_BUILDDIR/replay-$first" "$FX_TMP/no-such-input" >/dev/null 2>&1
is "$?" 1 "a missing input fails the replay"

done_testing
