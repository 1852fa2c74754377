/* The screen layout; see layout.h. */
#include "config.h"

#include "wizard/layout.h"

void
wlayout_compute(int rows, int cols, struct wlayout *out)
{
	*out = (struct wlayout){ 0 };
	out->too_small = rows < WIZ_MIN_ROWS || cols < WIZ_MIN_COLS;
	if (out->too_small)
		return;
	out->title = (struct wrect){ 0, 0, 1, cols };
	out->frame = (struct wrect){ 1, 0, rows - 2, cols };
	out->compact = rows < WIZ_FULL_ROWS || cols < WIZ_FULL_COLS;
	out->wide = cols >= WIZ_WIDE_COLS;
	/* Inside the box, one blank column each side so text never touches
	 * the frame; a compact screen needs those two columns for text. */
	if (out->compact)
		out->body = (struct wrect){ 2, 1, rows - 4, cols - 2 };
	else
		out->body = (struct wrect){ 2, 2, rows - 4, cols - 4 };
	out->status = (struct wrect){ rows - 1, 0, 1, cols };
}

struct wrect
wlayout_center(int rows, int cols, int h, int w)
{
	struct wrect r;

	if (h > rows - 2)
		h = rows - 2;
	if (w > cols - 4)
		w = cols - 4;
	if (h < 1)
		h = 1;
	if (w < 1)
		w = 1;
	r.rows = h;
	r.cols = w;
	r.row = (rows - h) / 2;
	r.col = (cols - w) / 2;
	return r;
}
