/* Findings about Python environments and their GPU frameworks: the entry
 * point, FRAMEWORK_CPU_ONLY, and what the loader model says about each
 * framework's needs in its own process (SONAME_NOT_FOUND,
 * OPTIONAL_LIB_MISSING, LIB_SHADOWED, FRAMEWORK_CUDA_MISMATCH). The other
 * families are in rules_python_env.c and rules_python_fwgpu.c. Pure.
 *
 * One root cause, one finding: a soname that does not resolve in an
 * environment is one SONAME_NOT_FOUND for every framework and file that
 * needs it (saying when the machine has another CUDA major of it, and
 * offering that major's build of the framework); a need left missing by
 * a wheel of another version than the framework pins is the pin's
 * finding (PIP_CUDA_WHEELS_MIXED); one directory that shadows several
 * libraries is one LIB_SHADOWED; a library that resolves, unshadowed, to
 * an older version than the framework was built with is
 * FRAMEWORK_CUDA_MISMATCH. A framework that is GPU-ready, and an
 * environment without frameworks, give nothing. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
#include "diagnose/fwdcompat.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_python_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "loader/resolve.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

struct need_ref {
	const struct framework_fact	*fw;
	const struct fw_need		*n;
};

struct need_refs {
	struct need_ref	*v;
	size_t		 n, cap;
};

static bool
resolved(const struct fw_need *n)
{
	return n->lib != NULL && n->lib->resolved != NULL;
}

/* spaCy runs its GPU work on CuPy and has CuPy's needs: where CuPy is in
 * the environment, its findings say it (with what it means for spaCy). */
static bool
rides_on_other(const struct py_env *e, const struct framework_fact *fw)
{
	if (fw->gpu_through == NULL)
		return false;
	for (size_t i = 0; i < e->frameworks.n; i++)
		if (&e->frameworks.v[i] != fw && e->frameworks.v[i].name != NULL &&
		    pkg_name_eq(e->frameworks.v[i].name, fw->gpu_through))
			return true;
	return false;
}

/* "torch 2.5.1, tensorflow 2.15.0": each framework once. */
static char *
fw_list(const struct need_refs *refs)
{
	struct strv seen = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < refs->n; i++) {
		char *w = pr_fw_words(refs->v[i].fw);

		if (!strv_contains(&seen, w)) {
			if (seen.n > 0)
				strbuf_puts(&sb, ", ");
			strbuf_puts(&sb, w);
			strv_push(&seen, w);
		}
		free(w);
	}
	strv_free(&seen);
	return strbuf_take(&sb);
}

/* ------------------------------------------------- FRAMEWORK_CPU_ONLY */

static const char *
cpu_consequence(const struct framework_fact *fw)
{
	if (lr_streq(fw->name, "pytorch"))
		return _("torch.cuda.is_available() returns False");
	if (lr_streq(fw->name, "tensorflow"))
		return _("tf.config.list_physical_devices('GPU') is empty");
	if (lr_streq(fw->name, "jax"))
		return _("jax.devices() lists only the CPU");
	if (lr_streq(fw->name, "onnxruntime"))
		return _("only the CPUExecutionProvider is available");
	if (lr_streq(fw->name, "paddlepaddle"))
		return _("paddle.device.is_compiled_with_cuda() returns False");
	return _("it runs everything on the CPU");
}

static void
rule_cpu_only(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw)
{
	bool spacy = lr_streq(fw->name, "spacy");
	struct pr_want want = { NULL, NULL };
	struct pr_pick pick;
	bool picked;
	char *fwd, *envw;
	struct finding *f;

	/* Numba is a CPU compiler first; its CUDA target is a choice. */
	if (lr_streq(fw->name, "numba") || pr_machine_no_gpu(c->facts))
		return;
	if (spacy ? fw->gpu_through != NULL : fw->gpu != FW_GPU_NO)
		return;
	fwd = pr_fw_words(fw);
	envw = pr_env_words(e);
	if (spacy)
		f = finding_add(c->out, FINDING_FRAMEWORK_CPU_ONLY,
		    _("%s in %s has no CuPy to run its GPU work on, so spaCy will "
		    "silently run on the CPU: spacy.prefer_gpu() returns False and "
		    "spacy.require_gpu() fails."), fwd, envw);
	else
		f = finding_add(c->out, FINDING_FRAMEWORK_CPU_ONLY,
		    _("%s in %s is a CPU-only build, so it never uses the GPU: %s. "
		    "Nothing fails; the work just runs on the CPU, many times "
		    "slower."), fwd, envw, cpu_consequence(fw));
	subj_fw(f, e, fw);
	/* On a machine whose GPUs are not known, this is only a note. */
	if (!pr_machine_has_gpu(c->facts))
		f->severity = SEV_INFO;
	if (fw->gpu_why != NULL)
		strv_pushf(&f->evidence, _("CPU-only: %s"), fw->gpu_why);
	if (fw->dir != NULL)
		strv_pushf(&f->evidence, _("%s is installed in %s"), fwd, fw->dir);
	pr_gpu_evidence(f, c->facts);
	diagnose_reach_evidence(c->facts, c->drv, &f->evidence);
	finding_evidence_cap(f, EVIDENCE_MAX);
	want.cc = c->gpu != NULL ? c->gpu->cc.value : NULL;
	picked = pr_pick_build(c, fw, &want, &pick);
	if (!picked && want.cc != NULL) {
		want.cc = NULL;
		picked = pr_pick_build(c, fw, &want, &pick);
	}
	pr_fix_build(c, f, e, fw, picked ? &pick : NULL);
	free(fwd);
	free(envw);
}

