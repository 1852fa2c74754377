/* Building an environment plan (src/envscript/envplan.h) from doctor's
 * facts: from the user's choices (a toolkit, a cuDNN, a Python
 * environment whose frameworks must load, extra library directories), or
 * with none, the plan doctor recommends: the smallest change that makes
 * every detected framework's needs resolve where its framework expects
 * them, and that takes out what breaks them (stubs directories, missing
 * directories, empty entries, directories that shadow a framework's own
 * copies). Pure: reads facts, writes the plan. */
#ifndef CUDAWIZ_ENVPLAN_BUILD_H
#define CUDAWIZ_ENVPLAN_BUILD_H

#include <stdbool.h>

#include "envscript/envplan.h"
#include "facts/facts.h"

struct plan_opts {
	const char	*toolkit;	/* "12.4", "12", or a toolkit's directory; NULL */
	const char	*cudnn;		/* a directory holding libcudnn.so.N; NULL */
	const char	*python_env;	/* an environment's prefix; NULL: the active ones */
	struct strv	 add_lib;	/* --add-lib DIR, in order */
	bool		 keep_other_cuda;
};

/* What the plan could not do by the environment alone: needs that no
 * directory on this machine holds (an install is the fix). */
struct plan_report {
	struct strv	 unfixable;	/* "libcudnn.so.8 for tensorflow 2.15 (env tf)" */
	struct strv	 targets;	/* the environments served */
};

/* 0, or -1 with *err (a toolkit or environment the facts do not know). */
int	plan_build(const struct facts *f, const struct plan_opts *o,
	    struct env_plan *out, struct plan_report *rep, char **err);
void	plan_report_free(struct plan_report *r);

#endif
