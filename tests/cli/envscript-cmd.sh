#!/bin/sh
# The cmd.exe batch files of `env --shell cmd` (src/envscript/cmd.c), run
# by Wine's cmd.exe: PATH gets the plan's Windows directories first and
# loses the ones it removes (compared without case and one trailing
# separator), its empty entries and its entries' quotes; CUDA_PATH and
# CUDA_HOME as the plan says; a second activation changes nothing; the
# undo restores every variable exactly and leaves none of its own.
# Values hold what cmd.exe gives a meaning (& ( ) ^ !); a quote in a
# plan's directory is refused. A '%' is written doubled, checked in the
# text only: Wine's cmd.exe expands a value's '%' again where Windows'
# does not (Wine 8: set "E=%D%" with D=C:\100%\bin gives C:\100A).
# --scope user: HKCU\Environment's Path and CUDA_PATH changed with
# reg.exe (Path as REG_EXPAND_SZ), the values of before recorded and put
# back by the undo exactly (type, an unexpanded %USERPROFILE%\bin, a
# trailing '\', an absent CUDA_PATH deleted again), the record removed.
# (Wine's cmd.exe expands a %VAR% inside a value it reads again, which
# Windows' does not: the applied Path is checked for what it holds of the
# plan, the undo, whose data never passes through %...%, for every byte.)
# Needs Wine (Debian package wine64).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fx_wine.sh"

RENDER=${ENVSCRIPT_RENDER:-$(dirname "$CUDAWIZ")/tests/tools/envscript-render}
wine_find
[ -x "$RENDER" ] || skip_all "$RENDER is not built"

work=$(mktemp -d "$FX_TMP/envscript-cmd.XXXXXX") || exit 99
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
trap '"$WINESERVER" -k >/dev/null 2>&1; rm -rf "$work"' EXIT
wine_prefix

# batch NAME OUT: C:\NAME.cmd run by cmd.exe; the C:\OUT.txt it wrote
# (none left from before), CRs dropped.
batch() {
	rm -f "$C/$2.txt"
	"$WINE" cmd /d /c "C:\\$1.cmd" >"$work/run.out" 2>&1 </dev/null
	tr -d '\r' < "$C/$2.txt" 2>/dev/null
}

# run BATCH-LINES...: a batch file of those lines run by cmd.exe with a
# clean PATH ($START) and CUDA_PATH=$CP0 (unset when empty); it writes
# out.txt, one "NAME=VALUE" a line, from its `call :show` lines.
START='C:\a;;"C:\q (x)";C:\cuda\v12.4\bin;c:\CUDA\v11.8\bin\;C:\b&c;C:\x!y^z;C:\z'
run() {
	{
		printf '@echo off\r\n'
		printf 'set "PATH=%s"\r\n' "$(printf '%s' "$START" | sed 's/%/%%/g')"
		printf 'set "CUDA_HOME=C:\\old home"\r\n'
		[ -n "$CP0" ] && printf 'set "CUDA_PATH=%s"\r\n' "$CP0"
		printf 'if exist C:\\out.txt del C:\\out.txt\r\n'
		for l in "$@"; do printf '%s\r\n' "$l"; done
		printf 'goto :eof\r\n:show\r\n'
		# `set NAME` prints the values as they are (and every
		# variable whose name starts so); an unset one prints nothing.
		# (Wine's cmd.exe loses the line with 2>nul beside >>.)
		printf 'set PATH>>C:\\out.txt\r\n'
		printf 'if defined CUDA_PATH set CUDA_PATH>>C:\\out.txt\r\n'
		printf 'if defined CUDA_HOME set CUDA_HOME>>C:\\out.txt\r\n'
		printf 'echo --->>C:\\out.txt\r\n'
		printf 'goto :eof\r\n'
	} > "$C/drive.cmd"
	batch drive out
}
# The value of NAME in the Nth block of out.txt.
val() {	# N NAME
	printf '%s\n' "$out" | awk -v n="$1" -v k="$2=" '
		/^---$/ { b++; next }
		b == n - 1 && index($0, k) == 1 { print substr($0, length(k) + 1) }'
}

"$RENDER" --name train --win-prepend 'C:\cuda\v11.8\bin' \
    --win-prepend 'C:\Program Files (x86)\cudnn & co\bin' \
    --win-prepend 'C:\x!y' --win-remove 'C:\cuda\v12.4\bin\' \
    --set 'CUDA_PATH=C:\cuda\v11.8' --unset CUDA_HOME --format cmd \
    > "$C/cw.cmd"
ok "envscript-render writes a cmd script" test -s "$C/cw.cmd"
is "$(head -c 11 "$C/cw.cmd")" "@echo off$(printf '\r\n')" "... starting @echo off, CRLF line ends"
like "$(cat "$C/cw.cmd")" 'set "_cw_new=C:\\cuda\\v11\.8\\bin;C:\\Program Files \(x86\)\\cudnn & co\\bin;C:\\x!y"' \
    "... the directories written as they are"