/* ---------------------------------------------------- SONAME_NOT_FOUND */

/* The CUDA major a soname belongs to: the matrix's rows for it, else a
 * runtime's own soname (libcudart.so.11.0); 0 when not known (cuDNN's
 * sonames carry cuDNN's major). */
static unsigned
soname_cuda_major(const struct pr_ctx *c, const char *soname)
{
	struct matrix_range r;
	const char *library;
	enum matrix_status st;
	struct version v;

	if (c->m != NULL && matrix_soname_cuda(c->m, soname, &r, &library, &st)) {
		unsigned lo = version_major_str(r.min);

		return r.max != NULL && version_major_str(r.max) == lo ? lo : 0;
	}
	if (strncmp(soname, "libcudart.so.", 13) == 0 && lr_soname_version(soname, &v))
		return v.part[0];
	return 0;
}

/* Other sonames of the same library that do resolve on this machine
 * (libcudart.so.12 when libcudart.so.11.0 does not): their CUDA majors
 * into majors, and, when f is given, their winners as evidence. */
static size_t
other_majors(const struct pr_ctx *c, const char *soname, struct finding *f,
    unsigned *majors, size_t cap)
{
	char *stem = lr_stem_of(soname);
	size_t n = 0;

	if (stem == NULL)
		return 0;
	for (size_t i = 0; i < c->facts->libraries.n; i++) {
		const struct lib_fact *l = &c->facts->libraries.v[i];
		char *ls;
		unsigned mj;
		bool same;

		if (l->resolved == NULL || l->stub || lr_streq(l->soname, soname))
			continue;
		ls = lr_stem_of(l->soname);
		same = lr_streq(ls, stem);
		free(ls);
		if (!same || (mj = soname_cuda_major(c, l->soname)) == 0)
			continue;
		if (f != NULL)
			lr_winner_evidence(f, l);
		for (size_t k = 0; k <= n && k < cap; k++) {
			if (k == n) {
				majors[n++] = mj;
				break;
			}
			if (majors[k] == mj)
				break;
		}
	}
	free(stem);
	return n;
}

static void
requester_evidence(struct finding *f, const struct need_refs *refs)
{
	for (size_t i = 0; i < refs->n; i++) {
		const struct need_ref *r = &refs->v[i];
		char *w = pr_fw_words(r->fw);
		const char *who = r->n->requester != NULL ? r->n->requester :
		    r->fw->dir != NULL ? r->fw->dir : "?";
		char *line = r->n->how == FW_NEED_LINKED ?
		    xasprintf(_("%s (%s) lists it in DT_NEEDED"), who, w) :
		    xasprintf(_("%s (%s) loads it with dlopen()"), who, w);

		if (!strv_contains(&f->evidence, line))
			strv_push(&f->evidence, line);
		free(line);
		free(w);
	}
}

static void
expected_evidence(struct finding *f, const struct py_env *e,
    const struct fw_need *n)
{
	if (n->expected_dir != NULL)
		strv_pushf(&f->evidence, _("expected in %s (%s)"), n->expected_dir,
		    n->expected_pkg != NULL ? n->expected_pkg :
		    fw_need_from_name(n->from));
	if (n->expected_pkg != NULL && py_env_package(e, n->expected_pkg) == NULL)
		strv_pushf(&f->evidence, _("%s is not installed in this environment"),
		    n->expected_pkg);
}

/* The framework's own Requires-Dist line for the wheel that provides a
 * need, with its pin ("nvidia-cudnn-cu12==9.1.0.70"): the wheel the need
 * names, else one the matrix says provides the soname; NULL when its
 * metadata names none. */
