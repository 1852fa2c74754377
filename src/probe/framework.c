/* The GPU frameworks of each Python environment (issue 5: in progress). */
#include "config.h"

#include "probe/probe.h"

void
probe_frameworks(struct probe_ctx *ctx)
{
	(void)ctx;
}
