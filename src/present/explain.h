/* What `cudawiz explain` shows: each recognised message with what this
 * machine makes of it, or what was picked out of text that matched
 * nothing; then the findings. As text or as the cudawiz/explain/1
 * document. */
#ifndef CUDAWIZ_PRESENT_EXPLAIN_H
#define CUDAWIZ_PRESENT_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diagnose/finding.h"
#include "explain/recognize.h"
#include "facts/facts.h"

struct matrix;

/* A finished explain run, borrowed from the command. */
struct explain_view {
	const char		*input;		/* len bytes, may hold NUL */
	size_t			 input_len;
	bool			 input_cut;	/* longer than EXPLAIN_INPUT_MAX */
	const struct explain	*ex;
	const struct matrix	*m;
	const char		*root;		/* facts.root */
	/* The libraries resolved here: libs[i] is sonames->v[i]. */
	const struct strv	*sonames;
	const struct lib_fact	*libs;
	const struct findings	*findings;
	/* Per match: whether its paths are on this machine; NULL: all are. */
	const struct explain_where *where;
};

/* Each returns 0, or -1 when writing failed. */
/* The resolution of soname among the view's looked-up libraries (sonames
 * and libs run in parallel); NULL when it was not looked up. */
const struct lib_fact	*explain_lib_of(const struct strv *sonames,
	    const struct lib_fact *libs, const char *soname);

int	explain_print_text(FILE *fp, const struct explain_view *v, bool color);
int	explain_print_json(FILE *fp, const struct explain_view *v);

#endif