static char *
required_wheel(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw, const struct fw_need *n)
{
	const struct py_package *owner = fw->package != NULL ?
	    py_env_package(e, fw->package) : NULL;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; owner != NULL && i < owner->requires.n; i++) {
			const char *line = owner->requires.v[i];
			char *name = xstrndup(line, strcspn(line, " ;<>=!~[("));
			const struct matrix_wheel *w = c->m != NULL ?
			    matrix_wheel(c->m, name) : NULL;
			bool hit = pass == 0 ? n->expected_pkg != NULL &&
			    pkg_name_eq(name, n->expected_pkg) :
			    w != NULL && strv_contains(&w->provides, n->soname);
			char *spec;

			free(name);
			if (!hit)
				continue;
			/* The line up to its marker, blanks and parentheses out. */
			spec = xstrndup(line, strcspn(line, ";"));
			for (char *s = spec, *d = spec;; s++)
				if (*s != ' ' && *s != '(' && *s != ')' &&
				    (*d++ = *s) == '\0')
					break;
			return spec;
		}
	return NULL;
}

static void
not_found_fix(const struct pr_ctx *c, struct finding *f, const struct py_env *e,
    const struct need_ref *r, const unsigned *majors, size_t nmajors,
    unsigned need_major)
{
	const struct lib_fact *lib = r->n->lib;
	const struct lib_copy *best = lib != NULL ? lr_best_off_path_copy(lib) : NULL;
	char *stem = lr_stem_of(r->n->soname), *wheel, mm[MATRIX_VERSION_MAX];
	bool from_any = r->n->from == FW_FROM_ANY;
	struct pr_want want = { c->gpu != NULL ? c->gpu->cc.value : NULL, NULL };
	struct pr_pick p;

	if (best != NULL) {
		char *dir = path_dirname(best->path);

		if (lr_under(best->path, e->prefix) || lr_env_managed(c->facts, best->path)) {
			lr_fix_comment(f, _("put the directory of the copy on the search "
			    "path of this environment's Python:"));
			lr_fix_prepend(f, dir);
			/* The plan puts a copy first only where the framework
			 * looks for it (envplan/plan.c, usable_copy). */
			if (r->n->expected_dir == NULL ||
			    path_same(dir, r->n->expected_dir))
				lr_fix_env_script(f, e->prefix, NULL);
		} else {
			lr_fix_reach(f, c->facts, dir);
		}
		free(dir);
	}
	if ((wheel = required_wheel(c, e, r->fw, r->n)) == NULL &&
	    r->n->expected_pkg != NULL)
		wheel = xstrdup(r->n->expected_pkg);
	if (wheel != NULL && !(e->kind == PYENV_CONDA && r->n->from == FW_FROM_CONDA)) {
		char *name = xstrndup(wheel, strcspn(wheel, "<>=!~["));

		lr_fix_comment(f, _("install the wheel that provides it:"));
		/* Installed and still not there: its files are damaged. */
		if (py_env_package(e, name) != NULL)
			ip_fix_line(f, pr_pip(e, "install", "--force-reinstall",
			    "--no-deps", wheel, NULL));
		else
			ip_fix_line(f, pr_pip(e, "install", wheel, NULL));
		if (from_any)
			pr_fix_wheel_dir(c, f, e, name);
		free(name);
	} else if (stem != NULL) {
		bool dnn = strcmp(stem, "libcudnn") == 0;

		pr_fix_install_lib(c, f, e, r->n->soname, dnn ? r->fw->cudnn : r->fw->cuda,
		    dnn ? version_major_str(r->fw->cuda) : need_major, from_any);
	}
	if (f->fix.n == 0 && r->fw->cuda != NULL && pr_major_minor(r->fw->cuda,
	    mm, sizeof mm) && strchr(mm, '.') != NULL) {
		char *pkg;
		struct fix_want apt = { .channel = "apt" };

		*strchr(mm, '.') = '-';
		pkg = xasprintf("cuda-libraries-%s", mm);
		apt.package = pkg;
		enum matrix_answer a = fixcmd_published(c->m, &apt);

		if (a != MATRIX_NO) {
			/* No catalogue: the words, no command it cannot check. */
			pr_commentf(f, _("install CUDA %s's libraries from NVIDIA's "
			    "repository, and put their directory on LD_LIBRARY_PATH:"),
			    r->fw->cuda);
			fixcmd_install(c->m, f, NULL, &apt, 1);
		} else {
			pr_commentf(f, _("NVIDIA's repository has no package of CUDA "
			    "%s's libraries; CUDA %s is on NVIDIA's archive page: %s"),
			    r->fw->cuda, r->fw->cuda,
			    "https://developer.nvidia.com/cuda-toolkit-archive");
		}
		free(pkg);
	}
	/* TensorFlow 2.14 and newer names all its CUDA wheels in one extra. */
	if (lr_streq(r->fw->name, "tensorflow") && !pr_from_conda(e, r->fw->package) &&
	    pr_release(r->fw->version, mm, sizeof mm) &&
	    version_cmp_str(mm, "2.14") >= 0) {
		struct fix_want tf = { .channel = "pip",
		    .package = "tensorflow[and-cuda]", .pin = mm };

		/* Only a release that was published with the extra. */
		if (fixcmd_published(c->m, &tf) == MATRIX_YES) {
			lr_fix_comment(f, _("or let pip install every CUDA wheel this "
			    "TensorFlow was built with:"));
			fixcmd_install(c->m, f, e, &tf, 1);
		}
	}
	free(wheel);
	free(stem);
	/* The machine has another major: the framework's build for it. */
	if (nmajors > 0 && pr_pick_build(c, r->fw, &want, &p) &&
	    version_major_str(p.build->cuda) != need_major) {
		for (size_t k = 0; k < nmajors; k++)
			if (majors[k] == version_major_str(p.build->cuda)) {
				lr_fix_comment(f, _("or use the framework's build for the "
				    "CUDA this machine has:"));
				pr_fix_build(c, f, e, r->fw, &p);
				break;
			}
	}
}

