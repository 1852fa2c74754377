/* What the GPU and the driver say about a framework build:
 * GPU_ARCH_UNSUPPORTED (no kernels for this GPU's compute capability) and
 * DRIVER_TOO_OLD (the runtime it loads needs a newer driver). Pure.
 *
 * SASS runs only on its own major with a minor at least its own (sm_80
 * on 8.6, never sm_86 on 8.0; sm_90a only on 9.0); PTX runs on every
 * later architecture once the driver JIT-compiles it, which a driver can
 * only do for PTX no newer than itself. A runtime runs on its release's
 * minimum driver, or on any driver of its major's family through
 * minor-version compatibility (which does not cover PTX JIT). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/fixcmd.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_python_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------- the loaded version */

static void
version_text(const struct version *v, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < v->nparts && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, i > 0 ? ".%u" : "%u", v->part[i]);
}

/* The cuDNN fact of the directory a file lies in, or NULL. */
static const struct cudnn_fact *
cudnn_of(const struct facts *facts, const char *path)
{
	char *dir;
	const struct cudnn_fact *hit = NULL;

	if (path == NULL)
		return NULL;
	dir = path_dirname(path);
	for (size_t i = 0; i < facts->cudnn.n && hit == NULL; i++)
		if (path_same(facts->cudnn.v[i].lib_dir, dir))
			hit = &facts->cudnn.v[i];
	free(dir);
	return hit;
}

/*
 * The version of the library a need loads, into buf: its real file's
 * name when it says more than the soname (libcudnn.so.8.0.5), the wheel
 * whose directory holds it (nvidia-cuda-runtime-cu12 12.4.127), or the
 * cuDNN facts of its directory (cudnn_version.h). *source (the caller
 * frees it) says which.
 */
