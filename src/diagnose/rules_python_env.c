/* Rules about an environment's packages: CONDA_CUDA_CONFLICT (a conda
 * environment whose CUDA packages disagree: cudatoolkit 11 beside
 * cuda-version 12, a framework build string for another CUDA, pip
 * nvidia-*-cu12 wheels in a CUDA 11 environment, two cuDNN installs) and
 * PIP_CUDA_WHEELS_MIXED (nvidia-* wheels of several CUDA majors, or of
 * other versions than a framework's Requires-Dist pins). Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/fixcmd.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_python_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------ Requires-Dist */

struct req {
	char	*name;		/* "nvidia-cudnn-cu12" */
	char	*spec;		/* "==9.1.0.70", ">=8.5,<9"; "" for none */
	bool	 extra;		/* under an `extra == "…"` marker: optional */
};

static bool
ws(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* A marker that names another platform than Linux ("platform_system ==
 * \"Windows\"") keeps the requirement off this machine. */
static bool
marker_elsewhere(const char *marker)
{
	static const char *const others[] = { "windows", "win32", "darwin",
	    "cygwin" };
	char *low = xstrdup(marker);
	bool off = false;

	for (char *p = low; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	if (strstr(low, "linux") == NULL)
		for (size_t i = 0; i < sizeof others / sizeof *others; i++)
			off = off || strstr(low, others[i]) != NULL;
	free(low);
	return off;
}

/* "nvidia-cudnn-cu12 (==9.1.0.70) ; platform_system == \"Linux\"" →
 * name and specifier; false for a line that is not for Linux or has no
 * name. */
static bool
req_parse(const char *line, struct req *r)
{
	const char *p = line, *semi = strchr(line, ';');
	size_t nl, end;
	struct strbuf spec = STRBUF_INIT;

	memset(r, 0, sizeof *r);
	if (semi != NULL && marker_elsewhere(semi + 1))
		return false;
	while (ws(*p))
		p++;
	nl = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._-");
	if (nl == 0)
		return false;
	r->name = xstrndup(p, nl);
	p += nl;
	while (ws(*p))
		p++;
	if (*p == '[')
		p += strcspn(p, "]") + (strchr(p, ']') != NULL ? 1 : 0);
	end = semi != NULL ? (size_t)(semi - p) : strlen(p);
	for (size_t i = 0; i < end && p[i] != '\0'; i++)
		if (!ws(p[i]) && p[i] != '(' && p[i] != ')')
			strbuf_putc(&spec, p[i]);
	r->spec = strbuf_take(&spec);
	r->extra = semi != NULL && strstr(semi, "extra") != NULL;
	return true;
}

static void
req_free(struct req *r)
{
	free(r->name);
	free(r->spec);
}

/* The first n parts of a and b are equal. */
static bool
prefix_eq(const struct version *a, const struct version *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((i < a->nparts ? a->part[i] : 0) != (i < b->nparts ? b->part[i] : 0))
			return false;
	return true;
}

static bool
clause_holds(const char *cl, const struct version *have)
{
	static const char *const ops[] = { "===", "~=", "==", "!=", ">=", "<=",
	    ">", "<" };
	const char *op = NULL;
	char rel[MATRIX_VERSION_MAX];
	struct version want;
	size_t vl;
	bool star;
	int cmp;

	for (size_t i = 0; i < sizeof ops / sizeof *ops && op == NULL; i++)
		if (strncmp(cl, ops[i], strlen(ops[i])) == 0)
			op = ops[i];
	if (op == NULL)
		return true;
	cl += strlen(op);
	vl = strlen(cl);
	star = vl >= 2 && strcmp(cl + vl - 2, ".*") == 0;
	/* What cannot be read cannot be held against the install. */
	if (!pr_release(cl, rel, sizeof rel) || !version_parse(rel, &want))
		return true;
	cmp = version_cmp(have, &want);
	if (strcmp(op, "==") == 0 || strcmp(op, "===") == 0)
		return star ? prefix_eq(have, &want, want.nparts) : cmp == 0;
	if (strcmp(op, "!=") == 0)
		return star ? !prefix_eq(have, &want, want.nparts) : cmp != 0;
	if (strcmp(op, "~=") == 0)
		return cmp >= 0 && prefix_eq(have, &want, want.nparts > 1 ?
		    want.nparts - 1 : 1);
	if (strcmp(op, ">=") == 0)
		return cmp >= 0;
	if (strcmp(op, "<=") == 0)
		return cmp <= 0;
	return strcmp(op, ">") == 0 ? cmp > 0 : cmp < 0;
}

/* Whether version meets every clause of spec (PEP 440, on the release
 * numbers); true for what cannot be read. */
static bool
spec_holds(const char *spec, const char *version)
{
	char rel[MATRIX_VERSION_MAX];
	struct version have;
	struct strv cls = STRV_INIT;
	bool holds = true;

	if (spec == NULL || spec[0] == '\0' ||
	    !pr_release(version, rel, sizeof rel) || !version_parse(rel, &have))
		return true;
	strv_split(&cls, spec, ",");
	for (size_t i = 0; i < cls.n && holds; i++)
		holds = clause_holds(cls.v[i], &have);
	strv_free(&cls);
	return holds;
}

/* Whether owner's requirement r (on the installed inst, which breaks its
 * specifier) is one the environment must meet. A plain requirement is.
 * One under an extra marker holds only if that extra was installed, which
 * pip does not record: the owner's extras often name one package once per
 * CUDA major (cuda-core's `cuda-bindings==12.*; extra == "cu12"` beside
 * `==13.*; extra == "cu13"`), so it is held against the install only when
 * no plain requirement names the package and no extra's specifier for it
 * holds either. Else a healthy CUDA 13 environment would be told to
 * install the CUDA 12 bindings. */
static bool
req_binding(const struct py_package *owner, const struct req *r,
    const struct py_package *inst)
{
	bool binding = true;

	if (!r->extra)
		return true;
	for (size_t i = 0; i < owner->requires.n && binding; i++) {
		struct req o;

		if (!req_parse(owner->requires.v[i], &o))
			continue;
		if (pkg_name_eq(o.name, inst->name) &&
		    (!o.extra || spec_holds(o.spec, inst->version)))
			binding = false;
		req_free(&o);
	}
	return binding;
}

/* The requirement of owner on package that the installed one breaks, or
 * false. r is filled (and must be freed) when true. */
static bool
broken_req(const struct py_package *owner, const struct py_package *inst,
    struct req *r)
{
	for (size_t i = 0; i < owner->requires.n; i++) {
		if (!req_parse(owner->requires.v[i], r))
			continue;
		if (pkg_name_eq(r->name, inst->name) &&
		    !spec_holds(r->spec, inst->version) &&
		    req_binding(owner, r, inst))
			return true;
		req_free(r);
	}
	return false;
}

bool
pr_pin_broken(const struct py_env *e, const struct framework_fact *fw,
    const char *package)
{
	const struct py_package *owner, *inst;
	struct req r;

	if (package == NULL || fw->package == NULL ||
	    (owner = py_env_package(e, fw->package)) == NULL ||
	    (inst = py_env_package(e, package)) == NULL)
		return false;
	if (!broken_req(owner, inst, &r))
		return false;
	req_free(&r);
	return true;
}

/* -------------------------------------------------- pins, per package */

/* The needs the broken pins leave unresolved, for the evidence. */
/* "torch 2.5.1 in /opt/venv": the package whose pins are broken. */
static void
pkg_subject(struct finding *f, const struct py_package *p,
    const struct py_env *e)
{
	char *w = p->version != NULL ? xasprintf("%s %s", p->name, p->version) :
	    xstrdup(p->name);

	subj_in(f, w, e->prefix);
	free(w);
}

static void
pin_needs_evidence(struct finding *f, const struct py_env *e,
    const struct py_package *owner, const char *wheel)
{
	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *fw = &e->frameworks.v[i];

		if (!lr_streq(fw->package, owner->name))
			continue;
		for (size_t j = 0; j < fw->needs.n; j++) {
			const struct fw_need *n = &fw->needs.v[j];
			char *line;

			if (!pkg_name_eq(n->expected_pkg != NULL ? n->expected_pkg : "",
			    wheel) || (n->lib != NULL && n->lib->resolved != NULL))
				continue;
			line = xasprintf(_("so %s is not found (%s needs it)"),
			    n->soname, n->requester != NULL ? n->requester : "?");
			if (!strv_contains(&f->evidence, line))
				strv_push(&f->evidence, line);
			free(line);
		}
	}
}

/* An extra's requirement on a package already in the fix: two extras
 * that both fail name the package twice with specifiers that exclude each
 * other, and one install line cannot hold both. */
static bool
told_extra(const struct strv *specs, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i < specs->n; i++)
		if (strncmp(specs->v[i], name, nl) == 0 &&
		    strchr("=<>!~", specs->v[i][nl]) != NULL)
			return true;
	return false;
}

