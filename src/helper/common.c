/* Services every mode of the helper uses: the run's verdict, steps,
 * dlopen with its "load" record, and symbol binding with its "symbols"
 * record. */
#include "config.h"

#ifndef _WIN32
#include <dlfcn.h>
#include <link.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/helper.h"
#ifdef _WIN32
#include "helper/win.h"
#endif

static bool failed;
static double context_ms;
/* The step written last (see step()). */
static const char *last_name;
static int last_device = -2;

void
helper_fail(void)
{
	failed = true;
}

bool
helper_failed(void)
{
	return failed;
}

void
helper_add_context_ms(double ms)
{
	context_ms += ms;
}

double
helper_context_ms(void)
{
	return context_ms;
}

double
now_ms(void)
{
#ifdef _WIN32
	return win_now_ms();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
#endif
}

void
step(const char *name, int device)
{
	struct rec r;

	/* A loop of the same call says it once: the parent only needs the
	 * last step to name where a run stopped. Names are literals, so the
	 * pointer kept stays valid. */
	if (last_name != NULL && strcmp(name, last_name) == 0 &&
	    device == last_device)
		return;
	last_name = name;
	last_device = device;
	rec_open(&r, "step");
	rec_str(&r, "name", name);
	if (device >= 0)
		rec_int(&r, "device", device);
	rec_emit(&r);
}

void *
load_lib(const char *lib)
{
#ifdef _WIN32
	char errbuf[1024], path[4096];
#else
	struct link_map *lm = NULL;
#endif
	const char *err = NULL;
	void *h;
	struct rec r;

	/* Always written, with the library: cudnn mode opens two, and a
	 * crash in a library's constructor must say which. */
	rec_open(&r, "step");
	rec_str(&r, "name", "dlopen");
	rec_str(&r, "lib", lib);
	rec_emit(&r);
	last_name = "dlopen";
	last_device = -1;
	/* RTLD_NOW: a missing dependency or symbol is said here, by the
	 * loader, instead of crashing at the first call that needs it. */
#ifdef _WIN32
	/* LoadLibraryExW resolves the DLL's imports before it returns. */
	h = win_dlopen(lib, errbuf, sizeof errbuf);
	if (h == NULL)
		err = errbuf;
#else
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL)
		err = dlerror();
#endif
	rec_open(&r, "load");
	rec_str(&r, "lib", lib);
	rec_bool(&r, "ok", h != NULL);
	rec_str(&r, "error", err);
#ifdef _WIN32
	if (h != NULL && win_dlpath(h, path, sizeof path))
		rec_str(&r, "path", path);
#else
	if (h != NULL && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL &&
	    lm->l_name != NULL && lm->l_name[0] != '\0')
		rec_str(&r, "path", lm->l_name);
#endif
	else
		rec_null(&r, "path");
	rec_emit(&r);
	if (h == NULL)
		helper_fail();
	return h;
}

bool
bind_symbols(void *handle, const char *lib, const struct symspec *specs,
    size_t nspecs, void *api)
{
	bool ok = true;
	struct rec r;
	const char **bound;

	bound = calloc(nspecs, sizeof *bound);
	if (bound == NULL)
		abort();
	for (size_t i = 0; i < nspecs; i++) {
		for (size_t j = 0; specs[i].bind[j] != NULL; j++) {
#ifdef _WIN32
			void *p = win_dlsym(handle, specs[i].bind[j]);
#else
			void *p = dlsym(handle, specs[i].bind[j]);
#endif

			if (p == NULL)
				continue;
			/* POSIX guarantees a function pointer and void *
			 * share a representation; memcpy says so without a
			 * cast ISO C frowns on. */
			memcpy((char *)api + specs[i].offset, &p, sizeof p);
			bound[i] = specs[i].bind[j];
			break;
		}
		if (bound[i] == NULL && specs[i].required)
			ok = false;
	}
	rec_open(&r, "symbols");
	rec_str(&r, "lib", lib);
	rec_bool(&r, "ok", ok);
	rec_array(&r, "missing");
	for (size_t i = 0; i < nspecs; i++)
		if (bound[i] == NULL && specs[i].required)
			rec_str(&r, NULL, specs[i].name);
	rec_close(&r);
	rec_object(&r, "versioned");
	for (size_t i = 0; i < nspecs; i++)
		if (bound[i] != NULL)
			rec_str(&r, specs[i].name, bound[i]);
	rec_close(&r);
	rec_emit(&r);
	free(bound);
	if (!ok)
		helper_fail();
	return ok;
}

void
rec_error(struct rec *r, long long code, const char *name,
    const char *message, const char *call)
{
	rec_int(r, "code", code);
	rec_str(r, "name", name);
	rec_str(r, "message", message);
	if (call != NULL)
		rec_str(r, "call", call);
}

void
skip(const char *what, int device, const char *why)
{
	struct rec r;

	rec_open(&r, "skip");
	rec_str(&r, "what", what);
	if (device >= 0)
		rec_int(&r, "device", device);
	rec_str(&r, "why", why);
	rec_emit(&r);
}

void
skipf(const char *what, int device, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	skip(what, device, why);
}
