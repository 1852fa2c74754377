#!/bin/sh
# The layers' include walls (issue 17, point 2): the facts model is the
# seam, so the probes and verify, which write it, do not include each
# other, and diagnose, present and the wizard, which read it, include
# facts/ and never probe/; facts/ itself includes none of them. Greps
# every #include "layer/..." line of src/, and first proves the check
# catches a breach in a planted tree.
. "$TESTS_SRCDIR/lib/tap.sh"

top=$TESTS_SRCDIR/..
[ -d "$top/src/facts" ] || skip_all "no src/facts in $top"

# "FOLDER: LAYER LAYER …": files under src/FOLDER include no LAYER/ header.
walls='probe: verify
verify: probe
diagnose: probe
present: probe
wizard: probe
facts: probe verify diagnose present wizard'

# "FILE HEADER" pairs allowed, each with the reason; none today (the
# wizard reaches the probes through the pipeline module, src/run/).
allowed=''

# Prints "FILE: HEADER" for every include that crosses a wall in the
# tree rooted at $1.
breaches() {
	echo "$walls" | while IFS=: read -r folder layers; do
		[ -d "$1/src/$folder" ] || continue
		for layer in $layers; do
			(cd "$1" && grep -HE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$layer/" \
			    -r "src/$folder" --include='*.c' --include='*.h' --include='*.def') |
			sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/: \1/'
		done
	done | while IFS= read -r hit; do
		case " $(echo "$allowed" | tr ' ' ':' | tr '\n' ' ') " in
		*" $(echo "$hit" | sed 's/: /:/') "*) ;;
		*) echo "$hit" ;;
		esac
	done | sort
}

work=$(mktemp -d "${FX_TMP:-/tmp}/walls.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The check must be able to fail: a tree where diagnose includes a
# probe header, verify one of probe's and probe one of verify's.
mkdir -p "$work/src/diagnose" "$work/src/verify" "$work/src/probe" "$work/src/wizard"
printf '#include "facts/facts.h"\n#include "probe/probe.h"\n' > "$work/src/diagnose/bad.c"
printf '# include "probe/libsearch.h"\n' > "$work/src/verify/bad.h"
printf '#include "verify/vfacts.h"\n' > "$work/src/probe/bad.c"
printf '#include "probe/probe.h"\n' > "$work/src/wizard/report.c"
is "$(breaches "$work" | tr '\n' ';')" \
    "src/diagnose/bad.c: probe/probe.h;src/probe/bad.c: verify/vfacts.h;src/verify/bad.h: probe/libsearch.h;src/wizard/report.c: probe/probe.h;" \
    "the check catches a breach"

is "$(breaches "$top" | tr '\n' ';')" "" \
    "probe and verify do not include each other; diagnose, present and the wizard include no probe header; facts includes none of them"

done_testing
