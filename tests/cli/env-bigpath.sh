#!/bin/sh
# A PATH of 10,000 entries (what a startup script that prepends on every
# shell leaves behind): duplicates are found by sorting, not pair by pair,
# the JSON must keep every entry, and the text report must stay short.
# The time is reported, not asserted (a loaded machine, valgrind): bench/
# has the times; a generous timeout only guards against a hang.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

now_ms() {
	t=$(date +%s%N 2>/dev/null)
	case $t in *N) echo $(($(date +%s) * 1000)) ;; *) echo $((t / 1000000)) ;; esac
}

fx_new
fx_dir /usr/bin
i=0
while [ $i -lt 50 ]; do
	fx_dir /d/$i
	i=$((i + 1))
done
fx_link d/7 /seven

# Entry i: /usr/bin, a directory of 50, or a missing one of its own;
# a variable may not exceed 128 KiB, so the names stay short.
big=$(awk 'BEGIN {
	for (i = 0; i < 10000; i++) {
		if (i % 3 == 0) e = "/usr/bin"
		else if (i % 3 == 1) e = "/d/" (i % 50)
		else e = "/m" i
		printf "%s%s", (i ? ":" : ""), e
	}
	printf ":/seven"
}')

guard=$(command -v timeout 2>/dev/null) ||
    skip_all "timeout (Debian package: coreutils) is missing"
start=$(now_ms)
env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C PATH="$big" \
    "$guard" -k 5 600 "$CUDAWIZ" doctor --json --root "$FX" > "$FX_OUT" \
    2> "$FX.stderr"
rc=$?
ms=$(($(now_ms) - start))
diag "doctor --json with a 10,001-entry PATH took $ms ms"
ok "doctor exits 0 or 1 (got $rc; 124 is the 600 s hang guard)" [ "$rc" -le 1 ]

is "$(fx_jq '.facts.env.PATH.entries | length')" 10001 "every entry is in the JSON"
is "$(fx_jq '.facts.env.PATH.entries[9999].duplicate_of')" 0 \
    "entry 9999 (/usr/bin) is a duplicate of entry 0"
is "$(fx_jq '.facts.env.PATH.entries[9997].value')" "/d/47" "entry 9997 is /d/47"
is "$(fx_jq '.facts.env.PATH.entries[9997].duplicate_of')" \
    "$(fx_jq '[.facts.env.PATH.entries[] | .value] | index("/d/47")')" \
    "entry 9997 points at the first /d/47"
is "$(fx_jq '.facts.env.PATH.entries[10000].duplicate_of')" \
    "$(fx_jq '[.facts.env.PATH.entries[] | .value] | index("/d/7")')" \
    "a symlink to /d/7 at the end is a duplicate of the first /d/7"
is "$(fx_jq '[.facts.env.PATH.entries[] | select(.exists == false)] | length')" 3333 \
    "3,333 missing entries"
is "$(fx_jq '[.findings[] | select(.code == "ENV_PATH_MISSING") | .evidence | length][0]')" 11 \
    "ENV_PATH_MISSING evidence is capped (10 and a count)"
like "$(fx_jq '[.findings[] | select(.code == "ENV_PATH_MISSING")][0].detail')" '3333 entries' \
    "the detail still counts all of them"
fix=$(fx_jq '[.findings[] | select(.code == "DUPLICATE_PATH_ENTRY")][0].fix[0]')
got=$(env -i sh -c "$fix; printf %s \"\$PATH\"" | tr ':' '\n' | sort -u | wc -l)
is "$got" 51 "the corrected PATH keeps /usr/bin and the 50 directories, once each"

start=$(now_ms)
lines=$(env -i LC_ALL=C PATH="$big" "$CUDAWIZ" doctor --root "$FX" | wc -l)
ms=$(($(now_ms) - start))
diag "the text report has $lines lines and took $ms ms"
ok "the text report stays short ($lines lines, at most 100)" [ "$lines" -le 100 ]
long=$(env -i LC_ALL=C PATH="$big" "$CUDAWIZ" doctor --root "$FX" |
    grep -vF "$FX" | grep -v '^ *fix: ' | awk 'length($0) > 80' | head -n 3)
is "$long" "" "apart from lines holding the root path and fixes, 80 columns"

done_testing
