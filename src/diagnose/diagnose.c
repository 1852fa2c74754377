/* Runs the rule families in a fixed order; see diagnose.h. */
#include "config.h"

#include "diagnose/diagnose.h"

static void (*const rules[])(const struct facts *, struct findings *) = {
	rules_gpu,
	rules_env,
	rules_toolkit,
};

void
diagnose(const struct facts *facts, struct findings *out)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		rules[i](facts, out);
	findings_sort(out);
}
