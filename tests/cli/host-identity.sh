#!/bin/sh
# doctor --json's "host" (issue 22, point 6): name, machine-id (hashed,
# never raw), kernel, distribution and the run's time, read from the
# tree; nulls where the tree says nothing; a hostile hostname cut and
# escaped.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

ID=4c1a2b3c4d5e6f708192a3b4c5d6e7f8
# What the contract says the hash is: the first 16 hex digits of
# SHA-256("cudawiz-machine-id:" + the id).
want_id=$(printf 'cudawiz-machine-id:%s' "$ID" | sha256sum | cut -c1-16)

fx_new
fx_host gpu01 "$ID" "Debian GNU/Linux 12 (bookworm)"
before=$(date +%s)
fx_doctor
after=$(date +%s)
is "$(fx_jq '[keys_unsorted[0:3][]] | join(" ")')" "schema version host" \
    "host comes right after version"
is "$(fx_jq .host.name)" gpu01 "the name from /proc/sys/kernel/hostname"
is "$(fx_jq .host.machine_id)" "$want_id" "machine_id is the salted SHA-256, 16 hex digits"
is "$(fx_jq .host.kernel)" 6.1.0-18-amd64 "the kernel release"
is "$(fx_jq .host.os)" "Debian GNU/Linux 12 (bookworm)" "the distribution's PRETTY_NAME"
like "$(fx_jq .host.time)" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' \
    "the time in RFC 3339 UTC"
t=$(fx_jq .host.time_unix)
ok "time_unix is the run's time" test "$t" -ge "$before" -a "$t" -le "$after"
is "$(fx_jq '.host.time')" "$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ)" \
    "time and time_unix agree"
is "$(fx_jq .schema)" cudawiz/doctor/1 "the schema string stays"
is "$(grep -c "$ID" "$FX_OUT")" 0 "the raw machine-id appears nowhere in the report"
fx_cmd_env "spec export"
is "$(grep -c "$ID" "$FX_OUT")" 0 "nor in spec export"
is "$(jq -r .host.machine_id "$FX_OUT")" "$want_id" "spec export carries the same host"
fx_cmd_env "doctor"
is "$(grep -c "$ID" "$FX_OUT")" 0 "nor in the text report"
is "$(sed -n 2p "$FX_OUT")" "host gpu01, Debian GNU/Linux 12 (bookworm), kernel 6.1.0-18-amd64" \
    "whose second line names the host"

# Nothing in the tree: nulls, and a report all the same.
fx_new
fx_doctor
ok "a tree with no identity still reports" test "$FX_RC" -le 1
is "$(fx_jq '[.host.name, .host.machine_id, .host.kernel, .host.os] | map(tostring) | join(" ")')" \
    "null null null null" "name, machine_id, kernel and os are null"
like "$(fx_jq .host.time)" 'Z$' "the time is there"

# /etc/hostname with a comment; /usr/lib/os-release when /etc has none,
# single-quoted; systemd's "uninitialized" machine-id is no id.
fx_new
fx_file /etc/hostname "# set by the installer

node-7.cluster
"
fx_file /etc/machine-id uninitialized
fx_file /usr/lib/os-release "NAME='Rocky'
PRETTY_NAME='Rocky Linux 9.4 (Blue Onyx)'"
fx_doctor
is "$(fx_jq .host.name)" node-7.cluster "/etc/hostname's first line that is not a comment"
is "$(fx_jq .host.os)" "Rocky Linux 9.4 (Blue Onyx)" "/usr/lib/os-release, single quotes"
is "$(fx_jq .host.machine_id)" null "an uninitialized machine-id is no id"
fx_file /etc/os-release 'PRETTY_NAME="Say \"hi\" \\ \$HOME"'
fx_doctor
is "$(fx_jq .host.os)" 'Say "hi" \ $HOME' "os-release's backslash escapes inside double quotes"

# A hostile hostname: control characters, then 64 KiB of it.
fx_new
printf 'gpu\033[31mred\001\n' > "$FX/hn"
mkdir -p "$FX/proc/sys/kernel" && mv "$FX/hn" "$FX/proc/sys/kernel/hostname"
fx_doctor
is "$(jq -e . "$FX_OUT" >/dev/null && echo json)" json "control characters: the report is still JSON"
is "$(jq -c .host.name "$FX_OUT")" '"gpu\u001b[31mred\u0001"' "and they are escaped in it"
fx_cmd_env "spec export"
is "$(jq -c .host.name "$FX_OUT")" '"gpu\u001b[31mred\u0001"' "in spec export too"
fx_cmd_env doctor
like "$(head -n 3 "$FX_OUT")" '^host gpu' "the text report names the host"
is "$(tr -cd '\033\001' < "$FX_OUT" | wc -c)" 0 "without its control characters"
fx_cmd_env "doctor --format html"
like "$(cat "$FX_OUT")" '<p class="meta">host gpu' "so does the HTML page"
is "$(tr -cd '\033\001' < "$FX_OUT" | wc -c)" 0 "without them either"
head -c 65536 /dev/zero | tr '\0' x > "$FX/proc/sys/kernel/hostname"
fx_doctor
is "$(fx_jq '.host.name | length')" 64 "a 64 KiB hostname is cut to 64 bytes"
printf '\377\376gpu\n' > "$FX/proc/sys/kernel/hostname"
fx_doctor
is "$(fx_jq .host.name)" "$(printf '\357\277\275\357\277\275gpu')" \
    "bytes that are not UTF-8 are mended"

done_testing
