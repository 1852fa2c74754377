/* What the libcuda.so.1 the loader picks is, beyond its name: a CUDA
 * forward-compatibility library (the cuda-compat-X-Y package's
 * cuda-X.Y/compat/libcuda.so.VERSION), and in WSL whether the unversioned
 * libcuda.so that cuDNN 8 dlopens exists in /usr/lib/wsl/lib.
 *
 * Runs after probe_libraries(), whose loader answer for libcuda.so.1 it
 * reads: only the file that really loads matters. Cheap: the path says
 * whether the library is a compat one, and only then are dpkg's lists of
 * the cuda-compat packages read (at most a few, each bounded). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

#define DPKG_INFO	"/var/lib/dpkg/info"
#define WSL_LIBCUDA	"/usr/lib/wsl/lib/libcuda.so"
/* A cuda-compat package lists a dozen files; its .list is under 2 KiB. */
#define LIST_CAP	(64 * 1024)
#define LISTS_MAX	8

/* "12.4" from "cuda-12.4", NULL for anything else. */
static char *
dir_cuda(const char *comp, size_t len)
{
	struct version v;

	if (len < 6 || strncmp(comp, "cuda-", 5) != 0 ||
	    !version_parsen(comp + 5, len - 5, &v) || v.nparts != 2)
		return NULL;
	return xstrndup(comp + 5, len - 5);
}

/*
 * Whether path lies in a forward-compatibility directory: a component
 * "compat" right under "cuda" or "cuda-X.Y" (the package's
 * /usr/local/cuda-12.4/compat, NGC images' /usr/local/cuda/compat/lib),
 * or conda's cuda-compat package directory. *cuda gets X.Y when the
 * parent names it; *dir the compat directory.
 */
static bool
compat_dir(const char *path, char **cuda, char **dir)
{
	const char *p = path, *prev = NULL;
	size_t prevlen = 0;

	*cuda = NULL;
	*dir = NULL;
	while (p != NULL && *p != '\0') {
		const char *c = p + (*p == '/');
		const char *end = strchr(c, '/');
		size_t len = end != NULL ? (size_t)(end - c) : strlen(c);

		if (end == NULL)
			break;		/* the file's own name */
		if ((len == 6 && strncmp(c, "compat", 6) == 0 && prev != NULL &&
		    ((prevlen == 4 && strncmp(prev, "cuda", 4) == 0) ||
		    (*cuda = dir_cuda(prev, prevlen)) != NULL)) ||
		    (len == 11 && strncmp(c, "cuda-compat", 11) == 0)) {
			*dir = xstrndup(path, (size_t)(c + len - path));
			return true;
		}
		prev = c;
		prevlen = len;
		p = end;
	}
	return false;
}

/* "550.54.15" from "libcuda.so.550.54.15"; NULL when the name has none. */
static char *
name_version(const char *path)
{
	const char *base = path_basename(path);
	struct version v;

	if (strncmp(base, "libcuda.so.", 11) != 0 ||
	    !version_parse(base + 11, &v) || v.nparts < 2)
		return NULL;
	return xstrdup(base + 11);
}

/* Whether the dpkg list text holds path as a whole line. */
static bool
lists_path(const char *text, const char *path)
{
	size_t n = strlen(path);

	for (const char *l = text; l != NULL && *l != '\0';) {
		const char *nl = strchr(l, '\n');
		size_t len = nl != NULL ? (size_t)(nl - l) : strlen(l);

		if (len == n && strncmp(l, path, n) == 0)
			return true;
		l = nl != NULL ? nl + 1 : NULL;
	}
	return false;
}

/* The cuda-compat-X-Y package whose dpkg list names one of the paths. */
static void
find_package(struct probe_ctx *ctx, const char *const *paths, size_t npaths)
{
	struct loaded_libcuda *fc = &ctx->facts->driver.libcuda;
	struct strv names = STRV_INIT;
	size_t read = 0;

	if (sysroot_list_dir(ctx->sr, DPKG_INFO, &names) != 0)
		return;
	for (size_t i = 0; i < names.n && read < LISTS_MAX && fc->compat_package == NULL; i++) {
		const char *nm = names.v[i];
		size_t len = strlen(nm);
		char *file, *text = NULL, *colon;
		size_t tlen;
		bool hit = false;

		if (strncmp(nm, "cuda-compat-", 12) != 0 || len < 17 ||
		    strcmp(nm + len - 5, ".list") != 0)
			continue;
		read++;
		file = path_join(DPKG_INFO, nm);
		if (sysroot_read_file(ctx->sr, file, LIST_CAP, &text, &tlen) == 0)
			for (size_t k = 0; k < npaths && !hit; k++)
				hit = paths[k] != NULL && lists_path(text, paths[k]);
		if (hit) {
			/* "cuda-compat-12-4:amd64.list" → "cuda-compat-12-4" */
			fc->compat_package = xstrndup(nm, len - 5);
			if ((colon = strchr(fc->compat_package, ':')) != NULL)
				*colon = '\0';
			if (fc->compat_cuda == NULL) {
				const char *v = fc->compat_package + 12;
				const char *dash = strchr(v, '-');

				if (dash != NULL && dash > v && dash[1] != '\0') {
					fc->compat_cuda = xasprintf("%.*s.%s",
					    (int)(dash - v), v, dash + 1);
					if (!version_valid(fc->compat_cuda))
						FREE(&fc->compat_cuda);
					else
						fc->compat_source = xstrdup(file);
				}
			}
		}
		free(text);
		free(file);
	}
	strv_free(&names);
}

void
probe_fwd_compat(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;
	const struct lib_fact *lib = facts_library(ctx->facts, "libcuda.so.1");
	char *cuda = NULL, *dir = NULL;
	const char *real;

	if (d->is_wsl) {
		if (sysroot_exists(ctx->sr, WSL_LIBCUDA))
			fact_set(&d->wsl_unversioned, "yes", WSL_LIBCUDA);
		else
			fact_set(&d->wsl_unversioned, "no", WSL_LIBCUDA);
	}
	if (lib == NULL || lib->resolved == NULL || lib->stub)
		return;
	real = lib->target != NULL ? lib->target : lib->resolved;
	d->libcuda.path = xstrdup(real);
	d->libcuda.version = name_version(real);
	/* The link may sit in the compat directory and point elsewhere, or
	 * the reverse; either path says so. */
	if (!compat_dir(real, &cuda, &dir) &&
	    !compat_dir(lib->resolved, &cuda, &dir))
		return;
	d->libcuda.fwd_compat = true;
	if (cuda != NULL) {
		d->libcuda.compat_cuda = cuda;
		d->libcuda.compat_source = xstrdup(dir);
	}
	{
		const char *paths[] = { real, lib->resolved };

		find_package(ctx, paths, 2);
	}
	free(dir);
}
