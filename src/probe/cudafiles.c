/* Files that say what a CUDA install is; see cudafiles.h. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cudafiles.h"
#include "util/envp.h"
#include "util/version.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

bool
cf_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Adds prefix/lib/python3*\/sub for every Python 3 under prefix/lib. A
 * prefix that cannot be listed adds nothing: whether VIRTUAL_ENV and the
 * rest exist is the environment probe's to report. */
static void
add_pythons(const struct sysroot *sr, const char *prefix, const char *sub,
    struct strv *out)
{
	struct strv names = STRV_INIT;
	char *lib = path_join(prefix, "lib");

	if (sysroot_list_dir(sr, lib, &names) == 0) {
		for (size_t i = 0; i < names.n; i++) {
			char *py, *sp;

			if (strncmp(names.v[i], "python3", 7) != 0)
				continue;
			py = path_join(lib, names.v[i]);
			sp = path_join(py, sub);
			free(py);
			if (!strv_contains(out, sp) && sysroot_is_dir(sr, sp))
				strv_push_owned(out, sp);
			else
				free(sp);
		}
	}
	strv_free(&names);
	free(lib);
}

void
cf_site_packages(const struct probe_ctx *ctx, struct strv *out)
{
	const char *v;
	const char *sys = "/usr/lib/python3/dist-packages";

	v = envp_get(ctx->envp, "VIRTUAL_ENV");
	if (v != NULL && *v != '\0')
		add_pythons(ctx->sr, v, "site-packages", out);
	v = envp_get(ctx->envp, "CONDA_PREFIX");
	if (v != NULL && *v != '\0')
		add_pythons(ctx->sr, v, "site-packages", out);
	add_pythons(ctx->sr, "/usr/local", "dist-packages", out);
	if (!strv_contains(out, sys) && sysroot_is_dir(ctx->sr, sys))
		strv_push(out, sys);
	v = envp_get(ctx->envp, "HOME");
	if (v != NULL && *v != '\0') {
		char *local = path_join(v, ".local");

		add_pythons(ctx->sr, local, "site-packages", out);
		free(local);
	}
}

void
cf_distinfo_free(struct cf_distinfo *d)
{
	FREE(&d->name);
	FREE(&d->cuda);
	FREE(&d->version);
}

/* Splits "base[_cuNN]-VERSION.dist-info"; false when name is not one of
 * base's. Wheel file names have '-' only between name and version. */
static bool
distinfo_parse(const char *name, const char *base, struct cf_distinfo *out)
{
	const char *suffix = ".dist-info", *p, *dash, *end;
	size_t blen = strlen(base);

	if (strncmp(name, base, blen) != 0 || !cf_ends_with(name, suffix))
		return false;
	p = name + blen;
	dash = strchr(p, '-');
	if (dash == NULL)
		return false;
	end = name + strlen(name) - strlen(suffix);
	if (dash >= end ||
	    !version_parsen(dash + 1, (size_t)(end - dash - 1), NULL))
		return false;
	if (p == dash) {
		out->cuda = NULL;
	} else {
		const char *d = p + 3;

		if (strncmp(p, "_cu", 3) != 0 || d == dash)
			return false;
		for (const char *q = d; q < dash; q++)
			if (!isdigit((unsigned char)*q))
				return false;
		out->cuda = xstrndup(d, (size_t)(dash - d));
	}
	out->name = xstrdup(name);
	out->version = xstrndup(dash + 1, (size_t)(end - dash - 1));
	return true;
}

bool
cf_distinfo_find(const struct strv *names, const char *base, const char *major,
    struct cf_distinfo *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < names->n; i++) {
		size_t ml;

		if (!distinfo_parse(names->v[i], base, out))
			continue;
		ml = major != NULL ? strlen(major) : 0;
		if (major == NULL || (strncmp(out->version, major, ml) == 0 &&
		    (out->version[ml] == '.' || out->version[ml] == '\0')))
			return true;
		cf_distinfo_free(out);
	}
	return false;
}

/* Matches "#  define NAME <digits>" at line; the value in *val. */
static bool
define_line(const char *line, const char *end, const char *name,
    unsigned long *val)
{
	const char *p = line;
	size_t nl = strlen(name);
	unsigned long v = 0;
	size_t digits = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '#')
		return false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 7 || strncmp(p, "define", 6) != 0 ||
	    (p[6] != ' ' && p[6] != '\t'))
		return false;
	p += 7;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) <= nl || strncmp(p, name, nl) != 0 ||
	    (p[nl] != ' ' && p[nl] != '\t'))
		return false;
	p += nl;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	/* Nine digits at most: a version macro is never longer, and it
	 * keeps the value far from overflow. */
	while (p < end && isdigit((unsigned char)*p) && digits < 10) {
		v = v * 10 + (unsigned long)(*p - '0');
		digits++;
		p++;
	}
	if (digits == 0 || digits > 9)
		return false;
	if (p < end && !isspace((unsigned char)*p) && *p != '/')
		return false;
	*val = v;
	return true;
}

int
cf_header_defines(const struct sysroot *sr, const char *path, size_t cap,
    const char *const *names, size_t n, unsigned long *vals, bool *found)
{
	char *data;
	size_t len;
	int rc = sysroot_read_file(sr, path, cap, &data, &len);

	for (size_t i = 0; i < n; i++)
		found[i] = false;
	if (rc != 0)
		return rc;
	for (const char *line = data; line < data + len;) {
		size_t left = (size_t)(data + len - line);
		const char *end = memchr(line, '\n', left);

		if (end == NULL)
			end = data + len;
		for (size_t i = 0; i < n; i++)
			if (!found[i] &&
			    define_line(line, end, names[i], &vals[i]))
				found[i] = true;
		line = end + 1;
	}
	free(data);
	return 0;
}

const char *
cf_so_version(const char *name, const char *lib)
{
	size_t ll = strlen(lib);

	if (strncmp(name, lib, ll) != 0 || strncmp(name + ll, ".so.", 4) != 0)
		return NULL;
	return version_valid(name + ll + 4) ? name + ll + 4 : NULL;
}
