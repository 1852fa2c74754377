#include "config.h"

#include "probe/probe.h"

void
probe_driver(struct probe_ctx *ctx)
{
	(void)ctx;
}
