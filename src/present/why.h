/* The text and JSON views of `cudawiz why`: the loader's steps for a
 * name, what it loads in turn, and the loader findings. The text shows
 * the head and the tail of a long search list; --json keeps every step. */
#ifndef CUDAWIZ_PRESENT_WHY_H
#define CUDAWIZ_PRESENT_WHY_H

#include <stdbool.h>
#include <stdio.h>

#include "diagnose/finding.h"
#include "loader/resolve.h"

/* What why found, as the views read it; everything is borrowed. */
struct why_view {
	const char			*name;		/* NULL: the closure of from */
	const char			*from;		/* --from FILE; NULL */
	const struct loader_session	*ls;
	const struct resolution		*res;
	const struct closure		*deps;
	const struct findings		*findings;
	const char			*error;		/* from cannot be read; NULL */
};

/* Both return 0, or -1 when writing failed. */
int	why_print_json(FILE *fp, const struct why_view *w);
int	why_print_text(FILE *fp, const struct why_view *w, bool color);

#endif
