#!/bin/sh
# Writing scripts to files: atomic, the old file kept as FILE.bak, .bak.1
# … (never overwriting a backup), a symlink refused (with --force its
# target is written and backed up), failures that name the path and the
# reason and leave nothing behind; --install-rc adding one line once;
# the conda pair in a fixture prefix sourced as conda would; direnv.
. "$TESTS_SRCDIR/cli/envscript-common.sh"

PLAN="--name cuda-12.4 --prepend-ld $C/lib64 --drop-stubs --set CUDA_HOME=$C"
# shellcheck disable=SC2086
"$R" $PLAN > "$W/want" || exit 99

# listing DIR: its entries, one a line, hidden ones too.
listing() { (cd "$1" && ls -A); }

T=$W/t
mkdir -p "$T"
umask 022
# shellcheck disable=SC2086
is "$("$R" $PLAN -o "$T/env.sh")" "" "a new file: no backup reported"
ok "a new file has the script" cmp -s "$T/env.sh" "$W/want"
is "$(stat -c %a "$T/env.sh")" 644 "a new file is 0644 under umask 022"
is "$(listing "$T")" "env.sh" "no temporary file left"

printf 'old one\n' > "$T/env.sh"
chmod 600 "$T/env.sh"
# shellcheck disable=SC2086
is "$("$R" $PLAN -o "$T/env.sh")" "backup: $T/env.sh.bak" "an existing file is backed up"
is "$(cat "$T/env.sh.bak")" "old one" "the backup has the old content"
ok "the new file has the script" cmp -s "$T/env.sh" "$W/want"
is "$(stat -c %a "$T/env.sh")" 600 "the file's mode is kept"
printf 'old two\n' > "$T/env.sh"
# shellcheck disable=SC2086
is "$("$R" $PLAN -o "$T/env.sh")" "backup: $T/env.sh.bak.1" "a second backup gets .bak.1"
is "$(cat "$T/env.sh.bak")" "old one" "the first backup is not overwritten"
is "$(cat "$T/env.sh.bak.1")" "old two" "the second backup has the second old content"
# shellcheck disable=SC2086
"$R" $PLAN -o "$T/env.sh" > /dev/null
ok "a third write gets .bak.2" test -e "$T/env.sh.bak.2"
is "$(listing "$T" | tr '\n' ' ')" "env.sh env.sh.bak env.sh.bak.1 env.sh.bak.2 " \
    "nothing else in the directory"

# A symlink: refused, then with --force the file it points to.
S=$W/s
mkdir -p "$S"
printf 'target\n' > "$S/real.sh"
ln -s real.sh "$S/link.sh"
# shellcheck disable=SC2086
if "$R" $PLAN -o "$S/link.sh" > "$W/out" 2> "$W/err"; then
	tap_result 1 "a symlink is refused"
else
	like "$(cat "$W/err")" "not writing $S/link.sh: it is a symbolic link" \
	    "a symlink is refused, naming it"
fi
is "$(cat "$S/real.sh")" target "its target is untouched"
is "$(listing "$S" | tr '\n' ' ')" "link.sh real.sh " "nothing left behind"
# shellcheck disable=SC2086
is "$("$R" $PLAN -o "$S/link.sh" --force)" "backup: $S/real.sh.bak" \
    "--force writes through the link, backing up the target"
ok "the link is still a link" test -L "$S/link.sh"
ok "the target has the script" cmp -s "$S/real.sh" "$W/want"
is "$(cat "$S/real.sh.bak")" target "the target's backup has its old content"

# Failures that name the path and leave nothing behind.
fails() {	# DESC PATTERN DIR_TO_CHECK -- ARGS...
	desc=$1 pat=$2 dir=$3
	shift 4
	before=$(listing "$dir" 2>/dev/null)
	# shellcheck disable=SC2086
	if ${AS:-} "$R" "$@" > "$W/out" 2> "$W/err"; then
		tap_result 1 "$desc: fails"
	else
		like "$(cat "$W/err")" "$pat" "$desc: fails with a clear message"
	fi
	is "$(listing "$dir" 2>/dev/null)" "$before" "$desc: nothing left behind"
}
# shellcheck disable=SC2086
fails "a directory that does not exist" \
    "cannot write $W/nodir/env.sh: cannot create a file in $W/nodir: No such file or directory" \
    "$W" -- $PLAN -o "$W/nodir/env.sh"