static void
rule_not_found(const struct pr_ctx *c, const struct py_env *e,
    const struct need_refs *refs)
{
	const struct need_ref *r = &refs->v[0];
	const char *soname = r->n->soname;
	unsigned majors[8], need_major = soname_cuda_major(c, soname);
	size_t nmajors = other_majors(c, soname, NULL, majors, 8);
	bool linked = false, other = nmajors > 0 && need_major != 0;
	struct strbuf sb = STRBUF_INIT;
	char *fws = fw_list(refs), *envw = pr_env_words(e);
	struct finding *f;

	for (size_t i = 0; i < refs->n; i++)
		linked = linked || refs->v[i].n->how == FW_NEED_LINKED;
	for (size_t k = 0; k < nmajors; k++)
		if (majors[k] == need_major)
			other = false;
	strbuf_printf(&sb, _("%s in %s needs %s, which the dynamic loader cannot "
	    "find in its process."), fws, envw, soname);
	strbuf_putc(&sb, ' ');
	if (linked)
		strbuf_printf(&sb, _("Importing it fails with \"%s: cannot open "
		    "shared object file: No such file or directory\"."), soname);
	else
		strbuf_puts(&sb, _("It loads the library with dlopen() and, when that "
		    "fails, goes on without the GPU: it silently runs on the CPU."));
	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *sp = &e->frameworks.v[i];

		for (size_t k = 0; k < refs->n; k++)
			if (lr_streq(sp->name, "spacy") && sp->gpu_through != NULL &&
			    lr_streq(sp->gpu_through, refs->v[k].fw->name)) {
				strbuf_putc(&sb, ' ');
				strbuf_printf(&sb, _("spaCy %s runs its GPU work on it, so "
				    "spaCy silently runs on the CPU too."),
				    sp->version != NULL ? sp->version : "");
				break;
			}
	}
	if (other) {
		struct strbuf list = STRBUF_INIT;

		for (size_t k = 0; k < nmajors; k++)
			strbuf_printf(&list, k > 0 ? ", %u" : "%u", majors[k]);
		strbuf_putc(&sb, ' ');
		strbuf_printf(&sb, _("It is a CUDA %u library, and this machine has "
		    "it only for CUDA %s."), need_major, strbuf_str(&list));
		strbuf_free(&list);
	}
	f = finding_add(c->out, FINDING_SONAME_NOT_FOUND, "%s", strbuf_str(&sb));
	subj_who_needs(f, fws, e->prefix, soname);
	strbuf_free(&sb);
	/* With no GPU, a framework that goes on without one is as it
	 * should be. */
	if (!linked && pr_machine_no_gpu(c->facts))
		f->severity = SEV_INFO;
	requester_evidence(f, refs);
	expected_evidence(f, e, r->n);
	if (r->n->lib != NULL) {
		lr_search_evidence(f, r->n->lib);
		for (size_t i = 0; i < r->n->lib->copies.n; i++) {
			const struct lib_copy *cp = &r->n->lib->copies.v[i];

			if (cp->loadable && !cp->stub)
				strv_pushf(&f->evidence, _("a copy exists where this search "
				    "does not look: %s"), cp->path);
			else if (!cp->loadable)
				strv_pushf(&f->evidence, _("%s cannot be loaded: %s"),
				    cp->path, cp->problem != NULL ? cp->problem : "?");
		}
	}
	other_majors(c, soname, f, majors, 8);
	finding_evidence_cap(f, EVIDENCE_MAX);
	not_found_fix(c, f, e, r, majors, nmajors, need_major);
	free(fws);
	free(envw);
}

