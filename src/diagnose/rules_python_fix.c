/* What to install for a framework on this machine: which of its builds
 * fits the driver and the GPU, and the pip, conda and driver lines that
 * install it; with the words and version pieces every Python rule uses.
 * Pure.
 *
 * Commands are templates in the code (design.md: the network changes
 * numbers and names, never commands). Versions go into a line only after
 * they parse as versions, variants only when they are short lowercase
 * words, and every word is quoted with shquote. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/fixcmd.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_python_int.h"
#include "i18n.h"
#include "loader/fatbin.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ---------------------------------------------------------------- words */

char *
pr_env_words(const struct py_env *e)
{
	switch (e->kind) {
	case PYENV_CONDA:
		if (e->name != NULL)
			return xasprintf(_("the conda environment %s (%s)"), e->name,
			    e->prefix);
		return xasprintf(_("the conda environment %s"), e->prefix);
	case PYENV_VENV:
		return xasprintf(_("the virtual environment %s"), e->prefix);
	case PYENV_PYENV:
		return xasprintf(_("the pyenv Python %s"), e->prefix);
	case PYENV_SYSTEM:
		return xasprintf(_("the system Python in %s"), e->prefix);
	case PYENV_USER:
		return xasprintf(_("the user site-packages in %s"), e->prefix);
	}
	return xstrdup(e->prefix);
}

/* "torch 2.5.1+cu124": the package as pip lists it. */
char *
pr_fw_words(const struct framework_fact *fw)
{
	const char *pkg = fw->package != NULL ? fw->package : fw->name;

	if (fw->version == NULL)
		return xstrdup(pkg != NULL ? pkg : "?");
	return xasprintf("%s %s", pkg != NULL ? pkg : "?", fw->version);
}

void
pr_commentf(struct finding *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	lr_fix_comment(f, s);
	free(s);
}

/* ------------------------------------------------------------- versions */

/* The release part of a Python version, "2.1.0" of "2.1.0+cu118" or of
 * "2.6.0rc1"; false when it has none. */
bool
pr_release(const char *version, char *buf, size_t n)
{
	size_t len;

	if (version == NULL)
		return false;
	len = strspn(version, "0123456789.");
	while (len > 0 && version[len - 1] == '.')
		len--;
	if (len == 0 || len >= n || !version_parsen(version, len, NULL))
		return false;
	memcpy(buf, version, len);
	buf[len] = '\0';
	return true;
}

/* "12.4" of "12.4.127" or "12.4+x"; "12" stays "12". */
bool
pr_major_minor(const char *version, char *buf, size_t n)
{
	char rel[MATRIX_VERSION_MAX];

	if (!pr_release(version, rel, sizeof rel))
		return false;
	ip_major_minor(rel, buf, n);
	return true;
}

bool
pr_cc_parse(const char *cc, unsigned *major, unsigned *minor)
{
	struct version v;

	if (cc == NULL || !version_parse(cc, &v) || v.nparts != 2)
		return false;
	*major = v.part[0];
	*minor = v.part[1];
	return true;
}

/* "sm_86" (prefix "sm_") or "compute_90a": 8.6, 9.0 (fatbin.c reads the
 * name) and whether the code is for that one architecture only (the "a"
 * suffix). */
bool
pr_code_parse(const char *code, const char *prefix, unsigned *major,
    unsigned *minor, bool *arch_specific)
{
	char cc[16];

	if (code == NULL || strncmp(code, prefix, strlen(prefix)) != 0 ||
	    !fatbin_arch_cc(code, cc, sizeof cc) || !pr_cc_parse(cc, major, minor))
		return false;
	*arch_specific = code[strlen(code) - 1] == 'a';
	return true;
}

/* SASS runs on its own major, on a minor at least its own; an "a" build
 * only on exactly its architecture. */
bool
pr_sass_runs(const char *sm, unsigned major, unsigned minor)
{
	unsigned ma, mi;
	bool exact;

	if (!pr_code_parse(sm, "sm_", &ma, &mi, &exact))
		return false;
	return ma == major && (exact ? mi == minor : mi <= minor);
}

/* A build's compute capabilities (the matrix's "ccs", SASS) cover cc. */
bool
pr_ccs_cover(const struct strv *ccs, const char *cc)
{
	unsigned gma, gmi, ma, mi;

	if (!pr_cc_parse(cc, &gma, &gmi))
		return false;
	for (size_t i = 0; i < ccs->n; i++)
		if (pr_cc_parse(ccs->v[i], &ma, &mi) && ma == gma && mi <= gmi)
			return true;
	return false;
}

