/* Rules about which CUDA toolkit is in use: CUDA_HOME_MISMATCH and
 * NVCC_RUNTIME_MISMATCH, for the shell and the loader (rules_toolkit) and
 * for extension builds against a framework (rules_toolkit_builds).
 *
 * Build tools take the toolkit from CUDA_HOME or CUDA_PATH, a shell takes
 * nvcc from PATH, and programs take libcudart from the loader's search.
 * When these name different toolkits, code compiled with one runs against
 * another. Each rule stays silent when a fact it needs is unknown: a
 * guess here would send users to change a working setup. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_python_int.h"
#include "diagnose/subject.h"
#include "facts/pyfacts.h"
#include "i18n.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* The toolkit whose root or one of whose aliases is path, or NULL. Roots
 * are canonical and aliases are the symlinks seen pointing there, so a
 * textual match after normalising is enough. */
static const struct toolkit_fact *
toolkit_named(const struct facts *facts, const char *path)
{
	const struct toolkit_fact *hit = NULL;
	char *want = path_normalise(path);

	for (size_t i = 0; i < facts->toolkits.n && hit == NULL; i++) {
		const struct toolkit_fact *t = &facts->toolkits.v[i];
		char *n = path_normalise(t->root);

		if (strcmp(n, want) == 0)
			hit = t;
		free(n);
		for (size_t j = 0; j < t->aliases.n && hit == NULL; j++) {
			n = path_normalise(t->aliases.v[j]);
			if (strcmp(n, want) == 0)
				hit = t;
			free(n);
		}
	}
	free(want);
	return hit;
}

/* The toolkit whose nvcc is the first on PATH, or NULL. */
static const struct toolkit_fact *
path_toolkit(const struct facts *facts)
{
	for (size_t i = 0; i < facts->toolkits.n; i++)
		if (strv_contains(&facts->toolkits.v[i].found_via, "PATH"))
			return &facts->toolkits.v[i];
	return NULL;
}

/* "12.4 (/usr/local/cuda-12.4)" or just the root when the version is not
 * known. */
static char *
toolkit_words(const struct toolkit_fact *t)
{
	/* The release, as the toolkits section names it (13.0, not its
	 * cudart's 13.0.96). */
	if (t->release != NULL)
		return xasprintf(_("CUDA %s at %s"), t->release, t->root);
	if (fact_known(&t->version))
		return xasprintf(_("CUDA %s at %s"), t->version.value, t->root);
	return xasprintf(_("the toolkit at %s (version unknown)"), t->root);
}

/* The CUDA major of a toolkit, or -1 when its version is not known. */
static long
toolkit_major(const struct toolkit_fact *t)
{
	struct version v;

	if (!fact_known(&t->version) || !version_parse(t->version.value, &v))
		return -1;
	return (long)v.part[0];
}

/* ------------------------------------------------------- CUDA_HOME_MISMATCH */

struct home_var {
	const struct env_var		*var;
	const struct toolkit_fact	*tk;	/* NULL: names no toolkit */
};

static void
assign_fix(struct finding *f, const char *name, const struct toolkit_fact *t)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_printf(&sb, "export %s=", name);
	shquote(&sb, t->root);
	strv_push_owned(&f->fix, strbuf_take(&sb));
}

