# Sourced by the docs-*.sh tests: what the binary itself says its command
# line is, so the man page and the completions cannot drift from it.
#   DOC_OPTS     every option `cudawiz --help` prints, one a line
#   DOC_CMDS     every command it lists
#   DOC_SUBS     matrix's subcommands (from the matrix line of --help)
#   DOC_FORMATS  every --shell format (from the usage error of a bad one)
#   DOC_PAIRS    "COMMAND OPTION" a line: the options each command takes
#                ("matrix update" is COMMAND "matrix")
#   MAN_PAGE     the built man page; COMPDIR the completion scripts
. "$TESTS_SRCDIR/lib/tap.sh"

COMPDIR=$TESTS_SRCDIR/../completions
MAN_PAGE=${CUDAWIZ_MAN:-$(dirname "$CUDAWIZ")/man/cudawiz.1}
W=$(mktemp -d "${FX_TMP:-${TMPDIR:-/tmp}}/docs.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT

DOC_HELP=$(env -i LC_ALL=C PATH="$PATH" "$CUDAWIZ" --help) || exit 99
DOC_OPTS=$(printf '%s\n' "$DOC_HELP" |
    grep -oE -- '(^|[ ,(;])--?[A-Za-z][A-Za-z-]*' | sed 's/^[ ,(;]//' | sort -u)
DOC_CMDS=$(printf '%s\n' "$DOC_HELP" | sed -n '/^Commands:/,/^$/p' |
    awk 'NF && !/^Commands:/ { print $1 }')
DOC_SUBS=$(printf '%s\n' "$DOC_HELP" | sed -n 's/^  matrix .*: //p' | tr -d ',' |
    tr ' ' '\n' | grep .)
DOC_FORMATS=$(env -i LC_ALL=C PATH="$PATH" "$CUDAWIZ" env --shell '?' 2>&1 |
    sed -n 's/.*(\(.*\)).*/\1/p' | tr -d ',' | tr ' ' '\n' | grep .)
# Section "Options:" belongs to every command; "Options of 'a' and 'b':"
# to those; an option line starts with its names ("-o, --output FILE").
DOC_PAIRS=$(printf '%s\n' "$DOC_HELP" | awk -v cmds="$(echo $DOC_CMDS)" '
	/^Options:/ { sect = cmds; next }
	/^Options of / {
		s = $0; sub(/^Options of /, "", s); sub(/:$/, "", s)
		gsub(/ and /, " ", s); gsub(/\047/, "", s); sub(/matrix update/, "matrix", s)
		sect = s; next
	}
	/^[^ ]/ { sect = ""; next }
	sect != "" {
		n = split(sect, c, " ")
		# "--quick        verify: small sizes": that command only;
		# "--baseline FILE  doctor, fleet: compare": those.
		if (match($0, /  [a-z]+(, [a-z]+)*: /)) {
			nw = split(substr($0, RSTART + 2, RLENGTH - 4), w, ", ")
			m = 0
			for (j = 1; j <= n; j++)
				for (k = 1; k <= nw; k++)
					if (c[j] == w[k]) { keep[++m] = c[j]; break }
			if (m > 0) { n = m; for (j = 1; j <= m; j++) c[j] = keep[j] }
		}
		# The names at the start, and any named in the text
		# ("--no-color  no colour ...; --color forces it").
		for (i = 1; i <= NF; i++) {
			o = $i; sub(/[,;]$/, "", o)
			if (o !~ /^--?[A-Za-z][A-Za-z-]*$/) continue
			for (j = 1; j <= n; j++) print c[j], o
		}
	}')
[ -n "$DOC_OPTS" ] && [ -n "$DOC_CMDS" ] && [ -n "$DOC_SUBS" ] &&
    [ -n "$DOC_FORMATS" ] && [ -n "$DOC_PAIRS" ] || {
	echo "Bail out! could not read the command line from $CUDAWIZ --help"
	exit 99
}

# has_word FILE WORD: WORD appears in FILE, not as part of a longer option
# (--color is not found in --no-color). roff's "\-" counts as "-".
has_word() {
	sed 's/\\-/-/g' "$1" | grep -Eq -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)"
}
