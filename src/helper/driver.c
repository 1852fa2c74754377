/* driver mode: libcuda itself. cuInit, the driver's CUDA level, every
 * device's identity, and on each device a context, the PTX JIT and
 * kernels whose results are checked against the CPU (docs/VERIFY.md).
 *
 * Every call is preceded by a step record, so a crash or hang inside the
 * driver is reported with the call it happened in; every return code is
 * checked, and a failed check leaves the ones that need it as skips. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/helper.h"
#include "helper/ptx.h"
#ifdef _WIN32
#include "helper/win.h"
#endif

#define MIB	(1024u * 1024u)

struct cuapi {
	cw_cuInit_fn			cuInit;
	cw_cuDriverGetVersion_fn	cuDriverGetVersion;
	cw_cuGetErrorName_fn		cuGetErrorName;
	cw_cuGetErrorString_fn		cuGetErrorString;
	cw_cuDeviceGetCount_fn		cuDeviceGetCount;
	cw_cuDeviceGet_fn		cuDeviceGet;
	cw_cuDeviceGetName_fn		cuDeviceGetName;
	cw_cuDeviceGetAttribute_fn	cuDeviceGetAttribute;
	cw_cuDeviceTotalMem_fn		cuDeviceTotalMem;
	cw_cuDeviceGetPCIBusId_fn	cuDeviceGetPCIBusId;
	cw_cuDeviceGetUuid_fn		cuDeviceGetUuid;
	cw_cuCtxCreate_fn		cuCtxCreate;
	cw_cuCtxDestroy_fn		cuCtxDestroy;
	cw_cuCtxSynchronize_fn		cuCtxSynchronize;
	cw_cuMemGetInfo_fn		cuMemGetInfo;
	cw_cuMemAlloc_fn		cuMemAlloc;
	cw_cuMemFree_fn			cuMemFree;
	cw_cuMemHostAlloc_fn		cuMemHostAlloc;
	cw_cuMemFreeHost_fn		cuMemFreeHost;
	cw_cuMemcpyHtoD_fn		cuMemcpyHtoD;
	cw_cuMemcpyDtoH_fn		cuMemcpyDtoH;
	cw_cuMemcpyDtoD_fn		cuMemcpyDtoD;
	cw_cuModuleLoadDataEx_fn	cuModuleLoadDataEx;
	cw_cuModuleGetFunction_fn	cuModuleGetFunction;
	cw_cuModuleUnload_fn		cuModuleUnload;
	cw_cuLaunchKernel_fn		cuLaunchKernel;
};

/* Newest first. The plain names of the memory functions, cuMemGetInfo
 * and cuDeviceTotalMem are the 32-bit ABI of CUDA < 3.2 (unsigned int
 * sizes and pointers): calling them through a 64-bit prototype would
 * corrupt memory, so only their _v2 is bound. The plain cuCtxCreate,
 * cuCtxDestroy and cuDeviceGetUuid have the same arguments as their _v2;
 * cuCtxCreate_v3/_v4 and cuCtxSynchronize_v2 take others, and are never
 * bound. */