static void
cuda_home_mismatch(const struct facts *facts, struct findings *out)
{
	const struct toolkit_fact *nvcc_tk = path_toolkit(facts), *want;
	struct home_var hv[2];
	struct strv why = STRV_INIT;
	size_t nv = 0;
	bool no_root = false;
	struct finding *f;
	char *words;

	for (size_t i = 0; i < 2; i++) {
		const struct env_var *v = &facts->env.var[i == 0 ?
		    ENV_CUDA_HOME : ENV_CUDA_PATH];

		/* A missing directory is ENV_PATH_MISSING's to report; one
		 * that could not be checked is not reported at all. */
		if (!v->set || v->exists != 1)
			continue;
		hv[nv].var = v;
		hv[nv].tk = toolkit_named(facts, v->value);
		nv++;
	}
	if (nv == 0)
		return;
	for (size_t i = 0; i < nv; i++) {
		no_root = no_root || hv[i].tk == NULL;
		if (hv[i].tk == NULL)
			strv_pushf(&why, _("%s=%s is not the root of any CUDA toolkit found"),
			    hv[i].var->name, hv[i].var->value);
		else if (nvcc_tk != NULL && hv[i].tk != nvcc_tk)
			strv_pushf(&why, _("%s=%s is another toolkit than the nvcc on PATH"),
			    hv[i].var->name, hv[i].var->value);
	}
	if (nv == 2 && hv[0].tk != NULL && hv[1].tk != NULL &&
	    hv[0].tk != hv[1].tk)
		strv_pushf(&why, _("%s and %s name different toolkits"),
		    hv[0].var->name, hv[1].var->name);
	if (why.n == 0)
		return;

	f = finding_add(out, FINDING_CUDA_HOME_MISMATCH, "%s%s%s",
	    _("Build tools (CMake, PyTorch and TensorFlow extensions, conda "
	    "recipes) take the toolkit from CUDA_HOME or CUDA_PATH, while the "
	    "shell runs the nvcc first on PATH. Here they disagree, so code can "
	    "be compiled with one CUDA and linked or run against another."),
	    no_root ? " " : "", no_root ? _("A variable that names no toolkit "
	    "root (its bin/ or lib64/, or an unrelated directory) makes build "
	    "tools fail to find nvcc and the headers, or fall back to another "
	    "toolkit.") : "");
	if (nv == 2)
		finding_subject(f, "%s=%s, %s=%s", hv[0].var->name,
		    hv[0].var->value, hv[1].var->name, hv[1].var->value);
	else
		finding_subject(f, "%s=%s", hv[0].var->name, hv[0].var->value);
	for (size_t i = 0; i < why.n; i++)
		strv_push(&f->evidence, why.v[i]);
	strv_free(&why);
	for (size_t i = 0; i < nv; i++) {
		if (hv[i].tk == NULL)
			continue;
		words = toolkit_words(hv[i].tk);
		strv_pushf(&f->evidence, _("%s=%s is %s"), hv[i].var->name,
		    hv[i].var->value, words);
		free(words);
	}
	if (nvcc_tk != NULL) {
		words = toolkit_words(nvcc_tk);
		strv_pushf(&f->evidence, _("nvcc on PATH: %s, from %s"),
		    nvcc_tk->nvcc != NULL ? nvcc_tk->nvcc : _("(path unknown)"),
		    words);
		free(words);
	}

	/* Point every variable at the toolkit whose nvcc the shell runs; with
	 * no nvcc on PATH, at the one CUDA_HOME (or else CUDA_PATH) names, or
	 * at the only toolkit there is. Anything else would be a guess. */
	want = nvcc_tk;
	for (size_t i = 0; i < nv && want == NULL; i++)
		want = hv[i].tk;
	if (want == NULL && facts->toolkits.n == 1)
		want = &facts->toolkits.v[0];
	for (size_t i = 0; i < nv; i++) {
		if (want == NULL)
			strv_pushf(&f->fix, "unset %s", hv[i].var->name);
		else if (hv[i].tk != want)
			assign_fix(f, hv[i].var->name, want);
	}
	if (want != NULL)
		lr_fix_env_script(f, NULL, want->root);
}

/* ---------------------------------------------------- NVCC_RUNTIME_MISMATCH */

/* The major a runtime soname carries: libcudart.so.12 gives 12,
 * libcudart.so.11.0 gives 11; -1 when it carries none. */
static long
soname_major(const char *soname)
{
	static const char stem[] = "libcudart.so.";
	struct version v;

	if (strncmp(soname, stem, sizeof stem - 1) != 0 ||
	    !version_parse(soname + sizeof stem - 1, &v))
		return -1;
	return (long)v.part[0];
}

/* The toolkit whose tree holds path (canonical), or NULL. */
static const struct toolkit_fact *
toolkit_holding(const struct facts *facts, const char *path)
{
	for (size_t i = 0; i < facts->toolkits.n; i++) {
		const char *root = facts->toolkits.v[i].root;
		size_t rl = strlen(root);

		if (rl > 1 && strncmp(path, root, rl) == 0 && path[rl] == '/')
			return &facts->toolkits.v[i];
	}
	return NULL;
}

