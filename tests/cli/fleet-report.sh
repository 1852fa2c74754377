#!/bin/sh
# cudawiz fleet on a small fleet made from a real doctor report: hosts
# grouped by finding (most hosts first, ties by code, a code twice on a
# host counted once), drift from the majority (a tie said as such) and
# from --baseline (a spec file or a doctor report), stale reports with
# --max-age, duplicates, the exit status, and the --json, --format html
# and -o views of the same fleet.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fleet.sh"

fleet_base
W=$FX.fleet
fx_dirs="$fx_dirs $W"
mkdir -p "$W/f" "$W/ok" "$W/tie" "$W/dup" || exit 99

E=error
# File names out of host order: the hosts are sorted by name.
fleet_report "$W/f/z.json" gpu01 3600 . \
    "[[\"SONAME_NOT_FOUND\",\"$E\"],[\"LIB_SHADOWED\",\"warning\"]]"
fleet_report "$W/f/y.json" gpu02 3600 '.["driver.branch"] = "570"' \
    "[[\"SONAME_NOT_FOUND\",\"$E\"]]"
fleet_report "$W/f/x.json" gpu03 3600 'del(.["gpu.count"])' \
    '[["LIB_SHADOWED","warning"],["EMPTY_PATH_ENTRY","warning"]]'
fleet_report "$W/f/w.json" gpu04 3600 . \
    "[[\"SONAME_NOT_FOUND\",\"$E\"],[\"SONAME_NOT_FOUND\",\"$E\"]]"
fleet_report "$W/f/v.json" gpu05 3600 . \
    "[[\"EMPTY_PATH_ENTRY\",\"warning\"],[\"DRIVER_TOO_OLD\",\"$E\"]]"
fleet_report "$W/f/u.json" gpu06 200000 .

run() {	# ARG...: cudawiz fleet; stdout in $W/out, status in $RC
	"$CUDAWIZ" fleet "$@" > "$W/out" 2> "$W/err"
	RC=$?
}

run "$W/f"
is "$RC" 1 "a fleet with error findings exits 1"
is "$(sed -n '/^Findings/,/^$/p' "$W/out")" "Findings, the most hosts first:
  SONAME_NOT_FOUND (error), 3 hosts: gpu01, gpu02, gpu04
  EMPTY_PATH_ENTRY (warning), 2 hosts: gpu03, gpu05
  LIB_SHADOWED (warning), 2 hosts: gpu01, gpu03
  DRIVER_TOO_OLD (error), 1 host: gpu05" \
    "grouped by code: most hosts first, ties by code, each host once"
like "$(cat "$W/out")" "6 hosts from 6 files: 4 with an error finding, 1 stale, 0 unreadable" \
    "the first line counts hosts, files and the unwell"
is "$(sed -n '/^Drift/,/^$/p' "$W/out")" "Drift from the majority, 6 hosts compared:
  driver.branch: 580 on 5 hosts; 570: gpu02
  gpu.count: 1 on 5 hosts; (absent): gpu03" \
    "majority drift: the odd host out per item, an absent item too"
like "$(sed -n '/^Stale/,/^$/p' "$W/out")" "gpu06: .*, 55 h old \\($W/f/u.json\\)" \
    "the 55-hour-old report is stale under the default 24 h"

run --max-age 72 "$W/f"
unlike "$(cat "$W/out")" "Stale" "--max-age 72: nothing is stale"

# --json: the same fleet, checked with jq.
run --json "$W/f"
is "$RC" 1 "--json: the same exit status"
J=$W/out
is "$(jq -r .schema "$J")" cudawiz/fleet/1 "--json: schema cudawiz/fleet/1"
is "$(jq -c '[.findings[] | [.code, .severity, .count, (.hosts | join(","))]]' "$J")" \
    '[["SONAME_NOT_FOUND","error",3,"gpu01,gpu02,gpu04"],["EMPTY_PATH_ENTRY","warning",2,"gpu03,gpu05"],["LIB_SHADOWED","warning",2,"gpu01,gpu03"],["DRIVER_TOO_OLD","error",1,"gpu05"]]' \
    "--json: the groups in the same order"
