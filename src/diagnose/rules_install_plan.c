/* What to install on this machine for a CUDA library the loader cannot
 * find: the CUDA release a soname stands for, the newest one this
 * machine's driver runs, as a wheel, a conda package or NVIDIA's package,
 * all chosen through the matrix; see rules_install_plan.h. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/fixcmd.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_loader_int.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* "580" from "580.65.06": driver packages are named by branch. */
char *
ip_branch_of(const char *driver)
{
	return xstrndup(driver, strcspn(driver, "."));
}

/* A fix line, unless the finding already has it. */
void
ip_fix_line(struct finding *f, char *line)
{
	if (strv_contains(&f->fix, line))
		free(line);
	else
		strv_push_owned(&f->fix, line);
}

/* A soname's range of CUDA releases in words: "11.0 to 11.8", "13.x",
 * "12.0 to 13.x", "8.0 and newer". The caller frees it. */
char *
ip_range_text(const struct matrix_range *r)
{
	bool bare = r->max != NULL && strchr(r->max, '.') == NULL;
	struct version lo;

	if (r->max == NULL)
		return xasprintf(_("%s and newer"), r->min);
	/* {"12.0", "12"} is the whole major. */
	if (bare && version_parse(r->min, &lo) && lo.part[0] == version_major_str(r->max) &&
	    lo.nparts == 2 && lo.part[1] == 0)
		return xasprintf("%s.x", r->max);
	if (strcmp(r->min, r->max) == 0)
		return xstrdup(r->min);
	return xasprintf(_("%s to %s%s"), r->min, r->max, bare ? ".x" : "");
}


/* Wheel names by the matrix's library names: templates in the code,
 * used only where the matrix knows the wheel and that it provides the
 * soname (design.md: the network changes names, never commands). */
static const struct {
	const char	*library;
	const char	*wheel;
} wheel_stems[] = {
	{ "cudart", "nvidia-cuda-runtime" },
	{ "cublas", "nvidia-cublas" },
	{ "cublaslt", "nvidia-cublas" },
	{ "cufft", "nvidia-cufft" },
	{ "cufftw", "nvidia-cufft" },
	{ "curand", "nvidia-curand" },
	{ "cusolver", "nvidia-cusolver" },
	{ "cusparse", "nvidia-cusparse" },
	{ "nvrtc", "nvidia-cuda-nvrtc" },
	{ "nvjitlink", "nvidia-nvjitlink" },
	{ "cupti", "nvidia-cuda-cupti" },
	{ "nvvm", "nvidia-cuda-nvcc" },
	{ "nvvm", "nvidia-nvvm" },
	{ "nvshmem", "nvidia-nvshmem" },
	{ "cudnn", "nvidia-cudnn" },
};

/* The wheel of library for CUDA major that provides soname, or NULL. */
const struct matrix_wheel *
ip_wheel_for(const struct matrix *m, const char *library, unsigned major,
    const char *soname)
{
	for (size_t i = 0; i < sizeof wheel_stems / sizeof wheel_stems[0]; i++) {
		char *names[2];

		if (strcmp(wheel_stems[i].library, library) != 0)
			continue;
		names[0] = xasprintf("%s-cu%u", wheel_stems[i].wheel, major);
		names[1] = xstrdup(wheel_stems[i].wheel);
		for (size_t k = 0; k < 2; k++) {
			const struct matrix_wheel *w = matrix_wheel(m, names[k]);

			if (w != NULL && w->cuda_major == major &&
			    strv_contains(&w->provides, soname)) {
				free(names[0]);
				free(names[1]);
				return w;
			}
		}
		free(names[0]);
		free(names[1]);
	}
	return NULL;
}