static void
rule_pins(const struct pr_ctx *c, const struct py_env *e,
    const struct py_package *owner)
{
	static const char *const install[] = { "install", NULL };
	struct strv specs = STRV_INIT;
	struct finding *f = NULL;
	char *envw = NULL;

	/* Each line parsed once, its package looked up: environments hold
	 * hundreds of packages and a framework a dozen pins. */
	for (size_t i = 0; i < owner->requires.n; i++) {
		const struct py_package *inst;
		struct req r;

		if (!req_parse(owner->requires.v[i], &r))
			continue;
		inst = py_env_package(e, r.name);
		if (inst == NULL || inst == owner || inst->source == PYPKG_CONDA ||
		    spec_holds(r.spec, inst->version) ||
		    !req_binding(owner, &r, inst) ||
		    (r.extra && told_extra(&specs, r.name))) {
			req_free(&r);
			continue;
		}
		if (f == NULL) {
			envw = pr_env_words(e);
			f = finding_add(c->out, FINDING_PIP_CUDA_WHEELS_MIXED,
			    _("%s %s in %s pins the NVIDIA libraries it was built "
			    "with, and the environment holds other versions: it "
			    "fails to load (a library it needs is missing) or fails "
			    "at run time with symbol or version errors."),
			    owner->name, owner->version != NULL ? owner->version : "",
			    envw);
			pkg_subject(f, owner, e);
			f->severity = SEV_ERROR;
		}
		strv_pushf(&f->evidence, _("%s requires %s%s (%s)"), owner->name,
		    r.name, r.spec, owner->path != NULL ? owner->path : "?");
		strv_pushf(&f->evidence, _("installed: %s %s (%s)"), inst->name,
		    inst->version != NULL ? inst->version : "?",
		    inst->path != NULL ? inst->path : "?");
		pin_needs_evidence(f, e, owner, inst->name);
		strv_pushf(&specs, "%s%s", r.name, r.spec);
		req_free(&r);
	}
	if (f != NULL) {
		finding_evidence_cap(f, EVIDENCE_MAX);
		pr_commentf(f, _("install the versions %s pins:"), owner->name);
		pr_fix_list(f, PR_PIP, e, install, &specs);
	}
	strv_free(&specs);
	free(envw);
}

