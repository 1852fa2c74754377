/* What a conda package's build string and its depends pins say about
 * the CUDA it was built for. Pure: strings in, strings out, no I/O. */
#ifndef CUDAWIZ_PROBE_CONDABUILD_H
#define CUDAWIZ_PROBE_CONDABUILD_H

#include <stdbool.h>
#include <stddef.h>

enum conda_build_kind {
	CB_UNKNOWN,	/* the string says nothing about the device */
	CB_CPU,		/* "cpu_py310h…", "py3.9_cpu_0", "mkl_py39h…" */
	CB_GPU,		/* "gpu_py39h…", "…_cuda" (no CUDA version) */
	CB_CUDA,	/* a CUDA build; cuda[] holds its release */
};

struct conda_build {
	enum conda_build_kind kind;
	char	cuda[16];	/* "12.1", "12.0", "11.8", "12" (major only); "" */
	char	cudnn[16];	/* "8.9.2" of pytorch's "…_cudnn8.9.2_0"; "" */
};

/*
 * Reads the forms the channels write:
 *   pytorch:      "py3.10_cuda12.1_cudnn8.9.2_0", "py3.9_cpu_0"
 *   conda-forge:  "cuda120_py311h…", "cuda118py39h…", "cuda126_mkl_py312…",
 *                 "cpu_generic_py311h…", "py312h2a9ebd7_200_cuda",
 *                 "cuda12py311…" (a major only)
 *   defaults:     "gpu_py39h…", "mkl_py39h…", "eigen_py39h…"
 * Digits without a dot are the release without its dot, as CUDA's own
 * package names write it: "120" is 12.0, "92" is 9.2, while "11" and "12"
 * are majors (there was never a CUDA 1.x).
 */
void	conda_build_parse(const char *build, struct conda_build *out);

/*
 * The lower bound a conda depends entry puts on one package: "12.0" of
 * "cuda-version >=12.0,<13" for name "cuda-version", "8.8.0.121" of
 * "cudnn >=8.8.0.121,<9.0a0", "11.8" of "cuda-version 11.8.*" or
 * "cudatoolkit 11.8|11.8.*". False when spec names another package or
 * pins no usable version. The result fits out (n bytes) or is refused.
 */
bool	conda_dep_floor(const char *spec, const char *name, char *out,
	    size_t n);

#endif
