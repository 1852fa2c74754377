/* The runs live verification makes, planned from doctor's facts (internal
 * to src/verify). */
#ifndef CUDAWIZ_VERIFY_PLAN_H
#define CUDAWIZ_VERIFY_PLAN_H

#include "facts/facts.h"

#include <sys/types.h>

/* What the plan may load (docs/VERIFY.md, "What is loaded"). */
struct verify_trust {
	const uid_t	*uids;		/* who may own the trees: root, the invoker */
	size_t		 nuids;
	const char	*named;		/* verify --env's real path; NULL */
};

/* Appends one run per library to vf->runs (argv and environment not
 * filled yet), or to vf->not_loaded with the reason when t does not let
 * it be loaded. */
void	verify_plan(const struct facts *f, const struct verify_trust *t,
	    struct verify_facts *vf);

#endif