/* -------------------------------------------------------- mixed majors */

static const char *const pip_uninstall[] = { "uninstall", "-y", NULL };
static const char *const conda_remove[] = { "remove", NULL };

/* The CUDA major the environment's frameworks ask for: their pins on
 * nvidia-* wheels, else the CUDA they were built with; 0 when they
 * disagree or say nothing. */
static unsigned
frameworks_major(const struct pr_ctx *c, const struct py_env *e)
{
	unsigned major = 0;
	bool split = false;

	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *fw = &e->frameworks.v[i];
		const struct py_package *owner = fw->package != NULL ?
		    py_env_package(e, fw->package) : NULL;
		unsigned mj = 0;

		/* An extra's wheels (torch's "cu12" extra beside its CUDA 13
		 * default) say nothing of this build: the plain requirements
		 * first, an installed extra's only when they name none. */
		for (int pass = 0; pass < 2 && mj == 0; pass++)
			for (size_t k = 0; owner != NULL && k < owner->requires.n &&
			    mj == 0; k++) {
				struct req r;

				if (!req_parse(owner->requires.v[k], &r))
					continue;
				if (r.extra == (pass == 1) &&
				    (!r.extra || py_env_package(e, r.name) != NULL))
					mj = pr_wheel_major(c, r.name);
				req_free(&r);
			}
		if (mj == 0 && fw->gpu != FW_GPU_NO)
			mj = version_major_str(fw->cuda);
		if (mj == 0)
			continue;
		split = split || (major != 0 && mj != major);
		major = mj;
	}
	return split ? 0 : major;
}