/* An optional library (TensorRT): worth a note only where a copy exists
 * that the framework does not reach, and the survey has not said so. */
static void
rule_optional(const struct pr_ctx *c, const struct py_env *e,
    const struct need_refs *refs)
{
	const struct lib_fact *lib = refs->v[0].n->lib;
	const struct lib_fact *sv;
	const struct lib_copy *best = lib != NULL ? lr_best_off_path_copy(lib) : NULL;
	struct finding *f;
	char *fws, *envw;

	if (best == NULL)
		return;
	sv = lr_lib_named(c->facts, lib->soname);
	if (sv != NULL && sv->resolved == NULL && lr_best_off_path_copy(sv) != NULL &&
	    !lr_env_managed(c->facts, lr_best_off_path_copy(sv)->path))
		return;
	lr_rule_optional(c->facts, lib, best, c->out);
	f = &c->out->v[c->out->n - 1];
	fws = fw_list(refs);
	envw = pr_env_words(e);
	subj_who_needs(f, fws, e->prefix, lib->soname);
	strv_pushf(&f->evidence, _("%s in %s probes for it"), fws, envw);
	free(fws);
	free(envw);
}

/* -------------------------------------------------------- LIB_SHADOWED */

/* "LD_LIBRARY_PATH entry /usr/local/cuda/lib64": the step that won. */
static char *
winner_words(const struct fw_need *n)
{
	const struct lib_fact *l = n->lib;

	if (l->steps.n > 0 && l->steps.v[l->steps.n - 1].result == STEP_FOUND)
		return lr_step_words(&l->steps.v[l->steps.n - 1]);
	return xstrdup(lr_via_words(n->shadowed_via));
}

/* The framework's own copy: the one in the directory it expects. */
static const struct lib_copy *
own_copy(const struct fw_need *n)
{
	for (size_t i = 0; n->expected_dir != NULL && i < n->lib->copies.n; i++) {
		const struct lib_copy *cp = &n->lib->copies.v[i];
		char *d = path_dirname(cp->path);
		bool in = path_same(d, n->expected_dir);

		free(d);
		if (in)
			return cp;
	}
	return NULL;
}

static bool
file_version(const char *soname, const char *file, struct version *v)
{
	char *stem = lr_stem_of(soname);
	bool ok = file != NULL && lr_name_version(path_basename(file), stem, v) &&
	    v->nparts >= 3;

	free(stem);
	return ok;
}

/* The version of the framework's own copy: its file name's, else (a
 * wheel ships libcudart.so.13 under that name alone) the version of the
 * wheel that installed it. */
static bool
own_version(const struct py_env *e, const struct fw_need *n,
    const struct lib_copy *own, struct version *v)
{
	const struct py_package *p;
	char rel[MATRIX_VERSION_MAX];

	if (file_version(n->soname, own->target, v))
		return true;
	return n->expected_pkg != NULL &&
	    (p = py_env_package(e, n->expected_pkg)) != NULL &&
	    p->version != NULL && pr_release(p->version, rel, sizeof rel) &&
	    version_parse(rel, v) && v->nparts >= 3;
}

/* Evidence for one shadowed need; false when the copy that wins is known
 * to be the framework's version or newer under the same soname, which
 * the framework runs with (a warning: not the copy it was tested with). */
static bool
shadow_evidence(struct finding *f, const struct py_env *e,
    const struct fw_need *n, const struct framework_fact *fw, bool winner_told)
{
	const struct lib_copy *own = own_copy(n);
	struct version wv, ov;
	char *w = pr_fw_words(fw);
	bool differ = true;

	if (!winner_told)
		lr_winner_evidence(f, n->lib);
	strv_pushf(&f->evidence, _("%s expects it in %s (%s)"), w,
	    n->expected_dir != NULL ? n->expected_dir : "?",
	    n->expected_pkg != NULL ? n->expected_pkg : fw_need_from_name(n->from));
	if (own != NULL) {
		if (own->target != NULL && strcmp(own->target, own->path) != 0)
			strv_pushf(&f->evidence, _("shadowed: %s (%s)"), own->path,
			    own->target);
		else
			strv_pushf(&f->evidence, _("shadowed: %s"), own->path);
		if (file_version(n->soname, n->lib->target, &wv) &&
		    own_version(e, n, own, &ov)) {
			differ = version_cmp(&wv, &ov) < 0;
			if (version_cmp(&wv, &ov) < 0)
				strv_pushf(&f->evidence, _("the copy that wins, %s, is "
				    "older than the framework's %s"),
				    path_basename(n->lib->target), path_basename(own->target));
		}
	}
	free(w);
	return differ;
}

