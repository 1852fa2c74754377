/* cudawiz matrix show | path | update: the compatibility matrix in use and
 * its refresh.
 *
 * An update is all or nothing (matrix/update.c, which the wizard runs
 * too): every source is fetched and checked first, NVIDIA's manifests are
 * merged into a copy of the data, the result is validated once more, and
 * only then is the cache replaced. Any failure on the way leaves the cache
 * byte-identical and ends with one line; this file only reports. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "matrix/update.h"
#include "present/matrix_show.h"
#include "util/xalloc.h"

static void
print_error(const char *msg)
{
	fprintf(stderr, "%s: %s\n", PACKAGE, msg);
}

static int
finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror(PACKAGE ": writing the output");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* ------------------------------------------------------------ show, path */

static int
matrix_show(const struct cli_opts *opts)
{
	struct matrix_show_view sh = { 0 };
	struct cache_meta meta;
	const struct matrix_cuda_release *cr;
	struct matrix *m;
	char *note, *err;
	int rc;

	m = select_matrix(opts->matrix_file, &note, &err);
	if (m == NULL) {
		print_error(err);
		free(err);
		return EXIT_USAGE;
	}
	if (note != NULL) {
		print_error(note);
		free(note);
	}
	sh.m = m;
	sh.cache_path = cache_matrix_path(&err);
	free(err);
	if (matrix_source(m) == MATRIX_CACHE) {
		if (cache_meta_load(matrix_path(m), &meta, &err) == 0)
			sh.checked = meta.checked;
		else
			free(err);
		cache_meta_free(&meta);
	}
	sh.age = select_age_days(matrix_date(m), time(NULL));
	sh.stale = select_stale(m, time(NULL), sh.checked);
	cr = matrix_newest_cuda(m);
	if (cr != NULL) {
		sh.newest_cuda = cr->version;
		sh.cuda_status = cr->status;
	}
	sh.newest_cudnn = matrix_newest_cudnn(m, &sh.cudnn_status);
	if (opts->json) {
		rc = matrix_show_json(stdout, &sh) ? EXIT_OK : EXIT_USAGE;
		if (rc == EXIT_OK)
			rc = finish_stdout();
		else
			perror(PACKAGE ": writing the output");
	} else {
		matrix_show_text(stdout, &sh);
		rc = finish_stdout();
	}
	free(sh.cache_path);
	matrix_free(m);
	return rc;
}

static int
matrix_path_cmd(const struct cli_opts *opts)
{
	char *path, *err;
	bool ok;

	path = cache_matrix_path(&err);
	if (path == NULL) {
		print_error(err);
		free(err);
		return EXIT_FINDINGS;
	}
	ok = matrix_path_print(stdout, path, opts->json);
	free(path);
	if (!ok) {
		perror(PACKAGE ": writing the output");
		return EXIT_USAGE;
	}
	return finish_stdout();
}

/* ---------------------------------------------------------------- update */

/* The report: one JSON document, or a line per source and the result
 * (present/matrix_show.c). */
static int
report(const struct matrix_update *u, bool json, const char *result,
    const struct matrix *m, const char *error)
{
	if (!matrix_update_print(stdout, u, json, result, m, error)) {
		perror(PACKAGE ": writing the output");
		return EXIT_USAGE;
	}
	return finish_stdout();
}

static int
update_failed(const struct matrix_update *u, bool json)
{
	char *line = xasprintf(_("matrix update failed: %s; the cached matrix "
	    "is unchanged"), u->err);
	int rc;

	print_error(line);
	rc = report(u, json, "failed", NULL, line);
	free(line);
	return rc == EXIT_OK ? EXIT_FINDINGS : rc;
}

/* The update itself is matrix/update.c's, shared with the wizard; this
 * says how it went. */
static int
matrix_update(const struct cli_opts *opts)
{
	struct matrix_update_opts o = {
		.urls = opts->urls,
		.nurls = opts->nurls,
		.matrix_file = opts->matrix_file,
		.offline = opts->offline,
		.root = opts->root,
		.connect_timeout_ms = opts->connect_timeout_ms,
		.timeout_ms = opts->timeout_ms,
	};
	struct matrix_update u;
	int rc = EXIT_FINDINGS;

	switch (matrix_update_run(&o, &u)) {
	case MATRIX_UPDATE_REFUSED:
		print_error(u.err);
		break;
	case MATRIX_UPDATE_BAD_BASE:
		print_error(u.err);
		rc = EXIT_USAGE;
		break;
	case MATRIX_UPDATE_FAILED:
	case MATRIX_UPDATE_CANCELLED:
		rc = update_failed(&u, opts->json);
		break;
	case MATRIX_UPDATE_NO_LIBCURL:
		/* Something to install first: the usage class, like a
		 * missing tool, so that scripts tell it from a failed fetch. */
		update_failed(&u, opts->json);
		rc = EXIT_USAGE;
		break;
	case MATRIX_UPDATE_UP_TO_DATE:
		rc = report(&u, opts->json, "up-to-date", u.m, NULL);
		break;
	case MATRIX_UPDATE_UPDATED:
		rc = report(&u, opts->json, "updated", u.m, NULL);
		break;
	}
	matrix_update_free(&u);
	return rc;
}

int
cmd_matrix(const struct cli_opts *opts)
{
	const char *sub = opts->args[0];	/* the dispatcher checked: one word */

	if (strcmp(sub, "update") != 0 && (opts->nurls > 0 ||
	    opts->connect_timeout_ms > 0 || opts->timeout_ms > 0)) {
		fprintf(stderr, _("%s: --url, --connect-timeout and --timeout are "
		    "options of 'matrix update'\n"), PACKAGE);
		return EXIT_USAGE;
	}
	if (strcmp(sub, "show") == 0)
		return matrix_show(opts);
	if (strcmp(sub, "path") == 0)
		return matrix_path_cmd(opts);
	if (strcmp(sub, "update") == 0)
		return matrix_update(opts);
	fprintf(stderr, _("%s: unknown matrix subcommand '%s' (show, path or "
	    "update)\n"), PACKAGE, sub);
	return EXIT_USAGE;
}
