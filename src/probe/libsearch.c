#include "config.h"

#include "probe/probe.h"

void
probe_libraries(struct probe_ctx *ctx)
{
	(void)ctx;
}
