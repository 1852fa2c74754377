/* fixdriver: the one place that writes driver advice — installing a
 * driver, reinstalling it, building its kernel module, loading it
 * (modprobe, rmmod), rebooting into it, and running ldconfig.
 *
 * Every line fits where cudawiz runs: inside a container the driver is
 * the host's, so the advice is words about the host and how the
 * container must be started; inside WSL it is the Windows driver; on a
 * host, "reboot" and "modprobe" come only after the kernel that will run
 * has a module of the installed driver (else the command that builds it
 * comes first), and no install names a branch the GPU cannot run or a
 * driver that is installed already. Internal to src/diagnose; pure. */
#ifndef CUDAWIZ_FIXDRIVER_H
#define CUDAWIZ_FIXDRIVER_H

#include <stdbool.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct matrix;

enum fd_place {
	FD_HOST = 0,
	FD_WSL,
	FD_CONTAINER,
};

/* Where cudawiz runs, from the driver facts' signs. */
enum fd_place	fd_place(const struct facts *facts);
/* The evidence lines that say so (nothing on a host). */
void		fd_place_evidence(struct finding *f, const struct facts *facts);

/* How a container must be started to see the host's GPUs: the lines
 * for the kind of container found (docker --gpus, podman CDI, apptainer
 * --nv, the Kubernetes resource). */
void		fd_container_start(struct finding *f, const struct facts *facts);

/* A driver that runs CUDA cuda (its minimum driver min, "550.54.14"),
 * or any driver when min is NULL. Installs nothing that is installed,
 * and names no branch the GPU cannot run: then the finding says so in
 * words. Branches and packages come from m's catalogue (NULL: the
 * built-in matrix). */
void	fd_install(struct finding *f, const struct facts *facts,
	    const struct matrix *m, const char *min, const char *cuda);
/* Whether fd_install would install something on this host: false when
 * the installed driver already runs min (or, min NULL, is installed). */
bool	fd_would_install(const struct facts *facts, const char *min);
/* Reinstalls the driver of version (NULL: the installed libraries'):
 * for a finding about a broken install. Ubuntu's package is named only
 * when the catalogue of m holds it. */
void	fd_reinstall(struct finding *f, const struct facts *facts,
	    const struct matrix *m, const char *version);
/* "sudo reboot", after building the module for the next boot's kernel
 * when it lacks one of the installed driver's version. */
void	fd_reboot(struct finding *f, const struct facts *facts);
/* "sudo modprobe nvidia", after building the module for the running
 * kernel when it lacks one. */
void	fd_modprobe(struct finding *f, const struct facts *facts);
/* Reloads the modules without a reboot (uvm_only: just nvidia_uvm). */
void	fd_reload(struct finding *f, const struct facts *facts, bool uvm_only);
/* The commands that build the nvidia module for kernel. */
void	fd_build_module(struct finding *f, const struct facts *facts,
	    const char *kernel);
/* "sudo ldconfig", once, after a fix line that changes what ldconfig
 * reads (an ld.so.conf.d file added or edited, a library or link added
 * or removed in a configured directory): then it always changes the
 * answer. Where the fix changes nothing first, use fd_ldconfig_for(). */
void	fd_ldconfig(struct finding *f);
/* Whether ldconfig can ever file name in its cache: only a versioned
 * soname (libcuda.so.1, libcudart.so.12), never the unversioned link
 * that ldconfig never caches. */
bool	fd_ldconfig_caches(const char *name);

/* What rerunning ldconfig, with no other change, would do for name
 * whose file copy lies in a directory ld.so.conf lists. */
enum fd_ldc {
	FD_LDC_CHANGES = 0,	/* files name for copy (or updates its link) */
	FD_LDC_CURRENT,		/* the cache maps name to copy already and is
				 * newer than it, its directory and conf file */
	FD_LDC_NEVER,		/* never files name: no version, or copy's
				 * SONAME is another name */
};
/* copy NULL, or its facts or the cache's age unknown: FD_LDC_CHANGES
 * unless name has no version (the advice as before the facts). */
enum fd_ldc fd_ldconfig_effect(const struct facts *facts, const char *name,
	    const struct lib_copy *copy);
/* "sudo ldconfig" when it changes the answer for name and copy; else a
 * comment that says why not. Returns whether the line was given. */
bool	fd_ldconfig_for(struct finding *f, const struct facts *facts,
	    const char *name, const struct lib_copy *copy);
/* The newest driver branch the GPUs here run ("390"), NULL when every
 * current branch does or nothing is known. */
const char *fd_gpu_last_branch(const struct facts *facts,
	    const struct matrix *m, const struct gpu_fact **which);

#endif
