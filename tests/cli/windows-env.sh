#!/bin/sh
# cudawiz.exe env (src/win/cmd_env.c, src/envplan/winplan.c) under Wine,
# on a prefix laid out as windows-doctor.sh lays it out: CUDA 12.6 on
# PATH and named by CUDA_PATH, CUDA 11.2 installed off PATH (its bin
# holding cudart64_110.dll and cudnn64_8.dll), TensorFlow 2.10.1 in a
# python.org Python 3.10 wanting cudart64_110.dll. The cmd.exe script
# cudawiz.exe writes, called in the same cmd.exe as a doctor run after
# it, makes SONAME_NOT_FOUND for cudart64_110.dll go; its undo puts PATH
# back. Also: --json, -o refusing to replace a file without --force,
# PowerShell the default, a toolkit asked for, nothing to change, the
# case no installed toolkit fits (the words of what to install, no
# script), Python 3.8+'s .pyd import (os.add_dll_directory, not PATH),
# and --scope user refused for sh. Needs mingw-w64 (with windres),
# Wine, jq, cmake and curl; skips without.
. "$TESTS_SRCDIR/lib/tap.sh"

. "$TESTS_SRCDIR/lib/fx_wine.sh"
. "$TESTS_SRCDIR/lib/fx_windows.sh"
winfx_setup windows-env
winfx_machine
winfx_build winfx_cuda112 cudnn
mkdir -p "$C/cw" && cp "$exe" "$C/cw/cudawiz.exe" || exit 99
START="$WPY;$WTK\\v12.6\\bin;C:\\windows\\system32;C:\\windows"

# cw ARGS...: cudawiz.exe in C:\cw with PATH $START and CUDA_PATH v12.6;
# stdout (CRs dropped) in $work/out, stderr in $work/err, status in $rc.
cw() {
	(cd "$C/cw" && WINEPATH="$START" CUDA_PATH="$WTK\\v12.6" "$WINE" "$C/cw/cudawiz.exe" "$@" \
	    >"$work/out.crlf" 2>"$work/err.crlf" </dev/null)
	rc=$?
	tr -d '\r' <"$work/out.crlf" >"$work/out"
	tr -d '\r' <"$work/err.crlf" >"$work/err"
}
# batch LINES...: C:\cw\run.cmd of those lines run by cmd.exe, PATH set to
# $START first; its stdout in $work/bat.
batch() {
	{
		printf '@echo off\r\n'
		printf 'set "PATH=%s"\r\n' "$START"
		printf 'set "CUDA_PATH=%s\\v12.6"\r\n' "$WTK"
		printf 'cd /d C:\\cw\r\n'
		for l in "$@"; do printf '%s\r\n' "$l"; done
	} > "$C/cw/run.cmd"
	"$WINE" cmd /d /c 'C:\cw\run.cmd' </dev/null 2>"$work/bat.err" | tr -d '\r' >"$work/bat"
}
sonames() {
	jq '[.findings[] | select(.code == "SONAME_NOT_FOUND" and ((.subject // "") | contains("cudart64_110.dll")))] | length' "$1" 2>&1
}

# 1-5: the cmd.exe script, written; doctor in the same cmd.exe after it.
cw env --shell cmd -o x.cmd
is "$rc" 0 "env --shell cmd -o x.cmd: exit 0"
like "$(cat "$work/out")" 'activate: +call "x\.cmd"' "... the how-to-use lines: call FILE"
like "$(cat "$work/out")" 'undo: +call "x\.cmd" undo' "... and call FILE undo"
batch 'cudawiz.exe doctor --json > before.json' 'call x.cmd && cudawiz.exe doctor --json > after.json'
is "$(sonames "$C/cw/before.json")/$(sonames "$C/cw/after.json")" "1/0" \
    "cudart64_110.dll: SONAME_NOT_FOUND before, gone after 'call x.cmd' in the same cmd.exe"
batch 'set PATH> before.txt' 'call x.cmd' 'set PATH> during.txt' 'call x.cmd undo' 'set PATH> after.txt'
is "$(tr -d '\r' < "$C/cw/after.txt")" "$(tr -d '\r' < "$C/cw/before.txt")" "'call x.cmd undo' puts PATH back"

# 6: what the script did to PATH in between.
like "$(tr -d '\r' < "$C/cw/during.txt" | grep -i '^PATH=')" "^PATH=$(printf '%s' "$WTK" | sed 's/[\\.()]/\\&/g')\\\\v11\\.2\\\\bin;$(printf '%s' "$WPY" | sed 's/[\\.]/\\&/g');C:" \
    "... while active: CUDA 11.2's bin first, CUDA 12.6's bin out"

