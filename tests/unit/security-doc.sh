#!/bin/sh
# docs/SECURITY.md names the code and the tests behind each claim; a file
# it names must exist, or the review describes something that is gone.
. "$TESTS_SRCDIR/lib/tap.sh"

top=$TESTS_SRCDIR/..
doc=$top/docs/SECURITY.md
ok "docs/SECURITY.md exists" test -f "$doc"

# Every `src/…`, `tests/…`, `fuzz/…` path in backquotes (a * is a glob).
paths=$(grep -o '`\(src\|tests\|fuzz\)/[^` ]*`' "$doc" | tr -d '`' | sort -u)
ok "it names files ($(printf '%s\n' "$paths" | wc -l))" test -n "$paths"
for p in $paths; do
	p=${p%/}
	# shellcheck disable=SC2086
	set -- $top/$p
	ok "$p exists" test -e "$1"
done

# Each section the issue asks for is there.
for h in 'What cudawiz trusts' 'What cudawiz executes' \
    'What cudawiz writes' 'What the network can change' 'How each of these is tested'; do
	ok "a section: $h" grep -q "^## [0-9]*\. $h" "$doc"
done

done_testing