static void
rule_shadowed(const struct pr_ctx *c, const struct py_env *e,
    const struct need_refs *refs, const char *dir)
{
	const struct fw_need *n0 = refs->v[0].n;
	struct strbuf names = STRBUF_INIT;
	struct strv drop = STRV_INIT, sonames = STRV_INIT;
	char *fws = fw_list(refs), *envw = pr_env_words(e), *how = winner_words(n0);
	struct finding *f;
	bool differ = false;

	/* Two frameworks of one environment often need the same soname
	 * (spaCy and CuPy, torch and CuPy): it is named once. */
	for (size_t i = 0; i < refs->n; i++) {
		if (strv_contains(&sonames, refs->v[i].n->soname))
			continue;
		if (sonames.n > 0)
			strbuf_puts(&names, ", ");
		strbuf_puts(&names, refs->v[i].n->soname);
		strv_push(&sonames, refs->v[i].n->soname);
	}
	strv_free(&sonames);
	f = finding_add(c->out, FINDING_LIB_SHADOWED,
	    _("In %s, %s comes before the copies bundled with or expected "
	    "by %s, so "
	    "the loader takes %s from %s instead. A framework built against its "
	    "own copies then fails to import with errors such as \"undefined "
	    "symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12\", or "
	    "runs with CUDA libraries of another version."), envw, how, fws,
	    strbuf_str(&names), dir);
	/* TRANSLATORS: a finding's subject: "libnvJitLink.so.12 from
	 * /usr/local/cuda-11.8/lib64" (the directory that shadows it). */
	finding_subject(f, _("%s from %s"), strbuf_str(&names), dir);
	for (size_t i = 0; i < refs->n; i++) {
		bool told = false;

		for (size_t j = 0; j < i && !told; j++)
			told = strcmp(refs->v[j].n->soname, refs->v[i].n->soname) == 0;
		differ = shadow_evidence(f, e, refs->v[i].n, refs->v[i].fw, told) ||
		    differ;
	}
	f->severity = differ ? SEV_ERROR : SEV_WARNING;
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (n0->shadowed_via == STEP_LD_LIBRARY_PATH) {
		strv_push(&drop, dir);
		lr_fix_comment(f, _("drop the directory that shadows them from "
		    "LD_LIBRARY_PATH (here, and where it is set: ~/.bashrc, a module "
		    "file, the job script):"));
		ip_fix_line(f, lr_llp_without(c->facts, &drop, false));
		lr_fix_env_script(f, e->prefix, NULL);
	} else if (n0->shadowed_via == STEP_RPATH && e->kind == PYENV_CONDA) {
		lr_fix_comment(f, _("the interpreter's DT_RPATH (the environment's "
		    "lib/) comes first: find the conda package that put these "
		    "libraries there and remove it, or install the framework from "
		    "conda so both agree:"));
		ip_fix_line(f, pr_conda(e, "list", "cuda|cudnn|cublas|cusparse|nvjitlink",
		    NULL));
	} else if ((n0->shadowed_via == STEP_CACHE ||
	    n0->shadowed_via == STEP_DEFAULT) && n0->expected_dir != NULL) {
		/* A reinstall changes nothing here: the system's copy is
		 * still found first. */
		lr_fix_comment(f, _("the system's copy is found before the "
		    "environment's own; to load the environment's, put its "
		    "directory first for this environment's programs:"));
		ip_fix_line(f, lr_llp_prepend_line(n0->expected_dir));
	} else if (n0->expected_pkg != NULL) {
		lr_fix_comment(f, _("another library loaded these first; reinstall "
		    "the framework's own copy and import the framework before the "
		    "other one:"));
		ip_fix_line(f, pr_pip(e, "install", "--force-reinstall", "--no-deps",
		    n0->expected_pkg, NULL));
	}
	strv_free(&drop);
	strbuf_free(&names);
	free(fws);
	free(envw);
	free(how);
}

/* ---------------------------------------------- FRAMEWORK_CUDA_MISMATCH */

/* A copy of the library whose file says it satisfies want (same major,
 * at least want): what the fix points the search at. */
static const struct lib_copy *
fitting_copy(const struct fw_need *n, const struct version *want)
{
	for (size_t i = 0; i < n->lib->copies.n; i++) {
		const struct lib_copy *cp = &n->lib->copies.v[i];
		struct version v;

		if (cp->loadable && !cp->stub && file_version(n->soname,
		    cp->target != NULL ? cp->target : cp->path, &v) &&
		    v.part[0] == want->part[0] && version_cmp(&v, want) >= 0)
			return cp;
	}
	return NULL;
}

