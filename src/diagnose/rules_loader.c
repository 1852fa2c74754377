/* Placeholder until the loader rules land. */
#include "config.h"

#include "diagnose/diagnose.h"

void
rules_loader(const struct diagnose_input *in, struct findings *out)
{
	for (size_t i = 0; i < in->facts->libraries.n; i++)
		rules_library(in, &in->facts->libraries.v[i], out);
}

void
rules_library(const struct diagnose_input *in, const struct lib_fact *lib,
    struct findings *out)
{
	(void)in; (void)lib; (void)out;
}
