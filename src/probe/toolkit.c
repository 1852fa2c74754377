#include "config.h"

#include "probe/probe.h"

void
probe_toolkits(struct probe_ctx *ctx)
{
	(void)ctx;
}
