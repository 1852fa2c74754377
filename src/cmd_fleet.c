/* cudawiz fleet: many hosts' doctor reports at once (fleet/fleet.h);
 * text, JSON or HTML, to stdout or atomically to -o FILE. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "fleet/fleet.h"
#include "i18n.h"
#include "present/fleet.h"
#include "present/style.h"
#include "spec/reference.h"
#include "spec/specdiff.h"
#include "util/atomicfile.h"
#include "util/xalloc.h"

#define MAX_AGE_DEFAULT_S (24L * 3600)

/* --baseline FILE (spec/reference.h), or NULL after saying why. */
static json_t *
load_baseline(const char *file, const json_t **items, const char **host)
{
	char *err = NULL;
	json_t *doc = spec_load_reference(file, items, host, &err);

	if (doc == NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
	}
	return doc;
}

static int
print(FILE *fp, const struct fleet *fl, const struct cli_opts *opts,
    bool color)
{
	if (opts->json)
		return fleet_print_json(fp, fl);
	if (opts->html)
		return fleet_print_html(fp, fl);
	return fleet_print_text(fp, fl, color);
}

/* The report to stdout, or to -o FILE in one rename. */
static int
write_report(const struct fleet *fl, const struct cli_opts *opts)
{
	struct atomic_out ao;
	char *err = NULL;
	FILE *fp;

	if (opts->output == NULL) {
		if (print(stdout, fl, opts, style_want_color(STDOUT_FILENO,
		    opts->color)) != 0 || fflush(stdout) != 0) {
			perror(PACKAGE ": writing the report");
			return -1;
		}
		return 0;
	}
	if ((fp = atomic_out_open(&ao, opts->output)) == NULL) {
		perror(PACKAGE ": writing the report");
		return -1;
	}
	if (print(fp, fl, opts, false) != 0) {
		atomic_out_abort(&ao);
		fprintf(stderr, _("%s: %s: the report could not be made\n"),
		    PACKAGE, opts->output);
		return -1;
	}
	if (atomic_out_commit(&ao, &err) != 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		return -1;
	}
	return 0;
}

int
cmd_fleet(const struct cli_opts *opts)
{
	const json_t *items = NULL;
	json_t *base = NULL;
	struct fleet fl;
	int rc;

	fleet_init(&fl);
	if (opts->baseline != NULL) {
		base = load_baseline(opts->baseline, &items, &fl.baseline_host);
		if (base == NULL)
			return EXIT_USAGE;
		fl.baseline = opts->baseline;
	}
	for (int i = 0; i < opts->nargs; i++)
		fleet_add_arg(&fl, opts->args[i]);
	fleet_finish(&fl, (int64_t)time(NULL), opts->max_age_s > 0 ?
	    opts->max_age_s : MAX_AGE_DEFAULT_S, items);
	if (write_report(&fl, opts) != 0)
		rc = EXIT_USAGE;
	else
		rc = fleet_failed(&fl) ? EXIT_FINDINGS : EXIT_OK;
	fleet_free(&fl);
	json_decref(base);
	return rc;
}
