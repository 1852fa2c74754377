#!/bin/sh
# The csh/tcsh activation script in tcsh (and csh where it is another
# shell): each starting state, twice the same as once, the way back
# exact, no helper left, hostile names set exactly with nothing executed.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

CSHS=
command -v tcsh > /dev/null 2>&1 && CSHS=tcsh
if command -v csh > /dev/null 2>&1 &&
    [ "$(readlink -f "$(command -v csh)")" != "$(readlink -f "$(command -v tcsh 2>/dev/null)")" ]; then
	CSHS="$CSHS csh"
fi
[ -n "$CSHS" ] || skip_all "neither tcsh nor csh is installed"
diag "shells: $CSHS"

# $1 script, $2 where the dumps go, $3 dump.sh, $4 the way back.
cat > "$W/prog.csh" <<'PROG'
set s = "$argv[1]:q"
set o = "$argv[2]:q"
set d = "$argv[3]:q"
/bin/sh "$d" > "$o.0"
source "$s"
/bin/sh "$d" > "$o.1"
set | /bin/grep -a '^_cwz_' >> "$o.left"
/usr/bin/env | /bin/grep -a '^_CWZ' >> "$o.left"
source "$s"
/bin/sh "$d" > "$o.2"
eval "$argv[4]"
/bin/sh "$d" > "$o.3"
set | /bin/grep -a '^_cudawiz' >> "$o.left"
alias | /bin/grep -a cudawiz >> "$o.left"
PROG
cshrun() {
	deact=$(sed -n 's/^# Undo: //p' "$1")
	"$CSH" -f "$W/prog.csh" "$1" "$2" "$W/dump.sh" "$deact"
}

A=$W/a.csh
"$R" --format csh --name cuda-12.4 --prepend-path "$C/bin" --prepend-ld "$C/lib64" \
    --remove-ld "$O/lib64" --drop-stubs --drop-missing --set CUDA_HOME="$C" \
    --unset CUDA_PATH > "$A" || exit 99
like "$(head -n 1 "$A")" '^# cudawiz-format: csh$' "the first line names the format"
B=$W/b.csh
"$R" --format csh --name rm --remove-ld "$O/lib64/" --drop-stubs > "$B" || exit 99
HS=$W/h.csh
"$R" --format csh --name hostile --note "x${NL}touch pwned" --prepend-ld "$H1" \
    --prepend-ld "$H2" --prepend-ld "$H3" --prepend-ld "$H4" --prepend-ld "$H5" \
    --prepend-ld "$H6" --prepend-ld "$H7" --prepend-ld "$H8" --prepend-ld "$H9" \
    --prepend-ld "$H10" --drop-missing --set CUDA_HOME="$H6" --set CUDA_PATH="$H10" \
    > "$HS" || exit 99
HALL="$H1:$H2:$H3:$H4:$H5:$H6:$H7:$H8:$H9:$H10"
HR=$W/hr.csh
"$R" --format csh --name hostile-rm --remove-ld "$H5" --remove-ld "$H6/" \
    --remove-ld "$H4" --prepend-path "$H8" > "$HR" || exit 99
# A tab; a backslash right before a newline, which csh keeps in a literal
# value but loses when it expands a variable: refused in a list.
H11="$D/bs\\${NL}x	tab"
H12="$D/x	tab"
mkdir -p "$H11" "$H12"
HB=$W/hb.csh
"$R" --format csh --name bs --prepend-ld "$H12" --set CUDA_PATH="$H11" > "$HB" || exit 99
if "$R" --format csh --prepend-ld "$H11" > /dev/null 2> "$W/err"; then
	tap_result 1 "a backslash before a newline in a list is refused"
else
	like "$(cat "$W/err")" "cannot write a csh script for this plan: LD_LIBRARY_PATH '$D/bs" \
	    "a backslash before a newline in a list is refused, naming the path"
fi

P=/usr/bin:/bin
for CSH in $CSHS; do
	shell_case "$CSH: all unset" "$A" "$P" - - - "$C/bin:$P" "$C/lib64" "$C" - cshrun
	shell_case "$CSH: all empty" "$A" "/usr/bin::/bin:" "" "" "" "$C/bin:$P" "$C/lib64" "$C" - cshrun
	shell_case "$CSH: ':', prepended dir in the middle" "$A" "/usr/bin:$C/bin/:/bin" ":" /old x \
	    "$C/bin:$P" "$C/lib64" "$C" - cshrun
	shell_case "$CSH: stubs, missing, removed, empty entries" "$A" "$P" \
	    "$E1:$C/lib64/stubs:$M:$O/lib64/:$C/lib64::$E2:$O/lib64" - - \
	    "$C/bin:$P" "$C/lib64:$E1:$E2" "$C" - cshrun
	shell_case "$CSH: nothing left: unset" "$B" "$P" "$O/lib64:$C/lib64/stubs:" - - "$P" - - - cshrun
	shell_case "$CSH: empty and nothing left: unset" "$B" "$P" "" - - "$P" - - - cshrun
	shell_case "$CSH: hostile names" "$HS" "$P" "$E1:$H8:$M" - - "$P" "$HALL:$E1" "$H6" "$H10" cshrun
	shell_case "$CSH: hostile names already there" "$HS" "$P" "$H10:$E1:$H3/" "$H4" "$H5" \
	    "$P" "$HALL:$E1" "$H6" "$H10" cshrun
	shell_case "$CSH: hostile names removed" "$HR" "$P" "$H5:$E1:$H6/:$H2:$H4" - - \
	    "$H8:$P" "$E1:$H2" - - cshrun
	shell_case "$CSH: a tab; a backslash before a newline set" "$HB" "$P" "$H12:$E1" - - \
	    "$P" "$H12:$E1" - "$H11" cshrun
done
done_testing
