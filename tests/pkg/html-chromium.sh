#!/bin/sh
# The HTML report in headless Chromium (Debian's package): screenshots at
# 360 and 1400 px, light and dark, kept under tests/artifacts/html/ of the
# build directory; the rendered text holds every finding's code, title
# and fix command line of the JSON; at 360 and 1400 px the page does not
# scroll sideways, and the report keeps a reading width at 1400 px; the
# dark scheme changes the report's background. Six Chromium launches,
# each with its own profile and no network.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_html.sh"

chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || skip_all "no $chromium (Debian package: chromium)"
command -v python3 >/dev/null 2>&1 ||
	skip_all "python3 is not installed (Debian package: python3)"
check="python3 $TESTS_SRCDIR/lib/htmlcheck.py"
art=${HTML_ARTIFACTS:-$PWD/tests/artifacts/html}
rm -rf "$art"
mkdir -p "$art" || skip_all "cannot make $art"
diag "screenshots in $art"

launches=0
# browse OUT_FLAG URL [FLAG...]: one Chromium run with a fresh profile.
browse() {
	launches=$((launches + 1))
	flag=$1 url=$2
	shift 2
	"$chromium" --headless --disable-gpu --no-sandbox --no-first-run \
	    --user-data-dir="$FX.profile.$launches" \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --disable-extensions --disable-default-apps \
	    --no-default-browser-check --metrics-recording-only \
	    --proxy-server=127.0.0.1:9 --hide-scrollbars "$@" "$flag" "$url" \
	    2> "$FX.chromium.$launches.log"
}

png_size() {
	python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(24)
print("%dx%d" % struct.unpack(">II", d[16:24]) if d[:8] == b"\x89PNG\r\n\x1a\n" else "not a PNG")' "$1"
}

# The broken fixture of html-report.sh: a Git LFS pointer first on the
# path, a toolkit without a driver, a long directory name.
fx_html_broken "/opt/$(printf 'very-long-directory-name-%s' 1 2 3 4 5 6)"
fx_html_pair doctor
cp "$FX.html" "$art/doctor.html"
cp "$FX.json" "$art/doctor.json"
ok "doctor --format html made a page" grep -q cudawiz-report "$art/doctor.html"

$check wrap "$art/doctor.html" 360 2000 > "$FX.w360.html"
$check wrap "$art/doctor.html" 360,1400 1200 > "$FX.wboth.html"

for scheme in light dark; do
	case $scheme in
	light) set -- --blink-settings=preferredColorScheme=1 ;;
	dark) set -- --force-dark-mode --blink-settings=preferredColorScheme=0 ;;
	esac
	browse --screenshot="$art/doctor-360-$scheme.png" "file://$FX.w360.html" \
	    --window-size=360,2000 "$@"
	is "$(png_size "$art/doctor-360-$scheme.png")" 360x2000 \
	    "screenshot at 360 px, $scheme: doctor-360-$scheme.png"
	browse --screenshot="$art/doctor-1400-$scheme.png" \
	    "file://$art/doctor.html" --window-size=1400,1200 "$@"
	is "$(png_size "$art/doctor-1400-$scheme.png")" 1400x1200 \
	    "screenshot at 1400 px, $scheme: doctor-1400-$scheme.png"
	browse --dump-dom "file://$FX.wboth.html" --window-size=1400,1200 "$@" \
	    > "$FX.dom-$scheme.html"
	cp "$FX.dom-$scheme.html" "$art/dom-$scheme.html"
done

m=$($check measured "$FX.dom-light.html")
diag "measured (width scrollWidth clientWidth reportWidth background):"
printf '%s\n' "$m" | sed 's/^/#   /'
w360=$(printf '%s\n' "$m" | awk '$1 == 360')
w1400=$(printf '%s\n' "$m" | awk '$1 == 1400')
like "$w360" '^360 ([0-9]+) \1 ' "360 px: no horizontal page scroll (scrollWidth = clientWidth)"
like "$w1400" '^1400 ([0-9]+) \1 ' "1400 px: no horizontal page scroll"
ok "1400 px: the report keeps a reading width (at most 960 px)" \
    test "$(printf '%s\n' "$w1400" | awk '{ print int($4) }')" -le 960
dark=$($check measured "$FX.dom-dark.html" | awk '$1 == 360 { print $5 }')
light=$(printf '%s\n' "$w360" | awk '{ print $5 }')
ok "the dark scheme changes the report's background ($light -> $dark)" \
    test -n "$dark" -a -n "$light" -a "$dark" != "$light"
out=$($check text "$FX.dom-light.html" "$FX.json")
is "$out" "" "the rendered text holds every finding's code, title and fix line"
is "$launches" 6 "six Chromium launches"

done_testing
