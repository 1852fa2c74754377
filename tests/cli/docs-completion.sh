#!/bin/sh
# The completion scripts name every command, matrix subcommand, option and
# --shell format that the binary knows (read from `cudawiz --help` and its
# usage error), so they cannot drift from it. Static: no shell needed. The
# shells themselves complete in docs-shells.sh.
. "$TESTS_SRCDIR/cli/docs-common.sh"

BASH_C=$COMPDIR/cudawiz.bash
ZSH_C=$COMPDIR/_cudawiz
FISH_C=$COMPDIR/cudawiz.fish
for f in "$BASH_C" "$ZSH_C" "$FISH_C"; do
	[ -r "$f" ] || { echo "Bail out! $f is missing"; exit 99; }
done

# fish spells options as "-l NAME" / "-s X", the others as written.
fish_has() {	# WORD
	case $1 in
	--*) grep -Eq -- "(^| )-l ${1#--}( |\$)" "$FISH_C" ;;
	-?) grep -Eq -- "(^| )-s ${1#-}( |\$)" "$FISH_C" ;;
	*) has_word "$FISH_C" "$1" ;;
	esac
}

for c in $DOC_CMDS $DOC_SUBS; do
	ok "bash completion offers '$c'" has_word "$BASH_C" "$c"
	ok "zsh completion offers '$c'" has_word "$ZSH_C" "$c"
	ok "fish completion offers '$c'" fish_has "$c"
done
for o in $DOC_OPTS; do
	ok "bash completion offers $o" has_word "$BASH_C" "$o"
	ok "zsh completion offers $o" has_word "$ZSH_C" "$o"
	ok "fish completion offers $o" fish_has "$o"
done
for f in $DOC_FORMATS; do
	ok "bash completion offers --shell $f" has_word "$BASH_C" "$f"
	# zsh: 'NAME:description'; fish: NAME\tdescription.
	ok "zsh completion offers --shell $f" grep -Fq "'$f:" "$ZSH_C"
	ok "fish completion offers --shell $f" grep -Eq "(^| )$f\\\\t" "$FISH_C"
done
ok "zsh completion starts with #compdef cudawiz" \
    sh -c 'head -n 1 "$1" | grep -qx "#compdef cudawiz"' sh "$ZSH_C"
done_testing