static int
via_rank(enum step_source via)
{
	if (via == STEP_NONE)
		return 3;
	if (via == STEP_LD_LIBRARY_PATH)
		return 0;
	if (via == STEP_CACHE)
		return 1;
	return 2;
}

struct runtime {
	const struct lib_fact		*lib;
	const struct toolkit_fact	*tk;	/* NULL: outside every toolkit */
	long				 major;
};

/* The toolkit of the major wanted that has the given part: nvcc for the
 * PATH fix, a libcudart directory for the LD_LIBRARY_PATH one. */
static const struct toolkit_fact *
toolkit_of_major(const struct facts *facts, long major, bool need_nvcc)
{
	for (size_t i = 0; i < facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &facts->toolkits.v[i];

		if (toolkit_major(t) != major)
			continue;
		if (need_nvcc ? t->nvcc != NULL : t->cudart.n > 0)
			return t;
	}
	return NULL;
}

static void
prepend_fix(struct finding *f, const char *var, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_printf(&sb, "export %s=", var);
	shquote(&sb, dir);
	strbuf_printf(&sb, "\"${%s:+:$%s}\"", var, var);
	strv_push_owned(&f->fix, strbuf_take(&sb));
}

static void
nvcc_runtime_mismatch(const struct facts *facts, struct findings *out)
{
	const struct toolkit_fact *nvcc_tk = path_toolkit(facts), *t;
	struct runtime rt[8];
	size_t nrt = 0;
	int best = 3;
	long nvcc_major;
	struct finding *f;
	char *words;

	if (nvcc_tk == NULL || (nvcc_major = toolkit_major(nvcc_tk)) < 0)
		return;
	/* The runtimes the loader would load, keeping only those found at
	 * the earliest kind of search step: what LD_LIBRARY_PATH finds is
	 * what the user chose, and beats the system's copy. */
	for (size_t i = 0; i < facts->libraries.n; i++) {
		const struct lib_fact *l = &facts->libraries.v[i];
		int rank = via_rank(l->via);

		if (l->resolved == NULL || soname_major(l->soname) < 0)
			continue;
		if (rank < best) {
			best = rank;
			nrt = 0;
		}
		if (rank > best || nrt == sizeof rt / sizeof rt[0])
			continue;
		rt[nrt].lib = l;
		rt[nrt].tk = toolkit_holding(facts, l->target != NULL ?
		    l->target : l->resolved);
		rt[nrt].major = rt[nrt].tk != NULL && toolkit_major(rt[nrt].tk) >= 0 ?
		    toolkit_major(rt[nrt].tk) : soname_major(l->soname);
		nrt++;
	}
	if (nrt == 0)
		return;
	for (size_t i = 0; i < nrt; i++)
		if (rt[i].major == nvcc_major)
			return;

	words = toolkit_words(nvcc_tk);
	f = finding_add(out, FINDING_NVCC_RUNTIME_MISMATCH,
	    _("The nvcc on PATH is %s, but the CUDA runtime the loader finds, "
	    "%s, is CUDA %ld. Code compiled with this nvcc needs a CUDA %ld "
	    "runtime, while frameworks and programs load the CUDA %ld one."),
	    words, rt[0].lib->resolved, rt[0].major, nvcc_major, rt[0].major);
	if (nvcc_tk->nvcc != NULL)
		finding_subject(f, "%s", nvcc_tk->nvcc);
	else
		subj_toolkit(f, nvcc_tk);
	strv_pushf(&f->evidence, _("nvcc on PATH: %s, from %s"),
	    nvcc_tk->nvcc != NULL ? nvcc_tk->nvcc : _("(path unknown)"), words);
	free(words);
	for (size_t i = 0; i < nrt; i++) {
		const struct lib_fact *l = rt[i].lib;

		if (rt[i].tk != NULL) {
			words = toolkit_words(rt[i].tk);
			strv_pushf(&f->evidence, _("%s resolves to %s (via %s), from %s"),
			    l->soname, l->resolved, step_words(l->via, STEPW_FACT), words);
			free(words);
		} else {
			strv_pushf(&f->evidence, _("%s resolves to %s (via %s): CUDA %ld"),
			    l->soname, l->resolved, step_words(l->via, STEPW_FACT),
			    rt[i].major);
		}
	}

	/* Either move nvcc to the runtime's version or the runtime to
	 * nvcc's: which one is right depends on what the user builds. */
	t = rt[0].tk != NULL && rt[0].tk->nvcc != NULL ? rt[0].tk :
	    toolkit_of_major(facts, rt[0].major, true);
	/* The two fixes are alternatives: pasting both would swap the
	 * mismatch round, so each is introduced by a comment line. */
	if (t != NULL) {
		char *bin = xasprintf("%s/bin", t->root);

		strv_pushf(&f->fix, "# %s",
		    _("either use the nvcc that matches the runtime that loads:"));
		prepend_fix(f, "PATH", bin);
		free(bin);
	}
	if (nvcc_tk->cudart.n > 0) {
		strv_pushf(&f->fix, "# %s", t != NULL ?
		    _("or load the runtime that matches the nvcc on PATH:") :
		    _("load the runtime that matches the nvcc on PATH:"));
		prepend_fix(f, "LD_LIBRARY_PATH", nvcc_tk->cudart.v[0].dir);
	}
}

