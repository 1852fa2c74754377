#!/bin/sh
# A 1 MiB /etc/ld.so.conf naming 125,000 directories (issue 16, point 4),
# the first 5,000 of them real. ldconfig would take them all; cudawiz
# keeps the first 4,096 and says in a note how many it left out, so the
# probes and every library search (the ld.so.conf directories stand in
# for the cache under --root) stay bounded. Bounds are counts, not times.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
# A hang guard only (before the cap, 125,000 directories took minutes).
: "${HOSTILE_TIMEOUT:=600}"
: "${HOSTILE_MARGIN_KB:=65536}"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

fx_new
fx_dir /usr/lib/x86_64-linux-gnu
mkdir -p "$FX/etc" || exit 99
(cd "$FX" && awk 'BEGIN { for (i = 0; i < 5000; i++) print "c" i }' |
    xargs mkdir -p) || exit 99
# 1,013,890 bytes: under the 1 MiB cudawiz reads of it.
awk 'BEGIN { for (i = 0; i < 125000; i++) printf "/c%d\n", i }' \
    > "$FX/etc/ld.so.conf" || exit 99
# Past the cap: a library there is not found through ld.so.conf.
echo /late/lib >> "$FX/etc/ld.so.conf"
fx_so /late/lib/libcudart.so.12 libcudart.so.12
diag "ld.so.conf is $(wc -c < "$FX/etc/ld.so.conf") bytes"

hostile_run "doctor --json" "doctor --json"
is "$(fx_jq '.facts.env.ld_so_conf | length')" 4096 "4,096 directories are kept"
is "$(fx_jq '.facts.env.ld_so_conf[4095].dir')" /c4095 "the first ones, in order"
is "$(hostile_note /etc/ld.so.conf)" \
    "ld.so.conf and its includes name more than 4096 directories; 120905 more were left out" \
    "a note says how many were left out"
is "$(fx_jq '.facts.notes | length')" 1 "one note, not one per directory"
steps=$(fx_jq '[.facts.libraries[].steps[] | select(.source == "cache") |
    if .result == "not_there" then .count else 1 end] | add')
nlib=$(fx_jq '.facts.libraries | length')
is "$steps" $((nlib * 4096)) "each library is searched for in the 4,096 ($nlib libraries)"
records=$(fx_jq '[.facts.libraries[].steps | length] | add')
ok "in a few records ($records)" [ "${records:-99999}" -le $((nlib * 20)) ]
unlike "$(fx_jq '.facts.libraries[].resolved')" /late/ \
    "a directory past the cap is not searched"
size=$(wc -c < "$FX_OUT")
ok "the JSON is under 2 MB ($size bytes)" [ "$size" -le 2097152 ]

hostile_run "why libcudart.so.12" "why libcudart.so.12"
is "$FX_RC" 1 "why does not find it either"
like "$(cat "$FX_OUT")" '^ +… [0-9]+ more steps \(see --json\)$' "its steps are counted"

done_testing
