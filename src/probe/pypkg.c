/* Listing the packages of each Python environment (issue 5: in progress). */
#include "config.h"

#include "probe/probe.h"

void
probe_python_packages(struct probe_ctx *ctx)
{
	(void)ctx;
}