bool
pr_loaded_version(const struct pr_ctx *c, const struct py_env *e,
    const struct fw_need *n, char *buf, size_t len, char **source)
{
	const struct lib_fact *l = n->lib;
	const struct py_package *pkg;
	const struct cudnn_fact *dnn;
	const char *target;
	char *stem;
	struct version v;
	bool named;

	if (l == NULL || l->resolved == NULL)
		return false;
	target = l->target != NULL ? l->target : l->resolved;
	stem = lr_stem_of(n->soname);
	named = lr_name_version(path_basename(target), stem, &v) && v.nparts >= 3;
	free(stem);
	if (named) {
		version_text(&v, buf, len);
		*source = xstrdup(target);
		return true;
	}
	if ((pkg = pr_wheel_of(c, e, l->resolved)) != NULL &&
	    pr_release(pkg->version, buf, len)) {
		*source = xasprintf(_("%s %s, the wheel it belongs to"), pkg->name,
		    pkg->version);
		return true;
	}
	if ((dnn = cudnn_of(c->facts, l->resolved)) == NULL)
		dnn = cudnn_of(c->facts, target);
	if (dnn != NULL && strstr(n->soname, "libcudnn") != NULL) {
		if (fact_known(&dnn->version) && pr_release(dnn->version.value, buf, len)) {
			*source = xstrdup(dnn->header != NULL ? dnn->header :
			    dnn->version.source != NULL ? dnn->version.source : dnn->lib_dir);
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------- GPU_ARCH_UNSUPPORTED */

static bool
ptx_runs(const char *ptx, unsigned major, unsigned minor)
{
	unsigned ma, mi;
	bool exact;

	if (!pr_code_parse(ptx, "compute_", &ma, &mi, &exact))
		return false;
	if (exact)
		return ma == major && mi == minor;
	return ma < major || (ma == major && mi <= minor);
}

static char *
joined(const struct strv *sv)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sv->n; i++) {
		if (i > 0)
			strbuf_putc(&sb, ' ');
		strbuf_puts(&sb, sv->v[i]);
	}
	if (sv->n == 0)
		strbuf_puts(&sb, _("none"));
	return strbuf_take(&sb);
}

/* The fix: the build that carries code for cc, else a newer CUDA's. */
static void
arch_fix(const struct pr_ctx *c, struct finding *f, const struct py_env *e,
    const struct framework_fact *fw, const char *cc)
{
	struct pr_want w = { cc, fw->cuda };
	const struct matrix_architecture *a = c->m != NULL ?
	    matrix_architecture(c->m, cc) : NULL;
	struct pr_pick p;
	unsigned ma, mi;

	if (pr_pick_build(c, fw, &w, &p)) {
		pr_fix_build(c, f, e, fw, &p);
		return;
	}
	if (a != NULL && a->last_cuda != NULL) {
		pr_commentf(f, _("CUDA after %s no longer builds code for compute "
		    "capability %s: use a %s build made with CUDA %s or older"),
		    a->last_cuda, cc, fw->package != NULL ? fw->package : fw->name,
		    a->last_cuda);
		return;
	}
	if (a == NULL || a->first_cuda == NULL)
		return;
	pr_commentf(f, _("compute capability %s needs a build made with CUDA %s "
	    "or newer; a newer release of %s has one:"), cc, a->first_cuda,
	    fw->package != NULL ? fw->package : fw->name);
	if (lr_streq(fw->name, "pytorch") && !pr_from_conda(e, fw->package) &&
	    pr_cc_parse(a->first_cuda, &ma, &mi)) {
		char *url = xasprintf("https://download.pytorch.org/whl/cu%u%u", ma, mi);
		struct fix_want want = { .channel = "pip", .package = "torch",
		    .index_url = url, .upgrade = true };
		struct matrix *builtin = c->m == NULL ? matrix_embedded() : NULL;

		/* Only an index PyTorch published (the catalogue). */
		if (!fixcmd_install(c->m != NULL ? c->m : builtin, f, e, &want, 1))
			pr_commentf(f, _("PyTorch published no torch on %s: pick the "
			    "release and CUDA at "
			    "https://pytorch.org/get-started/previous-versions/"), url);
		matrix_free(builtin);
		free(url);
	} else if (lr_streq(fw->name, "tensorflow")) {
		struct fix_want tf = { .channel = "pip",
		    .package = "tensorflow[and-cuda]", .upgrade = true };
		struct matrix *builtin = c->m == NULL ? matrix_embedded() : NULL;
		const struct matrix *cat = c->m != NULL ? c->m : builtin;

		/* Through the catalogue (the extra starts at 2.14). */
		if (!fixcmd_install(cat, f, e, &tf, 1))
			lr_fix_comment(f, _("see https://www.tensorflow.org/install/pip "
			    "for the release built with that CUDA"));
		matrix_free(builtin);
	} else if (fw->package != NULL) {
		ip_fix_line(f, pr_pip(e, "install", "--upgrade", fw->package, NULL));
	}
	if (c->have_reach && version_cmp_str(a->first_cuda, c->reach.highest) > 0)
		pr_fix_driver(c, f, a->first_cuda, NULL);
}

static void
arch_finding(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw, const struct gpu_fact *g)
{
	const struct fw_archs *ar = &fw->archs;
	unsigned ma, mi;
	bool sass = false, ptx = false, jit_ok;
	char *fwd, *envw, *ss, *ps;
	struct finding *f;

	if (!pr_cc_parse(g->cc.value, &ma, &mi))
		return;
	for (size_t i = 0; i < ar->sass.n && !sass; i++)
		sass = pr_sass_runs(ar->sass.v[i], ma, mi);
	for (size_t i = 0; i < ar->ptx.n && !ptx; i++)
		ptx = ptx_runs(ar->ptx.v[i], ma, mi);
	if (sass)
		return;
	/* The driver JIT-compiles PTX no newer than the CUDA it was made
	 * with; minor-version compatibility does not help here. */
	jit_ok = fw->cuda == NULL || !fact_known(&c->facts->driver.max_cuda) ||
	    version_cmp_str(c->facts->driver.max_cuda.value, fw->cuda) >= 0;
	fwd = pr_fw_words(fw);
	envw = pr_env_words(e);
	ss = joined(&ar->sass);
	ps = joined(&ar->ptx);
	if (!ptx)
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("Your sm_%u%u GPU (compute capability %s) has no kernels in "
		    "%s in %s: the build carries machine code for %s and PTX for "
		    "%s, none of which runs on it. Every CUDA kernel fails with "
		    "\"no kernel image is available for execution on the device\"."),
		    ma, mi, g->cc.value, fwd, envw, ss, ps);
	else if (jit_ok)
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("Your sm_%u%u GPU (compute capability %s) has no machine code "
		    "in %s in %s (it carries %s), only PTX (%s): the driver "
		    "JIT-compiles it at first use, a slow start (minutes, cached "
		    "afterwards), and only if the driver is new enough for that "
		    "PTX."), ma, mi, g->cc.value, fwd, envw, ss, ps);
	else
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("Your sm_%u%u GPU (compute capability %s) has no machine code "
		    "in %s in %s (it carries %s), only PTX (%s) made with CUDA %s, "
		    "which this driver (CUDA %s) is too old to JIT-compile: kernels "
		    "fail with \"the provided PTX was compiled with an unsupported "
		    "toolchain\"."), ma, mi, g->cc.value, fwd, envw, ss, ps, fw->cuda,
		    c->facts->driver.max_cuda.value);
	f->severity = ptx && jit_ok ? SEV_WARNING : SEV_ERROR;
	subj_fw(f, e, fw);
	strv_pushf(&f->evidence, _("GPU %s: compute capability %s (%s)"),
	    g->pci_address != NULL ? g->pci_address : "?", g->cc.value,
	    g->cc.source != NULL ? g->cc.source : "?");
	strv_pushf(&f->evidence, _("%s: SASS %s; PTX %s"),
	    ar->source != NULL ? ar->source : fw->dir != NULL ? fw->dir : "?", ss, ps);
	if (fw->cuda != NULL)
		strv_pushf(&f->evidence, _("%s was built with CUDA %s (%s)"), fwd,
		    fw->cuda, fw->cuda_source != NULL ? fw->cuda_source : "?");
	if (ptx && !jit_ok)
		diagnose_reach_evidence(c->facts, c->drv, &f->evidence);
	finding_evidence_cap(f, EVIDENCE_MAX);
	free(fwd);
	free(envw);
	free(ss);
	free(ps);
	arch_fix(c, f, e, fw, g->cc.value);
}