/* ---------------------------------------------------------- the machine */

bool
pr_machine_has_gpu(const struct facts *facts)
{
	return facts->gpus.n > 0;
}

bool
pr_machine_no_gpu(const struct facts *facts)
{
	return facts->gpus_state.state == FACT_KNOWN && facts->gpus.n == 0;
}

void
pr_gpu_evidence(struct finding *f, const struct facts *facts)
{
	for (size_t i = 0; i < facts->gpus.n; i++) {
		const struct gpu_fact *g = &facts->gpus.v[i];
		const char *name = fact_known(&g->name) ? g->name.value : "NVIDIA GPU";

		if (fact_known(&g->cc))
			strv_pushf(&f->evidence, _("GPU %s: %s, compute capability %s"),
			    g->pci_address != NULL ? g->pci_address : "?", name,
			    g->cc.value);
		else
			strv_pushf(&f->evidence, _("GPU %s: %s"),
			    g->pci_address != NULL ? g->pci_address : "?", name);
	}
}

/* True when the environment's package came from conda (conda-meta). */
bool
pr_from_conda(const struct py_env *e, const char *package)
{
	const struct py_package *p = package != NULL ?
	    py_env_package(e, package) : NULL;

	return p != NULL && p->source == PYPKG_CONDA;
}

/* ------------------------------------------------------------- commands */

static void
put_words(struct strbuf *sb, const struct strv *words)
{
	for (size_t i = 0; i < words->n; i++) {
		strbuf_putc(sb, ' ');
		shquote(sb, words->v[i]);
	}
}

/*
 * PYTHON -m pip WORDS…, with the environment's own interpreter so the line
 * installs into that environment whatever is active; conda VERB -p PREFIX
 * WORDS… (the first word is the verb).
 */
char *
pr_cmdv(enum pr_tool tool, const struct py_env *e, const struct strv *words)
{
	struct strbuf sb = STRBUF_INIT;
	struct strv rest = { words->v, words->n, words->n };
	char *py;

	if (tool == PR_CONDA && words->n > 0) {
		strbuf_printf(&sb, "conda %s -p ", words->v[0]);
		shquote(&sb, e->prefix);
		rest.v++;
		rest.n--;
	} else {
		py = e->python != NULL ? xstrdup(e->python) :
		    xasprintf("%s/bin/python", e->prefix);
		shquote(&sb, py);
		strbuf_puts(&sb, " -m pip");
		free(py);
	}
	put_words(&sb, &rest);
	return strbuf_take(&sb);
}

char *
pr_cmd(enum pr_tool tool, const struct py_env *e, ...)
{
	struct strv words = STRV_INIT;
	const char *w;
	va_list ap;
	char *line;

	va_start(ap, e);
	while ((w = va_arg(ap, const char *)) != NULL)
		strv_push(&words, w);
	va_end(ap);
	line = pr_cmdv(tool, e, &words);
	strv_free(&words);
	return line;
}

/* One line of a tool's words, then a list of names. */
void
pr_fix_list(struct finding *f, enum pr_tool tool, const struct py_env *e,
    const char *const *words, const struct strv *names)
{
	struct strv w = STRV_INIT;

	for (; *words != NULL; words++)
		strv_push(&w, *words);
	for (size_t i = 0; i < names->n; i++)
		strv_push(&w, names->v[i]);
	ip_fix_line(f, pr_cmdv(tool, e, &w));
	strv_free(&w);
}

/* ------------------------------------------------------------- wheels */

/* The CUDA major of an nvidia-* wheel: its "-cuNN" suffix, else the
 * matrix's row (CUDA 13 wheels carry no suffix); 0 for others. */
unsigned
pr_wheel_major(const struct pr_ctx *c, const char *package)
{
	const struct matrix_wheel *w;
	size_t len, d;

	if (package == NULL || strncasecmp(package, "nvidia", 6) != 0)
		return 0;
	len = strlen(package);
	for (d = 0; d < len && package[len - 1 - d] >= '0' &&
	    package[len - 1 - d] <= '9'; d++)
		;
	if (d > 0 && d <= 3 && len > d + 3 &&
	    strncasecmp(package + len - d - 2, "cu", 2) == 0 &&
	    strchr("-_.", package[len - d - 3]) != NULL)
		return (unsigned)strtoul(package + len - d, NULL, 10);
	w = c->m != NULL ? matrix_wheel(c->m, package) : NULL;
	return w != NULL ? w->cuda_major : 0;
}

