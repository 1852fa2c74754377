/* The runs live verification makes, planned from doctor's facts (internal
 * to src/verify). */
#ifndef CUDAWIZ_VERIFY_PLAN_H
#define CUDAWIZ_VERIFY_PLAN_H

#include "probe/facts.h"

/* Appends one run per library to vf->runs (argv and environment not
 * filled yet). */
void	verify_plan(const struct facts *f, struct verify_facts *vf);

#endif