/* Only a plain relative path goes into the LD_LIBRARY_PATH template. */
static bool
plain_lib_dir(const char *dir)
{
	if (dir == NULL || dir[0] == '\0' || dir[0] == '/' || strstr(dir, "..") != NULL)
		return false;
	for (const char *p = dir; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._/-", *p) != NULL))
			return false;
	return true;
}

bool
ip_wheel_fix(const struct matrix *m, struct finding *f,
    const struct matrix_wheel *w, const char *min, const char *max)
{
	struct fix_want want = { .channel = "pip", .package = w->package,
	    .min = min, .max = max };

	if (!fixcmd_install(m, f, NULL, &want, 1))
		return false;
	if (plain_lib_dir(w->lib_dir)) {
		lr_fix_comment(f, _("then put the wheel's directory on the search path:"));
		ip_fix_line(f, xasprintf("export LD_LIBRARY_PATH=\"$(python3 -c "
		    "'import sysconfig; print(sysconfig.get_paths()[\"purelib\"])')"
		    "/%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"", w->lib_dir));
	}
	return true;
}

/* The newest release of CUDA major within [min, max] and at most
 * ceiling (NULL: no ceiling), written into buf as major.minor; false when
 * the matrix knows none. */
bool
ip_newest_release(const struct matrix *m, unsigned major, const char *min,
    const char *max, const char *ceiling, char *buf, size_t n)
{
	for (int minor = 30; minor >= 0; minor--) {
		char v[24];

		snprintf(v, sizeof v, "%u.%d", major, minor);
		if (matrix_cuda_release(m, v) == NULL)
			continue;
		if (min != NULL && version_major_str(min) == major && version_cmp_str(v, min) < 0)
			continue;
		if (max != NULL && strchr(max, '.') != NULL && version_cmp_str(v, max) > 0)
			continue;
		if (ceiling != NULL && version_cmp_str(v, ceiling) > 0)
			continue;
		snprintf(buf, n, "%s", v);
		return true;
	}
	return false;
}

/* "11.8" from "11.8.0" or "11.8". */
void
ip_major_minor(const char *v, char *buf, size_t n)
{
	struct version ver;

	if (version_parse(v, &ver) && ver.nparts >= 2)
		snprintf(buf, n, "%u.%u", ver.part[0], ver.part[1]);
	else
		snprintf(buf, n, "%s", v);
}

/*
 * The CUDA version to install for a range of releases (a soname's) on
 * this machine's driver, into buf: the newest the driver runs (through its
 * release minimum or minor-version compatibility), else the newest of the
 * range. *driver_short says the driver runs none of it.
 */
bool
ip_pick_cuda(const struct ip_ctx *c, const struct matrix_range *r, char *buf,
    size_t n, bool *driver_short)
{
	const char *src, *drv = diagnose_driver_version(c->facts, &src);
	struct matrix_driver_reach reach;
	unsigned lo = version_major_str(r->min), hi = r->max != NULL ? version_major_str(r->max) : 0;
	*driver_short = false;
	if (hi == 0) {
		const struct matrix_cuda_release *newest = matrix_newest_cuda(c->m);

		hi = newest != NULL ? version_major_str(newest->version) : lo;
	}
	if (drv != NULL && matrix_driver_reach(c->m, drv, MATRIX_LINUX, &reach) &&
	    reach.highest[0] != '\0') {
		for (unsigned mj = hi; mj >= lo && mj > 0; mj--)
			if (ip_newest_release(c->m, mj, r->min, r->max,
			    reach.highest, buf, n))
				return true;
		*driver_short = true;
	}
	for (unsigned mj = hi; mj >= lo && mj > 0; mj--)
		if (ip_newest_release(c->m, mj, r->min, r->max, NULL, buf, n))
			return true;
	return false;
}

void
ip_driver_fix(const struct ip_ctx *c, struct finding *f, const char *min)
{
	/* Where it runs, what is installed and what the GPU runs decide. */
	fd_install(f, c->facts, c->m, min, NULL);
}

/* The conda line for a CUDA library of release cuda ("11.8"). */
void
ip_conda_fix(const struct ip_ctx *c, struct finding *f, const char *library,
    const char *cuda)
{
	struct fix_want w[2] = {
		{ .channel = "conda-forge", .package = "cudatoolkit", .pin = cuda },
		{ .channel = "conda-forge", .package = "cuda-version", .pin = cuda },
	};

	if (version_major_str(cuda) <= 11) {
		fixcmd_install(c->m, f, NULL, w, 1);
		return;
	}
	w[0].package = strcmp(library, "cudart") == 0 ? "cuda-cudart" :
	    "cuda-runtime";
	w[0].pin = NULL;
	fixcmd_install(c->m, f, NULL, w, 2);
}

/* NVIDIA's repository names packages cuda-cudart-11-8, cuda-libraries-12-4. */
static void
apt_fix(const struct matrix *m, struct finding *f, const char *library,
    const char *cuda)
{
	char *dashed = xstrdup(cuda), *pkg;
	struct fix_want w = { .channel = "apt" };

	for (char *p = dashed; *p != '\0'; p++)
		if (*p == '.')
			*p = '-';
	pkg = xasprintf("%s-%s", strcmp(library, "cudart") == 0 ?
	    "cuda-cudart" : "cuda-libraries", dashed);
	w.package = pkg;
	fixcmd_install(m, f, NULL, &w, 1);
	free(pkg);
	free(dashed);
}

/* The CUDA majors to try for a cuDNN wheel, best first: the majors of
 * the toolkits here, then what the driver runs, then the newest. */
size_t
ip_cuda_majors(const struct ip_ctx *c, unsigned *out, size_t cap)
{
	const struct driver_facts *d = &c->facts->driver;
	size_t n = 0;
	unsigned mj;

	for (size_t i = 0; i < c->facts->toolkits.n && n < cap; i++) {
		const struct toolkit_fact *t = &c->facts->toolkits.v[i];
		bool seen = false;

		if (!fact_known(&t->version) || (mj = version_major_str(t->version.value)) == 0)
			continue;
		for (size_t k = 0; k < n; k++)
			seen = seen || out[k] == mj;
		if (!seen)
			out[n++] = mj;
	}
	if (n == 0 && fact_known(&d->compat_major) && n < cap)
		out[n++] = version_major_str(d->compat_major.value);
	if (n == 0 && fact_known(&d->max_cuda) && n < cap)
		out[n++] = version_major_str(d->max_cuda.value);
	for (mj = 13; mj >= 11 && n < cap; mj--) {
		bool seen = false;

		for (size_t k = 0; k < n; k++)
			seen = seen || out[k] == mj;
		if (!seen)
			out[n++] = mj;
	}
	return n;
}

/* cuDNN major N's sonames are "lib…so.N"; 0 when soname is not cuDNN's. */
unsigned
ip_cudnn_major_of(const struct ip_ctx *c, const char *soname)
{
	const char *dot;
	unsigned major;
	const struct matrix_cudnn_library *cl;

	if (soname == NULL || strncmp(soname, "libcudnn", 8) != 0 ||
	    (dot = strrchr(soname, '.')) == NULL)
		return 0;
	major = (unsigned)strtoul(dot + 1, NULL, 10);
	cl = matrix_cudnn_library(c->m, major);
	return cl != NULL && strv_contains(&cl->sonames, soname) ? major : 0;
}

/* What to install for a cuDNN soname: the wheel for a CUDA major this
 * machine uses, version-bounded when spec is given ("==8.*"). */
bool
ip_install_cudnn(const struct ip_ctx *c, struct finding *f, const char *soname,
    unsigned cudnn_major, const char *min_version)
{
	unsigned majors[8];
	size_t n = ip_cuda_majors(c, majors, 8);
	char max[16];

	snprintf(max, sizeof max, "%u", cudnn_major);
	for (size_t i = 0; i < n; i++) {
		const struct matrix_wheel *w = ip_wheel_for(c->m, "cudnn", majors[i],
		    soname);
		struct fix_want want = { .min = min_version, .max = max };
		char *pkg;
		size_t at = f->fix.n;

		if (w == NULL)
			continue;
		strv_pushf(&f->fix, _("# cuDNN %u for CUDA %u, as a wheel in the active Python environment:"),
		    cudnn_major, majors[i]);
		if (!ip_wheel_fix(c->m, f, w, min_version, max)) {
			/* Not published for this CUDA major: no heading alone. */
			while (f->fix.n > at)
				free(f->fix.v[--f->fix.n]);
			continue;
		}
		want.channel = "conda-forge";
		want.package = "cudnn";
		if (fixcmd_published(c->m, &want) == MATRIX_YES) {
			lr_fix_comment(f, _("or with conda:"));
			fixcmd_install(c->m, f, NULL, &want, 1);
		}
		want.channel = "apt";
		want.min = want.max = NULL;
		pkg = cudnn_major >= 9 ?
		    xasprintf("libcudnn%u-cuda-%u", cudnn_major, majors[i]) :
		    xasprintf("libcudnn%u", cudnn_major);
		want.package = pkg;
		if (fixcmd_published(c->m, &want) == MATRIX_YES) {
			lr_fix_comment(f, _("or from NVIDIA's CUDA repository:"));
			fixcmd_install(c->m, f, NULL, &want, 1);
		}
		free(pkg);
		return true;
	}
	return false;
}

/*
 * The fix lines that install what provides soname on this machine: the
 * CUDA release the matrix says the name stands for, the newest one this
 * machine's driver runs; as a wheel, a conda package, or NVIDIA's
 * package. When the driver runs none of it, a newer driver comes first.
 */
void
ip_install_soname(const struct ip_ctx *c, struct finding *f, const char *soname)
{
	struct matrix_range r;
	const char *library, *src, *drv;
	enum matrix_status st;
	char cuda[24], *range_s;
	bool short_driver;
	const struct matrix_wheel *w;
	unsigned cm;

	if (c->m == NULL || soname == NULL)
		return;
	if ((cm = ip_cudnn_major_of(c, soname)) != 0) {
		ip_install_cudnn(c, f, soname, cm, NULL);
		return;
	}
	if (!matrix_soname_cuda(c->m, soname, &r, &library, &st) ||
	    strcmp(library, "cuda") == 0 || strcmp(library, "nvml") == 0)
		return;
	if (!ip_pick_cuda(c, &r, cuda, sizeof cuda, &short_driver))
		return;
	drv = diagnose_driver_version(c->facts, &src);
	if (short_driver) {
		const char *min = matrix_cuda_min_driver(c->m, cuda, MATRIX_LINUX, NULL);

		strv_pushf(&f->fix, _("# the driver (%s) is too old for CUDA %s; install driver %s or newer first:"),
		    drv, cuda, min != NULL ? min : "?");
		ip_driver_fix(c, f, min);
	}
	range_s = ip_range_text(&r);
	if (drv != NULL && !short_driver)
		strv_pushf(&f->fix, _("# %s is CUDA %s's %s; this driver (%s) runs CUDA %s. Install it as a wheel in the active Python environment:"),
		    soname, range_s, library, drv, cuda);
	else
		strv_pushf(&f->fix, _("# %s is CUDA %s's %s; install CUDA %s's as a wheel in the active Python environment:"),
		    soname, range_s, library, cuda);
	free(range_s);
	w = ip_wheel_for(c->m, library, version_major_str(cuda), soname);
	if (w == NULL || !ip_wheel_fix(c->m, f, w, NULL, NULL))
		strv_pushf(&f->fix, _("# (the matrix knows no wheel that provides %s)"),
		    soname);
	lr_fix_comment(f, _("or with conda:"));
	ip_conda_fix(c, f, library, cuda);
	lr_fix_comment(f, _("or from NVIDIA's CUDA repository (Debian/Ubuntu):"));
	apt_fix(c->m, f, library, cuda);
}

/* Drops a generic "pip install nvidia-…" hint and the comment before it:
 * the plan for this machine's driver replaces it, and two different
 * wheels in one fix would contradict each other. */
void
ip_drop_wheel_hints(struct finding *f)
{
	for (size_t i = 0; i < f->fix.n; ) {
		size_t start = i, end = i + 1;

		if (strncmp(f->fix.v[i], "pip install nvidia-", 19) != 0 &&
		    strncmp(f->fix.v[i], "pip install 'nvidia-", 20) != 0) {
			i++;
			continue;
		}
		if (i > 0 && f->fix.v[i - 1][0] == '#')
			start = i - 1;
		for (size_t k = start; k < end; k++)
			free(f->fix.v[k]);
		memmove(f->fix.v + start, f->fix.v + end,
		    (f->fix.n - end) * sizeof *f->fix.v);
		f->fix.n -= end - start;
		i = start;
	}
}

