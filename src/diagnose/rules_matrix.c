/* Rules that need the compatibility matrix: DRIVER_TOO_OLD,
 * PTX_TOOLCHAIN_TOO_NEW and MATRIX_STALE.
 *
 * A toolkit release needs a minimum driver; since CUDA 11 a driver of the
 * same major family also runs newer minors of it (minor-version
 * compatibility), except that it cannot JIT-compile PTX newer than itself.
 * So a toolkit whose minimum the driver misses is DRIVER_TOO_OLD when the
 * driver is below the major's floor too, and PTX_TOOLCHAIN_TOO_NEW when
 * minor-version compatibility carries it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/subject.h"
#include "diagnose/fixdriver.h"
#include "diagnose/fwdcompat.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

/* The release a toolkit is known by: a toolkit assembled from wheels has
 * cudart's version (13.0.96), which would match a later update's row of
 * the matrix (13.0.2) and its higher driver minimum. */
static const char *
release_of(const struct toolkit_fact *t)
{
	return t->release != NULL ? t->release : t->version.value;
}

/* The two evidence lines both driver findings start with: the driver in
 * use and what the toolkit's release needs. */
static void
need_evidence(struct finding *f, const struct toolkit_fact *t, const char *src,
    const char *drv, const char *min, enum matrix_status st)
{
	strv_pushf(&f->evidence, "%s: %s", src, drv);
	strv_pushf(&f->evidence, _("CUDA %s needs driver >= %s (matrix: %s)"),
	    release_of(t), min, matrix_status_name(st));
}

static void
too_old(const struct matrix *m, const struct facts *facts, const struct toolkit_fact *t,
    const char *drv, const char *src, const char *min,
    enum matrix_status st, const char *floor, struct findings *out)
{
	struct finding *f;

	f = finding_add(out, FINDING_DRIVER_TOO_OLD,
	    _("CUDA %s at %s needs NVIDIA driver %s or newer, but the driver in "
	    "use is %s. Programs built with this toolkit, and frameworks using "
	    "its runtime, stop with cudaErrorInsufficientDriver (35): \"CUDA "
	    "driver version is insufficient for CUDA runtime version\"."),
	    release_of(t), t->root, min, drv);
	subj_toolkit(f, t);
	need_evidence(f, t, src, drv, min, st);
	if (floor != NULL)
		strv_pushf(&f->evidence,
		    _("any CUDA %u runtime needs at least %s, even with minor-version compatibility"),
		    version_major_str(release_of(t)), floor);
	diagnose_reach_evidence(facts, drv, &f->evidence);
	fd_place_evidence(f, facts);
	fd_install(f, facts, m, min, release_of(t));
	if (fact_known(&facts->driver.max_cuda) && !facts->driver.libcuda.fwd_compat)
		strv_pushf(&f->fix, "# %s %s",
		    _("or use a toolkit this driver runs: CUDA"),
		    facts->driver.max_cuda.value);
}

static void
ptx_too_new(const struct matrix *m, const struct facts *facts, const struct toolkit_fact *t,
    const char *drv, const char *src, const char *min, enum matrix_status st,
    struct findings *out)
{
	struct finding *f;
	const struct gpu_fact *g = NULL;

	for (size_t i = 0; i < facts->gpus.n && g == NULL; i++)
		if (fact_known(&facts->gpus.v[i].cc))
			g = &facts->gpus.v[i];
	f = finding_add(out, FINDING_PTX_TOOLCHAIN_TOO_NEW,
	    _("CUDA %s at %s is newer than the driver (%s; the release needs %s). "
	    "Its runtime still works through minor-version compatibility, but "
	    "PTX that its nvcc produces cannot be JIT-compiled by this driver: "
	    "kernels built only as PTX, or for a GPU the build has no machine "
	    "code for, fail with cudaErrorUnsupportedPtxVersion (222)."),
	    release_of(t), t->root, drv, min);
	subj_toolkit(f, t);
	need_evidence(f, t, src, drv, min, st);
	diagnose_reach_evidence(facts, drv, &f->evidence);
	if (g != NULL) {
		char *sm = xstrdup(g->cc.value);
		char *dot = strchr(sm, '.');

		if (dot != NULL)
			memmove(dot, dot + 1, strlen(dot));
		strv_pushf(&f->fix, "# %s -gencode arch=compute_%s,code=sm_%s",
		    _("build machine code for the GPU instead of PTX: add to nvcc's options"),
		    sm, sm);
		free(sm);
	}
	strv_pushf(&f->fix, "# %s", _("or a driver the toolkit's release needs:"));
	fd_install(f, facts, m, min, release_of(t));
}