static void
mismatch_fix(const struct pr_ctx *c, struct finding *f, const struct py_env *e,
    const struct framework_fact *fw, const struct fw_need *n, bool dnn,
    const char *want, const struct version *wv)
{
	const struct lib_copy *good = fitting_copy(n, wv);
	char *stem = lr_stem_of(n->soname);

	if (good != NULL) {
		char *gdir = path_dirname(good->path), *wdir = path_dirname(n->lib->resolved);

		strv_pushf(&f->evidence, _("a copy that fits: %s"),
		    good->target != NULL ? good->target : good->path);
		if (n->lib->via == STEP_LD_LIBRARY_PATH &&
		    good->reached_via != STEP_NONE) {
			struct strv drop = STRV_INIT;

			strv_push(&drop, wdir);
			lr_fix_comment(f, _("drop the directory of the old copy from "
			    "LD_LIBRARY_PATH; the search then reaches the one that fits:"));
			ip_fix_line(f, lr_llp_without(c->facts, &drop, false));
			strv_free(&drop);
		} else {
			lr_fix_comment(f, _("put the directory of the copy that fits "
			    "first:"));
			lr_fix_prepend(f, gdir);
		}
		free(gdir);
		free(wdir);
	}
	if (stem != NULL)
		pr_fix_install_lib(c, f, e, n->soname, want, dnn ?
		    version_major_str(fw->cuda) : wv->part[0], n->from == FW_FROM_ANY);
	free(stem);
}

static void
mismatch_need(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw, const struct fw_need *n)
{
	char *stem = lr_stem_of(n->soname), *src = NULL, *fwd, *envw;
	bool dnn = lr_streq(stem, "libcudnn"), rt = lr_streq(stem, "libcudart");
	const char *want = dnn ? fw->cudnn : fw->cuda;
	char have[MATRIX_VERSION_MAX], wrel[MATRIX_VERSION_MAX];
	struct version hv, wv;
	struct finding *f;
	bool major_differs;

	free(stem);
	if ((!dnn && !rt) || want == NULL || !pr_release(want, wrel, sizeof wrel) ||
	    !version_parse(wrel, &wv) ||
	    !pr_loaded_version(c, e, n, have, sizeof have, &src))
		return;
	if (!version_parse(have, &hv)) {
		free(src);
		return;
	}
	major_differs = hv.part[0] != wv.part[0];
	/* The same major, at least the minor it was built with. */
	if (!major_differs && (hv.nparts < 2 || wv.nparts < 2 ||
	    hv.part[1] >= wv.part[1])) {
		free(src);
		return;
	}
	fwd = pr_fw_words(fw);
	envw = pr_env_words(e);
	if (dnn)
		f = finding_add(c->out, FINDING_FRAMEWORK_CUDA_MISMATCH,
		    _("%s in %s was built with cuDNN %s, but the %s it loads is cuDNN "
		    "%s. cuDNN must be the same major and at least the minor the "
		    "framework was built with; TensorFlow stops with \"Loaded "
		    "runtime CuDNN library: %s but source was compiled with: %s\", "
		    "others fail on the first convolution."), fwd, envw, want,
		    n->soname, have, have, want);
	else
		f = finding_add(c->out, FINDING_FRAMEWORK_CUDA_MISMATCH,
		    _("%s in %s was built with CUDA %s, but the %s it loads is CUDA "
		    "%s: code built for the newer runtime can fail with \"undefined "
		    "symbol\" errors or refuse to start."), fwd, envw, want,
		    n->soname, have);
	subj_fw(f, e, fw);
	/* An older minor of the runtime may still work; cuDNN's check is
	 * strict. */
	f->severity = dnn || major_differs ? SEV_ERROR : SEV_WARNING;
	strv_pushf(&f->evidence, dnn ? _("%s was built with cuDNN %s (%s)") :
	    _("%s was built with CUDA %s (%s)"), fwd, want, dnn ?
	    (fw->cudnn_source != NULL ? fw->cudnn_source : "?") :
	    (fw->cuda_source != NULL ? fw->cuda_source : "?"));
	lr_winner_evidence(f, n->lib);
	strv_pushf(&f->evidence, _("that file is version %s (%s)"), have, src);
	mismatch_fix(c, f, e, fw, n, dnn, want, &wv);
	finding_evidence_cap(f, EVIDENCE_MAX);
	free(src);
	free(fwd);
	free(envw);
}