is "$(jq -c '.summary' "$J")" \
    '{"files":6,"hosts":6,"hosts_with_errors":4,"stale":1,"no_time":0,"unreadable":0,"duplicates":0,"drift_items":2,"ok":false}' \
    "--json: the summary"
is "$(jq -c '[.drift.against, .drift.compared, [.drift.items[] | [.key, .family, .reference, .reference_hosts, .tie, [.values[] | [.value, (.hosts | join(","))]]]]]' "$J")" \
    '["majority",6,[["driver.branch","driver","580",5,false,[["570","gpu02"]]],["gpu.count","gpu","1",5,false,[[null,"gpu03"]]]]]' \
    "--json: drift items with their reference and the hosts that differ"
is "$(jq -r '.stale | join(" ")' "$J")" gpu06 "--json: the stale host"
is "$(jq -r '[.hosts[] | .name] | join(" ")' "$J")" "gpu01 gpu02 gpu03 gpu04 gpu05 gpu06" \
    "--json: every host, by name"
is "$(jq -r '.hosts[5] | [.stale, .age_s >= 200000, .errors, .spec] | @tsv' "$J")" \
    "true	true	0	true" "--json: a host's age, errors and spec"

# A tie: no winner is made up.
fleet_report "$W/tie/a.json" a 60 '.["toolkit.default"] = "12.4.1"'
fleet_report "$W/tie/b.json" b 60 .
run "$W/tie"
is "$RC" 0 "two healthy, fresh hosts: exit 0"
is "$(sed -n '/^Drift/,/^$/p' "$W/out")" "Drift from the majority, 2 hosts compared:
  toolkit.default: no majority; 12.4.1: a; 13.0.0: b" \
    "a tie says there is no majority and lists every value"
run --json "$W/tie"
is "$(jq -c '.drift.items[0] | [.tie, .reference, .reference_hosts]' "$W/out")" \
    '[true,null,0]' "--json: the tie, with no reference"

# Absence is a value: an item only one host has names that host; one
# half the hosts have is a tie with its absence.
mkdir "$W/absent" || exit 99
fleet_report "$W/absent/a.json" a 60 '.["env.LD_PRELOAD"] = "/x.so" | .["framework./v.torch"] = "2.3.1 cpu"'
fleet_report "$W/absent/b.json" b 60 '.["env.LD_PRELOAD"] = "/x.so"'
fleet_report "$W/absent/c.json" c 60 .
fleet_report "$W/absent/d.json" d 60 .
run "$W/absent"
is "$(sed -n '/^Drift/,/^$/p' "$W/out")" "Drift from the majority, 4 hosts compared:
  env.LD_PRELOAD: no majority; /x.so: a, b; (absent): c, d
  framework./v.torch: (absent) on 3 hosts; 2.3.1 cpu: a" \
    "absence wins where most lack an item, and ties like any value"

# --baseline: a spec file, then a doctor report.
jq '{schema: "cudawiz/spec/1", host: {name: "ref01"}, items: (.spec.items | .["driver.branch"] = "570")}' \
    "$W/f/y.json" > "$W/ref.json"
run --baseline "$W/ref.json" "$W/f"
is "$(sed -n '/^Drift/,/^$/p' "$W/out")" "Drift from the baseline $W/ref.json (ref01), 6 hosts compared:
  driver.branch: 570 on the baseline; 580: gpu01, gpu03, gpu04, gpu05, gpu06
  gpu.count: 1 on the baseline; (absent): gpu03" \
    "--baseline (a spec): the hosts that differ from it"