# 7-10: --json, Linux's cudawiz/env/1.
cw env --shell cmd --json
is "$(jq -r '.schema + " " + .format + " " + .plan.scope' "$work/out" 2>&1)" "cudawiz/env/1 cmd session" "--json: the env document"
is "$(jq -r '.plan.win_path_prepend[0]' "$work/out")" "$WTK\\v11.2\\bin" "... v11.2's bin put first"
is "$(jq -r '.plan.win_path_remove | join(",")' "$work/out")" "$WTK\\v12.6\\bin" "... v12.6's taken out"
is "$(jq -r '.plan.cuda_path.op + " " + .plan.cuda_path.value' "$work/out")" "set $WTK\\v11.2" "... CUDA_PATH set to v11.2"

# 11-13: -o over a file: refused without --force, kept as a backup with it.
cw env --shell cmd -o x.cmd
is "$rc/$(grep -c 'not replaced without --force' "$work/err")" "2/1" "-o x.cmd again without --force: refused (exit 2)"
cw env --shell cmd -o x.cmd --force
is "$rc" 0 "... with --force: written"
ok "... the file that was there kept as x.cmd.bak" cmp -s "$C/cw/x.cmd" "$C/cw/x.cmd.bak"

# 14-15: PowerShell by default, its undo function named.
cw env
like "$(head -n 1 "$work/out")" '^# cudawiz-format: powershell' "no --shell: a PowerShell script"
like "$(cat "$work/out")" 'function global:cudawiz_deactivate_cuda_11_2' "... with its undo function"

# 16-17: --scope user, refused for sh; the user words for cmd.
cw env --shell sh --scope user
is "$rc/$(grep -c 'only the powershell and cmd scripts' "$work/err")" "2/1" "--scope user --shell sh: a usage error"
cw env --shell cmd --scope user -o u.cmd
like "$(cat "$work/out")" 'sign out and in' "--scope user -o: says when other consoles get the change"

# 18-19: --toolkit.
cw env --shell cmd --json --toolkit 12.6
is "$(jq -r '.plan.win_path_prepend | join(",")' "$work/out")" "$WTK\\v11.2\\bin,$WTK\\v12.6\\bin" \
    "--toolkit 12.6: v11.2's bin still first (TensorFlow needs it), then v12.6's"
cw env --toolkit 9.9
is "$rc/$(grep -c 'no CUDA toolkit installed here matches it' "$work/err")" "2/1" "--toolkit 9.9: none installed, exit 2"

# 20: what the Windows program does not take says so.
cw env --cudnn 'C:\cudnn'
is "$rc/$(grep -c 'are not available on Windows yet' "$work/err")" "2/1" "--cudnn: not on Windows yet (exit 2)"

# 21-22: nothing to change once v11.2's bin is on PATH and CUDA_PATH names it.
START="$WPY;$WTK\\v11.2\\bin;C:\\windows\\system32"
(cd "$C/cw" && WINEPATH="$START" CUDA_PATH="$WTK\\v11.2" "$WINE" "$C/cw/cudawiz.exe" env </dev/null \
    >"$work/out" 2>"$work/err")
is "$?/$(wc -c < "$work/out")/$(grep -c 'nothing needs changing' "$work/err")" "0/0/1" \
    "nothing to change: says so, writes no script, exit 0"
(cd "$C/cw" && WINEPATH="$START" CUDA_PATH="$WTK\v11.2" "$WINE" "$C/cw/cudawiz.exe" env --json </dev/null \
    2>/dev/null | tr -d '\r' >"$work/out")
is "$(jq -r '[.script, .written, (.plan.win_path_prepend | length)] | map(tostring) | join(" ")' "$work/out" 2>&1)" "null null 0" \
    "... --json: an empty plan, no script, nothing written"
START="$WPY;$WTK\\v12.6\\bin;C:\\windows\\system32;C:\\windows"

# 23-24: Python 3.8+: the .pyd imports cudart64_110.dll; PATH cannot fix it.
printf '__declspec(dllimport) int cudaGetDeviceCount(int *n);\n__declspec(dllexport) int PyInit__pywrap_tensorflow_internal(void) { int n; return cudaGetDeviceCount(&n); }\n' > "$work/pyd.c"
x86_64-w64-mingw32-gcc -shared -o "$SP/tensorflow/python/_pywrap_tensorflow_internal.pyd" \
    "$work/pyd.c" "$TK/v11.2/bin/cudart64_110.dll" 2>"$work/pyd.err"
