#!/bin/sh
# The POSIX sh activation script in every sh-family shell installed
# (bash, bash --posix, dash, zsh -f, mksh, ksh93, sh), plain and under
# `set -eu`: the variables after sourcing from each starting state
# (unset, empty, ":", stubs, missing and removed entries, the prepended
# directory already in the middle), sourcing twice the same as once, the
# way back restoring the start byte for byte, no helper left behind, and
# hostile directory names set exactly with nothing executed.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

SHELLS=
for s in bash dash zsh mksh ksh93 ksh sh; do
	command -v "$s" >/dev/null 2>&1 && SHELLS="$SHELLS $s"
done
diag "shells:$SHELLS"

# The program each shell runs: $1 script, $2 its way back, $3 where the
# dumps go, $4 "strict" for set -eu. Nothing in it names the script's own
# helpers literally, so `set` output can be searched for them.
cat > "$W/prog.sh" <<'PROG'
if [ "${4-}" = strict ]; then set -eu; fi
out() { if [ -n "${KSH_VERSION-}" ]; then print -r -- "$1"; else printf '%s\n' "$1"; fi; }
dump() {
	for _t_v in PATH LD_LIBRARY_PATH CUDA_HOME CUDA_PATH; do
		eval "_t_s=\${$_t_v+set}; _t_val=\${$_t_v-}"
		if [ "$_t_s" = set ]; then out "$_t_v=[$_t_val]"; else out "$_t_v unset"; fi
	done
}
leftover() {
	for _t_n in name flags n new i x rest e k; do
		eval "_t_s=\${_cwz_$_t_n+set}"
		if [ -n "$_t_s" ]; then out "variable _cwz_$_t_n left"; fi
	done
	_t_f=_cudawi
	if command -v "${_t_f}z_pathedit" >/dev/null 2>&1; then out "function left"; fi
}
dump > "$3.0"
. "$1"
dump > "$3.1"
leftover > "$3.left"
. "$1"
dump > "$3.2"
leftover >> "$3.left"
"$2"
dump > "$3.3"
if command -v "$2" >/dev/null 2>&1; then out "the way back is still defined" >> "$3.left"; fi
set > "$3.set"
PROG

# sh_case SHELL DESC SCRIPT START_PATH START_LLP START_HOME START_CPATH
#     WANT_PATH WANT_LLP WANT_HOME WANT_CPATH   ("-": unset)
n=0
sh_case() {
	sh=$1 desc=$2 script=$3
	deact=$(sed -n 's/^# Undo: //p' "$script")
	case $sh in
	zsh) cmd="zsh -f" ;;
	bash-posix) cmd="bash --posix" ;;
	*) cmd=$sh ;;
	esac
	dump_expect "$4" "$5" "$6" "$7" > "$W/want0"
	dump_expect "$8" "$9" "${10}" "${11}" > "$W/want1"
	for mode in plain strict; do
		n=$((n + 1))
		o=$W/out.$n
		# shellcheck disable=SC2086
		start "$4" "$5" "$6" "$7" $cmd "$W/prog.sh" "$script" "$deact" "$o" \
		    "$mode" > "$o.err" 2>&1
		if [ ! -e "$o.3" ]; then
			tap_result 1 "$sh $mode: $desc: ran to the end"
			sed 's/^/#   /' "$o.err" | head -n 20
		else
			diff_is "$o.0" "$W/want0" "$sh $mode: $desc: starting state"
			diff_is "$o.1" "$W/want1" "$sh $mode: $desc: after sourcing"
			diff_is "$o.2" "$o.1" "$sh $mode: $desc: sourcing twice is sourcing once"
			diff_is "$o.3" "$o.0" "$sh $mode: $desc: the way back restores the start"
			grep -a '_cudawiz_' "$o.set" >> "$o.left"
			is "$(cat "$o.left" "$o.err")" "" \
			    "$sh $mode: $desc: no helper, saved value or message left"
		fi
		ok "$sh $mode: $desc: nothing executed" no_pwned
	done
}

A=$W/a.sh
"$R" --name cuda-12.4 --note 'Put CUDA 12.4 first' --prepend-path "$C/bin" \
    --prepend-ld "$C/lib64" --remove-ld "$O/lib64" --drop-stubs --drop-missing \
    --set CUDA_HOME="$C" --unset CUDA_PATH > "$A" || exit 99
