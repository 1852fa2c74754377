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
