/* The CUDA libraries a conda environment's lib/ holds. Internal to
 * src/probe: pypkg.c calls it once the packages are known. */
#ifndef CUDAWIZ_PROBE_CONDALIBS_H
#define CUDAWIZ_PROBE_CONDALIBS_H

#include "probe/probe.h"

/* Fills e->cuda_libs from one listing of e->lib_dir, each with the conda
 * package of e that installs it (by name). */
void	conda_env_cuda_libs(struct probe_ctx *ctx, struct py_env *e);

#endif
