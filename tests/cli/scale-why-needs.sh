#!/bin/sh
# A crafted library (issue 16, point 5): 100 KB with 300 DT_NEEDED
# entries, none of them anywhere, and a DT_RPATH of 10,000 directories;
# and a chain of 12 libraries, each with a DT_RPATH of 1,000 directories,
# each needing the next and a name that is nowhere, so the search for it
# walks the RPATH of every library up the chain. Searching for every need
# makes millions of steps: why keeps at most RESOLVE_STEPS_PER_NAME
# (20,000) for one name and RESOLVE_STEPS_PER_RUN (30,000) in all, counts
# the rest and says so in the text and the JSON, and the answers stay
# what they were. Bounds are counts (steps, records, peak RSS).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
# A hang guard only: valgrind and a loaded machine are slow.
: "${HOSTILE_TIMEOUT:=600}"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

fx_new
fx_dir /usr/lib/x86_64-linux-gnu
fx_so /usr/lib/x86_64-linux-gnu/libc.so.6 libc.so.6
D=$FX_TMP/scale-why.$$
mkdir -p "$D" || exit 99
trap 'rm -rf "$D"; fx_cleanup' EXIT
# One stub without a SONAME under 300 names: the linker writes the name
# it was given (-l:NAME) as DT_NEEDED, so one compile makes all of them.
printf 'int cudawiz_stub(void) { return 0; }\n' |
    $FIXTURE_CC -shared -fPIC -x c -o "$D/stub.so" - 2> "$D/cc.log" ||
    skip_all "cannot build shared libraries with $FIXTURE_CC: $(head -n 1 "$D/cc.log")"
needs=
i=0
while [ $i -lt 300 ]; do
	ln -s stub.so "$D/libneed$i.so.1"
	needs="$needs -l:libneed$i.so.1"
	i=$((i + 1))
done
rpath=$(awk 'BEGIN { for (i = 0; i < 10000; i++) printf "%s/r/%d", (i ? ":" : ""), i }')
mkdir -p "$FX/opt/lib"
# shellcheck disable=SC2086
printf 'int cudawiz_crafted(void) { return 1; }\n' |
    $FIXTURE_CC -shared -fPIC -x c -o "$FX/opt/lib/libcrafted.so.1" - \
    -Wl,-soname,libcrafted.so.1 -Wl,--disable-new-dtags -Wl,-rpath,"$rpath" \
    -Wl,--no-as-needed -L"$D" $needs || exit 99
diag "the library is $(wc -c < "$FX/opt/lib/libcrafted.so.1") bytes"

hostile_run "why --json --from" "why --json" -- --from /opt/lib/libcrafted.so.1
is "$FX_RC" 1 "not everything loads"
is "$(fx_jq '[.closure[] | select(.resolved == null)] | length')" 300 \
    "each of the 300 needs is answered: not found"
is "$(fx_jq '[.closure[] | select(.name == "libc.so.6")][0].resolved')" \
    /usr/lib/x86_64-linux-gnu/libc.so.6 "libc.so.6 is found past the RPATH"
# Past the cap a winner's step is still kept: the answer needs it.
won=$(fx_jq '[.closure[] | select(.resolved != null)] | length')
kept=$(fx_jq '[.closure[].steps | length] | add')
ok "at most 30,000 steps are kept in all, and the winners' ($kept, $won found)" \
    [ "${kept:-999999}" -le $((30000 + won)) ]
most=$(fx_jq '[.closure[].steps | length] | max')
ok "at most 20,000 for one name ($most)" [ "${most:-999999}" -le 20000 ]
cut=$(fx_jq '.truncated.steps_cut')
ok "the steps cut are counted ($cut)" [ "${cut:-0}" -ge 2900000 ]
is "$(fx_jq '"\(.truncated.steps_per_name_max) \(.truncated.steps_per_run_max)"')" \
    "20000 30000" "the note gives the caps"
is "$(fx_jq '[.closure[].steps_cut // 0] | add')" "$cut" \
    "each name says how many of its steps were cut"
size=$(wc -c < "$FX_OUT")
ok "the JSON is under 16 MB ($size bytes)" [ "$size" -le 16777216 ]

hostile_run "why --from (text)" why -- --from /opt/lib/libcrafted.so.1
like "$(cat "$FX_OUT")" \
    '^Note: [0-9]+ search steps were not kept \(at most 20000 are kept for one name, 30000 in all\)' \
    "the text says what was cut"
is "$(grep -c ' => ' "$FX_OUT")" 301 "every need is listed"

# One name searched through the 10,000 RPATH directories and 10,000 more
# in LD_LIBRARY_PATH.
llp=$(awk 'BEGIN { for (i = 0; i < 10000; i++) printf "%s/L/%d", (i ? ":" : ""), i }')
hostile_run "why --json libneed7.so.1 --from" "why --json libneed7.so.1" \
    LD_LIBRARY_PATH="$llp" -- --from /opt/lib/libcrafted.so.1
is "$FX_RC" 1 "it does not resolve"
is "$(fx_jq '.steps | length')" 20000 "one name: 20,000 steps are kept"
is "$(fx_jq '[.steps[] | select(.source == "rpath")] | length')" 10000 \
    "the whole RPATH, then LD_LIBRARY_PATH"
ok "the rest are counted ($(fx_jq .steps_cut))" [ "$(fx_jq '.steps_cut // 0')" -ge 1 ]
is "$(fx_jq .truncated.steps_cut)" "$(fx_jq .steps_cut)" "the note counts them"

# The chain: lib$i needs lib$((i+1)) and libgone$i.so.1; each has an
# RPATH of 1,000 directories of its own.
i=11
while [ $i -ge 0 ]; do
	rp=$(awk -v n=$i 'BEGIN { for (j = 0; j < 1000; j++) printf "%s/c%d/%d", (j ? ":" : ""), n, j }')
	next=
	[ $i -lt 11 ] && next="-l:libchain$((i + 1)).so.1"
	ln -sf stub.so "$D/libgone$i.so.1"
	# shellcheck disable=SC2086
	printf 'int cudawiz_chain(void) { return 1; }\n' |
	    $FIXTURE_CC -shared -fPIC -x c -o "$FX/opt/lib/libchain$i.so.1" - \
	    -Wl,-soname,libchain$i.so.1 -Wl,--disable-new-dtags \
	    -Wl,-rpath,"$rp:/opt/lib" -Wl,--no-as-needed -L"$D" \
	    -L"$FX/opt/lib" $next -l:libgone$i.so.1 || exit 99
	i=$((i - 1))
done
hostile_run "why --json --from the chain" "why --json" -- --from /opt/lib/libchain0.so.1
is "$(fx_jq '[.closure[] | select(.name | startswith("libchain")) | .resolved] | length')" 11 \
    "the chain is followed to its end"
is "$(fx_jq '[.closure[] | select(.name | startswith("libchain")) | select(.resolved == null)] | length')" 0 \
    "every link of it loads"
won=$(fx_jq '[.closure[] | select(.resolved != null)] | length')
kept=$(fx_jq '[.closure[].steps | length] | add')
ok "at most 30,000 steps are kept, and the winners' ($kept, $won found)" \
    [ "${kept:-999999}" -le $((30000 + won)) ]
ok "the rest are counted ($(fx_jq .truncated.steps_cut))" \
    [ "$(fx_jq '.truncated.steps_cut // 0')" -gt 0 ]

done_testing