static void
rule_mixed(const struct pr_ctx *c, const struct py_env *e)
{
	const struct py_package *w[64];
	unsigned mj[64], keep, high = 0;
	size_t n = 0;
	struct strv majors = STRV_INIT, drop = STRV_INIT, again = STRV_INIT;
	struct finding *f;
	char *envw;

	for (size_t i = 0; i < e->packages.n && n < 64; i++) {
		const struct py_package *p = &e->packages.v[i];
		unsigned m = p->source == PYPKG_CONDA ? 0 : pr_wheel_major(c, p->name);
		char key[16];

		if (m == 0)
			continue;
		w[n] = p;
		mj[n++] = m;
		snprintf(key, sizeof key, "%u", m);
		if (!strv_contains(&majors, key))
			strv_push(&majors, key);
		if (m > high && (!c->have_reach ||
		    m <= version_major_str(c->reach.highest)))
			high = m;
	}
	if (majors.n < 2)
		goto out;
	if ((keep = frameworks_major(c, e)) == 0)
		keep = high != 0 ? high : mj[0];
	envw = pr_env_words(e);
	{
		char *list = NULL;
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < majors.n; i++) {
			if (i > 0)
				strbuf_puts(&sb, ", ");
			strbuf_puts(&sb, majors.v[i]);
		}
		list = strbuf_take(&sb);
		f = finding_add(c->out, FINDING_PIP_CUDA_WHEELS_MIXED,
		    _("%s holds nvidia-* wheels of %zu CUDA majors (%s). A framework "
		    "loads the wheels of the major it was built for; the others are "
		    "dead weight at best, at worst what it finds first, and the "
		    "wheels of one library for two majors share one directory and "
		    "overwrite each other's files."), envw, majors.n, list);
		/* TRANSLATORS: a finding's subject: "nvidia-* wheels of CUDA
		 * 11, 12 in /opt/venv". */
		finding_subject(f, _("nvidia-* wheels of CUDA %s in %s"), list,
		    e->prefix);
		free(list);
	}
	free(envw);
	for (size_t i = 0; i < n; i++) {
		strv_pushf(&f->evidence, _("%s %s: CUDA %u (%s)"), w[i]->name,
		    w[i]->version != NULL ? w[i]->version : "?", mj[i],
		    w[i]->path != NULL ? w[i]->path : "?");
		if (mj[i] != keep)
			strv_push(&drop, w[i]->name);
	}
	/* Two majors' wheels of one library unpack into one directory. */
	for (size_t i = 0; c->m != NULL && i < n; i++) {
		const struct matrix_wheel *a = matrix_wheel(c->m, w[i]->name);

		for (size_t k = i + 1; a != NULL && k < n; k++) {
			const struct matrix_wheel *b = matrix_wheel(c->m, w[k]->name);
			const struct py_package *kept = mj[i] == keep ? w[i] :
			    mj[k] == keep ? w[k] : NULL;

			if (b == NULL || mj[i] == mj[k] || strcmp(a->lib_dir, b->lib_dir) != 0)
				continue;
			f->severity = SEV_ERROR;
			strv_pushf(&f->evidence, _("%s and %s both install into "
			    "site-packages/%s and overwrite each other's files"),
			    w[i]->name, w[k]->name, a->lib_dir);
			if (kept != NULL && kept->version != NULL)
				strv_pushf(&again, "%s==%s", kept->name, kept->version);
		}
	}
	finding_evidence_cap(f, EVIDENCE_MAX);
	pr_commentf(f, _("keep the CUDA %u wheels and remove the others:"), keep);
	pr_fix_list(f, PR_PIP, e, pip_uninstall, &drop);
	if (again.n > 0) {
		static const char *const reinstall[] = { "install",
		    "--force-reinstall", "--no-deps", NULL };

		lr_fix_comment(f, _("then reinstall the kept wheels whose files the "
		    "others overwrote:"));
		pr_fix_list(f, PR_PIP, e, reinstall, &again);
	}
