#include "config.h"

#include "probe/probe.h"

void
probe_cudnn(struct probe_ctx *ctx)
{
	(void)ctx;
}
