# Wine for the tests that run Windows programs (dllsearch-wine.sh,
# envscript-cmd.sh, verify-wine.sh, winneeds-wine.sh, the windows-*.sh of
# the packages gate).
#
# wine_find: sets WINE and WINESERVER, or skips the test, saying which
# Debian package is missing.
# wine_prefix: makes the prefix $WINEPREFIX (the caller exports it, with
# WINEDEBUG, and stops "$WINESERVER" -k in its EXIT trap), its server
# kept up meanwhile with its output away from the harness; sets C, the
# prefix's drive C:. Skips when Wine cannot make a prefix here.

wine_find() {
	WINE=
	for w in wine64 /usr/lib/wine/wine64 wine; do
		command -v "$w" >/dev/null 2>&1 && { WINE=$(command -v "$w"); break; }
	done
	[ -n "$WINE" ] || skip_all "Wine is not installed (Debian package wine64)"
	WINESERVER=$(command -v wineserver 2>/dev/null || echo /usr/lib/wine/wineserver)
}

# A prefix is made once per Wine version (wineboot, about 4 s of CPU and
# 10 s of wall time), kept as a template in the tests' cache outside the
# tree, and copied for each test: what a test writes (registry keys,
# files under drive_c) stays in its copy. system32 and winsxs, nearly
# all of the 690 MB, are hard links: Wine never rewrites them and the
# tests only add files there (nvcuda.dll, nvml.dll are not Wine's), so a
# test must never write in place into a file the prefix came with.
wine_template() {
	local cache=${CUDAWIZ_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudawiz-tests}
	local ver
	ver=$("$WINE" --version 2>/dev/null | tr -c 'A-Za-z0-9.\n-' _)
	WINE_TEMPLATE=$cache/wine-prefix-${ver:-unknown}-$(id -u)
	[ -f "$WINE_TEMPLATE/.cudawiz-ready" ] && return 0
	command -v flock >/dev/null 2>&1 && mkdir -p "$cache" || return 1
	(
		flock 9 || exit 1
		[ -f "$WINE_TEMPLATE/.cudawiz-ready" ] && exit 0
		rm -rf "$WINE_TEMPLATE.new" "$WINE_TEMPLATE" &&
		mkdir -p "$WINE_TEMPLATE.new" || exit 1
		WINEPREFIX=$WINE_TEMPLATE.new
		export WINEPREFIX
		"$WINE" wineboot -i >"$WINE_TEMPLATE.log" 2>&1 </dev/null
		# Everything saved (the registry) before the move.
		"$WINESERVER" -w >/dev/null 2>&1 </dev/null
		[ -d "$WINE_TEMPLATE.new/drive_c/windows/system32" ] &&
		    mv "$WINE_TEMPLATE.new" "$WINE_TEMPLATE" &&
		    touch "$WINE_TEMPLATE/.cudawiz-ready"
	) 9>"$cache/wine-prefix.lock" || return 1
	[ -f "$WINE_TEMPLATE/.cudawiz-ready" ]
}

# wine_copy FROM TO DIR [LINKED...]: FROM's entries (dot files too) into
# TO, DIR only made (its entries are the next call's), each LINKED one as
# hard links.
wine_copy() {
	local from=$1 to=$2 dir=$3 e n
	shift 3
	mkdir -p "$to" || return 1
	for e in "$from"/* "$from"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		n=${e##*/}
		if [ "$n" = "$dir" ]; then
			continue
		elif case " $* " in *" $n "*) true ;; *) false ;; esac; then
			cp -al "$e" "$to/" || return 1
		else
			cp -a "$e" "$to/" || return 1
		fi
	done
}

wine_prefix() {
	mkdir -p "$WINEPREFIX" || exit 99
	if wine_template; then
		wine_copy "$WINE_TEMPLATE" "$WINEPREFIX" drive_c &&
		wine_copy "$WINE_TEMPLATE/drive_c" "$WINEPREFIX/drive_c" windows &&
		wine_copy "$WINE_TEMPLATE/drive_c/windows" \
		    "$WINEPREFIX/drive_c/windows" "" system32 winsxs || exit 99
		"$WINESERVER" -p >/dev/null 2>&1 </dev/null
		# Wine's services (services.exe, plugplay …) start with the
		# first program and inherit its output: started here, with
		# theirs away from the test's pipes (a pipe they held open
		# would never end).
		"$WINE" wineboot >"$WINEPREFIX.wineboot.log" 2>&1 </dev/null
	else
		"$WINESERVER" -p >/dev/null 2>&1 </dev/null
		"$WINE" wineboot -i >"$WINEPREFIX.wineboot.log" 2>&1 </dev/null
	fi
	C=$WINEPREFIX/drive_c
	[ -d "$C/windows/system32" ] ||
	    skip_all "Wine could not make a prefix here: $(tail -n 3 "$WINEPREFIX.wineboot.log" "$WINE_TEMPLATE.log" 2>/dev/null | tr '\n' ' ')"
}
