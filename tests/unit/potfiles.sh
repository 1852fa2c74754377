#!/bin/sh
# po/POTFILES.in lists every source file with a translatable string, and
# nothing that does not exist: a missing line silently leaves messages
# out of the translation template.
. "$TESTS_SRCDIR/lib/tap.sh"

top=$TESTS_SRCDIR/..
list=$top/po/POTFILES.in
[ -r "$list" ] || skip_all "no po/POTFILES.in"
missing=
for f in $(cd "$top" && grep -rlE '(^|[^A-Za-z0-9_])(N?_|ngettext)\("' src --include='*.c' --include='*.def' | sort); do
	grep -qx "$f" "$list" || missing="$missing $f"
done
is "${missing# }" "" "every file with _(), N_() or ngettext() is listed"
stale=
for f in $(grep -v '^#' "$list"); do
	[ -f "$top/$f" ] || stale="$stale $f"
done
is "${stale# }" "" "every listed file exists"
done_testing
