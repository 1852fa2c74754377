#include "config.h"

#include "probe/probe.h"

void
probe_environ(struct probe_ctx *ctx)
{
	(void)ctx;
}
