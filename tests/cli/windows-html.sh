#!/bin/sh
# cudawiz.exe's --format html (doctor, explain, why NAME.dll, fleet)
# under Wine, on the machine of windows-doctor.sh: CUDA 12.6 named by
# CUDA_PATH, CUDA 11.2 installed but off PATH, TensorFlow 2.10 wanting
# cudart64_110.dll, and a PATH entry with '&' in it (C:\Tools&Co). Each
# page is checked as the Linux pages are (tests/lib/htmlcheck.py: the
# frame, balanced tags, nothing loaded, the JSON block; every finding's
# code, title and fix line in the page's text); the cudart64_110.dll
# fix lines are in the markup HTML-escaped and in the text verbatim;
# doctor's page shows Windows' facts and none of Linux's only; -o
# replaces a file in one move; the memory stream's temporary files are
# gone (src/util/memstream_win.c). With Chromium (CHROMIUM, else
# /usr/bin/chromium), the doctor page is rendered headless and its text
# checked as tests/pkg/html-chromium.sh does. Needs what windows-doctor.sh
# needs and python3; skips without.
. "$TESTS_SRCDIR/lib/tap.sh"

. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
command -v python3 >/dev/null 2>&1 ||
	skip_all "python3 is not installed (Debian package: python3)"
winfx_setup windows-html
winfx_machine
winfx_build mkdll "$TK/v11.2/bin/cudart64_110.dll" 11,2,152,0 "NVIDIA CUDA 11.2.152 Runtime"
check="python3 $TESTS_SRCDIR/lib/htmlcheck.py"
# The page's text outside its JSON block, as a reader sees it.
text() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import htmlcheck
_, p = htmlcheck.parse(sys.argv[2]); print(htmlcheck.norm(" ".join(p.text)))' \
	    "$TESTS_SRCDIR/lib" "$1"
}
# The markup outside the JSON block (where '&' is JSON's, not HTML's).
markup() { sed '/<script/,/<\/script>/d' "$1"; }
AMP='C:\Tools&Co'
P="$WPY;$AMP"
# win PATH ARG...: cudawiz.exe with WINEPATH=PATH and CUDA 12.6 as
# CUDA_PATH; stdout in $work/out, stderr in $work/err, the status in $rc.
win() {
	p=$1
	shift
	WINEPATH=$p CUDA_PATH="$WTK\\v12.6" "$WINE" "$exe" "$@" \
	    >"$work/out.crlf" 2>"$work/err.crlf" </dev/null
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	tr -d '\r' <"$work/err.crlf" >"$work/err"
}

# 1-9: doctor --format html to stdout.
win "$P" doctor --json
cp "$work/out" "$work/doctor.json"
win "$P" doctor --format html
cp "$work/out" "$work/doctor.html"
is "$rc/$(cat "$work/err")" "1/" "doctor --format html: exit 1 on the error findings, nothing on stderr"
$check json "$work/doctor.html" >"$work/block.json" 2>&1
is "$($check page "$work/doctor.html" "$work/block.json")" "" \
    "doctor page: well-formed (markers, balanced tags, nothing loaded, one JSON block)"
is "$($check text "$work/doctor.html" "$work/doctor.json")" "" \
    "doctor page: every finding's code, title and fix line of doctor --json"
fs='[.findings[] | {code, subject, fix}]'
is "$(jq -c "$fs" "$work/block.json" 2>&1 | md5sum)" "$(jq -c "$fs" "$work/doctor.json" 2>&1 | md5sum)" \
    "doctor page's JSON block: the findings of doctor --json"
is "$(jq -c '.spec.items' "$work/block.json" 2>&1 | md5sum)" "$(jq -c '.spec.items' "$work/doctor.json" 2>&1 | md5sum)" \
    "... and its spec"