/* The nvidia-* package of e whose wheel directory holds path, or NULL. */
const struct py_package *
pr_wheel_of(const struct pr_ctx *c, const struct py_env *e, const char *path)
{
	char *dir;
	const struct py_package *hit = NULL;

	if (c->m == NULL || path == NULL)
		return NULL;
	dir = path_dirname(path);
	for (size_t i = 0; i < e->packages.n && hit == NULL; i++) {
		const struct py_package *p = &e->packages.v[i];
		const struct matrix_wheel *w = p->source == PYPKG_CONDA ||
		    strncasecmp(p->name, "nvidia", 6) != 0 ? NULL :
		    matrix_wheel(c->m, p->name);

		if (w == NULL)
			continue;
		for (size_t k = 0; k < e->site_dirs.n && hit == NULL; k++) {
			char *wd = xasprintf("%s/%s", e->site_dirs.v[k], w->lib_dir);

			if (path_same(wd, dir))
				hit = p;
			free(wd);
		}
	}
	free(dir);
	return hit;
}

/* Puts a wheel's directory on LD_LIBRARY_PATH, for a framework that takes
 * the library from the loader's search and never looks in the wheel. */
void
pr_fix_wheel_dir(const struct pr_ctx *c, struct finding *f,
    const struct py_env *e, const char *wheel)
{
	const struct matrix_wheel *w = c->m != NULL ? matrix_wheel(c->m, wheel) : NULL;
	char *dir;

	if (w == NULL || e->site_dirs.n == 0)
		return;
	dir = xasprintf("%s/%s", e->site_dirs.v[0], w->lib_dir);
	lr_fix_comment(f, _("this framework does not look inside the wheel; put "
	    "its directory on the search path:"));
	lr_fix_prepend(f, dir);
	free(dir);
}

/*
 * The lines that install what provides soname, in version want ("11.2",
 * "8.1"; NULL any) for CUDA major, into e: conda packages in a conda
 * environment (its lib/ is on the interpreter's RPATH), else NVIDIA's
 * wheel, made reachable when the framework takes it from the search
 * path (from_any); else install_plan's plan for the name.
 */
void
pr_fix_install_lib(const struct pr_ctx *c, struct finding *f,
    const struct py_env *e, const char *soname, const char *want,
    unsigned major, bool from_any)
{
	char mm[MATRIX_VERSION_MAX];
	bool have = want != NULL && pr_major_minor(want, mm, sizeof mm);
	bool dnn = strncmp(soname, "libcudnn", 8) == 0;
	bool rt = strncmp(soname, "libcudart.", 10) == 0;
	const char *library = dnn ? "cudnn" : NULL;
	const struct matrix_wheel *w = NULL;
	struct matrix_range r;
	enum matrix_status st;

	if (e->kind == PYENV_CONDA) {
		struct fix_want w2[2] = {
			{ .channel = "conda-forge" }, { .channel = "conda-forge" },
		};
		char mj[16];
		size_t n = 1;

		snprintf(mj, sizeof mj, "%u", major);
		if (dnn) {
			w2[0].package = "cudnn";
			w2[0].pin = have ? mm : NULL;
		} else if (major != 0 && major <= 11) {
			w2[0].package = "cudatoolkit";
			w2[0].pin = have && rt ? mm : mj;
		} else if (major != 0) {
			w2[0].package = "cuda-version";
			w2[0].pin = have && rt ? mm : mj;
			w2[1].package = rt ? "cuda-cudart" : "cuda-libraries";
			n = 2;
		} else {
			return;
		}
		if (fixcmd_published(c->m, &w2[0]) == MATRIX_YES &&
		    (n == 1 || fixcmd_published(c->m, &w2[1]) == MATRIX_YES)) {
			lr_fix_comment(f, _("install it into the conda environment:"));
			fixcmd_install(c->m, f, e, w2, n);
		} else {
			pr_commentf(f, _("conda-forge has no %s %s: install the "
			    "framework build for the CUDA this environment has"),
			    w2[0].package, w2[0].pin != NULL ? w2[0].pin : "");
		}
		return;
	}
	if (c->m != NULL && library == NULL &&
	    !matrix_soname_cuda(c->m, soname, &r, &library, &st))
		library = NULL;
	if (c->m != NULL && library != NULL && major != 0)
		w = ip_wheel_for(c->m, library, major, soname);
	if (w == NULL) {
		ip_install_soname(&c->ip, f, soname);
		return;
	}
	{
		char top[16];
		struct fix_want wh = { .channel = "pip", .package = w->package };

		snprintf(top, sizeof top, "%u", have ? version_major_str(mm) : 0);
		if (have) {
			wh.min = mm;
			wh.max = top;
		}
		if (fixcmd_published(c->m, &wh) != MATRIX_YES) {
			/* Nothing published at that version: say so, and what exists. */
			if (dnn && have)
				fixcmd_cudnn(c->m, f, e, version_major_str(mm), mm,
				    &major, 1);
			else if (rt)
				fixcmd_cudart(c->m, f, e, major, have ? mm : NULL);
			else
				ip_install_soname(&c->ip, f, soname);
			return;
		}
		lr_fix_comment(f, _("install NVIDIA's wheel into this environment:"));
		fixcmd_install(c->m, f, e, &wh, 1);
	}
	if (from_any)
		pr_fix_wheel_dir(c, f, e, w->package);
}

