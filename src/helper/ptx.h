/* The verification kernels, in PTX, in several ISA versions and targets
 * so that an old driver or an old GPU still finds one it can JIT. */
#ifndef CUDAWIZ_HELPER_PTX_H
#define CUDAWIZ_HELPER_PTX_H

#include <stddef.h>

/* saxpy(u32 n, f32 a, u64 x, u64 y): y[i] = a * x[i] + y[i], i < n. */
#define PTX_SAXPY	"cw_saxpy"
/* copy(u32 n16, u64 src, u64 dst): 16 bytes per thread, i < n16. */
#define PTX_COPY	"cw_copy"
/* fma(u32 iters, u64 out): 8 chains x = x * FMA_A + FMA_B, ITERS times,
 * from x = (i & 255) + chain; out[i] = their sum, added in pairs. */
#define PTX_FMA		"cw_fma"
#define PTX_FMA_CHAINS	8
#define PTX_FMA_A	0.9990234375f	/* 0f3F7FC000 */
#define PTX_FMA_B	0.5f		/* 0f3F000000 */

struct ptx_variant {
	const char *name;	/* "ptx70_sm50" */
	const char *target;	/* "sm_50" */
	const char *text;	/* NUL-terminated, as cuModuleLoadDataEx wants */
};

/* In the order the driver mode tries them: the newest first. */
extern const struct ptx_variant ptx_variants[];
extern const size_t ptx_nvariants;

const struct ptx_variant *ptx_find(const char *name);

/* What one fma thread computes, on the CPU (the kernel's reference). */
float ptx_fma_reference(unsigned int thread, unsigned int iters);

#endif
