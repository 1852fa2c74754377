/* See compare.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/finding.h"
#include "envplan/compare.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

const char *
need_state_name(enum need_state s)
{
	static const char *const names[] = { "resolves", "shadowed", "stub",
	    "missing", "absent" };

	return names[s];
}

const char *
need_verdict_name(enum need_verdict v)
{
	static const char *const names[] = { "unchanged", "moved", "fixed",
	    "still_broken", "broken" };

	return names[v];
}

static bool
good(enum need_state s)
{
	return s == NEED_RESOLVES;
}

static void
side_of(struct check_side *s, const struct lib_fact *l,
    enum step_source shadowed)
{
	if (l == NULL) {
		s->state = NEED_ABSENT;
		return;
	}
	s->path = l->resolved != NULL ? xstrdup(l->resolved) : NULL;
	s->real = l->target != NULL ? xstrdup(l->target) : NULL;
	s->via = l->via != STEP_NONE ? xstrdup(step_words(l->via, STEPW_FACT)) : NULL;
	s->error = l->error != NULL ? xstrdup(l->error) : NULL;
	if (l->resolved == NULL)
		s->state = NEED_MISSING;
	else if (l->stub)
		s->state = NEED_STUB;
	else if (shadowed != STEP_NONE)
		s->state = NEED_SHADOWED;
	else
		s->state = NEED_RESOLVES;
}

void
check_row_judge(struct check_row *r)
{
	bool b = good(r->before.state), a = good(r->after.state);

	/* The same file reached through another link is not a move. */
	if (b && a)
		r->verdict = (r->before.path != NULL && r->after.path != NULL &&
		    strcmp(r->before.path, r->after.path) == 0) ||
		    (r->before.real != NULL && r->after.real != NULL &&
		    strcmp(r->before.real, r->after.real) == 0) ?
		    VERDICT_UNCHANGED : VERDICT_MOVED;
	else if (a)
		r->verdict = VERDICT_FIXED;
	else if (b)
		r->verdict = VERDICT_BROKEN;
	else
		r->verdict = VERDICT_STILL_BROKEN;
}

static const struct py_env *
env_in(const struct facts *f, const char *prefix)
{
	for (size_t i = 0; i < f->python_envs.n; i++)
		if (path_same(f->python_envs.v[i].prefix, prefix))
			return &f->python_envs.v[i];
	return NULL;
}

static const struct fw_need *
need_in(const struct py_env *e, const struct framework_fact *fw,
    const char *soname)
{
	for (size_t i = 0; e != NULL && i < e->frameworks.n; i++) {
		const struct framework_fact *o = &e->frameworks.v[i];

		if (strcmp(o->name, fw->name) != 0 || (o->dir != NULL &&
		    fw->dir != NULL && strcmp(o->dir, fw->dir) != 0))
			continue;
		for (size_t j = 0; j < o->needs.n; j++)
			if (strcmp(o->needs.v[j].soname, soname) == 0)
				return &o->needs.v[j];
	}
	return NULL;
}

/* The frameworks that run on the GPU themselves, in the environment as
 * it is after (the one the script is for). */
static void
framework_rows(const struct facts *before, const struct facts *after,
    struct check_rows *out)
{
	for (size_t i = 0; i < after->python_envs.n; i++) {
		const struct py_env *e = &after->python_envs.v[i];
		const struct py_env *eb = env_in(before, e->prefix);

		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];

			if (fw->gpu == FW_GPU_NO || fw->gpu_through != NULL)
				continue;
			for (size_t k = 0; k < fw->needs.n; k++) {
				const struct fw_need *n = &fw->needs.v[k];
				const struct fw_need *nb = need_in(eb, fw, n->soname);
				struct check_row *r = VEC_PUSH(out);

				r->soname = xstrdup(n->soname);
				r->framework = xasprintf("%s %s", fw->package != NULL ?
				    fw->package : fw->name, fw->version != NULL ?
				    fw->version : "?");
				r->env = xstrdup(e->prefix);
				r->optional = n->optional;
				side_of(&r->before, nb != NULL ? nb->lib : NULL,
				    nb != NULL ? nb->shadowed_via : STEP_NONE);
				side_of(&r->after, n->lib, n->shadowed_via);
				check_row_judge(r);
			}
		}
	}
}

static const struct lib_fact *
lib_in(const struct facts *f, const char *soname)
{
	for (size_t i = 0; i < f->libraries.n; i++)
		if (strcmp(f->libraries.v[i].soname, soname) == 0)
			return &f->libraries.v[i];
	return NULL;
}

void
check_compare(const struct facts *before, const struct facts *after,
    struct check_rows *out)
{
	memset(out, 0, sizeof *out);
	framework_rows(before, after, out);
	for (size_t i = 0; i < after->libraries.n; i++) {
		const struct lib_fact *l = &after->libraries.v[i];
		struct check_row *r = VEC_PUSH(out);

		r->soname = xstrdup(l->soname);
		r->optional = l->optional;
		side_of(&r->before, lib_in(before, l->soname), STEP_NONE);
		side_of(&r->after, l, STEP_NONE);
		check_row_judge(r);
	}
}

bool
check_rows_ok(const struct check_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct check_row *r = &rows->v[i];

		if (r->optional)
			continue;
		/* A library doctor tracks on its own may be missing on both
		 * sides (libcuda without a driver): not the script's doing. */
		if (r->verdict == VERDICT_BROKEN ||
		    (r->framework != NULL && !good(r->after.state)))
			return false;
	}
	return true;
}

static void
side_free(struct check_side *s)
{
	free(s->path);
	free(s->real);
	free(s->via);
	free(s->error);
}

void
check_rows_free(struct check_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		free(rows->v[i].soname);
		free(rows->v[i].framework);
		free(rows->v[i].env);
		side_free(&rows->v[i].before);
		side_free(&rows->v[i].after);
	}
	free(rows->v);
	memset(rows, 0, sizeof *rows);
}

static bool
has_code(const struct findings *fs, enum finding_code code)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].code == code)
			return true;
	return false;
}

void
check_codes_only(const struct findings *a, const struct findings *b,
    struct strv *out)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *name = finding_code_name(a->v[i].code);

		if (a->v[i].severity < SEV_WARNING || has_code(b, a->v[i].code) ||
		    strv_contains(out, name))
			continue;
		strv_push(out, name);
	}
}