like "$(head -n 1 "$A")" '^# cudawiz-format: sh$' "the first line names the format"
like "$(cat "$A")" '# Undo: cudawiz_deactivate_cuda_12_4' "the header names the way back"
is "$("$R" --name cuda-12.4 --deactivate-name)" cudawiz_deactivate_cuda_12_4 \
    "script_deactivate_name"
like "$(cat "$A")" '#   Put CUDA 12.4 first' "the header carries the notes"
like "$(cat "$A")" '# Written by cudawiz test' "the header names the version"
# Only removals: a list left empty is unset.
B=$W/b.sh
"$R" --name rm --remove-ld "$O/lib64/" --drop-stubs > "$B" || exit 99
# Hostile names, set and moved; a note trying to end the comment.
HS=$W/h.sh
"$R" --name hostile --note "x${NL}touch pwned" --prepend-ld "$H1" --prepend-ld "$H2" \
    --prepend-ld "$H3" --prepend-ld "$H4" --prepend-ld "$H5" --prepend-ld "$H6" \
    --prepend-ld "$H7" --prepend-ld "$H8" --prepend-ld "$H9" --prepend-ld "$H10" \
    --drop-missing --set CUDA_HOME="$H6" --set CUDA_PATH="$H4" > "$HS" || exit 99
HALL="$H1:$H2:$H3:$H4:$H5:$H6:$H7:$H8:$H9:$H10"
HR=$W/hr.sh
"$R" --name hostile-rm --remove-ld "$H5" --remove-ld "$H6/" --remove-ld "$H4" \
    --prepend-path "$H8" > "$HR" || exit 99

P=/usr/bin:/bin
for sh in $SHELLS bash-posix; do
	[ "$sh" = bash-posix ] && ! command -v bash >/dev/null && continue
	sh_case "$sh" "all unset" "$A" "$P" - - - \
	    "$C/bin:$P" "$C/lib64" "$C" -
	sh_case "$sh" "all empty" "$A" "/usr/bin::/bin:" "" "" "" \
	    "$C/bin:$P" "$C/lib64" "$C" -
	sh_case "$sh" "':', prepended dir in the middle" "$A" "/usr/bin:$C/bin/:/bin" ":" "/old" "x" \
	    "$C/bin:$P" "$C/lib64" "$C" -
	sh_case "$sh" "stubs, missing, removed, empty entries" "$A" "$P" \
	    "$E1:$C/lib64/stubs:$M:$O/lib64/:$C/lib64::$E2:$O/lib64" - - \
	    "$C/bin:$P" "$C/lib64:$E1:$E2" "$C" -
	sh_case "$sh" "the prepended dir already there, with a slash" "$A" "$P" \
	    "$E1:$C/lib64/:$E2" - - "$C/bin:$P" "$C/lib64:$E1:$E2" "$C" -
	sh_case "$sh" "nothing left: unset" "$B" "$P" "$O/lib64:$C/lib64/stubs:" - - \
	    "$P" - - -
	sh_case "$sh" "empty and nothing left: unset" "$B" "$P" "" - - "$P" - - -
	sh_case "$sh" "unset stays unset" "$B" "$P" - - - "$P" - - -
	sh_case "$sh" "hostile names" "$HS" "$P" "$E1:$H8:$M" - - \
	    "$P" "$HALL:$E1" "$H6" "$H4"
	sh_case "$sh" "hostile names removed" "$HR" "$P" "$H5:$E1:$H6/:$H2:$H4" - - \
	    "$H8:$P" "$E1:$H2" - -
done

# A ':' cannot be inside one entry of a ':' list: refused, not mangled.
if "$R" --prepend-ld "$D/a:b" > "$W/colon.sh" 2> "$W/colon.err"; then
	tap_result 1 "a ':' in an entry is refused"
else
	like "$(cat "$W/colon.err")" "LD_LIBRARY_PATH '$D/a:b' holds a ':'" \
	    "a ':' in an entry is refused, naming the path"
fi
if "$R" --name 'a/b' > /dev/null 2> "$W/name.err"; then
	tap_result 1 "a name with a '/' is refused"
else
	like "$(cat "$W/name.err")" "name 'a/b' must be" "a name with a '/' is refused"
fi

done_testing