/* PTX for a compute capability runs on it and every later one (once
 * the driver JIT-compiles it). */
static bool
ptx_covers(const struct strv *ptx, const char *cc)
{
	unsigned gma, gmi, ma, mi;

	if (!pr_cc_parse(cc, &gma, &gmi))
		return false;
	for (size_t i = 0; i < ptx->n; i++)
		if (pr_cc_parse(ptx->v[i], &ma, &mi) &&
		    (ma < gma || (ma == gma && mi <= gmi)))
			return true;
	return false;
}

/* "the compatibility data (matrix: secondary, https://…)" */
static char *
matrix_words(const struct pr_ctx *c, const struct framework_fact *fw,
    const struct matrix_build *b)
{
	const struct matrix_framework *row = pr_fw_row(c, fw);

	return xasprintf(_("from the compatibility data (matrix: %s; source: %s)"),
	    row != NULL ? matrix_status_name(row->status) : "?",
	    b->ccs_source != NULL ? b->ccs_source : _("none listed"));
}

/* Why the files gave no answer. */
static const char *
unread_why(const struct framework_fact *fw)
{
	return fw->archs.error != NULL ? fw->archs.error :
	    _("no library of it with GPU code was found");
}

/* Where the build's files were not read, the matrix's list of the code
 * a build carries says it, less surely: binary > matrix > unknown. */
