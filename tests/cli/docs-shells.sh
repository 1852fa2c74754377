#!/bin/sh
# The completion scripts in their shells: bash (the function called with
# COMP_WORDS set), zsh (an interactive zsh in a pseudo-terminal, Tab
# pressed), fish (complete -C). Each command is offered, each command's
# options after it, the --shell formats, files and directories where an
# option takes one. A shell that is not installed is skipped.
. "$TESTS_SRCDIR/cli/docs-common.sh"

mkdir -p "$W/d/sub dir" "$W/d/another" || exit 99
: > "$W/d/a b.sh" || exit 99
: > "$W/d/another.txt" || exit 99
LF='
'

# The options `cudawiz --help` gives command $1, one a line.
opts_of() {
	printf '%s\n' "$DOC_PAIRS" | awk -v c="$1" '$1 == c { print $2 }' | sort -u
}
# The words of $2 (one a line) that are not in $1 (one a line).
missing() {
	printf '%s\n' "$2" | while IFS= read -r w; do
		[ -z "$w" ] && continue
		printf '%s\n' "$1" | grep -Fxq -- "$w" || printf '%s ' "$w"
	done
}
# The command line that reaches command $1's options ("matrix update").
cmdline() {
	if [ "$1" = matrix ]; then echo "cudawiz matrix update"; else echo "cudawiz $1"; fi
}

