# bash completion for cudawiz(1).                      -*- shell-script -*-
# Installed as $(datadir)/bash-completion/completions/cudawiz; works without
# the bash-completion package too (source this file). Options are accepted
# before or after the command word, as cudawiz itself accepts them.
# tests/cli/docs-completion.sh fails when an option of `cudawiz --help` is
# missing here.

_cudawiz_common='--json --format --root --offline --matrix --no-color --color
	--ascii --no-mouse --help -h --version -V'
_cudawiz_cmds='doctor why explain verify env matrix spec fleet wizard'
_cudawiz_formats='sh bash zsh dash ksh fish csh tcsh powershell conda lmod
	tcl direnv cmd'

# The options of a command word and matrix's subcommand (no command yet:
# any option, since options may come before the command).
_cudawiz_opts() {	# CMD SUB
	case $1 in
	doctor)	echo "$_cudawiz_common --no-verify --timeout -o --output
		--baseline" ;;
	spec)	echo "$_cudawiz_common -o --output" ;;
	fleet)	echo "$_cudawiz_common -o --output --baseline --max-age" ;;
	why)	echo "$_cudawiz_common --from" ;;
	explain|wizard) echo "$_cudawiz_common" ;;
	verify)	echo "$_cudawiz_common --quick --timeout --env" ;;
	env)	echo "$_cudawiz_common --shell -o --output --force --install-rc
		--toolkit --cudnn --python-env --add-lib --keep-other-cuda
		--scope --check --timeout" ;;
	matrix)	case $2 in	# only `matrix update` has options of its own
		show|path) echo "$_cudawiz_common" ;;
		*) echo "$_cudawiz_common --url --connect-timeout --timeout" ;;
		esac ;;
	*)	echo "$_cudawiz_common --from --no-verify --quick --timeout --env
		--shell -o --output --force --install-rc --toolkit --cudnn
		--python-env --add-lib --keep-other-cuda --scope --check --url
		--connect-timeout --baseline --max-age" ;;
	esac
}

# COMPREPLY from compgen -W WORDS.
_cudawiz_words() {	# WORDS CUR
	local w
	COMPREPLY=()
	for w in $(compgen -W "$1" -- "$2"); do
		COMPREPLY+=("$w")
	done
}

# COMPREPLY from compgen -f/-d, one name a line, so blanks survive.
_cudawiz_compgen() {
	local IFS=$'\n'
	COMPREPLY=($(compgen "$@"))
}

_cudawiz_files() {	# CUR
	compopt -o filenames 2>/dev/null
	_cudawiz_compgen -f -- "$1"
}

_cudawiz_dirs() {	# CUR
	compopt -o filenames 2>/dev/null
	_cudawiz_compgen -d -- "$1"
}

# Completes the value of option $1; returns 1 when $1 takes no value.
_cudawiz_value() {	# OPTION CUR
	case $1 in
	--shell)
		_cudawiz_words "$_cudawiz_formats" "$2" ;;
	--format)
		_cudawiz_words 'text json html prometheus' "$2" ;;
	--scope)
		_cudawiz_words 'session user' "$2" ;;
	-o|--output|--check|--matrix|--from|--baseline)
		_cudawiz_files "$2" ;;
	--root|--cudnn|--python-env|--add-lib|--toolkit|--env)
		_cudawiz_dirs "$2" ;;
	--timeout|--connect-timeout|--url|--max-age)
		COMPREPLY=() ;;
	*)
		return 1 ;;
	esac
	return 0
}

_cudawiz() {
	local cur prev cmd= sub= w i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}

	# The command word (and matrix's subcommand): the first words that are
	# neither options nor an option's value.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root|--matrix|--from|--url|--connect-timeout|--timeout|\
		--shell|--output|-o|--toolkit|--cudnn|--python-env|--add-lib|\
		--check|--env|--format|--baseline|--max-age)
			# "--opt=VALUE": bash splits at "=" (COMP_WORDBREAKS).
			if [ "${COMP_WORDS[i+1]}" = "=" ]; then
				i=$((i + 2))
			else
				i=$((i + 1))
			fi
			continue ;;
		--) break ;;
		-*|=) continue ;;
		esac
		if [ -z "$cmd" ]; then
			cmd=$w
		elif { [ "$cmd" = matrix ] || [ "$cmd" = spec ]; } &&
		    [ -z "$sub" ]; then
			sub=$w
		fi
	done

	# "--opt=" and "--opt=VAL" arrive as "--opt" "=" "VAL" or "--opt" "=".
	if [ "$cur" = "=" ]; then
		_cudawiz_value "$prev" "" && return 0
	elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
		_cudawiz_value "${COMP_WORDS[COMP_CWORD-2]}" "$cur" && return 0
	elif [ -n "$prev" ]; then
		_cudawiz_value "$prev" "$cur" && return 0
	fi

	case $cur in
	-*)
		_cudawiz_words "$(_cudawiz_opts "$cmd" "$sub")" "$cur"
		return 0 ;;
	esac
	case $cmd in
	'')	_cudawiz_words "$_cudawiz_cmds" "$cur" ;;
	matrix)	[ -z "$sub" ] &&
		    _cudawiz_words 'show path update' "$cur" ;;
	spec)	[ -z "$sub" ] && _cudawiz_words 'export' "$cur" ;;
	fleet)	_cudawiz_files "$cur" ;;
	explain) [ -z "$cur" ] && COMPREPLY=(-) ;;
	esac
	return 0
}
complete -F _cudawiz cudawiz