/* A runtime inside a Python environment that a GPU framework of it
 * loads (an nvidia-cuda-runtime wheel under torch, a conda env's cudart
 * under TensorFlow) is judged against the driver by the framework rule,
 * which names the framework and the build that would run; a second
 * finding for the same file would be the same root cause twice. A system
 * toolkit keeps its own finding: its nvcc and programs need the driver
 * too. */
static bool
framework_judges(const struct facts *facts, const struct toolkit_fact *t)
{
	if (t->root == NULL)
		return false;
	for (size_t i = 0; i < facts->python_envs.n; i++) {
		const struct py_env *e = &facts->python_envs.v[i];

		bool inside = e->kind == PYENV_CONDA && path_under(t->root, e->prefix);

		for (size_t j = 0; j < e->site_dirs.n && !inside; j++)
			inside = path_under(t->root, e->site_dirs.v[j]);
		if (!inside)
			continue;
		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];

			if (fw->gpu == FW_GPU_NO)
				continue;
			for (size_t k = 0; k < fw->needs.n; k++) {
				const struct fw_need *n = &fw->needs.v[k];

				if (n->soname != NULL && n->lib != NULL &&
				    strncmp(n->soname, "libcudart.so", 12) == 0 &&
				    (path_under(n->lib->target, t->root) ||
				    path_under(n->lib->resolved, t->root)))
					return true;
			}
		}
	}
	return false;
}

static void
driver_rules(const struct diagnose_input *in, struct findings *out)
{
	const struct facts *facts = in->facts;
	/* A forward-compatibility libcuda that works here is the driver
	 * programs use: it runs the newer CUDA, not the kernel module. */
	const char *src, *drv = fc_driver_version(facts, in->matrix, &src);

	/* In WSL the driver is Windows': its version is not in a file here. */
	if (drv == NULL || facts->driver.is_wsl)
		return;
	for (size_t i = 0; i < facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &facts->toolkits.v[i];
		enum matrix_status st, fst;
		const char *min, *floor;

		if (!fact_known(&t->version) || framework_judges(facts, t))
			continue;
		min = matrix_cuda_min_driver(in->matrix, release_of(t),
		    MATRIX_LINUX, &st);
		if (min == NULL || version_cmp_str(drv, min) >= 0)
			continue;
		floor = matrix_minor_compat_floor(in->matrix,
		    version_major_str(release_of(t)), MATRIX_LINUX, &fst);
		if (floor != NULL && version_cmp_str(drv, floor) >= 0)
			ptx_too_new(in->matrix, facts, t, drv, src, min, st, out);
		else
			too_old(in->matrix, facts, t, drv, src, min, st, floor, out);
	}
}

static void
stale_rule(const struct diagnose_input *in, struct findings *out)
{
	const struct matrix *m = in->matrix;
	struct finding *f;
	int age;

	if (!select_stale(m, in->now, in->matrix_checked))
		return;
	age = select_age_days(matrix_date(m), in->now);
	f = finding_add(out, FINDING_MATRIX_STALE,
	    _("The compatibility data in use is from %s, %d days ago, and is "
	    "refreshed every %u days. Releases since then (a new CUDA, cuDNN "
	    "or driver) are unknown to it, so their checks may be missing or "
	    "wrong."), matrix_date(m), age, matrix_refresh_days(m));
	strv_pushf(&f->evidence, _("matrix source: %s%s%s"),
	    matrix_source_name(matrix_source(m)),
	    matrix_path(m) != NULL ? " " : "",
	    matrix_path(m) != NULL ? matrix_path(m) : "");
	strv_pushf(&f->evidence, _("matrix date: %s"), matrix_date(m));
	strv_push(&f->fix, "cudawiz matrix update");
}

void
rules_matrix(const struct diagnose_input *in, struct findings *out)
{
	fc_rule(in, out);
	driver_rules(in, out);
	stale_rule(in, out);
}