#define S(field, req, ...) SYM(struct cuapi, field, req, __VA_ARGS__)
static const struct symspec cu_syms[] = {
	S(cuInit, true, "cuInit"),
	S(cuDriverGetVersion, true, "cuDriverGetVersion"),
	S(cuGetErrorName, false, "cuGetErrorName"),
	S(cuGetErrorString, false, "cuGetErrorString"),
	S(cuDeviceGetCount, true, "cuDeviceGetCount"),
	S(cuDeviceGet, true, "cuDeviceGet"),
	S(cuDeviceGetName, true, "cuDeviceGetName"),
	S(cuDeviceGetAttribute, true, "cuDeviceGetAttribute"),
	S(cuDeviceTotalMem, true, "cuDeviceTotalMem_v2"),
	S(cuDeviceGetPCIBusId, false, "cuDeviceGetPCIBusId"),
	S(cuDeviceGetUuid, false, "cuDeviceGetUuid_v2", "cuDeviceGetUuid"),
	S(cuCtxCreate, true, "cuCtxCreate_v2", "cuCtxCreate"),
	S(cuCtxDestroy, true, "cuCtxDestroy_v2", "cuCtxDestroy"),
	S(cuCtxSynchronize, true, "cuCtxSynchronize"),
	S(cuMemGetInfo, true, "cuMemGetInfo_v2"),
	S(cuMemAlloc, true, "cuMemAlloc_v2"),
	S(cuMemFree, true, "cuMemFree_v2"),
	S(cuMemHostAlloc, false, "cuMemHostAlloc"),
	S(cuMemFreeHost, false, "cuMemFreeHost"),
	S(cuMemcpyHtoD, true, "cuMemcpyHtoD_v2"),
	S(cuMemcpyDtoH, true, "cuMemcpyDtoH_v2"),
	S(cuMemcpyDtoD, false, "cuMemcpyDtoD_v2"),
	S(cuModuleLoadDataEx, true, "cuModuleLoadDataEx"),
	S(cuModuleGetFunction, true, "cuModuleGetFunction"),
	S(cuModuleUnload, true, "cuModuleUnload"),
	S(cuLaunchKernel, true, "cuLaunchKernel"),
};
#undef S

static struct cuapi cu;

/* The first failed call of a check: what the record reports. */
struct cucall {
	int dev;
	cw_CUresult rc;
	const char *call;
};

static bool
ck(struct cucall *c, const char *call, cw_CUresult rc)
{
	if (rc != CW_CUDA_SUCCESS && c->rc == CW_CUDA_SUCCESS) {
		c->rc = rc;
		c->call = call;
	}
	return rc == CW_CUDA_SUCCESS;
}

/* Calls cu.FN with a step record first; false (and the failure kept in
 * C) when it does not return CUDA_SUCCESS. */
