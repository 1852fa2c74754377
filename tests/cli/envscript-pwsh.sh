#!/bin/sh
# The PowerShell script: what it says (format marker, the Windows PATH
# lists, CUDA_PATH, the deactivate function) and its quoting (a quote and
# the typographic quotes PowerShell also takes for one are doubled; '$(',
# backticks and newlines stay inside single quotes). Run for real in pwsh
# where it is installed: the variables after dot-sourcing, twice the same
# as once, the way back.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

S=$W/a.ps1
"$R" --format powershell --name cuda-12.4 --prepend-ld "$C/lib64" --remove-ld "$O/lib64" \
    --drop-stubs --win-prepend 'C:\Program Files\CUDA\v12.4\bin' --win-remove 'C:\CUDA\v11.8\bin' \
    --set "CUDA_PATH=C:\\Program Files\\CUDA\\v12.4" > "$S" || exit 99
like "$(head -n 1 "$S")" '^# cudawiz-format: powershell$' "the first line names the format"
like "$(cat "$S")" "PathSeparator" "the separator is the platform's"
like "$(cat "$S")" "Edit 'PATH' @\('C:\\\\Program Files\\\\CUDA\\\\v12.4\\\\bin'\) @\('C:\\\\CUDA\\\\v11.8\\\\bin'\)" \
    "the Windows PATH gets the Windows lists"
like "$(cat "$S")" "^function global:cudawiz_deactivate_cuda_12_4 \{" "the way back is a global function"
Q=$W/q.ps1
"$R" --format powershell --name q --set "CUDA_HOME=a'b‘c’d\$(touch pwned)\`e${NL}f" > "$Q" || exit 99
is "$(grep -A1 "SetEnvironmentVariable('CUDA_HOME'" "$Q")" \
    "[Environment]::SetEnvironmentVariable('CUDA_HOME', 'a''b‘‘c’’d\$(touch pwned)\`e${NL}f')" \
    "quotes doubled, the rest literal inside single quotes"
if "$R" --format powershell --win-prepend 'C:\a;b' > /dev/null 2> "$W/err"; then
	tap_result 1 "a ';' in a Windows entry is refused"
else
	like "$(cat "$W/err")" "holds a ';'" "a ';' in a Windows entry is refused"
fi

# --scope user: HKCU\Environment through the .NET registry API, its
# values read unexpanded and Path written back as ExpandString
# (REG_EXPAND_SZ), the values of before recorded once, the undo putting
# them back with their kinds; WM_SETTINGCHANGE announced. The text only:
# the registry is Windows' (pwsh on Linux is told so by the script).
U=$W/u.ps1
"$R" --format powershell --name tfu --win-prepend 'C:\cuda\v11.2\bin' --win-remove 'C:\cuda\v12.6\bin' \
    --set 'CUDA_PATH=C:\cuda\v11.2' --user > "$U" || exit 99
like "$(cat "$U")" "CreateSubKey\('Software\\\\cudawiz\\\\env\\\\tfu'\)" "--scope user: the record's key is named after the plan"
like "$(cat "$U")" "DoNotExpandEnvironmentNames" "... the user's values read unexpanded"
like "$(cat "$U")" "SetValue\('Path', \(\\\$new -join ';'\), 'ExpandString'\)" "... Path written back as REG_EXPAND_SZ"
like "$(cat "$U")" "if \(\\\$null -eq \\\$recKey.GetValue\('Recorded'\)\)" "... the values of before recorded only the first time"
like "$(cat "$U")" "DeleteValue\(\\\$n, \\\$false\)" "... the undo deletes again what was absent"
like "$(cat "$U")" "DeleteSubKeyTree" "... and removes the record"
like "$(cat "$U")" "SendMessageTimeout" "... the change announced to Windows (WM_SETTINGCHANGE)"
like "$(cat "$U")" "consoles you open from now on" "... the header says new consoles get it"
"$CUDAWIZ" env --shell sh --scope user > /dev/null 2> "$W/err"
is "$?/$(grep -c 'only the powershell and cmd scripts can' "$W/err")" "2/1" "cudawiz env --shell sh --scope user: a usage error"
mkdir -p "$W/emptyroot"
"$CUDAWIZ" --root "$W/emptyroot" env --shell powershell --scope user --json > "$W/json" 2> /dev/null
like "$(cat "$W/json")" '"scope": "user"' "cudawiz env --scope user --json: the plan's scope is user"
unlike "$(cat "$U")" "'User'\)" "... never [Environment]::SetEnvironmentVariable(..., 'User'), which writes REG_SZ"

if ! command -v pwsh > /dev/null 2>&1; then
	skip "PowerShell run" "pwsh is not installed"
	done_testing
	exit
fi
# Untested where pwsh was absent when it was written; plain steps only.
cat > "$W/prog.ps1" <<'PROG'
param($s, $o, $d)
function Dump($f) { & /bin/sh $d > $f }
Dump "$o.0"
. $s
Dump "$o.1"
. $s
Dump "$o.2"
cudawiz_deactivate_cuda_12_4
Dump "$o.3"
if (Get-Command cudawiz_deactivate_cuda_12_4 -ErrorAction SilentlyContinue) { "left" | Out-File -Append "$o.left" }
PROG
pwshrun() { pwsh -NoProfile -NonInteractive -File "$W/prog.ps1" "$1" "$2" "$W/dump.sh"; }
P=/usr/bin:/bin
# PowerShell has no empty variables, so only set and unset starts.
shell_case "pwsh: unset" "$S" "$P" - - - "$P" "$C/lib64" - "C:\\Program Files\\CUDA\\v12.4" pwshrun
shell_case "pwsh: stubs, removed" "$S" "$P" "$E1:$C/lib64/stubs:$O/lib64/" x - \
    "$P" "$C/lib64:$E1" x "C:\\Program Files\\CUDA\\v12.4" pwshrun
done_testing
