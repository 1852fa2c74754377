/* Finding Python environments (issue 5: in progress). */
#include "config.h"

#include "probe/probe.h"

void
probe_python_envs(struct probe_ctx *ctx)
{
	(void)ctx;
}
