/* What NVIDIA's CUDA packages leave on disk that says what they are: the
 * site-packages directories pip wheels land in, the names of the wheels'
 * dist-info directories, and version macros in headers. Shared by the
 * toolkit and cuDNN probes. Nothing here words a message: the callers turn
 * the error codes into notes, so every user-visible string stays in the
 * probe that shows it. */
#ifndef CUDAWIZ_CUDAFILES_H
#define CUDAWIZ_CUDAFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe.h"
#include "util/strv.h"

/* True when s ends with suffix. */
bool	 cf_ends_with(const char *s, const char *suffix);

/* Appends, in a fixed order and without duplicates, the site-packages
 * directories that can hold NVIDIA's wheels: those of VIRTUAL_ENV and
 * CONDA_PREFIX (lib/python3.N/site-packages), /usr/local/lib/python3.N/
 * dist-packages, /usr/lib/python3/dist-packages and
 * $HOME/.local/lib/python3.N/site-packages. Only existing ones. */
void	 cf_site_packages(const struct probe_ctx *ctx, struct strv *out);

/* A wheel's dist-info directory: nvidia_cudnn_cu12-9.1.0.70.dist-info. */
struct cf_distinfo {
	char	*name;		/* the directory name */
	char	*cuda;		/* "12" from a _cuNN suffix; NULL without one */
	char	*version;	/* "9.1.0.70" */
};

/* Looks among names (a directory listing) for the dist-info directory of
 * project base ("nvidia_cuda_runtime"), bare or with a _cuNN suffix, whose
 * version is valid and, when major is not NULL, has that first part.
 * Fills *out and returns true for the first one in sorted order. */
bool	 cf_distinfo_find(const struct strv *names, const char *base,
	    const char *major, struct cf_distinfo *out);
void	 cf_distinfo_free(struct cf_distinfo *d);

/* Reads "#define NAME <decimal>" for each of the n names from the header
 * at path (at most cap bytes). found[i] says whether names[i] was seen.
 * Returns 0 or a sysroot error code. */
int	 cf_header_defines(const struct sysroot *sr, const char *path,
	    size_t cap, const char *const *names, size_t n,
	    unsigned long *vals, bool *found);

/* "libNAME.so.V" with V a valid version: the V part, else NULL (a
 * pointer into name). */
const char *cf_so_version(const char *name, const char *lib);

#endif
