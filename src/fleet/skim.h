/* A fast look at a large JSON document for the few top-level members
 * fleet reads. jansson builds every object of a doctor report (its facts
 * are most of its bytes) at about 60 MB/s; 1,000 reports must be read
 * in well under a second. The skim checks the whole text as strict JSON
 * without building anything and gives the byte spans of the members
 * asked for, which jansson then parses alone. It only ever says yes to
 * a document jansson accepts: whatever it is not sure of (an error, a
 * key with escapes, a huge number, deep nesting, a repeated top-level
 * key) makes it say no, and the caller parses the document whole with
 * jansson, which gives the verdict and its message. */
#ifndef CUDAWIZ_FLEET_SKIM_H
#define CUDAWIZ_FLEET_SKIM_H

#include <stddef.h>

struct skim_span {
	const char	*at;	/* NULL: no such member */
	size_t		 len;
};

/* Checks that data[0..len) is one JSON object and fills spans[i] with
 * the value of member want[i] (want ends with NULL). Returns 0, or -1
 * when the caller must parse it whole. Duplicate keys are looked for
 * among the top-level members only: the values skimmed over are never
 * read. */
int	skim_object(const char *data, size_t len, const char *const *want,
	    struct skim_span *spans);

#endif