out:
	strv_free(&majors);
	strv_free(&drop);
	strv_free(&again);
}

/* ------------------------------------------------- CONDA_CUDA_CONFLICT */

/* The CUDA a conda build string names: "py3.10_cuda11.8_cudnn8.7.0_0"
 * and conda-forge's "cuda118_py310h…" both say 11.8 (the last digit of a
 * run without a dot is the minor; "cuda12" is a major alone). */
static bool
build_cuda(const char *build, char *buf, size_t n)
{
	const char *p = build;

	while (p != NULL && (p = strstr(p, "cuda")) != NULL) {
		size_t nd, run;

		p += 4;
		nd = strspn(p, "0123456789");
		run = strspn(p, "0123456789.");
		if (nd == 0)
			continue;
		if (run > nd && pr_major_minor(p, buf, n))
			return true;
		if (nd == 3 || (nd == 2 && (p[0] - '0') * 10 + (p[1] - '0') >= 70))
			snprintf(buf, n, "%.*s.%c", (int)nd - 1, p, p[nd - 1]);
		else
			snprintf(buf, n, "%.*s", (int)nd, p);
		return true;
	}
	return false;
}

/* The conda packages that carry the environment's CUDA. */
static const char *const cuda_pkgs[] = {
	"cuda-version", "cuda-cudart", "cuda-runtime", "cuda-libraries",
	"cudatoolkit",
};

struct conda_state {
	const struct py_package	*cuda[sizeof cuda_pkgs / sizeof *cuda_pkgs];
	const struct py_package	*env_pkg;	/* the first of those, in that order */
	unsigned		 env_major;	/* its CUDA major */
};

static bool
is_cuda_pkg(const char *name)
{
	for (size_t i = 0; i < sizeof cuda_pkgs / sizeof *cuda_pkgs; i++)
		if (pkg_name_eq(name, cuda_pkgs[i]))
			return true;
	return false;
}

/* The CUDA major and version the environment's frameworks were built
 * for (their build strings, else what the probe read), to align the rest
 * with; 0 when none says. */
static unsigned
target_major(const struct py_env *e, char *ver, size_t n)
{
	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *fw = &e->frameworks.v[i];
		const struct py_package *p = fw->package != NULL ?
		    py_env_package(e, fw->package) : NULL;

		if (fw->gpu == FW_GPU_NO)
			continue;
		if (p != NULL && p->source == PYPKG_CONDA && p->build != NULL &&
		    build_cuda(p->build, ver, n))
			return version_major_str(ver);
		if (fw->cuda != NULL && pr_major_minor(fw->cuda, ver, n))
			return version_major_str(ver);
	}
	return 0;
}

/* The fix aligns the environment on one CUDA major: the frameworks'.
 * Conda's CUDA packages and pip's nvidia-* wheels of any other major go;
 * conda's CUDA of the kept major is installed only when neither conda
 * nor pip wheels of that major remain, since pip frameworks load their
 * own wheels and a conda install beside them is a second copy. */