/* --------------------------------------------------------- which build */

struct cand {
	const struct matrix_framework	*row;
	const struct matrix_build	*build;
	char				 package[32];
};

/* The matrix row of an installed framework: by its package (cupy-cuda11x
 * rows are per package), else by its name. */
const struct matrix_framework *
pr_fw_row(const struct pr_ctx *c, const struct framework_fact *fw)
{
	const struct matrix_framework *row = NULL;
	char rel[MATRIX_VERSION_MAX];

	if (c->m == NULL || !pr_release(fw->version, rel, sizeof rel))
		return NULL;
	if (fw->package != NULL)
		row = matrix_framework(c->m, fw->package, rel);
	if (row == NULL && fw->name != NULL)
		row = matrix_framework(c->m, fw->name, rel);
	return row;
}

static bool
is_cupy(const struct framework_fact *fw)
{
	return lr_streq(fw->name, "cupy") ||
	    (fw->package != NULL && strncasecmp(fw->package, "cupy", 4) == 0);
}

/* CuPy ships one package a CUDA major ("cupy-cuda12x"), the rest one row
 * with a build a variant. */
static size_t
candidates(const struct pr_ctx *c, const struct framework_fact *fw,
    struct cand *v, size_t cap)
{
	const struct matrix_framework *row;
	char rel[MATRIX_VERSION_MAX];
	size_t n = 0;

	if (c->m == NULL || !pr_release(fw->version, rel, sizeof rel))
		return 0;
	if (is_cupy(fw)) {
		const struct matrix_cuda_release *top = matrix_newest_cuda(c->m);

		for (unsigned mj = top != NULL ? version_major_str(top->version) : 0;
		    mj >= 9 && n < cap; mj--) {
			char name[32];
			const struct matrix_build *b;

			snprintf(name, sizeof name, "cupy-cuda%ux", mj);
			row = matrix_framework(c->m, name, rel);
			if (row == NULL || (b = matrix_framework_build(row, NULL)) == NULL)
				continue;
			v[n].row = row;
			v[n].build = b;
			memcpy(v[n].package, name, sizeof name);
			n++;
		}
		return n;
	}
	if ((row = pr_fw_row(c, fw)) == NULL)
		return 0;
	for (size_t i = 0; i < row->builds.n && n < cap; i++) {
		v[n].row = row;
		v[n].build = &row->builds.v[i];
		snprintf(v[n].package, sizeof v[n].package, "%s",
		    lr_streq(fw->name, "pytorch") ? "torch" :
		    fw->name != NULL ? fw->name : "?");
		n++;
	}
	return n;
}

static bool
wanted(const struct pr_ctx *c, const struct matrix_build *b,
    const struct pr_want *w)
{
	char a[MATRIX_VERSION_MAX], x[MATRIX_VERSION_MAX];
	enum matrix_status st;

	if (b->cuda == NULL || (b->variant != NULL && strcasecmp(b->variant, "cpu") == 0))
		return false;
	if (w->not_cuda != NULL && pr_major_minor(b->cuda, a, sizeof a) &&
	    pr_major_minor(w->not_cuda, x, sizeof x) && strcmp(a, x) == 0)
		return false;
	if (w->cc == NULL)
		return true;
	/* Where the matrix does not list a build's code, whether its CUDA
	 * can build for the GPU at all stands in. */
	if (b->ccs.n > 0)
		return pr_ccs_cover(&b->ccs, w->cc);
	return matrix_cuda_supports_cc(c->m, b->cuda, w->cc, &st) == MATRIX_YES;
}

/* a is a better pick than the best so far: one the driver runs first;
 * among those the newest CUDA, among the others the oldest (the smallest
 * driver update); then the default build. */