static void
rule_mismatch(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw)
{
	struct strv seen = STRV_INIT;

	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct fw_need *n = &fw->needs.v[i];

		if (n->soname == NULL || !resolved(n) || n->shadowed_via != STEP_NONE ||
		    strv_contains(&seen, n->soname) ||
		    pr_pin_broken(e, fw, n->expected_pkg))
			continue;
		strv_push(&seen, n->soname);
		mismatch_need(c, e, fw, n);
	}
	strv_free(&seen);
}

/* ----------------------------------------------------------- the needs */

/* Every need of e like (fw, n): unresolved with the same soname, or
 * shadowed from the same directory. */
static void
gather(const struct py_env *e, const struct fw_need *like, const char *dir,
    struct need_refs *refs)
{
	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *fw = &e->frameworks.v[i];

		for (size_t j = 0; j < fw->needs.n && !rides_on_other(e, fw); j++) {
			const struct fw_need *n = &fw->needs.v[j];
			struct need_ref *r;
			char *d;
			bool same;

			if (dir == NULL) {
				if (resolved(n) || !lr_streq(n->soname, like->soname) ||
				    n->optional != like->optional ||
				    pr_pin_broken(e, fw, n->expected_pkg))
					continue;
			} else {
				if (!resolved(n) || n->shadowed_via == STEP_NONE)
					continue;
				d = path_dirname(n->lib->resolved);
				same = path_same(d, dir);
				free(d);
				if (!same)
					continue;
			}
			r = VEC_PUSH(refs);
			r->fw = fw;
			r->n = n;
		}
	}
}

static void
needs_rules(const struct pr_ctx *c, const struct py_env *e)
{
	struct strv done = STRV_INIT;

	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *fw = &e->frameworks.v[i];

		for (size_t j = 0; j < fw->needs.n && !rides_on_other(e, fw); j++) {
			const struct fw_need *n = &fw->needs.v[j];
			struct need_refs refs = { NULL, 0, 0 };
			char *key, *dir = NULL;

			if (n->soname == NULL || (resolved(n) && n->shadowed_via == STEP_NONE))
				continue;
			if (!resolved(n) && pr_pin_broken(e, fw, n->expected_pkg))
				continue;	/* the pin's finding says it */
			if (resolved(n)) {
				dir = path_dirname(n->lib->resolved);
				key = xasprintf("shadow:%s", dir);
			} else {
				key = xasprintf("%s:%s", n->optional ? "opt" : "need",
				    n->soname);
			}
			if (!strv_contains(&done, key)) {
				strv_push(&done, key);
				gather(e, n, dir, &refs);
				if (dir != NULL)
					rule_shadowed(c, e, &refs, dir);
				else if (n->optional)
					rule_optional(c, e, &refs);
				else
					rule_not_found(c, e, &refs);
				free(refs.v);
			}
			free(key);
			free(dir);
		}
	}
	strv_free(&done);
}

void
pr_ctx_init(struct pr_ctx *cp, const struct diagnose_input *in,
    struct findings *out)
{
	struct pr_ctx c;

	memset(&c, 0, sizeof c);
	c.ip.facts = in->facts;
	c.ip.m = in->matrix;
	c.facts = in->facts;
	c.m = in->matrix;
	c.out = out;
	/* In WSL the driver is Windows': its version is not in a file here. */
	/* A forward-compatibility libcuda that works here is the driver a
	 * framework's runtime meets, not the kernel module. */
	if (!in->facts->driver.is_wsl)
		c.drv = fc_driver_version(in->facts, c.m, &c.drv_src);
	if (c.drv != NULL && c.m != NULL)
		c.have_reach = matrix_driver_reach(c.m, c.drv, MATRIX_LINUX, &c.reach) &&
		    c.reach.highest[0] != '\0';
	for (size_t i = 0; i < in->facts->gpus.n && c.gpu == NULL; i++)
		if (fact_known(&in->facts->gpus.v[i].cc))
			c.gpu = &in->facts->gpus.v[i];
	*cp = c;
}

void
rules_python(const struct diagnose_input *in, struct findings *out)
{
	struct pr_ctx c;

	pr_ctx_init(&c, in, out);
	for (size_t i = 0; i < in->facts->python_envs.n; i++) {
		const struct py_env *e = &in->facts->python_envs.v[i];

		pr_rules_env(&c, e);
		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];

			rule_cpu_only(&c, e, fw);
			if (rides_on_other(e, fw))
				continue;
			pr_rule_arch(&c, e, fw);
			pr_rule_driver(&c, e, fw);
			pr_rule_startup(&c, e, fw);
			rule_mismatch(&c, e, fw);
		}
		needs_rules(&c, e);
	}
}
