/* runtime mode: one libcudart. Its version and the driver's as it sees
 * them, whether it can start (the first call that needs the driver:
 * cudaGetDeviceCount), and a round trip of memory through a device.
 * The cudart binding here also serves cudnn mode. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helper/helper.h"

#define S(field, req, ...) SYM(struct rtapi, field, req, __VA_ARGS__)
static const struct symspec rt_syms[] = {
	S(cudaRuntimeGetVersion, true, "cudaRuntimeGetVersion"),
	S(cudaDriverGetVersion, true, "cudaDriverGetVersion"),
	S(cudaGetDeviceCount, true, "cudaGetDeviceCount"),
	S(cudaGetErrorName, false, "cudaGetErrorName"),
	S(cudaGetErrorString, false, "cudaGetErrorString"),
	S(cudaSetDevice, false, "cudaSetDevice"),
	S(cudaMalloc, true, "cudaMalloc"),
	S(cudaFree, true, "cudaFree"),
	S(cudaMemcpy, true, "cudaMemcpy"),
	S(cudaDeviceSynchronize, false, "cudaDeviceSynchronize"),
};
#undef S

bool
rt_bind(void *handle, const char *lib, struct rtapi *rt)
{
	memset(rt, 0, sizeof *rt);
	return bind_symbols(handle, lib, rt_syms,
	    sizeof rt_syms / sizeof *rt_syms, rt);
}

/* cudaGetErrorName answers "unrecognized error code" for a code it does
 * not know; the helper's table may know it from a newer release. */
static const char *
rt_name(const struct rtapi *rt, cw_cudaError code)
{
	const char *name = rt->cudaGetErrorName != NULL ?
	    rt->cudaGetErrorName(code) : NULL;

	if (name == NULL || strncmp(name, "cuda", 4) != 0)
		name = cw_cudaerror_name(code);
	return name;
}

void
rt_error(const struct rtapi *rt, struct rec *r, cw_cudaError code,
    const char *call)
{
	rec_error(r, code, rt_name(rt, code), rt->cudaGetErrorString != NULL ?
	    rt->cudaGetErrorString(code) : NULL, call);
}

static void
version_record(const char *check, const char *call, cw_cudaError rc, int v,
    const struct rtapi *rt)
{
	struct rec r;

	rec_open(&r, check);
	if (rc == CW_cudaSuccess)
		rec_int(&r, "version", v);
	else {
		rec_null(&r, "version");
		rt_error(rt, &r, rc, call);
	}
	rec_emit(&r);
}

static void
roundtrip(const struct rtapi *rt)
{
	const size_t bytes = 16u * 1024 * 1024;
	unsigned char *h = malloc(bytes), *back = malloc(bytes);
	cw_cudaError rc = CW_cudaSuccess;
	const char *call = NULL;
	size_t bad = 0;
	void *d = NULL;
	struct rec r;

	if (h == NULL || back == NULL) {
		skip("roundtrip", -1, "could not allocate host memory");
		free(h);
		free(back);
		return;
	}
	for (size_t i = 0; i < bytes; i++)
		h[i] = (unsigned char)(i * 131u + (i >> 13));
	memset(back, 0, bytes);
#define RT(fn, ...) (step(#fn, -1), call = #fn, \
	(rc = rt->fn(__VA_ARGS__)) == CW_cudaSuccess)
	if (RT(cudaMalloc, &d, bytes) &&
	    RT(cudaMemcpy, d, h, bytes, CW_cudaMemcpyHostToDevice) &&
	    RT(cudaMemcpy, back, d, bytes, CW_cudaMemcpyDeviceToHost)) {
		call = NULL;
		for (size_t i = 0; i < bytes; i++)
			bad += h[i] != back[i];
	}
	if (d != NULL) {
		cw_cudaError frc;

		step("cudaFree", -1);
		frc = rt->cudaFree(d);
		/* A failing free is news only after a good round trip. */
		if (frc != CW_cudaSuccess && rc == CW_cudaSuccess) {
			rc = frc;
			call = "cudaFree";
		}
	}
#undef RT
	rec_open(&r, "roundtrip");
	rec_bool(&r, "ok", rc == CW_cudaSuccess && bad == 0);
	rec_uint(&r, "bytes", bytes);
	if (rc != CW_cudaSuccess)
		rt_error(rt, &r, rc, call);
	else
		rec_uint(&r, "bad", bad);
	rec_emit(&r);
	if (rc != CW_cudaSuccess || bad != 0)
		helper_fail();
	free(h);
	free(back);
}

void
mode_runtime(const struct helper_opts *o)
{
	struct rtapi rt;
	cw_cudaError rc;
	int v = 0, count = 0;
	void *h;
	struct rec r;

	if (o->lib == NULL) {
		skip("init", -1, "no library given (--lib)");
		helper_fail();
		return;
	}
	if ((h = load_lib(o->lib)) == NULL) {
		skip("init", -1, "the library did not load");
		return;
	}
	if (!rt_bind(h, o->lib, &rt)) {
		skip("init", -1, "required functions are missing");
		return;
	}
	/* Neither needs a driver: the runtime knows its own version, and
	 * reports driver 0 when there is none. */
	step("cudaRuntimeGetVersion", -1);
	rc = rt.cudaRuntimeGetVersion(&v);
	version_record("runtime_version", "cudaRuntimeGetVersion", rc, v, &rt);
	v = 0;
	step("cudaDriverGetVersion", -1);
	rc = rt.cudaDriverGetVersion(&v);
	version_record("driver_version", "cudaDriverGetVersion", rc, v, &rt);

	/* The first call that starts the runtime: its error is the one a
	 * program sees (cudaErrorInsufficientDriver, cudaErrorNoDevice). */
	step("cudaGetDeviceCount", -1);
	rc = rt.cudaGetDeviceCount(&count);
	rec_open(&r, "init");
	rec_bool(&r, "ok", rc == CW_cudaSuccess);
	if (rc != CW_cudaSuccess)
		rt_error(&rt, &r, rc, "cudaGetDeviceCount");
	rec_emit(&r);
	if (rc != CW_cudaSuccess) {
		const char *name = rt_name(&rt, rc);

		helper_fail();
		if (name != NULL)
			skipf("roundtrip", -1, "cudaGetDeviceCount failed: %s",
			    name);
		else
			skipf("roundtrip", -1, "cudaGetDeviceCount failed: "
			    "error %u", rc);
		return;
	}
	rec_open(&r, "device_count");
	rec_int(&r, "count", count);
	rec_emit(&r);
	if (count <= 0) {
		skip("roundtrip", -1, "cudaGetDeviceCount found no device");
		helper_fail();
		return;
	}
	roundtrip(&rt);
}
