#!/bin/sh
# cudawiz.exe wizard (src/win/guide.c, the pages src/winguide/'s) under
# Wine, driven by piped lines, on one prefix laid out as windows-doctor.sh
# lays out a Windows machine: NVIDIA's driver, CUDA 12.6 named by
# CUDA_PATH, CUDA 11.2 installed but off PATH, and TensorFlow 2.10 (which
# wants cudart64_110.dll) in a python.org Python 3.10 on PATH. Walks the
# ten pages with Enter, jumps by number, opens a finding's detail, runs
# the live checks, answers garbage, quits with q and at the end of input,
# asks the Fix page for the cmd.exe activation script, and for the
# PowerShell one over a file that exists (asked, kept on n). Needs
# mingw-w64 (with windres), Wine, jq, cmake and curl; skips without.
. "$TESTS_SRCDIR/lib/tap.sh"

. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
winfx_setup windows-guide
# The harness's CUDAWIZ_HELPER names the Linux helper: the live checks
# take the cudawiz-verify.exe beside cudawiz.exe.
unset CUDAWIZ_HELPER
winfx_machine
winfx_build winfx_cuda112
mkdir -p "$work/cwd"

# guide INPUT: cudawiz.exe wizard reading INPUT's lines, in $work/cwd;
# what it printed in $work/out (CRs dropped), its status in $rc.
guide() {
	(cd "$work/cwd" && printf '%b' "$1" | WINEPATH="$WPY" CUDA_PATH="$WTK\\v12.6" \
	    "$WINE" "$exe" wizard >"$work/out.crlf" 2>"$work/err")
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
}
out() { cat "$work/out"; }

# 1-5: Enter on every page: the ten pages in the wizard's order, then out.
guide '\n\n\n\n\n\n\n\n\n\n'
is "$rc" 0 "Enter through the ten pages, and past the last: exit 0"
is "$(grep -E '^\[[0-9]+/10\] ' "$work/out" | tr '\n' '|')" \
    "[1/10] Summary|[2/10] GPUs and driver|[3/10] Toolkits and cuDNN|[4/10] Python environments and frameworks|[5/10] Environment variables|[6/10] Compatibility|[7/10] Live verification|[8/10] Diagnosis|[9/10] Fix|[10/10] Done|" \
    "... each page once, in the wizard's order, with its title"
# The Summary's first lines: the verdict, then the error that matters.
summary=$(awk '/^\[1\/10\] Summary$/ { on = 1; next } on && NF { print; if (++n == 4) exit }' "$work/out")
like "$(printf '%s\n' "$summary" | head -n 1)" '^CUDA will not work as it is set up now: [0-9]+ errors?,' \
    "the Summary leads with the verdict"
like "$(printf '%s\n' "$summary" | sed -n 2p)" '^  1\. ERROR ' "... then finding 1, an error"
# Finding 1's lines: up to the next finding or the blank line.
first=$(printf '%s\n' "$summary" | sed -n '2,$p' | awk 'NR > 1 && /^  [0-9]+\. / { exit } { print }' | tr '\n' ' ')
like "$first" 'cudart64_110\.dll' "... which names cudart64_110.dll"

# 6-8: a page by its number, a finding's detail, q.
guide '8\nd 1\nq\n'
is "$rc" 0 "8, d 1, q: exit 0"
like "$(out)" '\[8/10\] Diagnosis' "8 jumps to Diagnosis"
ok "d 1: the detail, its cmd.exe fix line whole on a line of its own" \
    grep -qxF "  set \"PATH=$WTK\\v11.2\\bin;%PATH%\"" "$work/out"

# 9-10: the end of input quits, on the first page.
guide ''
is "$rc" 0 "end of input at once: exit 0"
like "$(out)" '\[1/10\] Summary' "... after the Summary"

# 11-13: garbage is answered; garbage and only garbage ends it.
guide 'frobnicate\nq\n'
like "$(out)" "'frobnicate' is not a reply here; type \\? for the replies\\." "garbage is answered"
guide 'x\nx\nx\nx\nx\nx\nx\nx\nx\nx\nx\nx\n'
is "$rc" 0 "garbage alone, piped: exit 0"
is "$(grep -c 'is not a reply here' "$work/out")/$(grep -c 'Too many replies' "$work/out")" "8/1" \
    "... after 8 replies not understood in a row, it says so and quits"

# 14-15: the live checks, by cudawiz-verify.exe beside cudawiz.exe.
guide '7\ny\nq\n'
is "$rc" 0 "7, y, q: exit 0"
# The page as shown after the checks: from the last heading of page 7.
after=$(awk '/^Running the live checks/ { on = 1 } on' "$work/out" |
    awk '/^\[7\/10\] Live verification$/ { on = 1 } on && /help: / { exit } on')
like "$after" '^  driver +C:\\windows\\system32\\nvcuda\.dll$' \
    "y runs the live checks; the page then shows nvcuda.dll's run"

# 16-17: the Fix page writes cmd.exe's script through env.
guide '9\nw\n2\n\nq\n'
is "$rc" 0 "9, w, 2 (cmd.exe), Enter (the default file), q: exit 0"
ok "cudawiz-env.cmd holds CUDA 11.2's bin" \
    grep -qF "$WTK\\v11.2\\bin" "$work/cwd/cudawiz-env.cmd"

# 18-20: PowerShell, the default file already there: asked, and kept.
printf 'keep\n' >"$work/cwd/cudawiz-env.ps1"
guide '9\nw\n\n\nn\nq\n'
like "$(out)" 'Write it to which file\? \[cudawiz-env\.ps1\]: ' "Enter for the shell: PowerShell, its default file offered"
like "$(out)" 'cudawiz-env\.ps1 exists; replace it\? \[y/N\]: n$' "... which exists: asked before replacing it"
is "$(tr -d '\r' <"$work/cwd/cudawiz-env.ps1")/$(grep -c 'cudawiz-env.ps1 was left as it was' "$work/out")" "keep/1" \
    "... n: the file left as it was, and said so"

# 21-22: nothing to change (TensorFlow gone): env writes no file and
# exits 0, which the page must not take for a script written.
rm -rf "$SP"/tensorflow*
guide '9\nw\n2\nnone.cmd\nq\n'
[ ! -e "$work/cwd/none.cmd" ]
is "$?/$(tr '\n' ' ' <"$work/out" | tr -s ' ' | grep -c 'The script was not written: nothing needs changing')" "0/1" \
    "nothing to change: no file, and the page says env wrote none, in env's words"
unlike "$(out)" 'Written: none\.cmd' "... never 'Written'"

done_testing