void
rules_toolkit(const struct facts *facts, struct findings *out)
{
	cuda_home_mismatch(facts, out);
	nvcc_runtime_mismatch(facts, out);
}

/* ------------------------------------------ extension builds (issue 19.2) */

/* The toolkit extension builds compile with, as torch.utils.cpp_extension
 * finds it (flash-attn, xformers, apex, auto-gptq and DeepSpeed all ask
 * it): CUDA_HOME, else CUDA_PATH, else the nvcc on PATH, else
 * /usr/local/cuda. via names which; NULL when the first one set names no
 * toolkit (CUDA_HOME_MISMATCH's to report) or there is none. */
static const struct toolkit_fact *
build_toolkit(const struct facts *facts, const char **via)
{
	static const enum env_var_id vars[] = { ENV_CUDA_HOME, ENV_CUDA_PATH };
	const struct toolkit_fact *t;

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const struct env_var *v = &facts->env.var[vars[i]];

		if (!v->set || v->value == NULL || v->value[0] == '\0')
			continue;
		*via = v->name;
		return v->exists == 1 ? toolkit_named(facts, v->value) : NULL;
	}
	if ((t = path_toolkit(facts)) != NULL) {
		*via = "PATH";
		return t;
	}
	*via = "/usr/local/cuda";
	return toolkit_named(facts, "/usr/local/cuda");
}

/* Whether toolkit version tv builds for a framework built with fw_cuda:
 * torch compares major.minor (its _check_cuda_version raises on another
 * major and warns on another minor), the others only the major (CUDA's
 * minor-version compatibility). *major_differs says which. */
static bool
build_matches(const struct framework_fact *fw, const char *tv,
    const char *fw_cuda, bool *major_differs)
{
	char a[MATRIX_VERSION_MAX], b[MATRIX_VERSION_MAX];

	*major_differs = version_major_str(tv) != version_major_str(fw_cuda);
	if (*major_differs)
		return false;
	if (!lr_streq(fw->name, "pytorch"))
		return true;
	return !pr_major_minor(tv, a, sizeof a) ||
	    !pr_major_minor(fw_cuda, b, sizeof b) || strcmp(a, b) == 0;
}

/* An installed toolkit with nvcc that builds for fw, or NULL. */
static const struct toolkit_fact *
toolkit_for(const struct facts *facts, const struct framework_fact *fw)
{
	for (size_t i = 0; i < facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &facts->toolkits.v[i];
		bool mj;

		if (t->nvcc != NULL && fact_known(&t->version) &&
		    build_matches(fw, t->version.value, fw->cuda, &mj))
			return t;
	}
	return NULL;
}