#define CU(c, fn, ...) \
	(step(#fn, (c)->dev), ck((c), #fn, cu.fn(__VA_ARGS__)))

/* The library's own name and words for RC when it can give them, else
 * the helper's table (the stub libcuda fails cuGetErrorName too). */
static void
cu_error(struct rec *r, cw_CUresult rc, const char *call)
{
	const char *name = NULL, *msg = NULL;

	if (cu.cuGetErrorName == NULL || cu.cuGetErrorName(rc, &name) !=
	    CW_CUDA_SUCCESS)
		name = NULL;
	if (name == NULL)
		name = cw_curesult_name(rc);
	if (cu.cuGetErrorString == NULL || cu.cuGetErrorString(rc, &msg) !=
	    CW_CUDA_SUCCESS)
		msg = NULL;
	rec_error(r, rc, name, msg, call);
}

/* A check's outcome: ok, and the failure when a call failed. */
static void
outcome(struct rec *r, bool ok, const struct cucall *c)
{
	rec_bool(r, "ok", ok);
	if (c->rc != CW_CUDA_SUCCESS)
		cu_error(r, c->rc, c->call);
	if (!ok)
		helper_fail();
}

/* "NAME failed: CUDA_ERROR_…", for a skip's reason. */
static void
failed_because(char *buf, size_t n, const char *what, cw_CUresult rc)
{
	const char *name = NULL;

	if (cu.cuGetErrorName == NULL || cu.cuGetErrorName(rc, &name) !=
	    CW_CUDA_SUCCESS || name == NULL)
		name = cw_curesult_name(rc);
	if (name != NULL)
		snprintf(buf, n, "%s failed: %s", what, name);
	else
		snprintf(buf, n, "%s failed: error %u", what, rc);
}

/* ---------------------------------------------------------- a device */

struct dev {
	int idx;
	cw_CUdevice h;
	cw_CUcontext ctx;
	cw_CUmodule mod;
	cw_CUfunction saxpy, copy, fma;
	int sm_count;
	size_t free_mem;
	bool quick;
};

static void
attr(struct rec *r, const char *key, struct dev *d, unsigned int which,
    int *out)
{
	struct cucall c = { d->idx, 0, NULL };
	int v = 0;

	if (CU(&c, cuDeviceGetAttribute, &v, which, d->h)) {
		rec_int(r, key, v);
		if (out != NULL)
			*out = v;
	} else
		rec_null(r, key);
}

static void
device_record(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	char name[256], bus[64], cc[32];
	int major = -1, minor = -1;
	size_t total = 0;
	cw_CUuuid uuid;
	struct rec r;

	rec_open(&r, "device");
	rec_int(&r, "device", d->idx);
	memset(name, 0, sizeof name);
	if (CU(&c, cuDeviceGetName, name, (int)sizeof name - 1, d->h))
		rec_str(&r, "name", name);
	else
		rec_null(&r, "name");
	step("cuDeviceGetAttribute", d->idx);
	if (cu.cuDeviceGetAttribute(&major,
	    CW_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->h) ==
	    CW_CUDA_SUCCESS && cu.cuDeviceGetAttribute(&minor,
	    CW_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->h) ==
	    CW_CUDA_SUCCESS) {
		snprintf(cc, sizeof cc, "%d.%d", major, minor);
		rec_str(&r, "cc", cc);
	} else
		rec_null(&r, "cc");
	if (CU(&c, cuDeviceTotalMem, &total, d->h))
		rec_uint(&r, "memory_total", total);
	else
		rec_null(&r, "memory_total");
	attr(&r, "sm_count", d, CW_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
	    &d->sm_count);
	attr(&r, "clock_khz", d, CW_CU_DEVICE_ATTRIBUTE_CLOCK_RATE, NULL);
	attr(&r, "memory_clock_khz", d,
	    CW_CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, NULL);
	attr(&r, "bus_width_bits", d,
	    CW_CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, NULL);
	memset(bus, 0, sizeof bus);
	if (cu.cuDeviceGetPCIBusId != NULL &&
	    CU(&c, cuDeviceGetPCIBusId, bus, (int)sizeof bus - 1, d->h))
		rec_str(&r, "pci_bus_id", bus);
	else
		rec_null(&r, "pci_bus_id");
	memset(&uuid, 0, sizeof uuid);
	if (cu.cuDeviceGetUuid != NULL &&
	    CU(&c, cuDeviceGetUuid, &uuid, d->h)) {
		const unsigned char *u = (const unsigned char *)uuid.bytes;
		char s[48];

		/* nvidia-smi's spelling, which CUDA_VISIBLE_DEVICES takes. */
		snprintf(s, sizeof s, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-"
		    "%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
		    u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		    u[13], u[14], u[15]);
		rec_str(&r, "uuid", s);
	} else
		rec_null(&r, "uuid");
	rec_emit(&r);
}

/* CUDA_SUCCESS, or why there is no context. */
static cw_CUresult
context(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	double t0, ms;
	bool ok;
	struct rec r;

	t0 = now_ms();
	ok = CU(&c, cuCtxCreate, &d->ctx, 0, d->h);
	ms = now_ms() - t0;
	helper_add_context_ms(ms);
	rec_open(&r, "context");
	rec_int(&r, "device", d->idx);
	outcome(&r, ok, &c);
	rec_num(&r, "ms", ms);
	rec_emit(&r);
	return ok ? CW_CUDA_SUCCESS : c.rc;
}

static void
memory(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	size_t free_b = 0, total = 0;
	struct rec r;

	rec_open(&r, "memory");
	rec_int(&r, "device", d->idx);
	if (CU(&c, cuMemGetInfo, &free_b, &total)) {
		rec_uint(&r, "free", free_b);
		rec_uint(&r, "total", total);
		d->free_mem = free_b;
	} else
		outcome(&r, false, &c);
	rec_emit(&r);
}

/* Every variant in order until one loads; the JIT's error log of each
 * that did not is kept, since it is the only place the driver says why. */
static bool
ptx_jit(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL }, last = { d->idx, 0, NULL };
	const struct ptx_variant *loaded = NULL;
	char *logs = NULL;
	size_t logs_len = 0;
	double ms = 0;
	bool ok = false;
	struct rec r;

	for (size_t i = 0; i < ptx_nvariants && loaded == NULL; i++) {
		char log[8192];
		unsigned int opts[2] = { CW_CU_JIT_ERROR_LOG_BUFFER,
		    CW_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
		void *vals[2] = { log, (void *)(uintptr_t)(sizeof log - 1) };
		double t0 = now_ms();
		cw_CUresult rc;

		memset(log, 0, sizeof log);
		step("cuModuleLoadDataEx", d->idx);
		rc = cu.cuModuleLoadDataEx(&d->mod, ptx_variants[i].text, 2,
		    opts, vals);
		if (rc == CW_CUDA_SUCCESS) {
			ms = now_ms() - t0;
			loaded = &ptx_variants[i];
			break;
		}
		last.rc = rc;
		last.call = "cuModuleLoadDataEx";
		if (log[0] != '\0') {
			size_t n = strlen(ptx_variants[i].name) + strlen(log) + 4;
			char *p = realloc(logs, logs_len + n + 1);

			if (p == NULL)
				continue;
			logs = p;
			logs_len += (size_t)snprintf(logs + logs_len, n + 1,
			    "%s: %s\n", ptx_variants[i].name, log);
		}
	}
	if (loaded != NULL)
		ok = CU(&c, cuModuleGetFunction, &d->saxpy, d->mod, PTX_SAXPY) &&
		    CU(&c, cuModuleGetFunction, &d->copy, d->mod, PTX_COPY) &&
		    CU(&c, cuModuleGetFunction, &d->fma, d->mod, PTX_FMA);
	else
		c = last;
	rec_open(&r, "ptx_jit");
	rec_int(&r, "device", d->idx);
	outcome(&r, ok, &c);
	rec_str(&r, "variant", loaded != NULL ? loaded->name : NULL);
	rec_array(&r, "tried");
	for (size_t i = 0; i < ptx_nvariants; i++) {
		rec_str(&r, NULL, ptx_variants[i].name);
		if (&ptx_variants[i] == loaded)
			break;
	}
	rec_close(&r);
	if (loaded == NULL)
		rec_strn(&r, "log", logs != NULL ? logs : "", logs_len);
	rec_num(&r, "ms", loaded != NULL ? ms : NAN);
	rec_emit(&r);
	free(logs);
	return ok;
}

static void
launch_grid(unsigned int threads, unsigned int *grid)
{
	*grid = (threads + 255) / 256;
}

/* Host memory for a check; NULL with a skip record when there is none. */
static void *
host_alloc(size_t bytes, const char *what, int dev)
{
	void *p = malloc(bytes);

	if (p == NULL)
		skipf(what, dev, "could not allocate %zu bytes of host memory",
		    bytes);
	return p;
}

static void
dev_free(struct cucall *c, cw_CUdeviceptr p)
{
	if (p != 0)
		CU(c, cuMemFree, p);
}

static void
saxpy(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	size_t n = d->quick ? (size_t)1 << 20 : (size_t)1 << 26;
	cw_CUdeviceptr dx = 0, dy = 0;
	float a = 1.5f, *x, *y, max_err = 0;
	unsigned int nn, grid;
	size_t bad = 0;
	double ms = 0;
	bool ok;
	struct rec r;

	/* Two arrays in a quarter of the free memory: a small or busy GPU
	 * still gets a check, only a smaller one. */
	while (n > 4096 && n * 2 * sizeof(float) > d->free_mem / 4)
		n /= 2;
	x = host_alloc(n * sizeof *x, "saxpy", d->idx);
	y = x != NULL ? host_alloc(n * sizeof *y, "saxpy", d->idx) : NULL;
	if (y == NULL) {
		free(x);
		return;
	}
	/* Multiples of 1/4 and small integers: a * x + y is exact in
	 * float, so any difference is a wrong result, not rounding. */
	for (size_t i = 0; i < n; i++) {
		x[i] = (float)(i % 1000) * 0.25f;
		y[i] = (float)(i % 77);
	}
	nn = (unsigned int)n;
	launch_grid(nn, &grid);
	ok = CU(&c, cuMemAlloc, &dx, n * sizeof *x) &&
	    CU(&c, cuMemAlloc, &dy, n * sizeof *y) &&
	    CU(&c, cuMemcpyHtoD, dx, x, n * sizeof *x) &&
	    CU(&c, cuMemcpyHtoD, dy, y, n * sizeof *y);
	if (ok) {
		void *args[] = { &nn, &a, &dx, &dy };
		double t0 = now_ms();

		ok = CU(&c, cuLaunchKernel, d->saxpy, grid, 1, 1, 256, 1, 1, 0,
		    NULL, args, NULL) && CU(&c, cuCtxSynchronize);
		ms = now_ms() - t0;
	}
	if (ok) {
		memset(y, 0, n * sizeof *y);
		ok = CU(&c, cuMemcpyDtoH, y, dy, n * sizeof *y);
	}
	if (ok) {
		for (size_t i = 0; i < n; i++) {
			float want = a * x[i] + (float)(i % 77);
			float e = fabsf(y[i] - want);

			if (!(e <= 1e-6f * fabsf(want))) {
				bad++;
				if (!(e <= max_err))
					max_err = isnan(e) ? INFINITY : e;
			}
		}
	}
	dev_free(&c, dx);
	dev_free(&c, dy);
	rec_open(&r, "saxpy");
	rec_int(&r, "device", d->idx);
	outcome(&r, ok && bad == 0 && c.rc == CW_CUDA_SUCCESS, &c);
	rec_uint(&r, "n", n);
	if (c.rc == CW_CUDA_SUCCESS) {
		rec_num(&r, "max_error", max_err);
		rec_uint(&r, "bad", bad);
		rec_num(&r, "ms", ms);
	}
	rec_emit(&r);
	free(x);
	free(y);
}

static uint32_t
pattern(size_t i)
{
	return (uint32_t)(i * 2654435761u) ^ 0x5a5a5a5au;
}

/* Bytes per second over REPS runs of BYTES read and BYTES written. */
static double
gbps(size_t bytes, int reps, double ms)
{
	return ms > 0 ? (double)bytes * reps / (ms / 1e3) / 1e9 : NAN;
}

static void
copy_bandwidth(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	size_t bytes = 256 * MIB, words, bad = 0;
	cw_CUdeviceptr src = 0, dst = 0;
	double kernel = NAN, memcpy_rate = NAN;
	unsigned int n16, grid;
	const int reps = 10;
	uint32_t *h;
	bool ok;
	struct rec r;

	while (bytes > MIB && bytes * 2 > d->free_mem / 4)
		bytes /= 2;
	words = bytes / sizeof *h;
	n16 = (unsigned int)(bytes / 16);
	launch_grid(n16, &grid);
	if ((h = host_alloc(bytes, "copy_bandwidth", d->idx)) == NULL)
		return;
	for (size_t i = 0; i < words; i++)
		h[i] = pattern(i);
	ok = CU(&c, cuMemAlloc, &src, bytes) && CU(&c, cuMemAlloc, &dst, bytes) &&
	    CU(&c, cuMemcpyHtoD, src, h, bytes);
	if (ok) {
		void *args[] = { &n16, &src, &dst };
		double t0;
		int i;

		/* The first launch pays for loading the kernel. */
		ok = CU(&c, cuLaunchKernel, d->copy, grid, 1, 1, 256, 1, 1, 0,
		    NULL, args, NULL) && CU(&c, cuCtxSynchronize);
		t0 = now_ms();
		for (i = 0; ok && i < reps; i++)
			ok = CU(&c, cuLaunchKernel, d->copy, grid, 1, 1, 256, 1,
			    1, 0, NULL, args, NULL);
		ok = ok && CU(&c, cuCtxSynchronize);
		kernel = gbps(2 * bytes, reps, now_ms() - t0);
	}
	if (ok) {
		memset(h, 0, bytes);
		ok = CU(&c, cuMemcpyDtoH, h, dst, bytes);
		for (size_t i = 0; ok && i < words; i++)
			bad += h[i] != pattern(i);
	}
	if (ok && cu.cuMemcpyDtoD != NULL) {
		double t0;
		int i;

		ok = CU(&c, cuMemcpyDtoD, dst, src, bytes) &&
		    CU(&c, cuCtxSynchronize);
		t0 = now_ms();
		for (i = 0; ok && i < reps; i++)
			ok = CU(&c, cuMemcpyDtoD, dst, src, bytes);
		ok = ok && CU(&c, cuCtxSynchronize);
		memcpy_rate = gbps(2 * bytes, reps, now_ms() - t0);
	}
	dev_free(&c, src);
	dev_free(&c, dst);
	rec_open(&r, "copy_bandwidth");
	rec_int(&r, "device", d->idx);
	outcome(&r, ok && bad == 0 && c.rc == CW_CUDA_SUCCESS, &c);
	rec_uint(&r, "bytes", bytes);
	if (bad > 0)
		rec_uint(&r, "bad", bad);
	rec_num(&r, "kernel_gbps", kernel);
	rec_num(&r, "memcpy_gbps", memcpy_rate);
	rec_num(&r, "ratio", kernel / memcpy_rate);
	rec_emit(&r);
	free(h);
}

static void
fma_rate(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	unsigned int threads, grid, iters = 2048, warm = 1;
	cw_CUdeviceptr out = 0;
	float *h, max_err = 0;
	size_t bad = 0, check;
	double ms = NAN;
	bool ok;
	struct rec r;

	/* Enough threads to fill every SM several times over. */
	threads = (unsigned int)(d->sm_count > 0 ? d->sm_count : 1) * 2048u;
	launch_grid(threads, &grid);
	threads = grid * 256;
	if ((h = host_alloc(threads * sizeof *h, "fma", d->idx)) == NULL)
		return;
	ok = CU(&c, cuMemAlloc, &out, threads * sizeof *h);
	if (ok) {
		void *warm_args[] = { &warm, &out }, *args[] = { &iters, &out };
		double t0;

		ok = CU(&c, cuLaunchKernel, d->fma, grid, 1, 1, 256, 1, 1, 0,
		    NULL, warm_args, NULL) && CU(&c, cuCtxSynchronize);
		t0 = now_ms();
		ok = ok && CU(&c, cuLaunchKernel, d->fma, grid, 1, 1, 256, 1, 1,
		    0, NULL, args, NULL) && CU(&c, cuCtxSynchronize);
		ms = now_ms() - t0;
	}
	if (ok)
		ok = CU(&c, cuMemcpyDtoH, h, out, threads * sizeof *h);
	/* A thread's result depends only on its index mod 256. */
	check = threads < 256 ? threads : 256;
	for (size_t i = 0; ok && i < check; i++) {
		float want = ptx_fma_reference((unsigned int)i, iters);
		float e = fabsf(h[i] - want);

		if (!(e <= 1e-5f * fabsf(want))) {
			bad++;
			if (!(e <= max_err))
				max_err = isnan(e) ? INFINITY : e;
		}
	}
	for (size_t i = check; ok && i < threads; i++)
		bad += memcmp(&h[i], &h[i % 256], sizeof *h) != 0;
	dev_free(&c, out);
	rec_open(&r, "fma");
	rec_int(&r, "device", d->idx);
	outcome(&r, ok && bad == 0 && c.rc == CW_CUDA_SUCCESS, &c);
	if (c.rc == CW_CUDA_SUCCESS) {
		rec_num(&r, "gflops", ms > 0 ? 2.0 * PTX_FMA_CHAINS *
		    (double)threads * iters / (ms / 1e3) / 1e9 : NAN);
		rec_num(&r, "ms", ms);
		rec_uint(&r, "bad", bad);
		rec_num(&r, "max_error", max_err);
	}
	rec_emit(&r);
	free(h);
}

static void
pinned(struct dev *d)
{
	struct cucall c = { d->idx, 0, NULL };
	size_t bytes = 64 * MIB, words, bad = 0;
	double h2d = NAN, d2h = NAN, t0;
	cw_CUdeviceptr dp = 0;
	const int reps = 5;
	uint32_t *h = NULL;
	void *hv = NULL;
	bool ok;
	struct rec r;

	if (cu.cuMemHostAlloc == NULL || cu.cuMemFreeHost == NULL) {
		skip("pinned", d->idx, "this libcuda has no cuMemHostAlloc");
		return;
	}
	while (bytes > MIB && bytes > d->free_mem / 4)
		bytes /= 2;
	words = bytes / sizeof *h;
	ok = CU(&c, cuMemHostAlloc, &hv, bytes, 0) &&
	    CU(&c, cuMemAlloc, &dp, bytes);
	h = hv;
	if (ok) {
		for (size_t i = 0; i < words; i++)
			h[i] = pattern(i);
		ok = CU(&c, cuMemcpyHtoD, dp, h, bytes) && CU(&c, cuCtxSynchronize);
		t0 = now_ms();
		for (int i = 0; ok && i < reps; i++)
			ok = CU(&c, cuMemcpyHtoD, dp, h, bytes);
		ok = ok && CU(&c, cuCtxSynchronize);
		h2d = gbps(bytes, reps, now_ms() - t0);
	}
	if (ok) {
		memset(h, 0, bytes);
		ok = CU(&c, cuMemcpyDtoH, h, dp, bytes);
		for (size_t i = 0; ok && i < words; i++)
			bad += h[i] != pattern(i);
		t0 = now_ms();
		for (int i = 0; ok && i < reps; i++)
			ok = CU(&c, cuMemcpyDtoH, h, dp, bytes);
		ok = ok && CU(&c, cuCtxSynchronize);
		d2h = gbps(bytes, reps, now_ms() - t0);
	}
	dev_free(&c, dp);
	if (hv != NULL)
		CU(&c, cuMemFreeHost, hv);
	rec_open(&r, "pinned");
	rec_int(&r, "device", d->idx);
	outcome(&r, ok && bad == 0 && c.rc == CW_CUDA_SUCCESS, &c);
	rec_uint(&r, "bytes", bytes);
	if (bad > 0)
		rec_uint(&r, "bad", bad);
	rec_num(&r, "h2d_gbps", h2d);
	rec_num(&r, "d2h_gbps", d2h);
	rec_emit(&r);
}

static const char *const kernel_checks[] = { "saxpy", "copy_bandwidth", "fma" };
static const char *const measures[] = { "copy_bandwidth", "fma", "pinned" };

static void
skip_all(const char *const *what, size_t n, int dev, const char *why)
{
	for (size_t i = 0; i < n; i++)
		skip(what[i], dev, why);
}

static void
check_device(int idx, bool quick)
{
	struct cucall c = { idx, 0, NULL };
	struct dev d = { .idx = idx, .quick = quick };
	static const char *const after_ctx[] = {
		"memory", "ptx_jit", "saxpy", "copy_bandwidth", "fma", "pinned",
	};
	char why[160];
	cw_CUresult rc;
	bool jit;

	if (!CU(&c, cuDeviceGet, &d.h, idx)) {
		struct rec r;

		rec_open(&r, "device");
		rec_int(&r, "device", idx);
		outcome(&r, false, &c);
		rec_emit(&r);
		failed_because(why, sizeof why, "cuDeviceGet", c.rc);
		skip("context", idx, why);
		skip_all(after_ctx, sizeof after_ctx / sizeof *after_ctx, idx, why);
		return;
	}
	device_record(&d);
	if ((rc = context(&d)) != CW_CUDA_SUCCESS) {
		failed_because(why, sizeof why, "cuCtxCreate", rc);
		skip_all(after_ctx, sizeof after_ctx / sizeof *after_ctx, idx, why);
		return;
	}
	memory(&d);
	jit = ptx_jit(&d);
	if (!jit)
		skip_all(kernel_checks, sizeof kernel_checks / sizeof *kernel_checks,
		    idx, "the verification kernels did not load (ptx_jit)");
	else
		saxpy(&d);
	if (quick)
		skip_all(measures, sizeof measures / sizeof *measures, idx,
		    "--quick");
	else {
		if (jit) {
			copy_bandwidth(&d);
			fma_rate(&d);
		}
		pinned(&d);
	}
	if (d.mod != NULL)
		CU(&c, cuModuleUnload, d.mod);
	CU(&c, cuCtxDestroy, d.ctx);
}

void
mode_driver(const struct helper_opts *o)
{
#ifdef _WIN32
	const char *lib = o->lib != NULL ? o->lib : win_system_dll("nvcuda.dll");
#else
	const char *lib = o->lib != NULL ? o->lib : "libcuda.so.1";
#endif
	struct cucall c = { -1, 0, NULL };
	int version = 0, count = 0;
	char why[160];
	void *h;
	struct rec r;

	if ((h = load_lib(lib)) == NULL) {
		skip("init", -1, "the library did not load");
		return;
	}
	if (!bind_symbols(h, lib, cu_syms, sizeof cu_syms / sizeof *cu_syms,
	    &cu)) {
		skip("init", -1, "required functions are missing");
		return;
	}
	CU(&c, cuInit, 0);
	rec_open(&r, "init");
	outcome(&r, c.rc == CW_CUDA_SUCCESS, &c);
	rec_emit(&r);
	if (c.rc != CW_CUDA_SUCCESS)
		failed_because(why, sizeof why, "cuInit", c.rc);

	/* The driver's CUDA level is known without a working cuInit on
	 * real drivers, and says which CUDA it would have served. */
	{
		struct cucall v = { -1, 0, NULL };

		rec_open(&r, "driver_version");
		if (CU(&v, cuDriverGetVersion, &version))
			rec_int(&r, "version", version);
		else {
			rec_null(&r, "version");
			cu_error(&r, v.rc, v.call);
		}
		rec_emit(&r);
	}
	if (c.rc != CW_CUDA_SUCCESS) {
		skip("device_count", -1, why);
		return;
	}
	c.rc = 0;
	rec_open(&r, "device_count");
	if (CU(&c, cuDeviceGetCount, &count))
		rec_int(&r, "count", count);
	else {
		outcome(&r, false, &c);
		count = 0;
	}
	rec_emit(&r);
	if (c.rc != CW_CUDA_SUCCESS) {
		failed_because(why, sizeof why, "cuDeviceGetCount", c.rc);
		skip("device", -1, why);
		return;
	}
	if (count <= 0) {
		helper_fail();
		skip("device", -1, "cuDeviceGetCount found no device");
		return;
	}
	if (o->device >= 0) {
		if (o->device >= count) {
			helper_fail();
			skipf("device", o->device, "there is no device %d: "
			    "cuDeviceGetCount found %d", o->device, count);
			return;
		}
		check_device(o->device, o->quick);
		return;
	}
	for (int i = 0; i < count; i++)
		check_device(i, o->quick);
}
