#!/bin/sh
# 10,000 distinct LD_LIBRARY_PATH directories (issue 16, point 4), each one
# a real directory without the libraries doctor looks for. Every search
# walks all of them; doctor's JSON says so with one record per run of
# directories without the file ("not_there", with a count), not 10,000
# records per library, and the run stays small. why keeps every step.
# The bounds are counts (records, bytes, peak RSS), never times: bench/
# has the times.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
# A hang guard only: valgrind and a loaded machine are slow.
: "${HOSTILE_TIMEOUT:=600}"
# 64 MiB over an empty tree's run (before the fix: 97 MB in all).
# AddressSanitizer's redzones and quarantine weigh most on this run's
# thousands of small blocks: 25 MB plain peaked at 240 MB there, past
# three times 64 MiB (fx_hostile.sh's rule for ASan), so its margin is
# 128 MiB, tripled. The plain build keeps the 64 MiB target.
if grep -aq __asan_init "$CUDAWIZ" 2>/dev/null; then
	: "${HOSTILE_MARGIN_KB:=131072}"
fi
: "${HOSTILE_MARGIN_KB:=65536}"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

fx_new
fx_dir /usr/lib/x86_64-linux-gnu
fx_dir /proc/driver/nvidia
mkdir -p "$FX/L" || exit 99
# mkdir -p with many arguments at a time: 10,000 directories.
(cd "$FX/L" && awk 'BEGIN { for (i = 0; i < 10000; i++) print i }' |
    xargs mkdir -p) || exit 99
llp=$(awk 'BEGIN { for (i = 0; i < 10000; i++) printf "%s/L/%d", (i ? ":" : ""), i }')
diag "LD_LIBRARY_PATH is ${#llp} bytes"

hostile_run "doctor --json" "doctor --json" LD_LIBRARY_PATH="$llp"
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries | length')" 10000 \
    "every entry is in the JSON"
nlib=$(fx_jq '.facts.libraries | length')
ok "libraries are searched for ($nlib)" [ "${nlib:-0}" -ge 3 ]
records=$(fx_jq '[.facts.libraries[].steps | length] | add')
ok "the libraries' steps are a few records, not 10,000 each ($records for $nlib libraries)" \
    [ "${records:-99999}" -le $((nlib * 20)) ]
is "$(fx_jq '[.facts.libraries[].steps[] | select(.result == "not_there")] | length')" \
    "$nlib" "one summary record for each library"
is "$(fx_jq '[.facts.libraries[0].steps[] | select(.result == "not_there")][0] |
    "\(.source) \(.dir) \(.last_dir) \(.count) \(.dir_missing)"')" \
    "ld_library_path /L/0 /L/9999 10000 0" \
    "it names the first and last directory and counts them"
is "$(fx_jq '[.facts.libraries[0].steps[] | select(.result != "not_there")] | .[0].source')" \
    default "the steps after the run are records of their own"
libbytes=$(jq -c '.facts.libraries' "$FX_OUT" | wc -c)
ok "the libraries take under 64 KB of JSON ($libbytes bytes)" [ "$libbytes" -le 65536 ]
# facts.env keeps all 10,000 entries; the rest is small.
rest=$(jq -c 'del(.facts.env)' "$FX_OUT" | wc -c)
ok "the JSON besides the environment is under 256 KB ($rest bytes)" [ "$rest" -le 262144 ]
# Past 1 MiB the document is written compact (issue 16's target: 2 MB;
# indented it was 2.2 MB).
size=$(wc -c < "$FX_OUT")
ok "the JSON is under 2 MB ($size bytes)" [ "$size" -le 2000000 ]
is "$(head -c 2 "$FX_OUT")" '{"' "... written compact, past 1 MiB"
doc=$(jq -c . "$FX_OUT" | wc -c)
is "$size" "$doc" "... which jq reads to the same document, byte for byte"

# why keeps the whole trace of one search.
hostile_run "why --json libnope.so.1" "why --json libnope.so.1" LD_LIBRARY_PATH="$llp"
is "$FX_RC" 1 "it does not resolve"
steps=$(fx_jq '[.steps[] | select(.source == "ld_library_path")] | length')
is "$steps" 10000 "every LD_LIBRARY_PATH step is kept"
is "$(fx_jq '.truncated')" null "nothing is cut"

done_testing
