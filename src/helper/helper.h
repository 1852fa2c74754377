/* What the helper's modes share: options, steps, loading a library,
 * binding its symbols, and the run's overall verdict. */
#ifndef CUDAWIZ_HELPER_HELPER_H
#define CUDAWIZ_HELPER_HELPER_H

#include <stdbool.h>
#include <stddef.h>

#include "helper/cudecl.h"
#include "helper/jsonl.h"

struct helper_opts {
	const char *mode;
	const char *lib;	/* NULL: the mode's default */
	const char *cudart;	/* cudnn mode: --cudart, or NULL */
	int device;		/* driver mode: --device N, or -1 for all */
	bool quick;
};

/* One function to look up: the API's name as reported, whether the mode
 * cannot run without it, where its pointer goes in the mode's API
 * struct, and the exported names to try, newest first. */
struct symspec {
	const char *name;
	bool required;
	size_t offset;
	const char *bind[4];
};

#define SYM(type, field, req, ...) \
	{ #field, req, offsetof(type, field), { __VA_ARGS__, NULL } }

/* The run failed: a check said ok:false, or could not run for a reason
 * that is itself a failure (a library that does not load, no device). */
void helper_fail(void);
bool helper_failed(void);
void helper_add_context_ms(double ms);
double helper_context_ms(void);

double now_ms(void);

/* A "step" record before a vendor call that may not return; DEVICE < 0
 * for none. A step that repeats the one before is not written again. */
void step(const char *name, int device);

/* dlopen()s LIB with a "load" record; NULL (and the run failed) when it
 * does not load. */
void *load_lib(const char *lib);

/* Looks up SPECS in HANDLE, storing each pointer into API, and writes
 * the "symbols" record; false when a required function is missing. */
bool bind_symbols(void *handle, const char *lib, const struct symspec *specs,
    size_t nspecs, void *api);

/* "code", "name", "message" and "call" members of a failure. */
void rec_error(struct rec *r, long long code, const char *name,
    const char *message, const char *call);

/* A "skip" record: WHAT could not run (on DEVICE, or -1), and WHY. */
void skip(const char *what, int device, const char *why);
/* The same, WHY built from a format. */
#ifdef __MINGW_PRINTF_FORMAT
/* mingw-w64's printf archetype is msvcrt's, which has no %zu; the
 * helper is built with its C99 stdio (__USE_MINGW_ANSI_STDIO). */
#define HELPER_PRINTF	__MINGW_PRINTF_FORMAT
#else
#define HELPER_PRINTF	printf
#endif
void skipf(const char *what, int device, const char *fmt, ...)
    __attribute__((format(HELPER_PRINTF, 3, 4)));

/* The CUDA runtime's functions the runtime and cudnn modes call
 * (runtime.c). */
struct rtapi {
	cw_cudaRuntimeGetVersion_fn	cudaRuntimeGetVersion;
	cw_cudaDriverGetVersion_fn	cudaDriverGetVersion;
	cw_cudaGetDeviceCount_fn	cudaGetDeviceCount;
	cw_cudaGetErrorName_fn		cudaGetErrorName;
	cw_cudaGetErrorString_fn	cudaGetErrorString;
	cw_cudaSetDevice_fn		cudaSetDevice;
	cw_cudaMalloc_fn		cudaMalloc;
	cw_cudaFree_fn			cudaFree;
	cw_cudaMemcpy_fn		cudaMemcpy;
	cw_cudaDeviceSynchronize_fn	cudaDeviceSynchronize;
};

/* Binds a loaded libcudart's functions into RT ("symbols" record). */
bool rt_bind(void *handle, const char *lib, struct rtapi *rt);
/* "code", "name", "message" (and "call") of a runtime error. */
void rt_error(const struct rtapi *rt, struct rec *r, cw_cudaError code,
    const char *call);

/* Each mode writes its records from "load" on; main() writes "begin"
 * and "end". */
void mode_driver(const struct helper_opts *o);
void mode_runtime(const struct helper_opts *o);
void mode_cudnn(const struct helper_opts *o);

#endif