static void
conda_fix(const struct pr_ctx *c, struct finding *f, const struct py_env *e,
    const struct conda_state *s)
{
	char ver[MATRIX_VERSION_MAX];
	unsigned keep = target_major(e, ver, sizeof ver);
	struct strv rm = STRV_INIT, wheels_off = STRV_INIT;
	bool kept = false;

	if (keep == 0) {
		keep = s->env_major;
		if (!pr_major_minor(s->env_pkg->version, ver, sizeof ver))
			snprintf(ver, sizeof ver, "%u", keep);
	}
	for (size_t i = 0; i < sizeof cuda_pkgs / sizeof *cuda_pkgs; i++) {
		const struct py_package *p = s->cuda[i];

		/* cuda-version is a pin, not a library: keeping it alone
		 * keeps no CUDA. */
		if (p != NULL && version_major_str(p->version) != keep)
			strv_push(&rm, p->name);
		else if (p != NULL && !pkg_name_eq(p->name, "cuda-version"))
			kept = true;
	}
	for (size_t i = 0; i < e->packages.n; i++) {
		const struct py_package *p = &e->packages.v[i];
		unsigned m = p->source == PYPKG_CONDA ? 0 : pr_wheel_major(c, p->name);

		if (m == keep)
			kept = true;
		else if (m != 0)
			strv_push(&wheels_off, p->name);
	}
	pr_commentf(f, _("keep CUDA %u in this environment (what its frameworks "
	    "were built for):"), keep);
	if (rm.n > 0)
		pr_fix_list(f, PR_CONDA, e, conda_remove, &rm);
	if (wheels_off.n > 0)
		pr_fix_list(f, PR_PIP, e, pip_uninstall, &wheels_off);
	if (!kept) {
		/* cudatoolkit ends at 11.8, cuda-version starts at 12 with the
		 * split packages: the catalogue says which exists. */
		struct fix_want want[2] = {
			{ .channel = "conda-forge", .package = "cuda-runtime" },
			{ .channel = "conda-forge", .package = keep <= 11 ?
			    "cudatoolkit" : "cuda-version", .pin = ver },
		};
		struct matrix *builtin = c->m == NULL ? matrix_embedded() : NULL;
		const struct matrix *cat = c->m != NULL ? c->m : builtin;

		if (!(keep <= 11 ? fixcmd_install(cat, f, e, &want[1], 1) :
		    fixcmd_install(cat, f, e, want, 2)))
			pr_commentf(f, _("conda-forge published no CUDA %s runtime "
			    "that cudawiz knows: take it from NVIDIA's archive "
			    "(https://developer.nvidia.com/cuda-toolkit-archive)"),
			    ver);
		matrix_free(builtin);
	}
	strv_free(&rm);
	strv_free(&wheels_off);
}

