/* The GPU frameworks of each Python environment: which ones there are
 * (fwident.c), what each one needs from the dynamic loader and what it
 * gets in that environment's Python process, and which GPU code it
 * carries (fwneeds.c).
 *
 * It runs after the environment and package probes, and reads nothing
 * for an environment none of whose packages is a framework: the loader
 * model, the matrix and the directories of an environment are set up
 * only when the first framework turns up. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probe/fwint.h"
#include "util/xalloc.h"

/* The frameworks' builds come from the matrix the run chose (--matrix,
 * the cache), the one diagnose reads; outside a run, the embedded one. */
const struct matrix *
fw_matrix(struct fw_run *run)
{
	if (run->ctx->shared->matrix != NULL)
		return run->ctx->shared->matrix;
	if (run->matrix == NULL)
		run->matrix = matrix_embedded();
	return run->matrix;
}

static void
start_session(struct fw_run *run)
{
	struct loader_session *s = &run->session;

	if (run->have_session)
		return;
	loader_session_init_prof(s, run->ctx->sr, run->ctx->envp,
	    probe_loader_profile(run->ctx));
	probe_loader_dirs(run->ctx->facts, &run->ldconf, &run->global_extra);
	/* A tree without a cache stands for a machine where ldconfig has
	 * run over its ld.so.conf, as for doctor's own library list. */
	if (!sysroot_is_host(run->ctx->sr))
		s->env.ldconf_dirs = &run->ldconf;
	s->env.extra_dirs = &run->extra;
	run->have_session = true;
}

/* Other copies are looked for in the machine's library directories and
 * in this environment's own: a copy in another environment is not one
 * to point this one at, and listing every environment's lib/ for every
 * need would cost more than the whole probe may. */
static void
env_extra_dirs(struct fw_run *run, const struct py_env *env)
{
	strv_free(&run->extra);
	for (size_t i = 0; i < run->global_extra.n; i++)
		strv_push(&run->extra, run->global_extra.v[i]);
	fw_env_dirs(run, env, &run->extra);
}

static const struct framework_fact *
found_by_name(const struct py_env *env, const char *name)
{
	for (size_t i = 0; i < env->frameworks.n; i++)
		if (strcmp(env->frameworks.v[i].name, name) == 0)
			return &env->frameworks.v[i];
	return NULL;
}

static void
probe_env(struct fw_run *run, struct py_env *env)
{
	struct fw_found_list found = { NULL, 0, 0 };
	char *program;

	fw_identify(run, env, &found);
	if (found.n == 0)
		return;
	start_session(run);
	env_extra_dirs(run, env);
	program = fw_env_program(run, env);
	for (size_t i = 0; i < found.n; i++) {
		struct fw_found *f = &found.v[i];
		const struct framework_fact *from;

		if (f->plan.needs_of != NULL) {
			from = found_by_name(env, f->plan.needs_of);
			for (size_t j = 0; from != NULL &&
			    j < from->needs.n; j++)
				fw_need_copy(VEC_PUSH(&f->fact.needs),
				    &from->needs.v[j]);
		} else {
			fw_resolve(run, env, program, &f->fact, &f->plan);
			fw_read_archs(run, &f->fact, &f->plan);
		}
		*(struct framework_fact *)VEC_PUSH(&env->frameworks) = f->fact;
		memset(&f->fact, 0, sizeof f->fact);
		fw_plan_free(&f->plan);
	}
	free(found.v);
	free(program);
}

void
probe_frameworks(struct probe_ctx *ctx)
{
	struct fw_run run;

	memset(&run, 0, sizeof run);
	run.ctx = ctx;
	for (size_t i = 0; i < ctx->facts->python_envs.n; i++)
		probe_env(&run, &ctx->facts->python_envs.v[i]);
	if (run.have_session)
		loader_session_free(&run.session);
	strv_free(&run.ldconf);
	strv_free(&run.global_extra);
	strv_free(&run.extra);
	if (run.matrix != NULL)
		matrix_free(run.matrix);
}