run --json --baseline "$W/f/y.json" "$W/f"
is "$(jq -c '[.drift.against, .drift.baseline.host, [.drift.items[] | [.key, .reference, [.values[] | .hosts | length]]]]' "$W/out")" \
    '["baseline","gpu02",[["driver.branch","570",[5]],["gpu.count","1",[1]]]]' \
    "--baseline (a doctor report): the same drift"
printf '{"schema": "cudawiz/spec/1"}' > "$W/noitems.json"
run --baseline "$W/noitems.json" "$W/f"
is "$RC" 2 "a --baseline that is not a spec: exit 2"
like "$(cat "$W/err")" "baseline $W/noitems.json: its .items. are not an object of strings" \
    "... naming the file and why"
run --baseline "$W/missing.json" "$W/f"
is "$RC" 2 "a missing --baseline: exit 2"

# Stale and no time change the exit status as documented.
fleet_report "$W/ok/a.json" a 60 .
fleet_report "$W/ok/b.json" b 100000 .
run "$W/ok"
is "$RC" 1 "a stale report: exit 1"
run --max-age 48 "$W/ok"
is "$RC" 0 "... not stale under --max-age 48: exit 0"
fleet_report "$W/ok/c.json" c none .
run --max-age 48 "$W/ok"
is "$RC" 0 "a report with no time is listed, not failed"
like "$(sed -n '/^Reports with no time/,/^$/p' "$W/out")" "  c \\($W/ok/c.json\\)" \
    "... under its own heading"

# Duplicates: one machine twice; the newest report is kept.
fleet_report "$W/dup/new.json" gpu01 60 .
fleet_report "$W/dup/old.json" gpu01 7200 . "[[\"SONAME_NOT_FOUND\",\"$E\"]]"
run "$W/dup"
is "$RC" 0 "the older report's error does not count"
like "$(sed -n '/^Duplicate/,/^$/p' "$W/out")" "  $W/dup/old.json: gpu01, also in $W/dup/new.json" \
    "the older report is listed as a duplicate"

# An empty directory: nothing was read, which is not a healthy fleet.
mkdir "$W/empty"
run "$W/empty"
is "$RC" 1 "an empty directory: exit 1"
like "$(cat "$W/out")" "No report could be read" "... said so"

# Names from reports reach the terminal through safeout, a page escaped.
fleet_report "$W/tie/c.json" "$(printf 'evil\033]0;x\007<b>')" 60 . \
    '[["LIB_SHADOWED","warning"]]'
run "$W/tie"
like "$(cat "$W/out")" 'evil\\x1b]0;x\\x07<b>' "text: a host name's control bytes are escaped"

run --format html "$W/f"
is "$RC" 1 "--format html: the same exit status"
H=$W/out
like "$(head -n 1 "$H")" '<!DOCTYPE html>' "--format html: a page"
is "$(grep -c 'cudawiz-report begin\|cudawiz-report end' "$H")" 2 "... in the shared frame"
like "$(cat "$H")" '<td class="code">SONAME_NOT_FOUND</td>' "... with the groups"
like "$(cat "$H")" 'gpu01, gpu02, gpu04' "... and their hosts"
sed -n '/class="cudawiz-json">/,/<\/script>/p' "$H" |
    sed 's/.*class="cudawiz-json">//; s/<\/script>$//; s/<\\\//<\//g' > "$W/page.json"
is "$(jq -r '.schema + " " + (.findings | length | tostring)' "$W/page.json")" \
    "cudawiz/fleet/1 4" "... carrying the --json document"
run --format html "$W/tie"
like "$(cat "$W/out")" 'evil.*&lt;b&gt;' "--format html: a host name is escaped"

run -o "$W/report.json" --json "$W/f"
is "$RC" 1 "-o: the same exit status"
is "$(wc -c < "$W/out")" 0 "-o: nothing on stdout"
is "$(jq -r .schema "$W/report.json")" cudawiz/fleet/1 "-o: the report is in the file"

done_testing
