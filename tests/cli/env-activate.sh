#!/bin/sh
# The "activate:" line `cudawiz env -o FILE` prints, pasted into the real
# shells (issue 16, point 9): a bare name makes `.` in dash, zsh, ksh and
# bash --posix search PATH, a name starting with '-' is read as an
# option, and sh quoting breaks csh's '!' and fish's backslash. Each line
# is run as the shell would run it from the directory the file was
# written in, with PATH not naming that directory; the variable the
# script sets must then be visible. And --install-rc with a HOME that is
# unset, empty or relative (point 10): refused, nothing written.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

fx_new
fx_dir /usr/bin
fx_toolkit 12.4.1
TK=/usr/local/cuda-12.4
D=$FX.work
fx_dirs="$fx_dirs $D"
mkdir -p "$D" || exit 99
P=/usr/bin:/bin

# write FORMAT NAME [HOME]: cudawiz env writes the script for the toolkit
# as NAME in $D; stdout in $D.out, stderr in $D.err, the status in RC.
write() {
	(cd "$D" && env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C PATH=$P \
	    SHELL=/bin/sh HOME="$D" "$CUDAWIZ" env --root "$FX" \
	    ${FX_MATRIX:+--matrix "$FX_MATRIX"} --toolkit $TK --shell "$1" \
	    -o "$2") > "$D.out" 2> "$D.err"
	RC=$?
}

# run_line SHELL... : runs "$line; printenv CUDA_HOME" in that shell in
# $D, with no rc file read (HOME is $D, which has none).
run_line() {
	(cd "$D" && env -i PATH=$P HOME="$D" TERM=dumb "$@" \
	    "$line; printenv CUDA_HOME") 2>&1
}

# The shells of each format, as "label:command words" (a space in the
# label would split it: none has one).
SH_SHELLS="dash:dash bash-posix:bash@--posix@-c bash:bash@-c zsh:zsh@-f@-c mksh:mksh@-c ksh:ksh@-c"
NAMES="f1|-x.sh|a b!c.sh|it's \$x.sh"

check_format() {	# FORMAT SUFFIX SHELLS
	fmt=$1 suffix=$2 shells=$3
	old_ifs=$IFS
	IFS='|'
	# shellcheck disable=SC2086
	set -- $NAMES
	IFS=$old_ifs
	for name in "$@"; do
		name=$name$suffix
		rm -f "$D/$name"
		write "$fmt" "$name"
		if [ "$RC" != 0 ] || [ ! -f "$D/$name" ]; then
			tap_result 1 "$fmt, '$name': written (exit $RC)"
			sed 's/^/#   /' "$D.err"
			continue
		fi
		line=$(sed -n 's/^activate:  //p' "$D.out")
		for s in $shells; do
			label=${s%%:*}
			cmd=$(printf '%s' "${s#*:}" | tr '@' ' ')
			exe=${cmd%% *}
			if ! command -v "$exe" >/dev/null 2>&1; then
				skip "$fmt in $label, '$name': [$line]" \
				    "$exe is not installed"
				continue
			fi
			[ "$cmd" = "$exe" ] && cmd="$exe -c"
			# shellcheck disable=SC2086
			got=$(run_line $cmd)
			is "$got" "$TK" "$fmt in $label, '$name': [$line] sets CUDA_HOME"
		done
	done
}

# The toolkit plan sets CUDA_HOME (a path inside the fixture tree, which
# need not exist on this machine: it is set as it is).
write sh probe.sh
like "$(cat "$D/probe.sh" 2>/dev/null)" "CUDA_HOME=.*$TK" "the plan sets CUDA_HOME" ||
    skip_all "the toolkit plan does not set CUDA_HOME"

check_format sh "" "$SH_SHELLS"
check_format fish "" "fish:fish@--no-config@-c"
check_format csh "" "tcsh:tcsh@-f@-c csh:csh@-f@-c"
check_format powershell ".ps1" "pwsh:pwsh@-NoProfile@-NonInteractive@-Command"

# An absolute path: printed as it is (bare when nothing in it is special).
write sh "$D/abs.sh"
is "$(sed -n 's/^activate:  //p' "$D.out")" ". $D/abs.sh" "an absolute path is printed as it is"
mkdir -p "$D/sub"
write sh sub/f1
is "$(sed -n 's/^activate:  //p' "$D.out")" ". ./sub/f1" \
    "a relative path with a directory gets ./ too"

# direnv is a program taking the path: the same ./ and sh quoting.
write direnv "-x envrc"
is "$(sed -n 's/^activate:  //p' "$D.out")" "direnv allow './-x envrc'" \
    "direnv: the path as one word that is no option"

# The module line: its directory and name in sh quoting.
mkdir -p "$D/a b"
write lmod "a b/cuda.lua"
is "$(sed -n 's/^activate:  //p' "$D.out")" "module use 'a b' && module load cuda" \
    "lmod: a directory with a blank is quoted"

# --install-rc refuses a HOME that is not an absolute path, before
# writing anything: not the script, not an rc file under the current
# directory.
rc_home() {	# LABEL PATTERN [HOME=VALUE]
	label=$1 pat=$2
	shift 2
	rm -rf "$D/h"
	mkdir -p "$D/h"
	(cd "$D/h" && env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} LC_ALL=C PATH=$P \
	    SHELL=/bin/bash "$@" "$CUDAWIZ" env --root "$FX" \
	    ${FX_MATRIX:+--matrix "$FX_MATRIX"} --toolkit $TK --shell sh \
	    -o env.sh --install-rc) > "$D.out" 2> "$D.err"
	RC=$?
	isnt_zero=$([ "$RC" != 0 ] && echo yes || echo "no (exit $RC)")
	is "$isnt_zero" yes "--install-rc, $label: refused"
	like "$(cat "$D.err")" "$pat" "... saying why"
	is "$(cd "$D/h" && ls -A)" "" "... nothing written in the current directory"
}
rc_home "HOME relative" "HOME \\('home'\\) is not an absolute path" HOME=home
rc_home "HOME empty" "HOME \\(''\\) is not an absolute path" HOME=
rc_home "HOME unset" "HOME is not set"
mkdir -p "$D/realhome"
rm -rf "$D/h" && mkdir -p "$D/h"
(cd "$D/h" && env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} LC_ALL=C PATH=$P \
    SHELL=/bin/bash HOME="$D/realhome" "$CUDAWIZ" env --root "$FX" \
    ${FX_MATRIX:+--matrix "$FX_MATRIX"} --toolkit $TK --shell sh \
    -o env.sh --install-rc) > "$D.out" 2> "$D.err"
is "$?" 0 "--install-rc with an absolute HOME: exit 0"
is "$(cat "$D/realhome/.bashrc" 2>/dev/null)" ". '$D/h/env.sh' # cudawiz-env $D/h/env.sh" \
    "... the line in HOME's .bashrc"

done_testing
