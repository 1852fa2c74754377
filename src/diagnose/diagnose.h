/* diagnose: pure functions from facts to findings. No I/O of any kind. */
#ifndef CUDAWIZ_DIAGNOSE_H
#define CUDAWIZ_DIAGNOSE_H

#include "diagnose/finding.h"
#include "probe/facts.h"

/* Runs every rule over facts and appends what they find, sorted. */
void	diagnose(const struct facts *facts, struct findings *out);

/* The rule families, each in its own file. */
void	rules_gpu(const struct facts *facts, struct findings *out);	/* rules_gpu.c */
void	rules_env(const struct facts *facts, struct findings *out);	/* rules_env.c */
void	rules_toolkit(const struct facts *facts, struct findings *out);	/* rules_toolkit.c */

#endif
