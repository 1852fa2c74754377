#!/bin/sh
# cudawiz matrix show and path, and which matrix a run uses: --matrix FILE,
# else a valid cache not older than the embedded data, else the embedded.
. "$TESTS_SRCDIR/lib/tap.sh"

: "${FX_TMP:=${TMPDIR:-/tmp}}"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"

w=$(mktemp -d "$FX_TMP/matrix-show.XXXXXX") || exit 99
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/home"
cache=$w/cache/cudawiz/matrix.json

# cw [NAME=VALUE]... -- ARG...: cudawiz with a clean environment.
cw() {
	env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C \
	    HOME="$w/home" XDG_CACHE_HOME="$w/cache" "$@" > "$w/out" 2> "$w/err"
	rc=$?
}
run() {	# ARG...: cudawiz with the default environment of this test
	cw "$CUDAWIZ" "$@"
}

# matrix path follows the XDG rules.
run matrix path
is "$(cat "$w/out")" "$w/cache/cudawiz/matrix.json" "path: under an absolute XDG_CACHE_HOME"
cw XDG_CACHE_HOME=relative/dir "$CUDAWIZ" matrix path
is "$(cat "$w/out")" "$w/home/.cache/cudawiz/matrix.json" "path: a relative XDG_CACHE_HOME is ignored"
cw XDG_CACHE_HOME= "$CUDAWIZ" matrix path
is "$(cat "$w/out")" "$w/home/.cache/cudawiz/matrix.json" "path: an empty XDG_CACHE_HOME is ignored"
env -i HOME=relative "$CUDAWIZ" matrix path > "$w/out" 2> "$w/err"
is "$?" 1 "path: no usable directory: exit 1"
like "$(cat "$w/err")" 'XDG_CACHE_HOME' "path: says why"
run --json matrix path
is "$(jq -r .path "$w/out")" "$cache" "path --json"

# No cache: the embedded data.
run matrix show --json
is "$rc" 0 "show --json: exit 0"
is "$(jq -r .schema "$w/out")" cudawiz/matrix-show/1 "show --json: schema"
is "$(jq -r .source "$w/out")" embedded "no cache: embedded"
is "$(jq -r .path "$w/out")" null "embedded: no path"
is "$(jq -r .cache_path "$w/out")" "$cache" "the cache's path is given anyway"
is "$(jq -r .date "$w/out")" "$(jq -r .date "$src")" "the embedded date"
is "$(jq -r .refresh_days "$w/out")" "$(jq -r .refresh_days "$src")" "refresh_days"
like "$(jq -r .age_days "$w/out")" '^[0-9]+$' "age in days"
like "$(jq -r .stale "$w/out")" '^(true|false)$' "stale is a boolean"
is "$(jq -r .checked "$w/out")" null "never checked"
want=$(jq -r '[.cuda_releases[].version] | sort_by(split(".") | map(tonumber)) | last' "$src")
is "$(jq -r .newest.cuda "$w/out")" "$want" "newest CUDA"
like "$(jq -r .newest.cudnn "$w/out")" '^[0-9]+\.[0-9]+' "newest cuDNN"
is "$(jq -r .ignored_keys "$w/out")" 0 "the built-in document: no key ignored"
for sec in cuda_releases cuda_majors architectures gpus cudnn_releases \
    cudnn_libraries sonames wheels conda_packages frameworks published; do
	is "$(jq -r ".counts.$sec" "$w/out")" "$(jq ".$sec | length" "$src")" "count of $sec"
done

run matrix show
is "$rc" 0 "show: exit 0"
like "$(cat "$w/out")" '^Matrix in use: +built in' "show: says built in"
like "$(cat "$w/out")" "Newest CUDA: +$want" "show: newest CUDA"
like "$(cat "$w/out")" 'cuda_releases +[0-9]+' "show: counts"
is "$(awk 'length($0) > 80' "$w/out" | grep -vF "$w")" "" "show: fits 80 columns"

# --matrix FILE.
jq '.date = "2000-01-01"' "$src" > "$w/old.json"
run --matrix "$w/old.json" matrix show --json
is "$rc" 0 "--matrix FILE: exit 0"
is "$(jq -r .source "$w/out")" file "--matrix FILE: source file"
is "$(jq -r .path "$w/out")" "$w/old.json" "--matrix FILE: its path"
is "$(jq -r .stale "$w/out")" true "a matrix of 2000 is stale"
ok "and old" test "$(jq -r .age_days "$w/out")" -gt 9000
run matrix show --matrix "$w/old.json"
like "$(cat "$w/out")" 'older than its refresh window' "show (text) says it is stale"

jq '.cuda_releases[0].version = "11.8; rm -rf ~"' "$src" > "$w/bad.json"
run --matrix "$w/bad.json" matrix show
is "$rc" 2 "--matrix with a bad field: exit 2"
like "$(cat "$w/err")" 'cuda_releases\[0\]\.version' "the error names the field's JSON path"
like "$(cat "$w/err")" "$w/bad.json" "and the file"
is "$(wc -l < "$w/err" | tr -d ' ')" 1 "in one line"
run --matrix "$w/bad.json" doctor --root "$w/home"
is "$rc" 2 "doctor --matrix with a bad field: exit 2"
like "$(cat "$w/err")" 'cuda_releases\[0\]\.version' "doctor: the error names the field"
run --matrix "$w/missing.json" matrix show
is "$rc" 2 "--matrix with a missing file: exit 2"
like "$(cat "$w/err")" 'missing\.json' "the error names it"
run --matrix "$w" matrix show
is "$rc" 2 "--matrix with a directory: exit 2"

# The cache: used when valid and not older than the embedded data.
mkdir -p "$(dirname "$cache")"
jq '.date = "2099-01-01"' "$src" > "$cache"
run matrix show --json
is "$(jq -r .source "$w/out")" cache "a newer valid cache is used"
is "$(jq -r .path "$w/out")" "$cache" "with its path"
is "$(jq -r .stale "$w/out")" false "a cache from the future is not stale"
cp "$src" "$cache"
run matrix show --json
is "$(jq -r .source "$w/out")" cache "a cache as old as the embedded data is used"
jq '.date = "2000-01-01"' "$src" > "$cache"
run matrix show --json
is "$(jq -r .source "$w/out")" embedded "an older cache is not"
like "$(cat "$w/err")" 'older than the built-in data' "and show says why"
printf '{"schema": "cudawiz/matrix/1", "date": ' > "$cache"
run matrix show --json
is "$rc" 0 "an invalid cache: exit 0"
is "$(jq -r .source "$w/out")" embedded "an invalid cache is ignored"
like "$(cat "$w/err")" 'ignoring the cached matrix' "and show says so"
run --matrix "$w/old.json" matrix show --json
is "$(jq -r .source "$w/out")" file "--matrix wins over the cache"

# Usage.
run matrix
is "$rc" 2 "matrix without a subcommand: exit 2"
run matrix frobnicate
is "$rc" 2 "an unknown subcommand: exit 2"
run matrix show extra
is "$rc" 2 "show with an argument: exit 2"
run --help
like "$(cat "$w/out")" 'matrix' "--help lists matrix"
like "$(cat "$w/out")" '--matrix FILE' "--help lists --matrix"

done_testing
