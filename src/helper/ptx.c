/* The verification kernels as PTX text, JIT-compiled by the driver under
 * test: that is the check (a driver whose JIT fails cannot run programs
 * built for GPUs newer than their machine code), and it keeps the helper
 * free of a CUDA compiler.
 *
 * One body serves every variant: it uses only instructions of the oldest
 * target (sm_20), so the variants differ only in the header, which is
 * what decides whether a driver accepts them (.version: the driver's JIT
 * must know the ISA; .target: the GPU must be at least that). add.rn and
 * fma.rn are explicit so no compiler may contract or reorder them, and
 * the CPU reference below gets the same bits. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "helper/ptx.h"

#define PTX_HEADER(isa, target) \
	"//\n// cudawiz-verify: verification kernels (PTX ISA " isa \
	", " target ")\n//\n" \
	".version " isa "\n" \
	".target " target "\n" \
	".address_size 64\n"

/* The global thread index into %r5; %r1..%r4 are free before it. */
#define PTX_INDEX \
	"	mov.u32 %r2, %ctaid.x;\n" \
	"	mov.u32 %r3, %ntid.x;\n" \
	"	mov.u32 %r4, %tid.x;\n" \
	"	mad.lo.u32 %r5, %r2, %r3, %r4;\n"

#define PTX_BODY \
	"\n" \
	".visible .entry cw_saxpy(\n" \
	"	.param .u32 saxpy_n,\n" \
	"	.param .f32 saxpy_a,\n" \
	"	.param .u64 saxpy_x,\n" \
	"	.param .u64 saxpy_y)\n" \
	"{\n" \
	"	.reg .pred %p<2>;\n" \
	"	.reg .b32 %r<6>;\n" \
	"	.reg .f32 %f<4>;\n" \
	"	.reg .b64 %rd<6>;\n" \
	"	ld.param.u32 %r1, [saxpy_n];\n" \
	"	ld.param.f32 %f1, [saxpy_a];\n" \
	"	ld.param.u64 %rd1, [saxpy_x];\n" \
	"	ld.param.u64 %rd2, [saxpy_y];\n" \
	PTX_INDEX \
	"	setp.ge.u32 %p1, %r5, %r1;\n" \
	"	@%p1 bra SAXPY_DONE;\n" \
	"	cvta.to.global.u64 %rd1, %rd1;\n" \
	"	cvta.to.global.u64 %rd2, %rd2;\n" \
	"	mul.wide.u32 %rd3, %r5, 4;\n" \
	"	add.u64 %rd4, %rd1, %rd3;\n" \
	"	add.u64 %rd5, %rd2, %rd3;\n" \
	"	ld.global.f32 %f2, [%rd4];\n" \
	"	ld.global.f32 %f3, [%rd5];\n" \
	"	fma.rn.f32 %f3, %f1, %f2, %f3;\n" \
	"	st.global.f32 [%rd5], %f3;\n" \
	"SAXPY_DONE:\n" \
	"	ret;\n" \
	"}\n" \
	"\n" \
	".visible .entry cw_copy(\n" \
	"	.param .u32 copy_n16,\n" \
	"	.param .u64 copy_src,\n" \
	"	.param .u64 copy_dst)\n" \
	"{\n" \
	"	.reg .pred %p<2>;\n" \
	"	.reg .b32 %r<6>;\n" \
	"	.reg .b32 %v<5>;\n" \
	"	.reg .b64 %rd<6>;\n" \
	"	ld.param.u32 %r1, [copy_n16];\n" \
	"	ld.param.u64 %rd1, [copy_src];\n" \
	"	ld.param.u64 %rd2, [copy_dst];\n" \
	PTX_INDEX \
	"	setp.ge.u32 %p1, %r5, %r1;\n" \
	"	@%p1 bra COPY_DONE;\n" \
	"	cvta.to.global.u64 %rd1, %rd1;\n" \
	"	cvta.to.global.u64 %rd2, %rd2;\n" \
	"	mul.wide.u32 %rd3, %r5, 16;\n" \
	"	add.u64 %rd4, %rd1, %rd3;\n" \
	"	add.u64 %rd5, %rd2, %rd3;\n" \
	"	ld.global.v4.u32 {%v1, %v2, %v3, %v4}, [%rd4];\n" \
	"	st.global.v4.u32 [%rd5], {%v1, %v2, %v3, %v4};\n" \
	"COPY_DONE:\n" \
	"	ret;\n" \
	"}\n" \
	"\n" \
	".visible .entry cw_fma(\n" \
	"	.param .u32 fma_iters,\n" \
	"	.param .u64 fma_out)\n" \
	"{\n" \
	"	.reg .pred %p<2>;\n" \
	"	.reg .b32 %r<8>;\n" \
	"	.reg .f32 %f<11>;\n" \
	"	.reg .b64 %rd<4>;\n" \
	"	ld.param.u32 %r1, [fma_iters];\n" \
	"	ld.param.u64 %rd1, [fma_out];\n" \
	PTX_INDEX \
	"	and.b32 %r6, %r5, 255;\n" \
	"	cvt.rn.f32.u32 %f1, %r6;\n" \
	"	add.rn.f32 %f2, %f1, 0f3F800000;\n" \
	"	add.rn.f32 %f3, %f1, 0f40000000;\n" \
	"	add.rn.f32 %f4, %f1, 0f40400000;\n" \
	"	add.rn.f32 %f5, %f1, 0f40800000;\n" \
	"	add.rn.f32 %f6, %f1, 0f40A00000;\n" \
	"	add.rn.f32 %f7, %f1, 0f40C00000;\n" \
	"	add.rn.f32 %f8, %f1, 0f40E00000;\n" \
	"	mov.f32 %f9, 0f3F7FC000;\n" \
	"	mov.f32 %f10, 0f3F000000;\n" \
	"	mov.u32 %r7, 0;\n" \
	"FMA_LOOP:\n" \
	"	fma.rn.f32 %f1, %f1, %f9, %f10;\n" \
	"	fma.rn.f32 %f2, %f2, %f9, %f10;\n" \
	"	fma.rn.f32 %f3, %f3, %f9, %f10;\n" \
	"	fma.rn.f32 %f4, %f4, %f9, %f10;\n" \
	"	fma.rn.f32 %f5, %f5, %f9, %f10;\n" \
	"	fma.rn.f32 %f6, %f6, %f9, %f10;\n" \
	"	fma.rn.f32 %f7, %f7, %f9, %f10;\n" \
	"	fma.rn.f32 %f8, %f8, %f9, %f10;\n" \
	"	add.u32 %r7, %r7, 1;\n" \
	"	setp.lt.u32 %p1, %r7, %r1;\n" \
	"	@%p1 bra FMA_LOOP;\n" \
	"	add.rn.f32 %f1, %f1, %f2;\n" \
	"	add.rn.f32 %f3, %f3, %f4;\n" \
	"	add.rn.f32 %f5, %f5, %f6;\n" \
	"	add.rn.f32 %f7, %f7, %f8;\n" \
	"	add.rn.f32 %f1, %f1, %f3;\n" \
	"	add.rn.f32 %f5, %f5, %f7;\n" \
	"	add.rn.f32 %f1, %f1, %f5;\n" \
	"	cvta.to.global.u64 %rd1, %rd1;\n" \
	"	mul.wide.u32 %rd2, %r5, 4;\n" \
	"	add.u64 %rd3, %rd1, %rd2;\n" \
	"	st.global.f32 [%rd3], %f1;\n" \
	"	ret;\n" \
	"}\n"