# ---- bash
if command -v bash > /dev/null 2>&1; then
	# bcomp WORD...: the completions of the last word, one a line.
	bcomp() {
		bash --norc --noprofile -c '
			. "$1" || exit 3
			shift
			COMP_WORDS=("$@")
			COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"
			COMP_POINT=${#COMP_LINE}
			_cudawiz
			[ ${#COMPREPLY[@]} -gt 0 ] && printf "%s\n" "${COMPREPLY[@]}"
			exit 0' bash "$COMPDIR/cudawiz.bash" "$@"
	}
	is "$(bcomp cudawiz ver)" verify "bash: cudawiz ver<Tab> gives verify"
	is "$(missing "$(bcomp cudawiz '')" "$DOC_CMDS")" "" "bash: cudawiz <Tab> offers every command"
	is "$(missing "$(bcomp cudawiz matrix '')" "$DOC_SUBS")" "" "bash: cudawiz matrix <Tab> offers show, path, update"
	got=$(bcomp cudawiz env --shell '')
	like "$got" '^fish$' "bash: cudawiz env --shell <Tab> includes fish"
	like "$got" '^conda$' "bash: cudawiz env --shell <Tab> includes conda"
	is "$(missing "$got" "$DOC_FORMATS")" "" "bash: cudawiz env --shell <Tab> offers every format"
	is "$(bcomp cudawiz env --shell = f)" fish "bash: --shell=f<Tab> gives fish"
	is "$(bcomp cudawiz --json env --sh)" --shell "bash: options before the command count (--json env --sh)"
	for c in $DOC_CMDS; do
		is "$(missing "$(bcomp $(cmdline "$c") -)" "$(opts_of "$c")")" "" \
		    "bash: $(cmdline "$c") -<Tab> offers every option of $c"
	done
	unlike "$(bcomp cudawiz why -)" '^--(shell|quick|url)$' "bash: why - offers no option of other commands"
	is "$(bcomp cudawiz env -o "$W/d/a" | sort)" "$W/d/a b.sh$LF$W/d/another$LF$W/d/another.txt" \
	    "bash: -o completes file names, blanks kept"
	is "$(bcomp cudawiz --root "$W/d/" | sort)" "$W/d/another$LF$W/d/sub dir" \
	    "bash: --root completes directories only"
	is "$(bcomp cudawiz env --add-lib "$W/d/s")" "$W/d/sub dir" "bash: --add-lib completes directories"
	is "$(bcomp cudawiz why --from "$W/d/a ")" "$W/d/a b.sh" "bash: --from completes files"
else
	skip "bash completion" "bash is not installed"
fi

# ---- zsh
if command -v zsh > /dev/null 2>&1; then
	ok "zsh -n parses _cudawiz" zsh -n "$COMPDIR/_cudawiz"
	ok "compinit loads _cudawiz" zsh -f -c '
		fpath=("$1" $fpath); autoload -U compinit; compinit -u -D
		[[ $_comps[cudawiz] == _cudawiz ]]' zsh "$COMPDIR"
fi
if command -v zsh > /dev/null 2>&1 && zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
	cat > "$W/drv.zsh" <<'DRV'
# DIR OUTDIR LINE...: completes each LINE at its end in an interactive zsh
# (zpty) with the completion in DIR; OUTDIR/N gets the matches, one a line.
zmodload zsh/zpty || exit 3
dir=$1 outdir=$2
shift 2
zpty z zsh -f -i || exit 3
zpty -w z "PS1='' PROMPT='' RPS1=''; fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
# The line is cleared with ^Xk, not ^U: a line typed ahead while the
# previous command still runs sits in the terminal's cooked-mode buffer,
# where ^U (the kill character) would erase it before zle reads it.
zpty -w z 'zstyle ":completion:*" list-prompt ""; zstyle ":completion:*" menu no; LISTMAX=100000; bindkey "^Xk" kill-whole-line'
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; (( $#__hits )) && print -rl -- $__hits >>$ZT_OUT; builtin compadd "$@"; }'
zpty -w z "print RE''ADY"
zpty -r z out '*READY*' || exit 3
integer n=0
for line; do
	n+=1
	: > $outdir/$n
	zpty -w z "ZT_OUT=${(q)outdir}/$n"
	zpty -w -n z "$line"$'\t'
	zpty -w -n z $'\C-xk'
	zpty -w z "print DO''NE$n"
	zpty -r z out "*DONE$n*" || exit 3
done
zpty -d z
DRV
	mkdir "$W/z" || exit 99
	set -- 'cudawiz ver' 'cudawiz ' 'cudawiz matrix ' 'cudawiz env --shell ' \
	    'cudawiz env --shell=f' 'cudawiz --json env --sh' "cudawiz --root $W/d/"
	for c in $DOC_CMDS; do set -- "$@" "$(cmdline "$c") -"; done
	if timeout 60 zsh -f "$W/drv.zsh" "$COMPDIR" "$W/z" "$@" > /dev/null 2>&1; then
		zc() { sort -u "$W/z/$1"; }
		is "$(zc 1)" verify "zsh: cudawiz ver<Tab> gives verify"
		is "$(missing "$(zc 2)" "$DOC_CMDS")" "" "zsh: cudawiz <Tab> offers every command"
		is "$(missing "$(zc 3)" "$DOC_SUBS")" "" "zsh: cudawiz matrix <Tab> offers show, path, update"
		like "$(zc 4)" '^fish$' "zsh: cudawiz env --shell <Tab> includes fish"
		like "$(zc 4)" '^conda$' "zsh: cudawiz env --shell <Tab> includes conda"
		is "$(missing "$(zc 4)" "$DOC_FORMATS")" "" "zsh: --shell <Tab> offers every format"
		is "$(zc 5)" fish "zsh: --shell=f<Tab> gives fish"
		is "$(zc 6)" --shell "zsh: options before the command count (--json env --sh)"
		is "$(zc 7)" "another${LF}sub\\ dir" "zsh: --root completes directories only (quoted)"
		i=8
		for c in $DOC_CMDS; do
			is "$(missing "$(zc $i)" "$(opts_of "$c")")" "" \
			    "zsh: $(cmdline "$c") -<Tab> offers every option of $c"
			i=$((i + 1))
		done
	else
		tap_result 1 "zsh: the completion driver ran (zpty)"
	fi
elif command -v zsh > /dev/null 2>&1; then
	skip "zsh completion in a terminal" "zsh has no zsh/zpty module"
else
	skip "zsh completion" "zsh is not installed"
fi

# ---- fish
if command -v fish > /dev/null 2>&1; then
	fcomp() {	# LINE: the completions, one a line (descriptions cut)
		fish --no-config -c 'source $argv[1]; or exit 3; complete -C $argv[2]' \
		    "$COMPDIR/cudawiz.fish" "$1" | cut -f1
	}
	is "$(fcomp 'cudawiz ver')" verify "fish: cudawiz ver<Tab> gives verify"
	is "$(missing "$(fcomp 'cudawiz ')" "$DOC_CMDS")" "" "fish: cudawiz <Tab> offers every command"
	is "$(missing "$(fcomp 'cudawiz matrix ')" "$DOC_SUBS")" "" "fish: cudawiz matrix <Tab> offers show, path, update"
	got=$(fcomp 'cudawiz env --shell ')
	like "$got" '^fish$' "fish: cudawiz env --shell <Tab> includes fish"
	like "$got" '^conda$' "fish: cudawiz env --shell <Tab> includes conda"
	is "$(missing "$got" "$DOC_FORMATS")" "" "fish: --shell <Tab> offers every format"
	is "$(fcomp 'cudawiz --json env --sh')" --shell "fish: options before the command count"
	for c in $DOC_CMDS; do
		is "$(missing "$(fcomp "$(cmdline "$c") -")" "$(opts_of "$c")")" "" \
		    "fish: $(cmdline "$c") -<Tab> offers every option of $c"
	done
	unlike "$(fcomp 'cudawiz why -')" '^--(shell|quick|url)$' "fish: why - offers no option of other commands"
	is "$(fcomp "cudawiz --root $W/d/")" "$W/d/another/$LF$W/d/sub dir/" \
	    "fish: --root completes directories only"
	like "$(fcomp "cudawiz env -o $W/d/a")" "^$W/d/a b\\.sh\$" "fish: -o completes file names"
else
	skip "fish completion" "fish is not installed"
fi
done_testing
