/* The probe registry; see probe.h. */
#include "config.h"


#include "probe/probe.h"

/* Explicit and ordered: output order is the order here. */
static void (*const probes[])(struct probe_ctx *) = {
	probe_environ,
	probe_gpus,
	probe_driver,
	probe_host,
	probe_kernel_log,
	probe_toolkits,
	probe_cudnn,
	probe_libraries,
	probe_fwd_compat,
	probe_python_envs,
	probe_python_packages,
	probe_frameworks,
};

/* What the loader model needs and no more: `why` answers in a few
 * milliseconds, so it skips the PCI scan and doctor's own library list. */
static void (*const lean_probes[])(struct probe_ctx *) = {
	probe_environ,
	probe_driver,
	probe_toolkits,
	probe_cudnn,
};

const struct loader_profile *
probe_shared_profile(struct probe_shared *sh, const struct sysroot *sr)
{
	if (!sh->have_prof) {
		loader_profile_init(&sh->prof, sr);
		sh->have_prof = true;
	}
	return &sh->prof;
}

const struct loader_profile *
probe_loader_profile(struct probe_ctx *ctx)
{
	return probe_shared_profile(ctx->shared, ctx->sr);
}

void
probe_shared_free(struct probe_shared *sh)
{
	if (sh->have_prof)
		loader_profile_free(&sh->prof);
	sh->have_prof = false;
}

/* Runs the n probes of list, in order, into new facts. */
static struct facts *
run_probes(const struct sysroot *sr, char *const *envp,
    struct probe_shared *sh, bool lean)
{
	void (*const *list)(struct probe_ctx *) = lean ? lean_probes : probes;
	size_t n = lean ? sizeof lean_probes / sizeof lean_probes[0] :
	    sizeof probes / sizeof probes[0];
	struct probe_ctx ctx;

	ctx.sr = sr;
	ctx.envp = envp;
	ctx.lean = lean;
	ctx.shared = sh;
	ctx.facts = facts_new(sysroot_dir(sr), sysroot_is_host(sr));
	for (size_t i = 0; i < n; i++)
		list[i](&ctx);
	return ctx.facts;
}

struct facts *
probe_shared_run(const struct sysroot *sr, char *const *envp,
    struct probe_shared *sh, bool lean)
{
	return run_probes(sr, envp, sh, lean);
}

/* Outside a run: the embedded matrix, a profile for these probes only. */
static struct facts *
run_alone(const struct sysroot *sr, char *const *envp, bool lean)
{
	struct probe_shared sh = { 0 };
	struct facts *f = run_probes(sr, envp, &sh, lean);

	probe_shared_free(&sh);
	return f;
}

struct facts *
probe_all(const struct sysroot *sr, char *const *envp)
{
	return run_alone(sr, envp, false);
}

struct facts *
probe_for_loader(const struct sysroot *sr, char *const *envp)
{
	return run_alone(sr, envp, true);
}
