/* cudawiz why: how the dynamic loader would resolve a name, step by step.
 *
 *   why SONAME [--from FILE]   dlopen(SONAME) from FILE, or from a plain
 *                              program, and what the winner loads in turn
 *   why --from FILE            FILE's DT_NEEDED closure, like ldd
 *
 * Nothing is run or loaded: the answer comes from the loader model. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "i18n.h"
#include "loader/resolve.h"
#include "present/html.h"
#include "present/style.h"
#include "present/why.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

extern char **environ;

struct why {
	const struct cli_opts	*opts;
	struct loader_session	 ls;
	struct facts		*facts;
	struct strv		 ldconf, extra;
	struct findings		 findings;
	const char		*name;		/* NULL: closure of --from */
	struct resolution	 res;
	struct closure		 deps;
	char			*error;		/* the requester cannot be read */
};

/* -------------------------------------------------------------- command */

/* The loader findings for one resolution (the name asked about, or a
 * need of the closure that did not resolve), by the rules doctor uses. */
static void
judge(struct why *w, const struct resolution *r)
{
	struct diagnose_input in = { .facts = w->facts };
	struct resolution copy;
	struct lib_fact lib;

	resolution_copy(&copy, r);
	probe_library_from(&w->ls.env, r->name, &copy, &lib);
	rules_library(&in, &lib, &w->findings);
	lib_fact_free(&lib);
}

static void
judge_all(struct why *w)
{
	if (w->error != NULL)
		return;
	if (w->name != NULL)
		judge(w, &w->res);
	for (size_t i = 0; i < w->deps.resolutions.n; i++)
		if (w->deps.resolutions.v[i].resolved == NULL)
			judge(w, &w->deps.resolutions.v[i]);
	findings_sort(&w->findings);
}

static int
present(const struct why *w)
{
	struct why_view v = {
		.name = w->name, .from = w->opts->from, .ls = &w->ls,
		.res = &w->res, .deps = &w->deps, .findings = &w->findings,
		.error = w->error,
	};

	if (w->opts->json)
		return why_print_json(stdout, &v);
	if (w->opts->html)
		return html_print_why(stdout, &v);
	return why_print_text(stdout, &v,
	    style_want_color(STDOUT_FILENO, w->opts->color));
}

static bool
all_resolved(const struct why *w)
{
	if (w->error != NULL)
		return false;
	if (w->name != NULL && w->res.resolved == NULL)
		return false;
	return w->deps.missing == 0;
}

int
cmd_why(const struct cli_opts *opts)
{
	struct why w = { .opts = opts };
	struct sysroot *sr;
	char *err = NULL;
	int rc;

	w.name = opts->nargs == 1 ? opts->args[0] : NULL;
	if (w.name != NULL && w.name[0] == '\0') {
		fprintf(stderr, _("%s: why: the library name is empty\n"), PACKAGE);
		return EXIT_USAGE;
	}
	sr = sysroot_new(opts->root, &err);
	if (sr == NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		return EXIT_USAGE;
	}
	sysroot_keep_listings(sr);
	loader_session_init(&w.ls, sr, environ);
	/* The probes say where else libraries live, so "not found" can say
	 * where a library does exist; under --root a tree without a cache
	 * gets its ld.so.conf directories in the cache's place. */
	w.facts = probe_for_loader(sr, environ);
	probe_loader_dirs(w.facts, &w.ldconf, &w.extra);
	w.ls.env.extra_dirs = &w.extra;
	if (!sysroot_is_host(sr))
		w.ls.env.ldconf_dirs = &w.ldconf;
	if (w.name != NULL) {
		if (resolve_dlopen(&w.ls.env, w.name, opts->from, &w.res, &w.deps,
		    &err) != 0)
			w.error = err;
	} else if (resolve_closure(&w.ls.env, opts->from, &w.deps, &err) != 0) {
		w.error = err;
	}
	judge_all(&w);
	rc = present(&w);
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0) {
		perror(PACKAGE ": writing the report");
		rc = EXIT_USAGE;
	} else if (w.error != NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, w.error);
		rc = EXIT_USAGE;
	} else {
		rc = all_resolved(&w) ? EXIT_OK : EXIT_FINDINGS;
	}
	free(w.error);
	findings_free(&w.findings);
	resolution_free(&w.res);
	closure_free(&w.deps);
	loader_session_free(&w.ls);
	strv_free(&w.ldconf);
	strv_free(&w.extra);
	facts_free(w.facts);
	sysroot_free(sr);
	return rc;
}
