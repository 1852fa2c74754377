/* What to install on this machine: fix lines that install what provides
 * a CUDA library, chosen through the matrix for this machine's driver (a
 * pip wheel, a conda package, NVIDIA's Debian packages, and a newer
 * driver first when this one runs none of it). Shared by the rules that
 * end in "install X": explain's, and the framework rules. Internal to
 * src/diagnose; pure. */
#ifndef CUDAWIZ_RULES_INSTALL_PLAN_H
#define CUDAWIZ_RULES_INSTALL_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/diagnose.h"
#include "matrix/matrix.h"

struct ip_ctx {
	const struct facts	*facts;
	const struct matrix	*m;	/* may be NULL: then no plan */
};

/* A fix line (owned, taken), unless the finding already has it. */
void	ip_fix_line(struct finding *f, char *line);
/* "580" from "580.65.06": driver packages are named by branch. */
char	*ip_branch_of(const char *driver);
/* A range of CUDA releases in words: "11.0 to 11.8", "13.x". */
char	*ip_range_text(const struct matrix_range *r);
/* "11.8" from "11.8.0". */
void	ip_major_minor(const char *v, char *buf, size_t n);

/* The wheel of a matrix library ("cudart", "cudnn") for CUDA major that
 * provides soname, or NULL; and the lines that install it at versions
 * [min, max] (NULL: unbounded; max by prefix), through fixcmd: false,
 * and nothing written, when the catalogue holds no such wheel. */
const struct matrix_wheel *ip_wheel_for(const struct matrix *m,
	    const char *library, unsigned major, const char *soname);
bool	ip_wheel_fix(const struct matrix *m, struct finding *f,
	    const struct matrix_wheel *w, const char *min, const char *max);

/* The newest release of CUDA major within [min, max] and at most ceiling
 * (NULL: none), as major.minor; false when the matrix knows none. */
bool	ip_newest_release(const struct matrix *m, unsigned major,
	    const char *min, const char *max, const char *ceiling, char *buf,
	    size_t n);
/* The CUDA version to install for a range on this machine's driver: the
 * newest the driver runs, else the newest of the range (*driver_short
 * then says the driver runs none of it). */
bool	ip_pick_cuda(const struct ip_ctx *c, const struct matrix_range *r,
	    char *buf, size_t n, bool *driver_short);
/* The CUDA majors to try, best first: the toolkits' here, then what the
 * driver runs, then the newest. Returns how many were written. */
size_t	ip_cuda_majors(const struct ip_ctx *c, unsigned *out, size_t cap);

/* A driver upgrade line for minimum driver min (NULL: none), or the
 * container / WSL advice where the driver is not installed here. */
void	ip_driver_fix(const struct ip_ctx *c, struct finding *f,
	    const char *min);
/* The conda line for library of CUDA release cuda ("11.8"). */
void	ip_conda_fix(const struct ip_ctx *c, struct finding *f,
	    const char *library, const char *cuda);

/* cuDNN's major for one of its sonames; 0 when soname is not cuDNN's. */
unsigned ip_cudnn_major_of(const struct ip_ctx *c, const char *soname);
/* The lines that install cuDNN cudnn_major (at least min_version when
 * given) for a CUDA major this machine uses; false when the matrix knows
 * no wheel for it. */
bool	ip_install_cudnn(const struct ip_ctx *c, struct finding *f,
	    const char *soname, unsigned cudnn_major, const char *min_version);
/* The whole plan for a soname nothing provides here. */
void	ip_install_soname(const struct ip_ctx *c, struct finding *f,
	    const char *soname);
/* Drops generic "pip install nvidia-…" hints (and their comment lines)
 * that a plan for this machine replaces. */
void	ip_drop_wheel_hints(struct finding *f);

#endif