static bool
better(const struct cand *a, bool a_ok, const struct cand *best, bool best_ok)
{
	int cmp;

	if (best == NULL)
		return true;
	if (a_ok != best_ok)
		return a_ok;
	cmp = version_cmp_str(a->build->cuda, best->build->cuda);
	if (cmp != 0)
		return a_ok ? cmp > 0 : cmp < 0;
	return a->build->is_default && !best->build->is_default;
}

bool
pr_pick_build(const struct pr_ctx *c, const struct framework_fact *fw,
    const struct pr_want *w, struct pr_pick *out)
{
	struct cand v[48];
	size_t n = candidates(c, fw, v, sizeof v / sizeof *v);
	const struct cand *best = NULL;
	bool best_ok = false;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		char mm[MATRIX_VERSION_MAX];
		bool ok;

		if (!wanted(c, v[i].build, w))
			continue;
		ok = !c->have_reach || (pr_major_minor(v[i].build->cuda, mm, sizeof mm) &&
		    version_cmp_str(mm, c->reach.highest) <= 0);
		if (better(&v[i], ok, best, best_ok)) {
			best = &v[i];
			best_ok = ok;
		}
	}
	if (best == NULL)
		return false;
	out->row = best->row;
	out->build = best->build;
	memcpy(out->package, best->package, sizeof out->package);
	out->driver_short = !best_ok;
	return true;
}

/* ------------------------------------------------------ install a build */

/* A variant that may go into a URL or an extra: "cu121", "cuda12x". */
static bool
variant_ok(const char *v)
{
	size_t len = v != NULL ? strlen(v) : 0;

	return len > 0 && len <= 16 &&
	    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789") == len;
}

/* The CUDA major to name a package for when the matrix gives no build:
 * what the driver runs, else 12. */
static unsigned
fallback_major(const struct pr_ctx *c)
{
	unsigned mj = fact_known(&c->facts->driver.compat_major) ?
	    version_major_str(c->facts->driver.compat_major.value) : 0;

	return mj >= 11 && mj <= 13 ? mj : 12;
}

static char *
pinned(const char *package, const char *rel)
{
	return rel != NULL ? xasprintf("%s==%s", package, rel) : xstrdup(package);
}

static void
fix_uninstall(struct finding *f, const struct py_env *e, const char *package)
{
	ip_fix_line(f, pr_pip(e, "uninstall", "-y", package, NULL));
}

static void
fix_torch(const struct matrix *m, struct finding *f, const struct py_env *e,
    const char *rel, const char *variant)
{
	struct strv w = STRV_INIT;
	static const char *const companions[] = { "torchvision", "torchaudio" };
	char *url = variant != NULL ?
	    xasprintf("https://download.pytorch.org/whl/%s", variant) : NULL;
	struct fix_want want = { .channel = "pip", .package = "torch",
	    .pin = rel, .index_url = url };

	/* Only an index and release PyTorch published (the catalogue). */
	if (m != NULL && fixcmd_published(m, &want) == MATRIX_NO) {
		if (url != NULL)
			pr_commentf(f, _("PyTorch published no torch %s on %s: pick "
			    "the release and CUDA at "
			    "https://pytorch.org/get-started/previous-versions/"),
			    rel != NULL ? rel : "", url);
		else
			pr_commentf(f, _("PyTorch published no torch %s: pick the "
			    "release at https://pytorch.org/get-started/previous-versions/"),
			    rel != NULL ? rel : "");
		free(url);
		return;
	}

	/* pip takes "==2.5.1" as met by 2.5.1+cpu: remove it first. */
	fix_uninstall(f, e, "torch");
	strv_push(&w, "install");
	strv_push_owned(&w, pinned("torch", rel));
	for (size_t i = 0; i < sizeof companions / sizeof *companions; i++)
		if (py_env_package(e, companions[i]) != NULL)
			strv_push(&w, companions[i]);
	if (url != NULL) {
		strv_push(&w, "--index-url");
		strv_push(&w, url);
	}
	ip_fix_line(f, pr_pipv(e, &w));
	strv_free(&w);
	free(url);
}