/* Way (a): a toolkit of the framework's CUDA, and CUDA_HOME at it. */
static void
fix_toolkit_for(const struct pr_ctx *c, struct finding *f,
    const struct py_env *e, const struct framework_fact *fw, const char *mm)
{
	const struct toolkit_fact *t = toolkit_for(c->facts, fw);
	char pkg[MATRIX_VERSION_MAX + 16], pin[MATRIX_VERSION_MAX + 4];
	char *root = NULL, *bin;
	struct fix_want want = { .channel = "apt", .package = pkg };
	unsigned mj = version_major_str(mm);
	bool done = true;

	pr_commentf(f, _("either build with a CUDA %s toolkit, the CUDA %s "
	    "was built with:"), mm, fw->package != NULL ? fw->package : fw->name);
	if (t != NULL) {
		root = xstrdup(t->root);
	} else if (e->kind == PYENV_CONDA) {
		/* conda-forge packs CUDA 12 and later, NVIDIA's channel 11.3
		 * and later; the catalogue says which holds this release. */
		(void)snprintf(pin, sizeof pin, "%s.*", mm);
		want.channel = mj >= 12 ? "conda-forge" : "nvidia";
		want.package = "cuda-toolkit";
		want.pin = pin;
		done = fixcmd_install(c->m, f, e, &want, 1);
		root = xstrdup(e->prefix);
	} else {
		(void)snprintf(pkg, sizeof pkg, "cuda-toolkit-%s", mm);
		for (char *p = pkg; *p != '\0'; p++)
			if (*p == '.')
				*p = '-';
		done = fixcmd_install(c->m, f, e, &want, 1);
		root = xasprintf("/usr/local/cuda-%s", mm);
	}
	if (!done) {
		pr_commentf(f, _("no CUDA %s toolkit package was published for "
		    "this channel: install it from "
		    "https://developer.nvidia.com/cuda-toolkit-archive"), mm);
		free(root);
		return;
	}
	assign_fix(f, "CUDA_HOME", &(struct toolkit_fact){ .root = root });
	bin = xasprintf("%s/bin", root);
	prepend_fix(f, "PATH", bin);
	free(bin);
	free(root);
}

/* Way (b): the framework's build for the toolkit's CUDA, where one was
 * published (the matrix), else the words. */
static void
fix_build_for(const struct pr_ctx *c, struct finding *f,
    const struct py_env *e, const struct framework_fact *fw,
    const char *tv, const char *tk_mm)
{
	const struct matrix_framework *row = pr_fw_row(c, fw);
	struct framework_fact want = { .name = fw->name, .cuda = (char *)tv };
	struct pr_pick p;

	memset(&p, 0, sizeof p);
	/* torch's own minor first; else the newest of the same major, which
	 * torch only warns about (builds are listed oldest first). */
	for (int pass = 0; pass < 2 && p.build == NULL; pass++) {
		if (pass == 1)
			want.name = NULL;
		for (size_t i = 0; row != NULL && i < row->builds.n; i++) {
			const struct matrix_build *b = &row->builds.v[i];
			bool mj;

			if (b->cuda != NULL && (b->variant == NULL ||
			    strcasecmp(b->variant, "cpu") != 0) &&
			    build_matches(&want, b->cuda, tv, &mj) &&
			    version_cmp_str(b->cuda, tv) <= 0 &&
			    !build_matches(fw, b->cuda, fw->cuda, &mj)) {
				p.row = row;
				p.build = b;
			}
		}
	}
	if (p.build == NULL) {
		pr_commentf(f, _("or the build of %s %s for CUDA %s: the "
		    "compatibility data knows of none, so the toolkit (above) is "
		    "the way"), fw->package != NULL ? fw->package : fw->name,
		    fw->version != NULL ? fw->version : "", tk_mm);
		return;
	}
	(void)snprintf(p.package, sizeof p.package, "%s",
	    fw->package != NULL ? fw->package : fw->name);
	pr_commentf(f, _("or change %s to a build for CUDA %s, the "
	    "toolkit extension builds use:"), p.package, tk_mm);
	pr_fix_build(c, f, e, fw, &p);
}

