/* One run of the pipeline; see run.h. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diagnose/diagnose.h"
#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "run/run.h"
#include "spec/reference.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"
#include "verify/verify.h"

/* When the matrix was last refreshed from the network, from the cache's
 * sidecar; 0 when never (or when that cannot be read: then MATRIX_STALE
 * may say so, which is the right advice). */
static time_t
matrix_checked(void)
{
	struct cache_meta meta = { 0 };
	char *path, *err = NULL;
	time_t checked = 0;

	path = cache_matrix_path(&err);
	if (path != NULL && cache_meta_load(path, &meta, &err) == 0)
		checked = meta.checked;
	cache_meta_free(&meta);
	free(path);
	free(err);
	return checked;
}

/* Opens the tree for r, whose matrix is set. */
static int
open_tree(struct cw_run *r, const char *root, char *const *envp, char **err)
{
	r->envp = envp;
	r->sr = sysroot_new(root, err);
	if (r->sr == NULL) {
		run_close(r);
		return -1;
	}
	/* The commands only read: each directory is listed once. */
	sysroot_keep_listings(r->sr);
	r->shared.matrix = r->m;
	r->now = time(NULL);
	r->matrix_checked = matrix_checked();
	return 0;
}

int
run_open(struct cw_run *r, const char *root, const char *matrix_file,
    char *const *envp, char **err)
{
	memset(r, 0, sizeof *r);
	r->m_owned = select_matrix(matrix_file, &r->matrix_note, err);
	if (r->m_owned == NULL) {
		run_close(r);
		return -1;
	}
	r->m = r->m_owned;
	return open_tree(r, root, envp, err);
}

int
run_open_with(struct cw_run *r, const char *root, const struct matrix *m,
    const char *note, char *const *envp, char **err)
{
	memset(r, 0, sizeof *r);
	r->m = m;
	r->matrix_note = note != NULL ? xstrdup(note) : NULL;
	return open_tree(r, root, envp, err);
}

int
run_open_or_say(struct cw_run *r, const char *root, const char *matrix_file,
    char *const *envp)
{
	char *err = NULL;

	if (run_open(r, root, matrix_file, envp, &err) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
	free(err);
	return -1;
}

void
run_say_note(const struct cw_run *r)
{
	if (r->matrix_note != NULL)
		fprintf(stderr, _("%s: compatibility matrix cache: %s\n"),
		    PACKAGE, r->matrix_note);
}

int
run_load_baseline(struct cw_run *r, const char *path, char **err)
{
	const json_t *items = NULL;
	const char *host = NULL;
	json_t *doc = spec_load_reference(path, &items, &host, err);

	if (doc == NULL)
		return -1;
	json_decref(r->baseline_doc);
	r->baseline_doc = doc;
	r->baseline_items = items;
	r->baseline_host = host;
	return 0;
}

void
run_probe(struct cw_run *r, enum run_probes which)
{
	r->facts = probe_shared_run(r->sr, r->envp, &r->shared,
	    which == RUN_LEAN);
}

void
run_reprobe(struct cw_run *r)
{
	facts_free(r->facts);
	r->facts = NULL;
	/* ldconfig may have run meanwhile: the profile made from the old
	 * cache would hide what it changed. */
	probe_shared_free(&r->shared);
	run_probe(r, RUN_FULL);
}

struct facts *
run_probe_env(struct cw_run *r, char *const *envp)
{
	return probe_shared_run(r->sr, envp, &r->shared, false);
}

const struct loader_profile *
run_loader_profile(struct cw_run *r)
{
	return probe_shared_profile(&r->shared, r->sr);
}

void
run_annotate_facts(const struct cw_run *r, struct facts *facts)
{
	if (r->matrix_note != NULL)
		facts_note(facts, _("compatibility matrix cache"), "%s",
		    r->matrix_note);
	diagnose_annotate(facts, r->m);
}

void
run_annotate(struct cw_run *r)
{
	run_annotate_facts(r, r->facts);
}

/* ------------------------------------------------------------ verify */

/* Progress on a terminal's stderr: a check can take seconds. */
static void
progress(void *arg, const struct verify_run *v, size_t i, size_t n)
{
	(void)arg;
	/* The line rewrites itself: the control bytes stay out of the
	 * message translators see. */
	fputc('\r', stderr);
	fprintf(stderr, _("checking %zu/%zu: %s %s"), i + 1, n,
	    verify_kind_name(v->kind), v->lib);
	fputs("\033[K", stderr);
	fflush(stderr);
}

static void
verify_with(struct cw_run *r, const struct run_live *l, bool quick)
{
	struct verify_opts vo = { 0 };
	bool shown = l->progress && isatty(STDERR_FILENO);

	vo.timeout_s = l->timeout_ms > 0 ? l->timeout_ms / 1000.0 : 0;
	vo.quick = quick;
	vo.envp = r->envp;
	vo.env = l->env;
	vo.progress = shown ? progress : NULL;
	verify_all(r->facts, &vo);
	if (shown)
		fputs("\r\033[K", stderr);
}

void
run_verify_by_policy(struct cw_run *r, const struct run_live *l)
{
	struct verify_facts *vf = &r->facts->verify;

	if (l->no_verify) {
		vf->why = xstrdup(_("--no-verify"));
		return;
	}
	if (!r->facts->live_allowed) {
		vf->why = xstrdup(_("a --root tree is read, not run: nothing is "
		    "loaded"));
		return;
	}
	if (!facts_driver_present(r->facts)) {
		vf->why = xstrdup(_("no NVIDIA driver is loaded ('cudawiz verify' "
		    "checks the libraries anyway)"));
		return;
	}
	verify_with(r, l, true);
}

void
run_verify(struct cw_run *r, const struct run_live *l)
{
	verify_with(r, l, l->quick);
}

/* ---------------------------------------------------------- diagnose */

void
run_diagnose_input(struct cw_run *r, const struct facts *facts,
    struct diagnose_input *in)
{
	/* The rules' "now" is taken when they run, after the checks. */
	r->now = time(NULL);
	in->facts = facts;
	in->matrix = r->m;
	in->now = r->now;
	in->matrix_checked = r->matrix_checked;
	in->baseline = r->baseline_items;
	in->baseline_host = r->baseline_host;
}

void
run_diagnose_facts(struct cw_run *r, struct facts *facts,
    struct findings *out)
{
	struct diagnose_input in;

	run_diagnose_input(r, facts, &in);
	diagnose(&in, out);
}

void
run_diagnose(struct cw_run *r)
{
	run_diagnose_facts(r, r->facts, &r->findings);
}

void
run_close(struct cw_run *r)
{
	findings_free(&r->findings);
	if (r->facts != NULL)
		facts_free(r->facts);
	probe_shared_free(&r->shared);
	if (r->sr != NULL)
		sysroot_free(r->sr);
	if (r->m_owned != NULL)
		matrix_free(r->m_owned);
	free(r->matrix_note);
	json_decref(r->baseline_doc);
	memset(r, 0, sizeof *r);
}
