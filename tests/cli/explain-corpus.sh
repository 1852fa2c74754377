#!/bin/sh
# The explain corpus (issue 19, point 12): every real message in
# tests/explain/corpus.txt, explained on an empty tree (nothing of this
# machine can leak in), must give its expected finding, and that finding's
# detail, evidence or fix must hold the record's key. One TAP line a
# message; the documents stay for the fix lint (fx_explain keeps them).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/cli/explain-common.sh"

CORPUS=$TESTS_SRCDIR/explain/corpus.txt
fx_new
SPLIT=$FX/records
mkdir -p "$SPLIT" || exit 99

# Each record into SPLIT/N.{msg,expect,key,source}.
awk -v d="$SPLIT" '
	function out(ext, text) { f = d "/" n "." ext; printf "%s", text > f; close(f) }
	!inmsg && /^source: / { n++; out("source", substr($0, 9)); next }
	!inmsg && /^expect: / { out("expect", substr($0, 9)); next }
	!inmsg && /^key: / { out("key", substr($0, 6)); next }
	!inmsg && /^message:$/ { inmsg = 1; msg = ""; next }
	inmsg && /^%%$/ { out("msg", msg); inmsg = 0; next }
	inmsg { msg = msg $0 "\n" }
' "$CORPUS" || exit 99

n=$(ls "$SPLIT" | grep -c '\.msg$')
ok "the corpus holds at least 80 messages ($n)" [ "$n" -ge 80 ]

# EXPLAIN_CORPUS_ONE_PER_CODE=1 (the valgrind gate and CI's ASan gate set
# it): only the first message of each expected finding explained, the rest
# skipped. memcheck's ~2 s a process made the 91 runs 188 s of CPU; every
# rule's path still runs under it, and the plain gate runs them all.
seen=' '
i=1
while [ "$i" -le "$n" ]; do
	code=$(cat "$SPLIT/$i.expect")
	if [ -n "${EXPLAIN_CORPUS_ONE_PER_CODE:-}" ]; then
		case $seen in
		*" $code "*)
			skip "$i $code" "one message per finding here (EXPLAIN_CORPUS_ONE_PER_CODE)"
			i=$((i + 1))
			continue ;;
		esac
		seen="$seen$code "
	fi
	key=$(cat "$SPLIT/$i.key")
	src=$(cat "$SPLIT/$i.source")
	first=$(head -n 1 "$SPLIT/$i.msg" | cut -c 1-60)
	fx_new
	fx_explain -- "$(cat "$SPLIT/$i.msg")"
	text=$(finding "$code" '[.detail // ""] + (.evidence // []) + (.fix // []) | .[]')
	if [ -n "$(finding "$code" .code | grep -v '^null$')" ] &&
	    printf '%s\n' "$text" | grep -qF -- "$key"; then
		tap_result 0 "$i $code: $first"
	else
		tap_result 1 "$i $code: $first"
		diag "source: $src"
		diag "want $code with \"$key\"; got: $(jq -c '[.findings[].code]' "$FX_OUT")"
		printf '%s\n' "$text" | sed 's/^/#   /' | head -n 12
	fi
	i=$((i + 1))
done

done_testing
