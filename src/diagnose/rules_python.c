/* Findings about Python environments and frameworks (issue 5: in progress). */
#include "config.h"

#include "diagnose/diagnose.h"

void
rules_python(const struct diagnose_input *in, struct findings *out)
{
	(void)in;
	(void)out;
}