# The cudart64_110.dll finding's fix lines: escaped in the markup.
b11='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2\bin'
ps="\$env:PATH = &#39;$b11;&#39; + \$env:PATH"
cmd="set &quot;PATH=$b11;%PATH%&quot;"
is "$(grep -cF -e "$ps" "$work/doctor.html")/$(grep -cF -e "$cmd" "$work/doctor.html")" 2/2 \
    "the PowerShell and cmd.exe lines of cudart64_110.dll's (and cudnn64_8.dll's) fix: quotes escaped, backslashes as they are"
text "$work/doctor.html" >"$work/doctor.txt"
is "$(jq -r '.findings[] | select(.code == "SONAME_NOT_FOUND" and (.subject | contains("cudart64_110.dll"))) | .fix[]' \
    "$work/doctor.json" | grep -v '^#' | grep -v '^$' | while IFS= read -r l; do grep -qF -e "$l" "$work/doctor.txt" || echo "missing: $l"; done)" "" \
    "... each of its fix lines verbatim in the page's text"
markup "$work/doctor.html" >"$work/doctor.markup"
amp=$(grep -c 'Tools&amp;Co' "$work/doctor.markup")
ok "'&' in PATH: in the markup ($amp lines) as &amp;, never bare" \
    test "$amp" -ge 3 -a "$(grep -c 'Tools&Co' "$work/doctor.markup")" -eq 0
like "$(cat "$work/doctor.txt")" "doctor \\(Windows, C:\\) .*nvcuda\\.dll 560\\.94 C:\\\\windows\\\\system32\\\\nvcuda\\.dll .*DLLs tensorflow loads .*cudart64_110\\.dll not found .*Tools&Co" \
    "doctor page: Windows (C:), nvcuda.dll 560.94 where it is, TensorFlow's DLLs, PATH"
is "$(grep -ciE 'LD_LIBRARY_PATH|LD_PRELOAD|standing in for /|kernel module|nvidia module loaded|package_count|ld\.so' "$work/doctor.txt")" 0 \
    "doctor page: none of Linux's facts (loader variables, kernel module, package count)"

# 10-12: -o replaces a file in one move: a second name of the old file
# keeps the old bytes, no temporary is left.
mkdir -p "$work/rep" && printf 'old report\n' >"$work/rep/doctor.html"
ln "$work/rep/doctor.html" "$work/old-link"
win "$P" doctor --format html -o "Z:$work/rep/doctor.html"
is "$rc/$(cat "$work/out")" "1/" "doctor --format html -o: exit 1, nothing on stdout"
$check json "$work/rep/doctor.html" >"$work/block-o.json" 2>&1
is "$($check page "$work/rep/doctor.html" "$work/block-o.json")/$($check text "$work/rep/doctor.html" "$work/doctor.json")" "/" \
    "... the file is the page, well-formed, with every finding"
is "$(cat "$work/old-link")/$(ls -a "$work/rep" | tr '\n' ' ')" "old report/. .. doctor.html " \
    "... put in place by one move: the old file untouched under its other name, no temporary left"

# 13-16: explain --format html: the JSON block is explain --json.
msg="2021-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
win "$P" explain --json "$msg"
cp "$work/out" "$work/explain.json"
win "$P" explain --format html "$msg"
cp "$work/out" "$work/explain.html"
is "$rc/$(jq -r '.findings[0].code' "$work/explain.json" 2>&1)" "1/SONAME_NOT_FOUND" "explain --format html: exit 1 on SONAME_NOT_FOUND"
is "$($check page "$work/explain.html" "$work/explain.json")" "" "explain page: well-formed, its JSON block explain --json"
is "$($check text "$work/explain.html" "$work/explain.json")" "" "explain page: every finding's code, title and fix line"
like "$(text "$work/explain.html")" "on Windows \\(PowerShell\\)" "explain page: the PowerShell fix"

