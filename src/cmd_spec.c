/* cudawiz spec export: this machine's spec (spec/spec.h) as JSON, on
 * stdout or into -o FILE (atomically, util/atomicfile.h), for another
 * machine's `doctor --baseline` or for `fleet --baseline`. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "i18n.h"
#include "run/run.h"
#include "spec/spec.h"
#include "util/atomicfile.h"

extern char **environ;

/* doc, indented, and a newline: into path, or on stdout when NULL. */
static int
write_doc(const json_t *doc, const char *path)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *text, *err = NULL;
	size_t len;
	int rc = 0;

	if (s == NULL) {
		fprintf(stderr, _("%s: the spec could not be rendered\n"),
		    PACKAGE);
		return -1;
	}
	len = strlen(s);
	text = realloc(s, len + 2);
	if (text == NULL) {
		free(s);
		return -1;
	}
	text[len++] = '\n';
	text[len] = '\0';
	if (path != NULL) {
		if (atomic_write_file(path, text, len, &err) != 0) {
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
			free(err);
			rc = -1;
		}
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		perror(PACKAGE ": writing the spec");
		rc = -1;
	}
	free(text);
	return rc;
}

int
cmd_spec(const struct cli_opts *opts)
{
	struct cw_run r;
	json_t *doc;
	int rc;

	if (strcmp(opts->args[0], "export") != 0) {
		fprintf(stderr, _("%s: spec: unknown subcommand '%s' (export)\n"),
		    PACKAGE, opts->args[0]);
		return EXIT_USAGE;
	}
	if (run_open_or_say(&r, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	run_probe(&r, RUN_FULL);
	/* The matrix says which CUDA the driver runs and each GPU's
	 * compute capability. */
	run_annotate(&r);
	doc = spec_json(r.facts, r.now, true);
	rc = write_doc(doc, opts->output) == 0 ? EXIT_OK : EXIT_USAGE;
	json_decref(doc);
	run_close(&r);
	return rc;
}