static void
fix_tensorflow(const struct matrix *m, struct finding *f,
    const struct py_env *e, const struct framework_fact *fw, const char *rel,
    const struct matrix_build *b)
{
	bool bundles = b != NULL ? b->bundles_cuda != MATRIX_BUNDLES_NO :
	    rel != NULL && version_cmp_str(rel, "2.14") >= 0;
	struct fix_want want = { .channel = "pip", .pin = rel,
	    .package = bundles ? "tensorflow[and-cuda]" :
	    version_major_str(rel) == 1 ? "tensorflow-gpu" : "tensorflow" };

	/* Only a release the catalogue holds (tensorflow[and-cuda] from
	 * 2.14, tensorflow-gpu up to 2.11). */
	if (fixcmd_published(m, &want) != MATRIX_YES) {
		pr_commentf(f, _("no %s %s was published: pick a release at "
		    "https://www.tensorflow.org/install/pip"), want.package,
		    rel != NULL ? rel : "");
		return;
	}
	if (fw->package != NULL && !pkg_name_eq(fw->package, "tensorflow"))
		fix_uninstall(f, e, fw->package);
	fixcmd_install(m, f, e, &want, 1);
	if (bundles || b == NULL)
		return;
	/* Before 2.14 TensorFlow takes CUDA and cuDNN from the system. */
	struct fix_want libs[2] = {
		{ .channel = "conda-forge", .package = "cudatoolkit", .pin = b->cuda },
		{ .channel = "conda-forge", .package = "cudnn", .pin = b->cudnn },
	};

	if (e->kind == PYENV_CONDA &&
	    fixcmd_published(m, &libs[0]) == MATRIX_YES &&
	    (b->cudnn == NULL || fixcmd_published(m, &libs[1]) == MATRIX_YES)) {
		lr_fix_comment(f, _("it loads CUDA and cuDNN from the search path; "
		    "the environment's lib/ is on it:"));
		fixcmd_install(m, f, e, libs, b->cudnn != NULL ? 2 : 1);
	} else {
		pr_commentf(f, _("TensorFlow %s loads CUDA %s and cuDNN %s from the "
		    "loader's search path: install them and put their lib "
		    "directories on LD_LIBRARY_PATH"), rel != NULL ? rel : "",
		    b->cuda, b->cudnn != NULL ? b->cudnn : "?");
	}
}

static void fix_cupy(const struct matrix *m, struct finding *f,
    const struct py_env *e, const char *name, const char *rel);

/* spaCy runs on CuPy: its extra where the package offers it, else CuPy. */
static void
fix_spacy(const struct matrix *m, struct finding *f, const struct py_env *e,
    const char *rel, const char *variant, unsigned major)
{
	const struct py_package *sp = py_env_package(e, "spacy");
	char *v = variant != NULL ? xstrdup(variant) : xasprintf("cuda%ux", major);
	char *spec;

	/* The extra is in the installed spaCy's own metadata: it exists. */
	if (sp != NULL && strv_contains(&sp->extras, v)) {
		char *extra = xasprintf("spacy[%s]", v);

		spec = pinned(extra, rel);
		free(extra);
		ip_fix_line(f, pr_pip(e, "install", spec, NULL));
		free(spec);
	} else {
		spec = xasprintf("cupy-%s", v);
		fix_cupy(m, f, e, spec, NULL);
		free(spec);
	}
	free(v);
}

/* CuPy's wheel for one CUDA (cupy-cuda12x …) at release rel (NULL: any),
 * where CuPy published it; otherwise words and its install page. */
static void
fix_cupy(const struct matrix *m, struct finding *f, const struct py_env *e,
    const char *name, const char *rel)
{
	struct fix_want want = { .channel = "pip", .package = name, .pin = rel };

	if (fixcmd_published(m, &want) == MATRIX_YES) {
		fixcmd_install(m, f, e, &want, 1);
		return;
	}
	pr_commentf(f, _("CuPy published no %s %s: pick the package for this "
	    "CUDA at https://docs.cupy.dev/en/stable/install.html"), name,
	    rel != NULL ? rel : "");
}

/* A framework conda installed: conda-forge's CUDA build of it. */
static void
fix_conda_build(const struct matrix *m, struct finding *f,
    const struct py_env *e, const struct framework_fact *fw, const char *rel,
    const char *cuda)
{
	struct fix_want pkg = { .channel = "conda-forge", .package = fw->package,
	    .pin = rel };
	struct fix_want ver = { .channel = "conda-forge",
	    .package = "cuda-version", .pin = cuda };
	char *spec, *cv = NULL;

	/* The package at that release, and cuda-version (from 11.2) only
	 * where conda-forge has it: the catalogue says. */
	if (fixcmd_published(m, &pkg) != MATRIX_YES) {
		pr_commentf(f, _("conda-forge published no %s %s that cudawiz "
		    "knows: see https://anaconda.org/conda-forge/%s for its CUDA "
		    "builds"), fw->package, rel != NULL ? rel : "", fw->package);
		return;
	}
	if (cuda != NULL && fixcmd_published(m, &ver) == MATRIX_YES)
		cv = xasprintf("cuda-version=%s", cuda);
	else if (cuda != NULL)
		pr_commentf(f, _("conda-forge has no cuda-version %s: pick the "
		    "build for CUDA %s by hand"), cuda, cuda);
	if (is_cupy(fw))
		spec = pinned(fw->package, rel);
	else
		spec = rel != NULL ? xasprintf("%s=%s=cuda*", fw->package, rel) :
		    xasprintf("%s=*=cuda*", fw->package);
	ip_fix_line(f, pr_conda(e, "install", "-c", "conda-forge", spec, cv, NULL));
	free(spec);
	free(cv);
}

