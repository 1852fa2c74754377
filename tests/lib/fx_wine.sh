# Wine for the tests that run Windows programs (dllsearch-wine.sh,
# envscript-cmd.sh, verify-wine.sh, winneeds-wine.sh, the windows-*.sh of
# the packages gate).
#
# wine_find: sets WINE and WINESERVER, or skips the test, saying which
# Debian package is missing.
# wine_prefix: makes the prefix $WINEPREFIX (the caller exports it, with
# WINEDEBUG, and stops "$WINESERVER" -k in its EXIT trap), its server
# kept up meanwhile with its output away from the harness; sets C, the
# prefix's drive C:. Skips when Wine cannot make a prefix here. Each
# prefix costs about 4 s of CPU (wineboot).

wine_find() {
	WINE=
	for w in wine64 /usr/lib/wine/wine64 wine; do
		command -v "$w" >/dev/null 2>&1 && { WINE=$(command -v "$w"); break; }
	done
	[ -n "$WINE" ] || skip_all "Wine is not installed (Debian package wine64)"
	WINESERVER=$(command -v wineserver 2>/dev/null || echo /usr/lib/wine/wineserver)
}

wine_prefix() {
	mkdir -p "$WINEPREFIX" || exit 99
	"$WINESERVER" -p >/dev/null 2>&1 </dev/null
	"$WINE" wineboot -i >"$WINEPREFIX.wineboot.log" 2>&1 </dev/null
	C=$WINEPREFIX/drive_c
	[ -d "$C/windows/system32" ] ||
	    skip_all "Wine could not make a prefix here: $(tail -n 3 "$WINEPREFIX.wineboot.log" | tr '\n' ' ')"
}