"$RENDER" --name pct --win-prepend 'C:\100%\bin' --format cmd > "$work/pct.cmd"
like "$(cat "$work/pct.cmd")" 'C:\\100%%\\bin' "... a '%' doubled, so cmd.exe reads it as one"
ok "... every line ends in CRLF" sh -c "! tr -d '\\r' < '$C/cw.cmd' | cmp -s - '$C/cw.cmd' && [ \$(grep -c \$(printf '\\r')\$ '$C/cw.cmd') = \$(wc -l < '$C/cw.cmd') ]"

WANT='C:\cuda\v11.8\bin;C:\Program Files (x86)\cudnn & co\bin;C:\x!y;C:\a;C:\q (x);C:\b&c;C:\x!y^z;C:\z'
CP0='C:\cuda\v12.4'
out=$(run 'call :show' 'call C:\cw.cmd' 'call :show' 'set _>C:\kept.txt' 'call C:\cw.cmd' \
    'call :show' 'call C:\cw.cmd undo' 'call :show' 'set _>C:\left.txt')
is "$(val 1 PATH)" "$START" "before: PATH as set"
is "$(val 2 PATH)" "$WANT" \
    "activated: the plan's directories first; v12.4 gone, v11.8 once, empty entries and quotes gone, & ( ) ! ^ kept"
is "$(val 2 CUDA_PATH)" 'C:\cuda\v11.8' "... CUDA_PATH set"
is "$(val 2 CUDA_HOME)" '' "... CUDA_HOME unset"
like "$(tr -d '\r' < "$C/kept.txt" 2>/dev/null)" '_CUDAWIZ_train_PATH=C:\\a;;"C:\\q \(x\)";' \
    "... the values of before kept for the undo"
is "$(val 3 PATH)" "$WANT" "activated twice: nothing more changes"
is "$(val 4 PATH)" "$START" "undo: PATH exactly as before"
is "$(val 4 CUDA_PATH)" "$CP0" "... CUDA_PATH as before"
is "$(val 4 CUDA_HOME)" 'C:\old home' "... CUDA_HOME as before"
is "$(tr -d '\r' < "$C/left.txt" 2>/dev/null | grep -i -E '^_(cudawiz|cw)')" "" \
    "... and none of the script's own variables is left"

# CUDA_PATH unset before: unset again after the undo.
CP0=
out=$(run 'call C:\cw.cmd' 'call :show' 'call C:\cw.cmd undo' 'call :show')
is "$(val 1 CUDA_PATH)" 'C:\cuda\v11.8' "CUDA_PATH unset before: set by the script"
is "$(val 2 CUDA_PATH)" '' "... and unset again by the undo"

# A long PATH: every entry kept, in order.
START=$(i=0; while [ $i -lt 60 ]; do printf 'C:\\long\\dir%d;' $i; i=$((i + 1)); done)C:\\end
out=$(run 'call C:\cw.cmd' 'call :show')
is "$(val 1 PATH)" "C:\\cuda\\v11.8\\bin;C:\\Program Files (x86)\\cudnn & co\\bin;C:\\x!y;$START" \
    "a 61-entry PATH: each entry kept, in order"

# A plan with only the variables: PATH untouched.
"$RENDER" --name vars --set 'CUDA_PATH=C:\cuda (new)\v12 & more' --format cmd > "$C/cw.cmd"
START='C:\a;;C:\b'
out=$(run 'call C:\cw.cmd' 'call :show')
is "$(val 1 PATH)" 'C:\a;;C:\b' "a plan without Windows directories leaves PATH as it was"
is "$(val 1 CUDA_PATH)" 'C:\cuda (new)\v12 & more' "... and sets CUDA_PATH with its ( ) &"

# What cmd.exe cannot hold is refused, with the reason.
"$RENDER" --name q --win-prepend 'C:\a"b\bin' --format cmd >/dev/null 2>"$work/err"
is "$?" 1 "a quote in a directory: refused"
like "$(cat "$work/err")" "holds a quote or a line break, which cmd.exe cannot keep" "... saying why"
"$RENDER" --name q --win-prepend 'C:\a;b' --format cmd >/dev/null 2>"$work/err"
is "$?" 1 "a ';' in a directory: refused"