/* onnxruntime-gpu for CUDA major: the index that published release rel
 * for it (the catalogue: PyPI's default build changed from CUDA 11 to 12
 * at 1.19, the other major comes from the project's own index). The same
 * version is removed first: pip keeps an installed version as it is. */
static void
fix_onnxruntime(const struct matrix *m, struct finding *f,
    const struct py_env *e, const struct framework_fact *fw, const char *rel,
    unsigned major)
{
	for (size_t i = 0; i < matrix_published_count(m); i++) {
		const struct matrix_published *p = matrix_published_at(m, i);
		struct fix_want want = { .channel = "pip",
		    .package = "onnxruntime-gpu", .pin = rel };
		const struct py_package *inst;

		if (strcmp(p->channel, "pip") != 0 ||
		    !pkg_name_eq(p->package, "onnxruntime-gpu") ||
		    p->cuda_major != major)
			continue;
		bool holds = rel == NULL || p->versions.n == 0;

		/* This row's versions: another major's row may list rel too. */
		for (size_t k = 0; !holds && k < p->versions.n; k++)
			holds = matrix_range_contains(&p->versions.v[k], rel);
		want.index_url = p->index_url;
		if (!holds || fixcmd_published(m, &want) != MATRIX_YES)
			continue;
		inst = py_env_package(e, "onnxruntime-gpu");
		if (fw->package != NULL && (!pkg_name_eq(fw->package,
		    "onnxruntime-gpu") || (inst != NULL && rel != NULL &&
		    inst->version != NULL && strcmp(inst->version, rel) == 0)))
			fix_uninstall(f, e, fw->package);
		if (p->index_url != NULL)
			pr_commentf(f, _("onnxruntime-gpu %s for CUDA %u comes from "
			    "the project's own package index:"), rel != NULL ? rel : "",
			    major);
		fixcmd_install(m, f, e, &want, 1);
		return;
	}
	pr_commentf(f, _("no onnxruntime-gpu %s was published for CUDA %u: "
	    "install the release built for CUDA %u (see "
	    "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html)"),
	    rel != NULL ? rel : "", major, major);
}

/*
 * The lines that install the GPU build p of fw into e (p NULL: what can
 * be said without the matrix), and the driver update when the driver runs
 * none that fits.
 */
