#!/bin/sh
# Schema 1's forward compatibility (data/SCHEMA.md, "Compatibility"): a
# cache or --matrix document from a newer cudawiz, with fields and
# sections this one does not know, still loads and says what it skipped;
# one from before published[] and the driver branches loads too; a bad
# value in a new field is still refused with its JSON path.
. "$TESTS_SRCDIR/lib/tap.sh"

: "${FX_TMP:=${TMPDIR:-/tmp}}"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"

w=$(mktemp -d "$FX_TMP/matrix-forward.XXXXXX") || exit 99
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/home" "$w/cache/cudawiz"
cache=$w/cache/cudawiz/matrix.json

run() {	# ARG...: cudawiz with a clean environment
	env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C \
	    HOME="$w/home" XDG_CACHE_HOME="$w/cache" "$CUDAWIZ" "$@" > "$w/out" 2> "$w/err"
	rc=$?
}

# A newer document: a new section, a new field in a row of an old
# section, and one in a published row.
jq '.date = "2099-01-01"
    | .signatures = [{"key": "x"}]
    | .gpus[0].tdp_watts = 350
    | .published[0].sha256 = "00"' "$src" > "$cache"
run matrix show --json
is "$rc" 0 "a newer cache: exit 0"
is "$(jq -r .source "$w/out")" cache "  it is used, not refused"
is "$(jq -r .ignored_keys "$w/out")" 3 "  its three unknown keys are counted"
is "$(jq -r .counts.gpus "$w/out")" "$(jq '.gpus | length' "$src")" "  every GPU row is read"
is "$(jq -r .counts.published "$w/out")" "$(jq '.published | length' "$src")" \
    "  every published row is read"
run matrix show
like "$(cat "$w/out")" 'Ignored: +3 keys this cudawiz does not know' "  show says what it skipped"

# An older document: no published[], no driver branches.
jq '.date = "2099-01-01" | del(.published)
    | .architectures |= map(del(.last_driver_branch, .first_driver_branch))' "$src" > "$cache"
run matrix show --json
is "$(jq -r .source "$w/out")" cache "a cache from before published[]: used"
is "$(jq -r .counts.published "$w/out")" 0 "  with no published rows"
is "$(jq -r .ignored_keys "$w/out")" 0 "  and nothing ignored"
rm -f "$cache"

# Bad values in the new fields: refused, with the path.
bad() {	# JQ-FILTER PATH WHAT
	jq "$1" "$src" > "$w/bad.json"
	run --matrix "$w/bad.json" matrix show
	is "$rc" 2 "$3: exit 2"
	like "$(cat "$w/err")" "$2" "  the error names $2"
}
bad '.architectures[0].last_driver_branch = "39x"' 'architectures\[0\]\.last_driver_branch' \
    "a last driver branch that is no version"
bad '.architectures[0].first_driver_branch = "999"' 'architectures\[0\]: first_driver_branch' \
    "a first branch above the last"
bad '.published[0].package = "torch; reboot"' 'published\[0\]\.package' "a package with a command"
bad '.published[0].index_url = "http://example.com/simple"' 'published\[0\]\.index_url' \
    "an index that is not https"
bad '.published[0] |= del(.source)' 'published\[0\]\.source: missing' "a row without its source"
bad '.published += [.published[0]]' 'published\[[0-9]+\]\.package: repeats published\[0\]' \
    "a row given twice"
bad '.published = {}' 'published: expected an array' "published as an object"

# A bad new field in a cache: the cache is refused as a whole, so the
# built-in data is used.
jq '.date = "2099-01-01" | .published[0].cuda_major = -1' "$src" > "$cache"
run matrix show --json
is "$(jq -r .source "$w/out")" embedded "a cache with a bad new field is not used"

done_testing
