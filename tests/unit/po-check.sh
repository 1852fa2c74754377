#!/bin/sh
# The translations: German and Simplified Chinese are listed, compile
# with msgfmt -c, have no fuzzy or untranslated entries, cover every
# message the sources have today, and cudawiz really speaks them
# (LANGUAGE=de / zh_CN with the catalogs built here).
. "$TESTS_SRCDIR/lib/tap.sh"

top=$TESTS_SRCDIR/..
command -v msgfmt >/dev/null 2>&1 || skip_all "no msgfmt (Debian package: gettext)"
command -v xgettext >/dev/null 2>&1 || skip_all "no xgettext (Debian package: gettext)"
: "${FX_TMP:=${TMPDIR:-/tmp}}"
tmp=$(mktemp -d "$FX_TMP/po-check.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

(cd "$top" && xgettext --keyword=_ --keyword=N_ --keyword=ngettext:1,2 \
    --from-code=UTF-8 --language=C -o "$tmp/now.pot" -f po/POTFILES.in) 2>/dev/null
ok "the sources' messages can be extracted" test -s "$tmp/now.pot"

for lang in de zh_CN; do
	po=$top/po/$lang.po
	ok "$lang is listed in po/LINGUAS" grep -qw "$lang" "$top/po/LINGUAS"
	if ! [ -f "$po" ]; then
		skip "$lang catalog" "po/$lang.po does not exist"
		continue
	fi
	stats=$(LC_ALL=C msgfmt -c --statistics -o "$tmp/$lang.mo" "$po" 2>&1)
	is "$?" 0 "$lang: msgfmt -c accepts the catalog"
	unlike "$stats" "fuzzy" "$lang: no fuzzy entries ($stats)"
	unlike "$stats" "untranslated" "$lang: no untranslated entries"
	if [ "$lang" = zh_CN ]; then
		# Chinese joins a list with "，": an ASCII ", " between two
		# conversions ("%s, %s", "%zu, %zu") reads as a slip.
		slips=$(msgcat --no-wrap "$po" | grep '^msgstr' |
		    grep -E '%[0-9$]*[-+ #0-9.]*(hh|h|ll|l|z|j|t)?[diouxXsfgc], +%')
		is "$slips" "" "$lang: no ASCII ', ' between two conversions in a msgstr"
	fi
	gone=$(LC_ALL=C msgcmp "$po" "$tmp/now.pot" 2>&1 | grep -c 'used but not defined')
	is "$gone" 0 "$lang: every message of the sources is in the catalog"
	mkdir -p "$tmp/locale/$lang/LC_MESSAGES"
	cp "$tmp/$lang.mo" "$tmp/locale/$lang/LC_MESSAGES/cudawiz.mo"
	msg="write an activation script that fixes the environment"
	want=$(LANGUAGE=$lang LC_ALL=C.UTF-8 TEXTDOMAINDIR=$tmp/locale \
	    gettext -d cudawiz "$msg" 2>/dev/null)
	ok "$lang: the catalog translates the env command's summary" \
	    test -n "$want" -a "$want" != "$msg"
	got=$(env -i PATH=/usr/bin:/bin LANGUAGE=$lang LC_ALL=C.UTF-8 \
	    CUDAWIZ_LOCALEDIR="$tmp/locale" "$CUDAWIZ" --help 2>&1)
	like "$got" "$(printf '%s' "$want" | sed 's/[][\\.*^$()+?{}|]/\\&/g')" \
	    "$lang: LANGUAGE=$lang cudawiz --help shows it"
	# A wizard page, on an empty tree.
	if [ -x "${WIZARD_RENDER:-}" ]; then
		mkdir -p "$tmp/root"
		: > "$tmp/none.keys"
		title=$(LANGUAGE=$lang LC_ALL=C.UTF-8 TEXTDOMAINDIR=$tmp/locale \
		    gettext -d cudawiz "Summary" 2>/dev/null)
		page=$(env -i PATH=/usr/bin:/bin LANGUAGE=$lang LC_ALL=C.UTF-8 \
		    CUDAWIZ_LOCALEDIR="$tmp/locale" "$WIZARD_RENDER" --root "$tmp/root" \
		    --keys "$tmp/none.keys" --final 2>&1)
		ok "$lang: the wizard's first page's title (Summary) is translated" \
		    test -n "$title" -a "$title" != Summary
		like "$page" " cudawiz → $title " "$lang: the wizard's first page renders in it"
	else
		skip "$lang: the wizard page" "no wizard-render test tool"
	fi
done
done_testing