static void
arch_from_matrix(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw, const struct gpu_fact *g,
    const struct matrix_build *b)
{
	char *fwd, *envw, *ccs, *ptx, *src;
	struct finding *f;
	bool covered = pr_ccs_cover(&b->ccs, g->cc.value) ||
	    ptx_covers(&b->ptx, g->cc.value);

	fwd = pr_fw_words(fw);
	envw = pr_env_words(e);
	ccs = joined(&b->ccs);
	ptx = joined(&b->ptx);
	src = matrix_words(c, fw, b);
	if (covered)
		f = finding_add(c->out, FINDING_GPU_ARCH_UNCHECKED,
		    _("The GPU code in %s in %s could not be checked from its "
		    "files; the compatibility data says its build carries code "
		    "for compute capabilities %s (PTX: %s), which includes this "
		    "GPU (%s)."), fwd, envw, ccs, ptx, g->cc.value);
	else
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("%s in %s is built for compute capabilities %s (PTX: %s), "
		    "and this GPU is %s: its kernels will not run here (\"no "
		    "kernel image is available for execution on the device\"). "
		    "This comes from the compatibility data, as the build's own "
		    "files could not be read."), fwd, envw, ccs, ptx, g->cc.value);
	f->severity = covered ? SEV_INFO : SEV_WARNING;
	subj_fw(f, e, fw);
	strv_pushf(&f->evidence, _("GPU %s: compute capability %s"),
	    g->pci_address != NULL ? g->pci_address : "?", g->cc.value);
	strv_pushf(&f->evidence, _("the files: %s"), unread_why(fw));
	strv_pushf(&f->evidence, _("the %s build of %s carries code for %s, "
	    "PTX for %s, %s"), b->variant != NULL ? b->variant : fw->version,
	    fw->package != NULL ? fw->package : fw->name, ccs, ptx, src);
	finding_evidence_cap(f, EVIDENCE_MAX);
	free(fwd);
	free(envw);
	free(ccs);
	free(ptx);
	free(src);
	if (!covered)
		arch_fix(c, f, e, fw, g->cc.value);
}

/* Neither the files nor the matrix say: a note, never an error. */
static void
arch_unchecked(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw, const struct gpu_fact *g)
{
	char *fwd = pr_fw_words(fw), *envw = pr_env_words(e);
	struct finding *f;

	f = finding_add(c->out, FINDING_GPU_ARCH_UNCHECKED,
	    _("Whether %s in %s has kernels for this GPU (compute capability "
	    "%s) could not be checked: its files could not be read and the "
	    "compatibility data lists no architectures for this build."),
	    fwd, envw, g->cc.value);
	f->severity = SEV_INFO;
	subj_fw(f, e, fw);
	strv_pushf(&f->evidence, _("GPU %s: compute capability %s"),
	    g->pci_address != NULL ? g->pci_address : "?", g->cc.value);
	strv_pushf(&f->evidence, _("the files: %s"), unread_why(fw));
	free(fwd);
	free(envw);
}

void
pr_rule_arch(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw)
{
	struct strv seen = STRV_INIT;
	const struct matrix_build *b = NULL;

	if (fw->gpu == FW_GPU_NO)
		return;
	if (!fw->archs.read && c->m != NULL)
		b = matrix_framework_build(pr_fw_row(c, fw), fw->variant);
	if (b != NULL && b->ccs.n == 0 && b->ptx.n == 0)
		b = NULL;
	for (size_t i = 0; i < c->facts->gpus.n; i++) {
		const struct gpu_fact *g = &c->facts->gpus.v[i];

		if (!fact_known(&g->cc) || strv_contains(&seen, g->cc.value))
			continue;
		strv_push(&seen, g->cc.value);
		if (fw->archs.read)
			arch_finding(c, e, fw, g);
		else if (b != NULL)
			arch_from_matrix(c, e, fw, g, b);
		else if (fw->archs.error != NULL)
			arch_unchecked(c, e, fw, g);
	}
	strv_free(&seen);
}

/* ------------------------------------- the framework's own start-up check */

/* JAX's number for a cuDNN version: 8.9.7 is 8907, 9.1.0 is 9100. */
static unsigned
cudnn_number(const char *v)
{
	struct version p;

	if (!version_parse(v, &p) || p.nparts == 0)
		return 0;
	return p.part[0] * 1000 + (p.nparts > 1 ? p.part[1] * 100 : 0) +
	    (p.nparts > 2 ? p.part[2] : 0);
}

/* The libraries a framework checks at start-up, with the soname stem of
 * each (the check's "library" names the first). */
static const char *const startup_libs[][2] = {
	{ "cudnn", "libcudnn" }, { "cublas", "libcublas" },
	{ "cusparse", "libcusparse" }, { "cufft", "libcufft" },
	{ "cusolver", "libcusolver" }, { "cudart", "libcudart" },
};

