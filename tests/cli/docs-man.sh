#!/bin/sh
# The man page: it renders without a warning, and names every command,
# subcommand, option and --shell format that `cudawiz --help` knows, so
# it cannot fall behind the binary.
. "$TESTS_SRCDIR/cli/docs-common.sh"

[ -r "$MAN_PAGE" ] || { echo "Bail out! $MAN_PAGE was not built"; exit 99; }

# Rendering: man-db's --warnings runs groff with -ww; groff alone is the
# same check without man-db.
if command -v man > /dev/null 2>&1 && man --version > /dev/null 2>&1; then
	err=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$MAN_PAGE" 2>&1 >/dev/null)
	rc=$?
	is "$rc:$err" "0:" "man --warnings renders the page without a warning"
else
	skip "man --warnings renders the page without a warning" "man-db is not installed"
fi
if command -v groff > /dev/null 2>&1; then
	err=$(groff -man -ww -z "$MAN_PAGE" 2>&1)
	rc=$?
	is "$rc:$err" "0:" "groff -man -ww renders the page without a warning"
	txt=$(LC_ALL=C groff -man -Tascii -P-c -P-b -P-u "$MAN_PAGE" 2>/dev/null)
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS 'EXIT STATUS' \
	    ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
		like "$txt" "^$s\$" "the rendered page has a $s section"
	done
else
	skip "groff -man -ww renders the page without a warning" "groff is not installed"
fi

# Substituted at build time.
unlike "$(cat "$MAN_PAGE")" '@[A-Za-z_]+@' "no @VARIABLE@ is left in the built page"
ver=$("$CUDAWIZ" --version | awk '{ print $2 }')
like "$(sed -n '/^\.TH/p' "$MAN_PAGE")" "\"cudawiz $ver\"" "the page carries the version ($ver)"
like "$(sed 's/\\://g; s/\\-/-/g' "$MAN_PAGE")" '^\.I /.*/cudawiz-verify$' \
    "FILES names the installed helper by its absolute path"

for c in $DOC_CMDS; do
	ok "the man page describes the command '$c'" has_word "$MAN_PAGE" "\\.[A-Z]+ $c"
done
for s in $DOC_SUBS; do
	ok "the man page describes 'matrix $s'" has_word "$MAN_PAGE" "matrix $s"
done
for o in $DOC_OPTS; do
	ok "the man page documents $o" has_word "$MAN_PAGE" "$o"
done
for f in $DOC_FORMATS; do
	ok "the man page names the --shell format $f" has_word "$MAN_PAGE" "$f"
done
for v in CUDAWIZ_ROOT CUDAWIZ_HELPER NO_COLOR LANGUAGE LC_ALL SHELL \
    LD_LIBRARY_PATH PATH CUDA_HOME CUDA_PATH CUDA_VISIBLE_DEVICES \
    CONDA_PREFIX VIRTUAL_ENV XDG_CACHE_HOME; do
	ok "ENVIRONMENT names $v" sh -c \
	    'sed -n "/^\.SH ENVIRONMENT/,/^\.SH FILES/p" "$1" | grep -Eq "^\.[A-Z]+ .*\\b$2\\b"' \
	    sh "$MAN_PAGE" "$v"
done
# The cache path the binary prints is the one FILES gives.
cache=$(env -i LC_ALL=C HOME=/home/u PATH="$PATH" "$CUDAWIZ" matrix path)
is "$cache" /home/u/.cache/cudawiz/matrix.json "matrix path without XDG_CACHE_HOME"
ok "FILES gives ~/.cache/cudawiz/matrix.json" grep -Fq '~/.cache/cudawiz/matrix.json' "$MAN_PAGE"
done_testing
