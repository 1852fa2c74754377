/* cudawiz spec export in the Windows program: this machine's spec
 * (spec/spec.h) over its Windows facts bridged into the shared model
 * (winprobe/winbridge.h), with the same item keys as Linux's where they
 * mean the same, so a Windows spec diffs against a Linux one item by
 * item. On stdout, or into -o FILE atomically (util/atomicfile.h). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "i18n.h"
#include "spec/spec.h"
#include "util/atomicfile.h"
#include "win/bridged.h"
#include "win/winrun.h"

/* doc, indented, and a newline: into path, or on stdout when NULL. */
static int
write_doc(const json_t *doc, const char *path)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *err = NULL;
	int rc = 0;

	if (text == NULL) {
		fprintf(stderr, _("%s: the spec could not be rendered\n"),
		    PACKAGE);
		return -1;
	}
	if (path != NULL) {
		size_t len = strlen(text);
		char *nl = realloc(text, len + 2);

		if (nl == NULL) {
			free(text);
			return -1;
		}
		text = nl;
		text[len++] = '\n';
		text[len] = '\0';
		if (atomic_write_file(path, text, len, &err) != 0) {
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
			free(err);
			rc = -1;
		}
	} else if (printf("%s\n", text) < 0 || fflush(stdout) != 0) {
		perror(PACKAGE ": writing the spec");
		rc = -1;
	}
	free(text);
	return rc;
}

int
cmd_spec(const struct cli_opts *opts)
{
	struct win_run r;
	struct facts *f;
	json_t *doc;
	int rc;

	if (strcmp(opts->args[0], "export") != 0) {
		fprintf(stderr, _("%s: spec: unknown subcommand '%s' (export)\n"),
		    PACKAGE, opts->args[0]);
		return EXIT_USAGE;
	}
	if (win_run_open_or_say(&r, opts->matrix_file, true) != 0)
		return EXIT_USAGE;
	f = bridged_facts(&r);
	doc = spec_json(f, time(NULL), true);
	rc = write_doc(doc, opts->output) == 0 ? EXIT_OK : EXIT_USAGE;
	json_decref(doc);
	facts_free(f);
	win_run_close(&r);
	return rc;
}