/* ISA 7.0 is CUDA 11.0 (driver r450), sm_50 is Maxwell: every driver
 * and GPU CUDA 12 and 13 support. ISA 6.0 (CUDA 9.0) on sm_30 reaches
 * Kepler and r384 drivers; ISA 4.3 (CUDA 7.5) on sm_20 anything older
 * that still loads. */
const struct ptx_variant ptx_variants[] = {
	{ "ptx70_sm50", "sm_50", PTX_HEADER("7.0", "sm_50") PTX_BODY },
	{ "ptx60_sm30", "sm_30", PTX_HEADER("6.0", "sm_30") PTX_BODY },
	{ "ptx43_sm20", "sm_20", PTX_HEADER("4.3", "sm_20") PTX_BODY },
};
const size_t ptx_nvariants = sizeof ptx_variants / sizeof ptx_variants[0];

const struct ptx_variant *
ptx_find(const char *name)
{
	for (size_t i = 0; i < ptx_nvariants; i++)
		if (strcmp(ptx_variants[i].name, name) == 0)
			return &ptx_variants[i];
	return NULL;
}

float
ptx_fma_reference(unsigned int thread, unsigned int iters)
{
	float x[PTX_FMA_CHAINS];

	for (int j = 0; j < PTX_FMA_CHAINS; j++)
		x[j] = (float)(thread & 255) + (float)j;
	for (unsigned int i = 0; i < iters; i++)
		for (int j = 0; j < PTX_FMA_CHAINS; j++)
			x[j] = fmaf(x[j], PTX_FMA_A, PTX_FMA_B);
	return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
}