static void
rule_conda(const struct pr_ctx *c, const struct py_env *e)
{
	struct conda_state s;
	struct strv ev = STRV_INIT;
	enum severity sev = SEV_INFO;
	bool any = false, majors = false;
	const struct py_package *dnn = py_env_package(e, "cudnn"), *pipdnn = NULL;
	char *envw;
	struct finding *f;

	memset(&s, 0, sizeof s);
	for (size_t i = 0; i < sizeof cuda_pkgs / sizeof *cuda_pkgs; i++) {
		const struct py_package *p = py_env_package(e, cuda_pkgs[i]);

		if (p == NULL || p->source != PYPKG_CONDA ||
		    version_major_str(p->version) == 0)
			continue;
		s.cuda[i] = p;
		if (s.env_pkg == NULL) {
			s.env_pkg = p;
			s.env_major = version_major_str(p->version);
		}
	}
	if (dnn != NULL && dnn->source != PYPKG_CONDA)
		dnn = NULL;
	if (s.env_major == 0 && dnn == NULL)
		return;
	/* The CUDA packages among themselves. */
	for (size_t i = 0; i < sizeof cuda_pkgs / sizeof *cuda_pkgs; i++) {
		const struct py_package *p = s.cuda[i];

		if (p == NULL || version_major_str(p->version) == s.env_major)
			continue;
		any = majors = true;
		sev = SEV_ERROR;
		strv_pushf(&ev, _("conda package %s %s is CUDA %u, while %s %s is "
		    "CUDA %u"), p->name, p->version, version_major_str(p->version),
		    s.env_pkg->name, s.env_pkg->version, s.env_major);
	}
	/* Build strings: a framework (or cuDNN) built for another CUDA. */
	for (size_t i = 0; i < e->packages.n && s.env_major != 0; i++) {
		const struct py_package *p = &e->packages.v[i];
		char cuda[MATRIX_VERSION_MAX];

		if (p->source != PYPKG_CONDA || p->build == NULL || is_cuda_pkg(p->name) ||
		    !build_cuda(p->build, cuda, sizeof cuda) ||
		    version_major_str(cuda) == s.env_major)
			continue;
		any = majors = true;
		sev = SEV_ERROR;
		strv_pushf(&ev, _("%s %s (build %s) is built for CUDA %s, but the "
		    "environment's CUDA packages are CUDA %u"), p->name,
		    p->version != NULL ? p->version : "?", p->build, cuda, s.env_major);
	}
	/* pip wheels of another major beside conda's CUDA. */
	for (size_t i = 0; i < e->packages.n && s.env_major != 0; i++) {
		const struct py_package *p = &e->packages.v[i];
		unsigned m = p->source == PYPKG_CONDA ? 0 : pr_wheel_major(c, p->name);

		if (m == 0 || m == s.env_major)
			continue;
		any = majors = true;
		if (sev < SEV_WARNING)
			sev = SEV_WARNING;
		strv_pushf(&ev, _("pip wheel %s %s is CUDA %u, beside the "
		    "environment's CUDA %u packages"), p->name,
		    p->version != NULL ? p->version : "?", m, s.env_major);
	}
	/* conda's cuDNN and a pip cuDNN wheel: two copies whose sub-libraries
	 * must never mix. */
	for (size_t i = 0; i < e->packages.n && dnn != NULL && pipdnn == NULL; i++) {
		const struct py_package *p = &e->packages.v[i];

		if (p->source != PYPKG_CONDA && strncmp(p->name, "nvidia-cudnn", 12) == 0 &&
		    version_cmp_str(p->version, dnn->version) != 0)
			pipdnn = p;
	}
	if (pipdnn != NULL) {
		any = true;
		if (sev < SEV_WARNING)
			sev = SEV_WARNING;
		strv_pushf(&ev, _("two cuDNN installs: conda's cudnn %s and the pip "
		    "wheel %s %s"), dnn->version, pipdnn->name, pipdnn->version);
	}
	if (!any)
		goto out;
	envw = pr_env_words(e);
	f = finding_add(c->out, FINDING_CONDA_CUDA_CONFLICT,
	    _("%s holds CUDA packages that do not agree. Their libraries lie side "
	    "by side (the environment's lib/ and its site-packages), and which "
	    "one a framework gets depends on the search order: a framework "
	    "built for one CUDA that loads another's libraries fails to load or "
	    "crashes, and cuDNN's parts from two versions refuse to work "
	    "together."), envw);
	finding_subject(f, "%s", e->prefix);
	free(envw);
	f->severity = sev;
	for (size_t i = 0; i < ev.n; i++)
		strv_push(&f->evidence, ev.v[i]);
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (majors)
		conda_fix(c, f, e, &s);
	if (pipdnn != NULL) {
		lr_fix_comment(f, _("keep one cuDNN; frameworks from pip bring the "
		    "wheel, those from conda use conda's:"));
		ip_fix_line(f, pr_pip(e, "uninstall", "-y", pipdnn->name, NULL));
	}
out:
	strv_free(&ev);
}

void
pr_rules_env(const struct pr_ctx *c, const struct py_env *e)
{
	rule_conda(c, e);
	rule_mixed(c, e);
	for (size_t i = 0; i < e->packages.n; i++)
		if (e->packages.v[i].requires.n > 0)
			rule_pins(c, e, &e->packages.v[i]);
}
