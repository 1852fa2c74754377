#!/bin/sh
# A terminal that says it is 5000x5000 (issue 16, point 11): the wizard's
# screen grid is capped at 1000 columns x 500 rows (WSCREEN_MAX_COLS,
# WSCREEN_MAX_ROWS in src/wizard/screen.h), so it never allocates a cell
# for each of the 25 million positions; it draws the top-left part and
# works as at any other size. wizard-render prints one line per grid row,
# each at most one cell per column, so the printed frame shows the grid's
# size.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

WR=${WIZARD_RENDER:?}
[ -x "$WR" ] || skip_all "no $WR (build tests/tools/wizard-render)"

fx_new
fx_healthy_gpu
K=$FX.keys
fx_dirs="$fx_dirs $K $FX.frames"
printf 'right\nresize:6000x7000\nright\nq\n' > "$K"

LC_ALL=C "$WR" --root "$FX" ${FX_MATRIX:+--matrix "$FX_MATRIX"} \
    --size 5000x5000 --keys "$K" > "$FX.frames" 2> "$FX.stderr"
is "$?" 0 "a 5000x5000 terminal: the wizard runs and quits"
# Each frame starts "=== KEY (COLSxROWS) ===" with the grid's size,
# then one line per row.
sizes=$(sed -n 's/^=== .* (\([0-9]*x[0-9]*\)) ===$/\1/p' "$FX.frames" | sort -u | tr '\n' ' ')
is "$sizes" "1000x500 " "every frame's grid is capped at 1000x500, at the start and after a resize"
rows=$(awk '/^=== /{ if (n > m) m = n; n = 0; next } { n++ } END { if (n > m) m = n; print m + 0 }' "$FX.frames")
ok "at most 500 rows are printed ($rows)" test "$rows" -le 500
like "$(cat "$FX.frames")" "cudawiz" "the pages are drawn in the part shown"
is "$(cat "$FX.stderr")" "" "nothing on stderr"

done_testing
