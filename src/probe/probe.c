/* The probe registry; see probe.h. */
#include "config.h"


#include "probe/probe.h"

/* Explicit and ordered: output order is the order here. */
static void (*const probes[])(struct probe_ctx *) = {
	probe_environ,
	probe_gpus,
	probe_driver,
	probe_toolkits,
	probe_cudnn,
	probe_libraries,
	probe_python_envs,
	probe_python_packages,
	probe_frameworks,
};

/* Runs the n probes of list, in order, into new facts. */
static struct facts *
run_probes(const struct sysroot *sr, char *const *envp,
    void (*const *list)(struct probe_ctx *), size_t n, bool lean)
{
	struct probe_ctx ctx;

	ctx.sr = sr;
	ctx.envp = envp;
	ctx.lean = lean;
	ctx.facts = facts_new(sysroot_dir(sr), sysroot_is_host(sr));
	for (size_t i = 0; i < n; i++)
		list[i](&ctx);
	return ctx.facts;
}

struct facts *
probe_all(const struct sysroot *sr, char *const *envp)
{
	return run_probes(sr, envp, probes, sizeof probes / sizeof probes[0],
	    false);
}

/* What the loader model needs and no more: `why` answers in a few
 * milliseconds, so it skips the PCI scan and doctor's own library list. */
struct facts *
probe_for_loader(const struct sysroot *sr, char *const *envp)
{
	static void (*const some[])(struct probe_ctx *) = {
		probe_environ,
		probe_driver,
		probe_toolkits,
		probe_cudnn,
	};

	return run_probes(sr, envp, some, sizeof some / sizeof some[0], true);
}