static void
extension_build_one(const struct pr_ctx *c, const struct py_env *e,
    const struct framework_fact *fw, const struct toolkit_fact *tk,
    const char *via)
{
	const char *tv = tk->version.value;
	char tk_mm[MATRIX_VERSION_MAX], fw_mm[MATRIX_VERSION_MAX];
	bool major_differs, by_var = strcmp(via, "CUDA_HOME") == 0 ||
	    strcmp(via, "CUDA_PATH") == 0;
	/* CUDA_HOME_MISMATCH when a variable chose the toolkit: the
	 * variable is what to change. */
	enum finding_code code = by_var ? FINDING_CUDA_HOME_MISMATCH :
	    FINDING_NVCC_RUNTIME_MISMATCH;
	char *envw, *fww, *tkw;
	struct finding *f;

	if (build_matches(fw, tv, fw->cuda, &major_differs) ||
	    !pr_major_minor(tv, tk_mm, sizeof tk_mm) ||
	    !pr_major_minor(fw->cuda, fw_mm, sizeof fw_mm))
		return;
	envw = pr_env_words(e);
	fww = pr_fw_words(fw);
	tkw = toolkit_words(tk);
	if (lr_streq(fw->name, "pytorch"))
		f = finding_add(c->out, code, _("CUDA extensions built in %s "
		    "(pip install flash-attn, xformers, apex, auto-gptq, DeepSpeed "
		    "ops, anything using torch.utils.cpp_extension) compile with "
		    "the nvcc of %s, but %s was built with CUDA %s. %s"), envw,
		    tkw, fww, fw_mm, major_differs ? _("PyTorch refuses to build "
		    "them: \"The detected CUDA version mismatches the version "
		    "that was used to compile PyTorch\".") : _("PyTorch only "
		    "warns about another minor version, but the extension then "
		    "uses another CUDA than torch, and flash-attn and others "
		    "check it themselves."));
	else
		f = finding_add(c->out, code, _("CUDA code built against %s in "
		    "%s (custom ops, extensions built from source) compiles "
		    "with the nvcc of %s, but %s was built with CUDA %s: code "
		    "compiled for another CUDA major does not link or load "
		    "against the framework's runtime."), fww, envw, tkw, fww,
		    fw_mm);
	subj_fw(f, e, fw);
	if (by_var)
		strv_pushf(&f->evidence, _("extension builds use %s=%s: %s "
		    "(CUDA_HOME is looked at first, then CUDA_PATH, the nvcc on "
		    "PATH, /usr/local/cuda)"), via, c->facts->env.var[
		    strcmp(via, "CUDA_HOME") == 0 ? ENV_CUDA_HOME :
		    ENV_CUDA_PATH].value, tkw);
	else
		strv_pushf(&f->evidence, _("extension builds use the nvcc "
		    "found through %s: %s (CUDA_HOME and CUDA_PATH are unset)"),
		    via, tkw);
	strv_pushf(&f->evidence, _("%s in %s was built with CUDA %s (%s)"),
	    fww, envw, fw->cuda, fw->cuda_source != NULL ? fw->cuda_source :
	    _("its metadata"));
	fix_toolkit_for(c, f, e, fw, fw_mm);
	fix_build_for(c, f, e, fw, tv, tk_mm);
	free(tkw);
	free(fww);
	free(envw);
}

void
rules_toolkit_builds(const struct diagnose_input *in, struct findings *out)
{
	const char *via = NULL;
	const struct toolkit_fact *tk = build_toolkit(in->facts, &via);
	struct pr_ctx c;

	/* Nothing to build with, or a toolkit whose version is unknown: a
	 * guess would send users to reinstall a working framework. */
	if (tk == NULL || tk->nvcc == NULL || !fact_known(&tk->version))
		return;
	pr_ctx_init(&c, in, out);
	for (size_t i = 0; i < in->facts->python_envs.n; i++) {
		const struct py_env *e = &in->facts->python_envs.v[i];

		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];

			if (fw->gpu == FW_GPU_YES && fw->cuda != NULL)
				extension_build_one(&c, e, fw, tk, via);
		}
	}
}
