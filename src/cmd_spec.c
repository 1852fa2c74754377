/* cudawiz spec export: this machine's spec (spec/spec.h) as JSON, on
 * stdout or into -o FILE (atomically: spec/specout.h), for another
 * machine's `doctor --baseline` or for `fleet --baseline`. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "run/run.h"
#include "spec/spec.h"
#include "spec/specout.h"

extern char **environ;

int
cmd_spec(const struct cli_opts *opts)
{
	struct cw_run r;
	json_t *doc;
	int rc;

	if (!spec_is_export(opts->args[0]))
		return EXIT_USAGE;
	if (run_open_or_say(&r, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	run_probe(&r, RUN_FULL);
	/* The matrix says which CUDA the driver runs and each GPU's
	 * compute capability. */
	run_annotate(&r);
	doc = spec_json(r.facts, r.now, true);
	rc = spec_write_doc(doc, opts->output) == 0 ? EXIT_OK : EXIT_USAGE;
	json_decref(doc);
	run_close(&r);
	return rc;
}