# --scope user. ureg LINES...: a batch file of those lines, then
# HKCU\Environment's Path and CUDA_PATH and the record's values, each as
# "NAME TYPE DATA" (reg query's columns), into ureg.txt.
ureg() {
	{
		printf '@echo off\r\n'
		for l in "$@"; do printf '%s\r\n' "$l"; done
		printf 'if exist C:\\ureg.txt del C:\\ureg.txt\r\n'
		for v in Path CUDA_PATH; do
			printf 'for /f "tokens=1,2,*" %%%%A in (%sreg query HKCU\\Environment /v %s 2^>nul%s) do if /i "%%%%A"=="%s" echo env %%%%A %%%%B %%%%C>>C:\\ureg.txt\r\n' "'" "$v" "'" "$v"
		done
		printf 'reg query HKCU\\Software\\cudawiz\\env\\tfu >nul 2>&1\r\n'
		printf 'if not errorlevel 1 echo record>>C:\\ureg.txt\r\n'
		printf 'echo PATH=%%PATH%%>>C:\\ureg.txt\r\n'
	} > "$C/ureg.cmd"
	batch ureg ureg
}
"$RENDER" --name tfu --win-prepend 'C:\cuda\v11.2\bin' --win-remove 'C:\cuda\v12.6\bin' \
    --set 'CUDA_PATH=C:\cuda\v11.2' --user --format cmd > "$C/u.cmd"
like "$(cat "$C/u.cmd")" 'reg add HKCU\\Environment /v Path /t REG_EXPAND_SZ' \
    "--scope user: Path written back with reg.exe as REG_EXPAND_SZ"
unlike "$(cat "$C/u.cmd")" 'setx' "... never with setx"
# The user's values of before: Path with an unexpanded entry and a
# trailing '\', no CUDA_PATH.
SETUP='reg delete HKCU\Environment /v CUDA_PATH /f >nul 2>&1
reg delete HKCU\Software\cudawiz /f >nul 2>&1
reg add HKCU\Environment /v Path /t REG_EXPAND_SZ /d "%%USERPROFILE%%\bin;C:\cuda\v12.6\bin;C:\x y\\" /f >nul'
BEFORE='env Path REG_EXPAND_SZ %USERPROFILE%\bin;C:\cuda\v12.6\bin;C:\x y\'
is "$(ureg "$SETUP" | grep -v '^PATH=')" "$BEFORE" "the user's values of before: Path REG_EXPAND_SZ with %USERPROFILE%, no CUDA_PATH"
# This console's PATH holds CUDA 12.6's bin too, which the script drops.
out=$(ureg 'set "PATH=C:\cuda\v12.6\bin;%PATH%"' 'call C:\u.cmd')
like "$(printf '%s\n' "$out" | grep '^env Path')" '^env Path REG_EXPAND_SZ C:\\cuda\\v11\.2\\bin;' \
    "after 'call FILE': the user's Path starts with the plan's directory, still REG_EXPAND_SZ"
like "$(printf '%s\n' "$out" | grep '^env Path')" ';C:\\cuda\\v12\.6\\bin;' "... CUDA 12.6's bin kept in it (other programs may load from it), unlike this console's PATH"
like "$(printf '%s\n' "$out" | grep '^env Path')" 'C:\\x y\\$' "... its other entries kept, the trailing '\\' too"
is "$(printf '%s\n' "$out" | grep '^env CUDA_PATH')" 'env CUDA_PATH REG_SZ C:\cuda\v11.2' "... CUDA_PATH set (REG_SZ)"
is "$(printf '%s\n' "$out" | grep -c '^record$')" 1 "... the values of before recorded"
like "$(printf '%s\n' "$out" | sed -n 's/^PATH=//p')" '^C:\\cuda\\v11\.2\\bin;' "... and this console's PATH changed too"
unlike "$(printf '%s\n' "$out" | sed -n 's/^PATH=//p')" 'v12\.6' "... this console's PATH without CUDA 12.6's bin"
out=$(ureg 'call C:\u.cmd' 'call C:\u.cmd')
like "$(printf '%s\n' "$out" | grep '^env Path')" '^env Path REG_EXPAND_SZ C:\\cuda\\v11\.2\\bin;[^;]*bin;C:\\cuda\\v12\.6\\bin;C:\\x y\\$' \
    "applied again: the plan's directory once"
out=$(ureg 'call C:\u.cmd undo')
is "$(printf '%s\n' "$out" | grep -v '^PATH=')" "$BEFORE" \
    "after 'call FILE undo': Path exactly as before (type, %USERPROFILE% unexpanded, trailing '\\'), CUDA_PATH deleted again, the record gone"
out=$(ureg 'reg add HKCU\Environment /v CUDA_PATH /t REG_EXPAND_SZ /d "%%SystemDrive%%\cuda\old" /f >nul' \
    'call C:\u.cmd' 'call C:\u.cmd undo')
is "$(printf '%s\n' "$out" | grep '^env CUDA_PATH')" 'env CUDA_PATH REG_EXPAND_SZ %SystemDrive%\cuda\old' \
    "a CUDA_PATH of before (REG_EXPAND_SZ): put back with its type and data"
"$RENDER" --name tfu --win-prepend 'C:\a' --user --format sh >/dev/null 2>"$work/err"
is "$?/$(grep -c 'only the powershell and cmd scripts can' "$work/err")" "1/1" "--scope user in a sh script: refused"

done_testing