static void
startup_fix(const struct pr_ctx *c, struct finding *f, const struct py_env *e,
    const struct framework_fact *fw, const struct py_package *by,
    const struct matrix_fw_check *ck, const char *have)
{
	struct fix_want pin = { .channel = "pip", .package = by->name,
	    .pin = fw->version };
	char rel[MATRIX_VERSION_MAX];

	/* The minimum moves with the checking package, not with the
	 * libraries it loads: the same release of both is what was
	 * tested together. */
	if (fw->version != NULL && pr_release(fw->version, rel, sizeof rel) &&
	    !lr_streq(by->name, fw->package)) {
		pin.pin = rel;
		pr_commentf(f, _("use the %s release that matches %s %s:"),
		    by->name, fw->package != NULL ? fw->package : fw->name, rel);
		if (!fixcmd_install(c->m, f, e, &pin, 1))
			lr_fix_comment(f, _("no such release is published: upgrade "
			    "both to the same release"));
	}
	if (lr_streq(ck->library, "cudnn") && version_major_str(have) ==
	    version_major_str(ck->min)) {
		unsigned major = 0;

		if (fw->cuda != NULL)
			major = version_major_str(fw->cuda);
		lr_fix_comment(f, _("or install a cuDNN that meets the minimum:"));
		fixcmd_cudnn(c->m, f, e, version_major_str(ck->min), ck->min,
		    major != 0 ? &major : NULL, major != 0 ? 1 : 0);
	}
}

/* Checks a framework makes itself at start-up ("checks" of the matrix
 * with when "startup"): JAX refuses a cuDNN, cuBLAS, cuSPARSE, cuFFT or
 * cuSOLVER older than the minimum of the jax package's release, whatever
 * jaxlib was built with. */
void
pr_rule_startup(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw)
{
	const char *names[2] = { fw->name, fw->package };

	if (c->m == NULL || fw->gpu == FW_GPU_NO)
		return;
	for (size_t k = 0; k < 2; k++) {
		const struct py_package *by = names[k] != NULL ?
		    py_env_package(e, names[k]) : NULL;

		if (by == NULL || by->version == NULL)
			continue;
		for (size_t l = 0; l < sizeof startup_libs / sizeof startup_libs[0]; l++) {
			const struct matrix_fw_check *ck = matrix_framework_check(c->m,
			    fw->name, by->name, by->version, startup_libs[l][0],
			    "startup");

			if (ck == NULL || ck->min == NULL)
				continue;
			for (size_t i = 0; i < fw->needs.n; i++) {
				const struct fw_need *n = &fw->needs.v[i];
				char have[MATRIX_VERSION_MAX], *src = NULL;
				char *stem, *fwd, *envw;
				struct finding *f;
				bool same;

				if (n->soname == NULL)
					continue;
				stem = lr_stem_of(n->soname);
				same = lr_streq(stem, startup_libs[l][1]);
				free(stem);
				if (!same || !pr_loaded_version(c, e, n, have,
				    sizeof have, &src))
					continue;
				if (version_cmp_str(have, ck->min) >= 0) {
					free(src);
					break;
				}
				fwd = pr_fw_words(fw);
				envw = pr_env_words(e);
				if (lr_streq(ck->library, "cudnn"))
					f = finding_add(c->out,
					    FINDING_FRAMEWORK_CUDA_MISMATCH,
					    _("%s %s in %s checks at start-up that cuDNN "
					    "is at least %s, and the %s it loads is cuDNN "
					    "%s: it stops with \"Outdated cuDNN installation "
					    "found. Version JAX was built against: …, "
					    "minimum supported: %u, installed cuDNN version: "
					    "%u\"."), by->name, by->version, envw, ck->min,
					    n->soname, have, cudnn_number(ck->min),
					    cudnn_number(have));
				else
					f = finding_add(c->out,
					    FINDING_FRAMEWORK_CUDA_MISMATCH,
					    _("%s %s in %s checks at start-up that %s is at "
					    "least %s, and the %s it loads is %s: it stops "
					    "with an \"Outdated %s installation found\" "
					    "error."), by->name, by->version, envw,
					    ck->library, ck->min, n->soname, have,
					    ck->library);
				f->severity = SEV_ERROR;
				{
					char *w = xasprintf("%s %s", by->name,
					    by->version);

					subj_in(f, w, e->prefix);
					free(w);
				}
				strv_pushf(&f->evidence, _("%s %s requires %s >= %s at "
				    "start-up (matrix: %s; source: %s)"), by->name,
				    by->version, ck->library, ck->min,
				    matrix_status_name(ck->status), ck->source);
				strv_pushf(&f->evidence, _("%s loads %s: version %s (%s)"),
				    fwd, n->soname, have, src);
				startup_fix(c, f, e, fw, by, ck, have);
				finding_evidence_cap(f, EVIDENCE_MAX);
				free(fwd);
				free(envw);
				free(src);
				break;
			}
		}
		/* The framework's own name and its package can be one. */
		if (k == 0 && names[1] != NULL && names[0] != NULL &&
		    lr_streq(names[0], names[1]))
			break;
	}
}