# 17-20: why NAME.dll --format html: CUDA 11.2's bin on PATH, which
# Python 3.8 does not search: the os.add_dll_directory() line.
P2="$WPY;$AMP;$b11"
win "$P2" why cudart64_110.dll --json
cp "$work/out" "$work/why.json"
win "$P2" why cudart64_110.dll --format html
cp "$work/out" "$work/why.html"
is "$rc/$(jq -r '.standard.via' "$work/why.json" 2>&1)" "1/path" "why cudart64_110.dll --format html: exit 1, found through PATH only"
is "$($check page "$work/why.html" "$work/why.json")" "" "why page: well-formed, its JSON block why --json"
is "$(grep -cF "os.add_dll_directory(r&quot;$b11&quot;)" "$work/why.html")" 1 \
    "why page: the os.add_dll_directory line, escaped in the markup"
like "$(text "$work/why.html")" "LoadLibrary from python\\.exe .* path C:\\\\Tools&Co dir_missing .*cudart64_110\\.dll loads from C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v11\\.2\\\\bin\\\\cudart64_110\\.dll \\(path\\) .*import os os\\.add_dll_directory\\(r\"C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v11\\.2\\\\bin\"\\)" \
    "why page: the '&' directory searched, where the standard order finds it, the fix verbatim"

# 21-24: fleet --format html over this machine's doctor --json.
win "$P" fleet --json "Z:$work/doctor.json"
cp "$work/out" "$work/fleet.json"
win "$P" fleet --format html "Z:$work/doctor.json"
cp "$work/out" "$work/fleet.html"
is "$rc/$(cat "$work/err")" "1/" "fleet --format html: exit 1 on the error findings"
# The fleet report has its own time, and each host's age from it: the
# block is compared without them.
fleet_page() {	# PAGE: the frame's problems and the block against fleet --json
	$check json "$1" >"$work/fblock.json" 2>&1
	$check page "$1" "$work/fblock.json"
	t='del(.time, .time_unix, .hosts[].age_s)'
	[ "$(jq -S "$t" "$work/fblock.json" 2>&1)" = "$(jq -S "$t" "$work/fleet.json" 2>&1)" ] ||
	    echo "the JSON block differs from fleet --json"
}
is "$(fleet_page "$work/fleet.html")" "" "fleet page: well-formed, its JSON block fleet --json"
H=$(jq -r '.host.name' "$work/doctor.json")
text "$work/fleet.html" >"$work/fleet.txt"
is "$(jq -r '.findings[].code' "$work/fleet.json" | sort -u | while read -r c; do grep -qF "$c" "$work/fleet.txt" || echo "$c"; done)/$(grep -c "$H" "$work/fleet.txt")/$(jq '.findings | length' "$work/fleet.json")" \
    "/1/2" "fleet page: the host and each of the 2 findings' codes"
win "$P" fleet --format html -o "Z:$work/rep/fleet.html" "Z:$work/doctor.json"
is "$rc/$(fleet_page "$work/rep/fleet.html")" "1/" "fleet --format html -o: the page in the file"

# 25: the memory stream's files (FILE_FLAG_DELETE_ON_CLOSE) are gone.
is "$(find "$WINEPREFIX" -name 'cudawiz-mem-*' | wc -l)" 0 "no temporary file of the memory stream is left"

# 26: the doctor page rendered by Chromium holds every finding's line.
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
	"$chromium" --headless --disable-gpu --no-sandbox --no-first-run \
	    --user-data-dir="$work/chromium-profile" \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --disable-extensions --disable-default-apps \
	    --no-default-browser-check --proxy-server=127.0.0.1:9 \
	    --window-size=1400,1200 --dump-dom "file://$work/doctor.html" \
	    >"$work/dom.html" 2>"$work/chromium.log"
	is "$($check text "$work/dom.html" "$work/doctor.json")" "" \
	    "Chromium renders the doctor page with every finding's code, title and fix line"
else
	skip "the doctor page in Chromium" "no $chromium (Debian package: chromium)"
fi

done_testing