ok "the missing directory is not created" test ! -e "$W/nodir"
mkdir -p "$W/isdir"
# shellcheck disable=SC2086
fails "the path is a directory" "cannot write $W/isdir: Is a directory" "$W/isdir" \
    -- $PLAN -o "$W/isdir"
# shellcheck disable=SC2086
fails "the path is not a regular file" "not writing /dev/null: it is not a regular file" \
    "$W" -- $PLAN -o /dev/null
RO=$W/ro
mkdir -p "$RO"
printf 'keep\n' > "$RO/env.sh"
chmod 555 "$RO"
# Root ignores permissions: as root, the write runs as user 65534.
AS= why=
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$W"
	if ! command -v setpriv >/dev/null 2>&1; then
		why="running as root, and setpriv (Debian package: util-linux) is missing"
	elif setpriv --reuid=65534 --regid=65534 --clear-groups -- \
	    sh -c 'test -x "$1" && test -r "$2/."' sh "$R" "$RO" 2>/dev/null; then
		AS="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	else
		why="running as root, and user 65534 cannot reach $R or $RO"
	fi
fi
if [ -n "$why" ]; then
	skip "a read-only directory" "$why"
	skip "a read-only directory: nothing left behind" "$why"
	skip "a read-only directory: the file is kept" "$why"
else
	# shellcheck disable=SC2086
	fails "a read-only directory" \
	    "cannot write $RO/env.sh: cannot create a file in $RO: Permission denied" \
	    "$RO" -- $PLAN -o "$RO/env.sh"
	is "$(cat "$RO/env.sh")" keep "a read-only directory: the file is kept"
fi
AS=
chmod 755 "$RO"

# --install-rc: creates the rc and its directory, adds the line once.
HOMED=$W/home
FISHRC=$HOMED/.config/fish/config.fish
is "$("$R" --format fish --install-rc "$FISHRC" "$W/my env's.fish")" "changed: yes" \
    "install-rc creates a missing rc file and its directory"
is "$(cat "$FISHRC")" "source '$W/my env\\'s.fish' # cudawiz-env $W/my env's.fish" \
    "the fish line, quoted for fish"
is "$("$R" --format fish --install-rc "$FISHRC" "$W/my env's.fish")" "changed: no" \
    "a second install-rc changes nothing"
is "$(wc -l < "$FISHRC")" 1 "the line is there once"
is "$(listing "$HOMED/.config/fish" | tr '\n' ' ')" "config.fish config.fish.cudawiz-lock " \
    "no backup when nothing changed (the lock file stays, empty)"
printf 'export A=1' > "$HOMED/.bashrc"		# no final newline
is "$("$R" --format sh --install-rc "$HOMED/.bashrc" "$W/a b.sh")" \
    "changed: yes${NL}backup: $HOMED/.bashrc.bak" "install-rc backs the rc file up"
is "$(cat "$HOMED/.bashrc")" "export A=1${NL}. '$W/a b.sh' # cudawiz-env $W/a b.sh" \
    "the sh line goes on a line of its own"
is "$(cat "$HOMED/.bashrc.bak")" "export A=1" "the backup has the old rc"
is "$("$R" --format sh --install-rc "$HOMED/.bashrc" "$W/a b.sh")" "changed: no" \
    "install-rc twice adds the line once"
is "$(grep -c cudawiz-env "$HOMED/.bashrc")" 1 "one line"
mkdir -p "$HOMED/dotfiles"
printf '# mine\n' > "$HOMED/dotfiles/tcshrc"
ln -s dotfiles/tcshrc "$HOMED/.tcshrc"
is "$("$R" --format csh --install-rc "$HOMED/.tcshrc" "$W/e.csh")" \
    "changed: yes${NL}backup: $HOMED/dotfiles/tcshrc.bak" "an rc symlink is written through"
ok "the rc symlink is still a link" test -L "$HOMED/.tcshrc"
is "$(cat "$HOMED/dotfiles/tcshrc")" "# mine${NL}source '$W/e.csh' # cudawiz-env $W/e.csh" \
    "the csh line"
if "$R" --format lmod --install-rc "$HOMED/.bashrc" "$W/x" > /dev/null 2> "$W/err"; then
	tap_result 1 "install-rc refuses a module file"
