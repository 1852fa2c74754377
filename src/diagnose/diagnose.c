/* Runs the rule families in a fixed order; see diagnose.h. */
#include "config.h"

#include "diagnose/diagnose.h"

static void (*const fact_rules[])(const struct facts *, struct findings *) = {
	rules_gpu,
	rules_hw,
	rules_env,
	rules_toolkit,
};

void
diagnose(const struct diagnose_input *in, struct findings *out)
{
	for (size_t i = 0; i < sizeof fact_rules / sizeof fact_rules[0]; i++)
		fact_rules[i](in->facts, out);
	rules_loader(in, out);
	rules_python(in, out);
	rules_toolkit_builds(in, out);
	if (in->matrix != NULL) {
		rules_matrix(in, out);
		rules_newer(in, out);
	}
	rules_verify(in, out);
	rules_drift(in, out);
	findings_sort(out);
}