/* ------------------------------------------------------- DRIVER_TOO_OLD */

void
pr_rule_driver(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw)
{
	char ver[MATRIX_VERSION_MAX], cuda[MATRIX_VERSION_MAX];
	char *source = NULL, *fwd, *envw;
	const char *min, *floor;
	enum matrix_status st, fst = MATRIX_CONFIRMED;
	struct pr_want w = { NULL, NULL };
	struct pr_pick p;
	struct finding *f;
	bool have = false;

	if (c->m == NULL || c->drv == NULL || fw->gpu == FW_GPU_NO ||
	    pr_machine_no_gpu(c->facts))
		return;
	for (size_t i = 0; i < fw->needs.n && !have; i++)
		if (fw->needs.v[i].soname != NULL &&
		    strncmp(fw->needs.v[i].soname, "libcudart.so", 12) == 0)
			have = pr_loaded_version(c, e, &fw->needs.v[i], ver,
			    sizeof ver, &source);
	if (!have && fw->cuda != NULL && pr_release(fw->cuda, ver, sizeof ver)) {
		have = true;
		source = xstrdup(fw->cuda_source != NULL ? fw->cuda_source :
		    _("the CUDA it was built with"));
	}
	if (!have || !pr_major_minor(ver, cuda, sizeof cuda)) {
		free(source);
		return;
	}
	min = matrix_cuda_min_driver(c->m, cuda, MATRIX_LINUX, &st);
	floor = matrix_minor_compat_floor(c->m, version_major_str(cuda),
	    MATRIX_LINUX, &fst);
	/* A bare major ("11", cupy-cuda11x): its family's floor is what
	 * every release of it needs. */
	if (min == NULL && floor != NULL) {
		min = floor;
		st = fst;
	}
	if (min == NULL || version_cmp_str(c->drv, min) >= 0 ||
	    (floor != NULL && version_cmp_str(c->drv, floor) >= 0)) {
		free(source);
		return;
	}
	fwd = pr_fw_words(fw);
	envw = pr_env_words(e);
	f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
	    _("%s in %s runs on the CUDA %s runtime, which needs NVIDIA driver %s "
	    "or newer, but the driver in use is %s. It cannot use the GPU: "
	    "CUDA calls fail with cudaErrorInsufficientDriver (35), \"CUDA "
	    "driver version is insufficient for CUDA runtime version\"."),
	    fwd, envw, cuda, floor != NULL ? floor : min, c->drv);
	subj_fw(f, e, fw);
	strv_pushf(&f->evidence, _("the runtime: CUDA %s (%s)"), ver, source);
	strv_pushf(&f->evidence, "%s: %s", c->drv_src != NULL ? c->drv_src : "?",
	    c->drv);
	if (min != floor)
		strv_pushf(&f->evidence, _("CUDA %s needs driver >= %s (matrix: %s)"),
		    cuda, min, matrix_status_name(st));
	if (floor != NULL)
		strv_pushf(&f->evidence, _("any CUDA %u runtime runs on a driver >= %s "
		    "through minor-version compatibility (matrix: %s)"),
		    version_major_str(cuda), floor, matrix_status_name(fst));
	diagnose_reach_evidence(c->facts, c->drv, &f->evidence);
	pr_fix_driver(c, f, cuda, min);
	if (pr_pick_build(c, fw, &w, &p) && !p.driver_short &&
	    version_cmp_str(p.build->cuda, cuda) < 0) {
		lr_fix_comment(f, _("or keep this driver and use the build made for "
		    "a CUDA it runs:"));
		pr_fix_build(c, f, e, fw, &p);
	}
	free(source);
	free(fwd);
	free(envw);
}