else
	like "$(cat "$W/err")" "works for sh, fish and csh" "install-rc refuses a module file"
fi
if "$R" --install-rc "$HOMED/.bashrc" "$W/new${NL}line" > /dev/null 2> "$W/err"; then
	tap_result 1 "install-rc refuses a script name with a newline"
else
	like "$(cat "$W/err")" "line break" "install-rc refuses a script name with a newline"
fi

# conda: the pair in a fixture prefix, sourced as conda sources them.
CE=$W/conda-env
mkdir -p "$CE"
# shellcheck disable=SC2086
is "$("$R" $PLAN --unset CUDA_PATH --conda "$CE")" \
    "activate: $CE/etc/conda/activate.d/cudawiz-cuda-12.4.sh${NL}deactivate: $CE/etc/conda/deactivate.d/cudawiz-cuda-12.4.sh" \
    "conda: both scripts written"
like "$(head -n 1 "$CE/etc/conda/deactivate.d/cudawiz-cuda-12.4.sh")" \
    '^# cudawiz-format: conda$' "conda: the deactivate script is marked too"
cat > "$W/conda.sh" <<'PROG'
dump() {
	for v in PATH LD_LIBRARY_PATH CUDA_HOME CUDA_PATH; do
		eval "s=\${$v+set} val=\${$v-}"
		if [ "$s" = set ]; then printf '%s=[%s]\n' "$v" "$val"; else printf '%s unset\n' "$v"; fi
	done
}
dump > "$2.0"
for f in "$1"/etc/conda/activate.d/*.sh; do . "$f"; done
dump > "$2.1"
for f in "$1"/etc/conda/activate.d/*.sh; do . "$f"; done
dump > "$2.2"
for f in "$1"/etc/conda/deactivate.d/*.sh; do . "$f"; done
dump > "$2.3"
set | grep -a '_cudawiz_' >> "$2.3"
PROG
for sh in bash dash zsh; do
	command -v "$sh" > /dev/null || { skip "conda in $sh" "no $sh"; continue; }
	for st in - "" "$E1:$C/lib64/stubs"; do
		o=$W/conda.$sh
		rm -f "$o".*
		start /usr/bin:/bin "$st" "" x "$sh" "$W/conda.sh" "$CE" "$o"
		case $st in
		"$E1:"*) dump_expect /usr/bin:/bin "$C/lib64:$E1" "$C" - > "$W/want1" ;;
		*) dump_expect /usr/bin:/bin "$C/lib64" "$C" - > "$W/want1" ;;
		esac
		diff_is "$o.1" "$W/want1" "conda in $sh, LD_LIBRARY_PATH '${st}': activate.d"
		diff_is "$o.2" "$o.1" "conda in $sh, LD_LIBRARY_PATH '${st}': activating twice"
		diff_is "$o.3" "$o.0" "conda in $sh, LD_LIBRARY_PATH '${st}': deactivate.d restores"
	done
done
if "$R" $PLAN --conda "$W/no-such-env" > /dev/null 2> "$W/err"; then
	tap_result 1 "conda: a missing prefix is refused"
else
	like "$(cat "$W/err")" "conda environment $W/no-such-env: No such file" \
	    "conda: a missing prefix is refused"
fi

# direnv: an .envrc that only edits (direnv restores by itself), run by
# bash under direnv's `set -euo pipefail`.
DR=$W/envrc
# shellcheck disable=SC2086
"$R" $PLAN --format direnv > "$DR"
like "$(head -n 1 "$DR")" '^# cudawiz-format: direnv$' "direnv: marked"
unlike "$(cat "$DR")" 'cudawiz_deactivate|_active' "direnv: no way back of its own"
got=$(start /usr/bin:/bin "$E1:$C/lib64/stubs::" - - bash -c \
    'set -euo pipefail; . "$1"; printf "%s|%s|%s\n" "$LD_LIBRARY_PATH" "$CUDA_HOME" "${CUDA_PATH-unset}"; set | grep -c "^_cwz_" || :' \
    bash "$DR")
is "$got" "$C/lib64:$E1|$C|unset${NL}0" "direnv: the .envrc edits the variables, leaves no helper"

ok "nothing executed" no_pwned
done_testing
