/* cudawiz spec export in the Windows program: this machine's spec
 * (spec/spec.h) over its Windows facts bridged into the shared model
 * (winprobe/winbridge.h), with the same item keys as Linux's where they
 * mean the same, so a Windows spec diffs against a Linux one item by
 * item. On stdout, or into -o FILE atomically (spec/specout.h). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "spec/spec.h"
#include "spec/specout.h"
#include "win/bridged.h"
#include "win/winrun.h"

int
cmd_spec(const struct cli_opts *opts)
{
	struct win_run r;
	struct facts *f;
	json_t *doc;
	int rc;

	if (!spec_is_export(opts->args[0]))
		return EXIT_USAGE;
	if (win_run_open_or_say(&r, opts->matrix_file, true) != 0)
		return EXIT_USAGE;
	f = bridged_facts(&r);
	doc = spec_json(f, time(NULL), true);
	rc = spec_write_doc(doc, opts->output) == 0 ? EXIT_OK : EXIT_USAGE;
	json_decref(doc);
	facts_free(f);
	win_run_close(&r);
	return rc;
}