void
pr_fix_build(const struct pr_ctx *c, struct finding *f, const struct py_env *e,
    const struct framework_fact *fw, const struct pr_pick *p)
{
	char relbuf[MATRIX_VERSION_MAX], cuda[MATRIX_VERSION_MAX];
	const char *rel = pr_release(fw->version, relbuf, sizeof relbuf) ? relbuf : NULL;
	const struct matrix_build *b = p != NULL ? p->build : NULL;
	bool have_cuda = b != NULL && pr_major_minor(b->cuda, cuda, sizeof cuda);
	const char *variant = b != NULL && variant_ok(b->variant) ? b->variant : NULL;
	unsigned major = have_cuda ? version_major_str(cuda) : fallback_major(c);
	/* Without the run's matrix, the built-in catalogue still decides. */
	struct matrix *builtin = c->m == NULL ? matrix_embedded() : NULL;
	const struct matrix *cat = c->m != NULL ? c->m : builtin;

	if (have_cuda)
		pr_commentf(f, _("install the GPU build of %s for CUDA %s, which "
		    "%s:"), p->package, cuda,
		    p->driver_short ? _("needs a newer driver (below)") :
		    c->have_reach ? _("this driver runs") :
		    _("is the newest the matrix knows"));
	else
		pr_commentf(f, _("install the GPU build of %s:"),
		    fw->package != NULL ? fw->package : fw->name);
	if (fw->package != NULL && pr_from_conda(e, fw->package)) {
		fix_conda_build(cat, f, e, fw, rel, have_cuda ? cuda : NULL);
	} else if (lr_streq(fw->name, "pytorch")) {
		fix_torch(c->m, f, e, rel, variant);
	} else if (lr_streq(fw->name, "tensorflow")) {
		fix_tensorflow(cat, f, e, fw, rel, b);
	} else if (lr_streq(fw->name, "jax")) {
		const struct py_package *jax = py_env_package(e, "jax");
		char *extra = variant != NULL ? xasprintf("jax[%s]", variant) :
		    xasprintf("jax[cuda%u]", major);
		const char *jrel = jax != NULL &&
		    pr_release(jax->version, relbuf, sizeof relbuf) ? relbuf : rel;
		struct fix_want want = { .channel = "pip", .package = extra,
		    .pin = jrel, .upgrade = true };

		/* The jax[cudaNN] extras start at 0.4.26 (the catalogue): an
		 * older jax has none to upgrade within. */
		if (fixcmd_published(cat, &want) == MATRIX_NO) {
			want.pin = NULL;
			pr_commentf(f, _("%s was first published after jax %s: "
			    "upgrade jax and its CUDA plugin together"), extra,
			    jrel != NULL ? jrel : "?");
		}
		if (!fixcmd_install(cat, f, e, &want, 1))
			pr_commentf(f, _("no %s was published: see "
			    "https://docs.jax.dev/en/latest/installation.html"), extra);
		free(extra);
	} else if (is_cupy(fw)) {
		char *name = p != NULL ? xstrdup(p->package) :
		    xasprintf("cupy-cuda%ux", major);
		struct fix_want want = { .channel = "pip", .package = name,
		    .pin = p != NULL ? rel : NULL };

		if (fw->package != NULL && !pkg_name_eq(fw->package, name) &&
		    fixcmd_published(cat, &want) == MATRIX_YES)
			fix_uninstall(f, e, fw->package);
		fix_cupy(cat, f, e, name, want.pin);
		free(name);
	} else if (lr_streq(fw->name, "spacy")) {
		fix_spacy(cat, f, e, rel, variant, major);
	} else if (lr_streq(fw->name, "onnxruntime")) {
		fix_onnxruntime(cat, f, e, fw, rel, major);
	} else if (lr_streq(fw->name, "paddlepaddle")) {
		char *gpu = xasprintf("%s-gpu", fw->name);
		struct fix_want want = { .channel = "pip", .package = gpu,
		    .pin = rel };

		if (fixcmd_published(cat, &want) != MATRIX_YES) {
			pr_commentf(f, _("PyPI has no %s %s that cudawiz knows: see "
			    "the project's install page for its CUDA builds"), gpu,
			    rel != NULL ? rel : "");
		} else {
			if (fw->package != NULL && !pkg_name_eq(fw->package, gpu))
				fix_uninstall(f, e, fw->package);
			fixcmd_install(cat, f, e, &want, 1);
		}
		/* PyPI carries the default build; the others have their own
		 * package index. */
		if (b != NULL && !b->is_default && variant != NULL)
			pr_commentf(f, _("PyPI's %s is the default build; the %s build "
			    "comes from the project's own package index (see its "
			    "install page)"), gpu, variant);
		free(gpu);
	} else {
		pr_commentf(f, _("%s publishes its CUDA builds as separate packages: "
		    "install the one for CUDA %u"), fw->name != NULL ? fw->name : "?",
		    major);
	}
	if (p != NULL && p->driver_short && have_cuda)
		pr_fix_driver(c, f, cuda, NULL);
	matrix_free(builtin);
}

/* ------------------------------------------------------------- drivers */

/* A driver that runs CUDA cuda: the package of the branch min says (NULL:
 * the minimum of cuda's release), install_plan's line; in a container or
 * WSL, its advice. */
void
pr_fix_driver(const struct pr_ctx *c, struct finding *f, const char *cuda,
    const char *min)
{
	if (min == NULL && c->m != NULL)
		min = matrix_cuda_min_driver(c->m, cuda, MATRIX_LINUX, NULL);
	/* In a container or WSL the driver is the host's: its advice alone. */
	if (fd_place(c->facts) != FD_HOST || !fd_would_install(c->facts, min))
		;
	else if (min != NULL)
		pr_commentf(f, _("CUDA %s needs driver %s or newer (Debian/Ubuntu; "
		    "reboot afterwards):"), cuda, min);
	else
		pr_commentf(f, _("install a driver that runs CUDA %s (Ubuntu picks "
		    "one itself: sudo ubuntu-drivers install)"), cuda);
	ip_driver_fix(&c->ip, f, min);
}
