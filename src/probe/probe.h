/* The probes: each reads one part of the system into struct facts.
 *
 * Probes run in a fixed order (later ones read what earlier ones found:
 * the driver probe uses the ld.so.conf directories of the environment
 * probe). They never print and never decide what is wrong; a problem that
 * does not stop them becomes a fact's why or a facts_note(). Every file
 * access goes through the sysroot; environment variables come from the
 * snapshot in the context, never from getenv(). */
#ifndef CUDAWIZ_PROBE_H
#define CUDAWIZ_PROBE_H

#include "facts/facts.h"
#include "loader/profile.h"
#include "sysroot/sysroot.h"

struct matrix;

/* What one run hands its probes and keeps after them (src/run/): the
 * matrix the run chose, and the loader profile, made by the first probe
 * that wants it so that the host's loader is asked once per run. */
/* A directory the user named (env --toolkit DIR, --cudnn DIR), probed
 * with the ones the probes find, so that one it did not find is a fact
 * like the others and the probes after it see it (its libraries are
 * copies the plan can use). The probe fills in the outcome. */
struct probe_named {
	const char	*dir;		/* absolute, as the tree sees it; NULL: none */
	/* 0: facts hold it (at index of facts->toolkits or ->cudnn); an
	 * errno or sysroot code: it cannot be looked at (ENOTDIR: not a
	 * directory); PROBE_NAMED_NONE: a directory without one. */
	int		 rc;
	size_t		 index;
};
#define PROBE_NAMED_NONE	(-100)

struct probe_shared {
	const struct matrix	*matrix;	/* NULL: the embedded one */
	struct loader_profile	 prof;		/* when have_prof */
	bool			 have_prof;
	struct probe_named	 toolkit_dir;	/* toolkit.c */
	struct probe_named	 cudnn_dir;	/* cudnn.c: DIR, DIR/lib or DIR/lib64 */
};

struct probe_ctx {
	const struct sysroot	*sr;
	char *const		*envp;		/* NAME=value, NULL-terminated */
	struct facts		*facts;
	/* Only what the loader model needs (probe_for_loader): the probes
	 * leave out the scans nothing but doctor's own rules read (what PATH
	 * directories hold, the kernel modules on disk). */
	bool			 lean;
	struct probe_shared	*shared;	/* NULL only in the fuzz targets */
};

/* The run's loader profile, made on first use. */
const struct loader_profile	*probe_loader_profile(struct probe_ctx *ctx);
const struct loader_profile	*probe_shared_profile(struct probe_shared *sh,
	    const struct sysroot *sr);
void	probe_shared_free(struct probe_shared *sh);

/* Each probe, in the order run. */
void	probe_environ(struct probe_ctx *ctx);	/* env.c */
void	probe_gpus(struct probe_ctx *ctx);	/* pci.c */
void	probe_driver(struct probe_ctx *ctx);	/* driver.c */
void	probe_kernel_log(struct probe_ctx *ctx);	/* kmsg.c: Xid lines */
/* Who the machine is: name, hashed machine-id, kernel, OS (host.c);
 * after probe_driver, whose kernel release it repeats. */
void	probe_host(struct probe_ctx *ctx);
/* Called by probe_driver: the module files' versions and signatures, and
 * DKMS's installed state (modfile.c); Secure Boot (secureboot.c). */
void	probe_module_files(struct probe_ctx *ctx);
void	probe_secure_boot(struct probe_ctx *ctx);
void	probe_toolkits(struct probe_ctx *ctx);	/* toolkit.c */
void	probe_cudnn(struct probe_ctx *ctx);	/* cudnn.c */
void	probe_libraries(struct probe_ctx *ctx);	/* libsearch.c */
void	probe_fwd_compat(struct probe_ctx *ctx);	/* fwdcompat.c: what libcuda.so.1 is */
void	probe_python_envs(struct probe_ctx *ctx);	/* pyenv.c: the environments */
void	probe_python_packages(struct probe_ctx *ctx);	/* pypkg.c: their packages */
void	probe_frameworks(struct probe_ctx *ctx);	/* framework.c: needs, loads, archs */

struct loader_env;
/* Resolves one soname the way a plain program's dlopen() would, into a
 * library fact (the trace, the winner's ELF facts, other copies). For
 * doctor's list and for `explain`; libsearch.c. */
void	probe_resolve_library(const struct loader_env *env, const char *soname,
	    struct lib_fact *out);
/* The same from a resolution already made (`why --from` makes its own);
 * takes what it needs of r and frees r. */
struct resolution;
void	probe_library_from(const struct loader_env *env, const char *soname,
	    struct resolution *r, struct lib_fact *out);

/* The directories the loader model needs from the probes: the ld.so.conf
 * directories (loader_env.ldconf_dirs, for a tree without a cache) and
 * where libraries live off the search path (loader_env.extra_dirs, for
 * other copies): toolkits, cuDNN, the driver, WSL. loaderenv.c. */
void	probe_loader_dirs(const struct facts *f, struct strv *ldconf,
	    struct strv *extra);

/* Runs every probe. */
struct facts	*probe_all(const struct sysroot *sr, char *const *envp);
/* The same, or the lean set of probe_for_loader() when lean, with what
 * a run shares (src/run/). */
struct facts	*probe_shared_run(const struct sysroot *sr, char *const *envp,
	    struct probe_shared *sh, bool lean);
/* Runs the probes that say where libraries live (environment, driver,
 * toolkits, cuDNN), lean: for probe_loader_dirs() when speed matters. */
struct facts	*probe_for_loader(const struct sysroot *sr, char *const *envp);

#endif
