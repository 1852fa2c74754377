#!/bin/sh
# A hostile tree: LD_LIBRARY_PATH of 10,000 entries (a startup script that
# prepends on every shell, gone wrong): the system directory through a
# link, 50 real directories again and again, missing directories, and
# entries through a symbolic link loop. doctor and why must stay small
# (bounded by counts: records, bytes, lines, peak RSS; bench/ has the
# times), the JSON must keep every entry and why's every step, and the
# text, the findings' evidence and the notes must stay short, saying how
# much they left out.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
# A hang guard only: valgrind and a loaded machine are slow.
: "${HOSTILE_TIMEOUT:=600}"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

hostile_baseline

fx_new
fx_dir /usr/lib/x86_64-linux-gnu
fx_link /usr/lib/x86_64-linux-gnu /u
i=0
while [ $i -lt 50 ]; do
	fx_dir /d/$i
	i=$((i + 1))
done
fx_so /d/7/libcudart.so.12.4.127 libcudart.so.12
fx_link libcudart.so.12.4.127 /d/7/libcudart.so.12
fx_link x /l/x
fx_dir /proc/driver/nvidia

# Entry i: /u, /d/(i % 50), a missing /mI, or /l/x/I through the loop.
# The value stays under the kernel's 128 KiB for one variable.
big=$(awk 'BEGIN {
	for (i = 0; i < 10000; i++) {
		if (i % 4 == 0) e = "/u"
		else if (i % 4 == 1) e = "/d/" (i % 50)
		else if (i % 4 == 2) e = "/m" i
		else e = "/l/x/" i
		printf "%s%s", (i ? ":" : ""), e
	}
}')
diag "LD_LIBRARY_PATH is ${#big} bytes"

hostile_run "doctor --json" "doctor --json" LD_LIBRARY_PATH="$big"
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries | length')" 10000 \
    "every entry is in the JSON"
is "$(fx_jq '.facts.notes | length')" 1000 "the notes stop at 1,000"
ok "the notes past them are counted ($(fx_jq '.facts.notes_dropped'))" \
    [ "$(fx_jq '.facts.notes_dropped')" -ge 1000 ]
like "$(hostile_notes_like '^/l/x/3: ')" 'symbolic links' "an entry through the loop is noted"
longest=$(fx_jq '[.findings[].evidence[] | length] | max')
ok "no evidence line is longer than 1,000 characters ($longest)" \
    [ "${longest:-99999}" -le 1000 ]
like "$(fx_jq '.findings[] | select(.code == "LIBCUDA_NOT_FOUND") | .evidence[]')" \
    '^not in LD_LIBRARY_PATH: /u, /d/1, .*, … and [0-9]+ more$' \
    "the directories searched are named ten at most, the rest counted"
nlib=$(fx_jq '.facts.libraries | length')
records=$(fx_jq '[.facts.libraries[].steps | length] | add')
ok "the libraries' steps are a few records each ($records for $nlib libraries)" \
    [ "${records:-99999}" -le $((nlib * 40)) ]
like "$(fx_jq '[.facts.libraries[0].steps[] | select(.result == "not_there") | .count] | max')" \
    '^[0-9]{3,}$' "runs of directories without the file are counted in one record"
size=$(wc -c < "$FX_OUT")
ok "the JSON stays under 4 MB ($size bytes)" [ "$size" -le 4194304 ]

hostile_run "doctor (text)" doctor LD_LIBRARY_PATH="$big"
lines=$(wc -l < "$FX_OUT")
ok "the text report stays short ($lines lines, at most 200)" [ "$lines" -le 200 ]
# A fix is a command to paste: it holds the whole corrected value.
longest=$(grep -v '^ *fix: ' "$FX_OUT" |
    awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
ok "apart from fixes, no line is longer than 1,000 characters ($longest)" \
    [ "$longest" -le 1000 ]
like "$(cat "$FX_OUT")" 'and [0-9]+ more not kept' "the text says notes were left out"

hostile_run "why libcudart.so.12" "why libcudart.so.12" LD_LIBRARY_PATH="$big"
is "$FX_RC" 0 "it resolves"
like "$(cat "$FX_OUT")" 'found /d/7/libcudart.so.12' "to /d/7, the first directory holding it"
like "$(sed -n 2p "$FX_OUT")" '^loader: .*LD_LIBRARY_PATH =/u:/d/1:/m2:/l/x/3:/u:… \(10000 entries in all, see --json\)$' \
    "the header shows five entries and the count"
lines=$(wc -l < "$FX_OUT")
ok "the answer stays short ($lines lines, at most 40)" [ "$lines" -le 40 ]

hostile_run "why libnope.so.1" "why libnope.so.1" LD_LIBRARY_PATH="$big"
is "$FX_RC" 1 "it does not resolve"
lines=$(wc -l < "$FX_OUT")
ok "the answer stays short ($lines lines, at most 80)" [ "$lines" -le 80 ]
like "$(cat "$FX_OUT")" '^ +… [0-9]+ more steps \(see --json\)$' "the steps left out are counted"
like "$(cat "$FX_OUT")" '^ +[0-9]+\. default dir +/usr/lib/x86_64-linux-gnu: not found' \
    "the last steps (the default directories) are shown"
like "$(cat "$FX_OUT")" 'SONAME_NOT_FOUND' "the finding is there"

hostile_run "why --json libnope.so.1" "why --json libnope.so.1" LD_LIBRARY_PATH="$big"
steps=$(fx_jq '.steps | length')
ok "the JSON keeps every step ($steps)" [ "${steps:-0}" -ge 5000 ]
like "$(fx_jq '.findings[] | select(.code == "SONAME_NOT_FOUND") | .evidence[0]')" \
    '… and [0-9]+ more$' "the finding's evidence is capped in the JSON too"

hostile_run "env --shell sh" "env --shell sh" LD_LIBRARY_PATH="$big"
ok "the script is valid sh" sh -n "$FX_OUT"

done_testing
