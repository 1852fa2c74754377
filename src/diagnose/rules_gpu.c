#include "config.h"

#include "diagnose/diagnose.h"

void
rules_gpu(const struct facts *facts, struct findings *out)
{
	(void)facts;
	(void)out;
}
