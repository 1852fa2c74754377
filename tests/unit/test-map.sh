#!/bin/sh
# tests/README.md maps the code to its tests; this keeps the map true.
# Every file under src/ (.c, .h, .def) is covered by a row: its own, a
# family's (a * matches any part of a name, within one folder) or its
# folder's (a path ending in /, covering everything beneath it). Every
# row's code still exists, every row names a test, and every test named
# exists and is listed by a fragment (tests/*.mk, fuzz/*.mk), so it runs.
# First proves on a small made-up tree that each of these can fail.
. "$TESTS_SRCDIR/lib/tap.sh"

: "${FX_TMP:=${TMPDIR:-/tmp}}"
work=$(mktemp -d "$FX_TMP/test-map.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

# map_rows MAP: one line per row of the table whose first cell names code
# under src/: the code paths, a tab, the test names (backquoted words).
map_rows() {
	awk -F'|' '
	function words(s,   out) {
		out = ""
		while (match(s, /`[^`]*`/)) {
			out = out " " substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
		}
		return out
	}
	/^\|/ && $2 ~ /`src\// {
		t = ""
		for (i = 3; i < NF; i++) t = t words($i)
		print words($2) "\t" t
	}' "$1"
}

# check_map TOP: the map of TOP/tests/README.md against TOP's files; one
# line per problem on stdout, nothing when the map is true.
check_map() {
	top=$1
	map_rows "$top/tests/README.md" > "$work/rows"
	cut -f1 "$work/rows" | tr ' ' '\n' | grep . > "$work/code"
	cut -f2 "$work/rows" | tr ' ' '\n' | grep . | sort -u > "$work/tests"
	# The words of the fragments: a test that runs is listed in one.
	cat "$top"/tests/*.mk "$top"/fuzz/*.mk 2>/dev/null |
	    tr -s ' \t\\=' '\n' | sort -u > "$work/listed"

	(cd "$top" && find src -type f \( -name '*.c' -o -name '*.h' \
	    -o -name '*.def' \) | LC_ALL=C sort) > "$work/src"
	# A folder covers what lies beneath it; a family (a * in the name)
	# the names of its own folder that match.
	awk '
	function covers(p, f,   re) {
		if (p ~ /\/$/) return substr(f, 1, length(p)) == p
		if (p !~ /\*/) return p == f
		re = p; gsub(/\./, "\\.", re); gsub(/\*/, "[^/]*", re)
		return f ~ ("^" re "$")
	}
	FILENAME == ARGV[1] { code[++nc] = $0; next }
	{ src[++ns] = $0 }
	END {
		for (i = 1; i <= ns; i++) {
			for (j = 1; j <= nc; j++) if (covers(code[j], src[i])) { used[j] = 1; break }
			if (j > nc) print "no row covers " src[i]
		}
		for (j = 1; j <= nc; j++) {
			if (used[j]) continue
			for (i = 1; i <= ns; i++) if (covers(code[j], src[i])) break
			if (i > ns) print "a row names " code[j] ", which is no file under src/"
		}
	}' "$work/code" "$work/src"

	awk -F'\t' '$2 !~ /[^ ]/ { print "the row of" $1 " names no test" }' "$work/rows"

	# Where each short name lives (tests/README.md says), and whether it
	# is there and listed.
	while IFS= read -r t; do
		case $t in
		*/*) f=$t ;;
		test_*) f=tests/unit/$t.c ;;
		fz_*) f=fuzz/$t.c ;;
		*.sh) f=tests/cli/$t; [ -f "$top/tests/unit/$t" ] && f=tests/unit/$t ;;
		*) f=tests/$t ;;
		esac
		if [ -f "$top/$f" ]; then
			echo "$t $f"
		else
			echo "a row names $t: there is no $f" >&2
		fi
	done < "$work/tests" 2>&1 > "$work/found"
	awk 'FILENAME == ARGV[1] { listed[$0] = 1; next }
	{
		bare = $2; sub(/\.c$/, "", bare)
		if (!($2 in listed) && !(bare in listed))
			print "a row names " $1 ": no tests/*.mk or fuzz/*.mk lists " $2
	}' "$work/listed" "$work/found"
}

# ------------------------------------------------------------ self-test
t=$work/tree
mkdir -p "$t/src/a" "$t/src/b" "$t/tests/unit" "$t/tests/cli" "$t/fuzz"
: > "$t/src/a/one.c"; : > "$t/src/a/one.h"; : > "$t/src/b/two.c"
: > "$t/src/b/rules_x.c"; : > "$t/src/main.c"; : > "$t/src/a/sub.h"
: > "$t/tests/unit/test_one.c"; : > "$t/tests/cli/two.sh"
: > "$t/tests/cli/unlisted.sh"; : > "$t/fuzz/fz_one.c"
printf 'TESTS += tests/unit/test_one tests/cli/two.sh\n' > "$t/tests/t.mk"
printf 'x_SOURCES = fuzz/fz_one.c $(R)\n' > "$t/fuzz/f.mk"
cat > "$t/tests/README.md" <<'EOF'
| Code | Unit | CLI | Fuzz |
|---|---|---|---|
| `src/a/` | `test_one` | | `fz_one` |
| `src/b/rules_*` `src/main.c` | | `two.sh` | |
| `src/b/two.c` | | `two.sh` | |
EOF
is "$(check_map "$t")" "" "self-test: a true map passes"

cp "$t/tests/README.md" "$work/good.md"
sed -i '/two\.c/d' "$t/tests/README.md"
is "$(check_map "$t")" "no row covers src/b/two.c" \
    "self-test: a file no row covers fails"
: > "$t/src/b/sub.h"
like "$(check_map "$t")" "no row covers src/b/sub.h" \
    "self-test: a family covers its own folder only"
rm "$t/src/b/sub.h"
cp "$work/good.md" "$t/tests/README.md"

printf '| `src/c/` | `test_one` | | |\n| `src/b/*.def` | `test_one` | | |\n' \
    >> "$t/tests/README.md"
is "$(check_map "$t")" "a row names src/c/, which is no file under src/
a row names src/b/*.def, which is no file under src/" \
    "self-test: a row whose code is gone fails"
cp "$work/good.md" "$t/tests/README.md"

printf '| `src/a/one.c` | | | |\n' >> "$t/tests/README.md"
is "$(check_map "$t")" "the row of src/a/one.c names no test" \
    "self-test: a row without a test fails"
cp "$work/good.md" "$t/tests/README.md"

printf '| `src/a/one.c` | `test_gone` | `unlisted.sh` | |\n' >> "$t/tests/README.md"
is "$(check_map "$t")" "a row names test_gone: there is no tests/unit/test_gone.c
a row names unlisted.sh: no tests/*.mk or fuzz/*.mk lists tests/cli/unlisted.sh" \
    "self-test: a test that is missing or never run fails"

# ------------------------------------------------------------ the map
root=$(cd "$TESTS_SRCDIR/.." && pwd)
[ -f "$root/tests/README.md" ] || { echo "Bail out! no tests/README.md"; exit 99; }
ok "the map has rows ($(map_rows "$root/tests/README.md" | wc -l))" \
    test "$(map_rows "$root/tests/README.md" | wc -l)" -gt 10
problems=$(check_map "$root")
is "$problems" "" "tests/README.md covers every file under src/ with tests that run"

done_testing
