#!/bin/sh
# --format html (cheap, no browser): on a broken fixture, every finding's
# code, title and fix command line of doctor --json is on the page, the
# page's JSON block is --json's document, the page loads nothing and has
# no script but that block, its tags balance, and a name with <&"'> in it
# is escaped; explain and why use the same frame; --format's values.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_html.sh"

command -v python3 >/dev/null 2>&1 ||
	skip_all "python3 is not installed (Debian package: python3)"
check="python3 $TESTS_SRCDIR/lib/htmlcheck.py"

# page_ok WHAT: the frame and text checks on $FX.html against $FX.json.
page_ok() {
	out=$($check page "$FX.html" "$FX.json")
	is "$out" "" "$1: the frame (markers, JSON block = --json, nothing loaded, tags balance)"
	out=$($check text "$FX.html" "$FX.json")
	is "$out" "" "$1: every finding code, title and fix line is on the page"
}

# A Git LFS pointer first on the path (BROKEN_LIBRARY, with fixes), a
# toolkit whose driver is missing, and a directory named with <&"'>.
fx_html_broken '/opt/a<&"'"'"'>b'
fx_html_pair doctor
html_rc=$FX_RC
n=$(jq '.findings | length' "$FX.json")
ok "the fixture is broken ($n findings, fixes among them)" \
    test "$(jq '[.findings[].fix[]] | length' "$FX.json")" -gt 0
is "$html_rc" 1 "doctor --format html exits as --json does (1: an error finding)"
page_ok "doctor"
raw=$(sed '/<script/,/<\/script>/d' "$FX.html")
unlike "$raw" '<&"'"'"'>' "the odd name is never raw outside the JSON block"
like "$raw" 'a&lt;&amp;&quot;&#39;&gt;b' "... it is escaped"
like "$(cat "$FX.html")" '"/opt/a<&\\"'"'"'>b"' "... and the JSON block keeps it as JSON does"
like "$(grep -c '<style>' "$FX.html")" '^2$' "two styles: the page's and the report's"
# The report's style is scoped: every rule starts with .cudawiz-report.
style=$(sed -n '/<div class="cudawiz-report">/,/<\/style>/p' "$FX.html" |
	sed '1,2d;$d' | grep -v '^@media' | grep -v '^\.cudawiz-report')
is "$style" "" "every rule of the report's style is under .cudawiz-report"
like "$(cat "$FX.html")" '@media \(prefers-color-scheme:dark\)' "... with a dark scheme"
is "$(grep -c '<details>' "$FX.html")" \
    "$(jq '[.findings[] | select(.evidence | length > 0)] | length' "$FX.json")" \
    "evidence folded: one <details> per finding with evidence"

# A "</script>" in a value cannot end the JSON block.
fx_cmd_env "doctor --format html" "CUDA_HOME=/opt/</script><b>x"
cp "$FX_OUT" "$FX.html"
fx_cmd_env "doctor --json" "CUDA_HOME=/opt/</script><b>x"
cp "$FX_OUT" "$FX.json"
page_ok "a </script> in CUDA_HOME"

# explain and why in the same frame.
msg="libcudart.so.12: cannot open shared object file: No such file or directory"
fx_html_pair explain -- "$msg"
page_ok "explain"
like "$(cat "$FX.html")" '<pre>libcudart.so.12: cannot open' "explain shows the message"
fx_html_pair why -- libcudart.so.12
why_rc=$FX_RC
page_ok "why"
is "$why_rc" 1 "why --format html exits 1 when the name does not load"
is "$(grep -c '<tr><td>[0-9]' "$FX.html")" "$(jq '.steps | length' "$FX.json")" \
    "why: one row per search step"

# The option.
fx_html_pair doctor
# shellcheck disable=SC2086
fx_cmd_env "doctor --format json" $fx_html_env
is "$(fx_json_comparable "$FX_OUT")" "$(fx_json_comparable "$FX.json")" \
    "--format json is --json"
fx_cmd_env "doctor --format xml"
is "$FX_RC" 2 "--format xml: a usage error"
like "$(cat "$FX.stderr")" "'xml' is not one of text, json, html" "... naming the valid values"
fx_cmd_env "matrix show --format html"
is "$FX_RC" 2 "--format html on a command without a page: a usage error"
fx_cmd_env "--format html"
like "$(head -c 15 "$FX_OUT")" '^<!DOCTYPE html>' "no command, --format html: the doctor page"
fx_cmd_env "--format html --json doctor"
like "$(head -c 1 "$FX_OUT")" '^\{' "the last of --format and --json counts"

done_testing