cw env --shell cmd
like "$(cat "$work/err")" 'never searches PATH for an extension module' "a .pyd's import on Python 3.10: not fixed by PATH, said on stderr"
like "$(cat "$work/err")" "os\\.add_dll_directory\\(r\"$(printf '%s' "$WTK" | sed 's/\\/\\\\/g')\\\\v11\\.2\\\\bin\"\\)" \
    "... pointing to os.add_dll_directory with v11.2's bin"
rm -f "$SP/tensorflow/python/_pywrap_tensorflow_internal.pyd"

# 25-26: no installed toolkit holds cudart64_110.dll: words, no script.
mv "$TK/v11.2" "$work/v11.2"
cw env --shell cmd
is "$rc/$(wc -c < "$work/out")" "1/0" "no toolkit holds cudart64_110.dll: no script, exit 1"
like "$(cat "$work/err")" 'install the CUDA 11\.2 toolkit it was built with' "... the words say what to install"

# 27-: env --check FILE (src/win/cmd_env_check.c): the script run in its
# shell, the machine probed before and after. v11.2 back in place.
mv "$work/v11.2" "$TK/v11.2"
cw env --shell cmd -o chk.cmd
cw env --check chk.cmd
is "$rc" 0 "env --check chk.cmd (the script env wrote): exit 0"
like "$(cat "$work/out")" 'cudart64_110\.dll for tensorflow 2\.10\.1 \(C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python310\): FIXED' \
    "... cudart64_110.dll: FIXED"
like "$(cat "$work/out")" "after: +$(printf '%s' "$WTK" | sed 's/[\\.()]/\\&/g')\\\\v11\\.2\\\\bin\\\\cudart64_110\\.dll" \
    "... found in v11.2's bin after"
like "$(cat "$work/out")" 'gone: SONAME_NOT_FOUND' "... SONAME_NOT_FOUND gone"
cw env --check chk.cmd --json
is "$rc/$(jq -r '[.schema, .format, (.ok | tostring), ([.needs[] | select(.soname == "cudart64_110.dll") | .verdict] | join(","))] | join(" ")' "$work/out" 2>&1)" \
    "0/cudawiz/env-check/1 cmd true fixed" "--json: the env-check document, cudart64_110.dll fixed"
like "$(jq -r '.variables.PATH.after' "$work/out")" "^$(printf '%s' "$WTK" | sed 's/[\\.()]/\\&/g')\\\\v11\\.2\\\\bin;" \
    "... PATH after: v11.2's bin first"
printf '@echo off\r\nrem cudawiz-format: cmd\r\nset "CW_UNRELATED=1"\r\n' > "$C/cw/noop.cmd"
cw env --check noop.cmd
is "$rc" 1 "a script that changes nothing useful: exit 1"
like "$(cat "$work/out")" 'cudart64_110\.dll for tensorflow.*: STILL BROKEN' "... cudart64_110.dll still broken, said"
cw env --check missing.cmd
is "$rc/$(grep -c 'missing.cmd: no such file' "$work/err")" "2/1" "a missing file: exit 2, said"
printf '@echo off\r\nset "PATH=C:\\x;%%PATH%%"\r\n' > "$C/cw/foreign.cmd"
cw env --check foreign.cmd
is "$rc/$(grep -c 'not a script cudawiz wrote' "$work/err")" "2/1" "a script without a cudawiz-format line: exit 2, said"
printf '@echo off\r\nrem cudawiz-format: cmd\r\nexit /b 3\r\n' > "$C/cw/fails.cmd"
cw env --check fails.cmd
is "$rc/$(grep -c 'the script failed' "$work/err")" "2/1" "a script that fails: exit 2, said"
mkdir -p "$C/cw/a 100%PATH% & b^c"
cp "$C/cw/chk.cmd" "$C/cw/a 100%PATH% & b^c/x.cmd"
cw env --check 'C:\cw\a 100%PATH% & b^c\x.cmd'
is "$rc" 0 "a path with a space, %, & and ^: the script is still the one run"

# The PowerShell script: proved where PowerShell runs it; where it does
# not (Wine's powershell.exe runs nothing), a clear error, never a
# verdict.
cw env -o chk.ps1
cw env --check chk.ps1
if [ "$rc" = 0 ]; then
	like "$(cat "$work/out")" 'cudart64_110\.dll for tensorflow.*: FIXED' "env --check chk.ps1: cudart64_110.dll FIXED"
else
	is "$rc/$(grep -ci 'pwsh\|powershell' "$work/err")" "2/1" "env --check chk.ps1 without a working PowerShell: exit 2, the shell named"
fi
is "$(ls "$C/users/"*/Temp | grep -c cudawiz-check)" 0 "... no copy of a script left in the temporary directory"

done_testing
