/* The rules of `cudawiz explain`: from the messages a user pasted, what
 * this machine says about them, and the matrix, to findings with fixes.
 *
 * Pure: the matches, the resolved libraries, the facts and the matrix come
 * in; findings go out. Where another rule family already knows the answer
 * it is asked, not re-derived: rules_library() for a soname's resolution,
 * rules_gpu() and rules_matrix() for the driver and the GPU. Their
 * findings are taken over with the message as the first evidence line; a
 * message that no fact here explains gets its own finding, built from the
 * message and the matrix. Every fix names what to run: the directory that
 * already has the library, or what to install for this machine's driver,
 * chosen through the matrix (the wheel, the conda package, the toolkit
 * package), never a guess the matrix does not back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------- helpers */

bool
rx_streq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}





/* What cmd_explain.c found about where m happened; NULL when nothing. */
const struct explain_where *
rx_where(const struct ctx *c, const struct explain_match *m)
{
	size_t i = (size_t)(m - c->ex->matches.v);

	if (c->xf == NULL || c->xf->where == NULL || i >= c->ex->matches.n)
		return NULL;
	return &c->xf->where[i];
}

/* The first file here that defines what m misses; NULL when none. */
const char *
rx_defining(const struct ctx *c, const struct explain_match *m)
{
	size_t i = (size_t)(m - c->ex->matches.v);
	const struct strv *d;

	if (c->xf == NULL || c->xf->defining == NULL || i >= c->ex->matches.n)
		return NULL;
	d = &c->xf->defining[i];
	return d->n > 0 ? d->v[0] : NULL;
}

const struct lib_fact *
rx_lib_named(const struct ctx *c, const char *soname)
{
	for (size_t i = 0; c->xf != NULL && i < c->xf->nlibs; i++)
		if (rx_streq(c->xf->libs[i].soname, soname))
			return &c->xf->libs[i];
	return NULL;
}

/* The message as the first evidence line: what the finding answers. */
void
rx_message_evidence(struct finding *f, const struct explain_match *m)
{
	char *line = xasprintf(_("the message (line %zu): %s"), m->line,
	    m->excerpt != NULL ? m->excerpt : "");

	if (strv_contains(&f->evidence, line)) {
		free(line);
		return;
	}
	strv_push_owned(&f->evidence, line);
	memmove(f->evidence.v + 1, f->evidence.v,
	    (f->evidence.n - 1) * sizeof *f->evidence.v);
	f->evidence.v[0] = line;
}

static void
messages_evidence(struct ctx *c, size_t from, const struct explain_match *m)
{
	for (size_t i = from; i < c->out->n; i++)
		rx_message_evidence(&c->out->v[i], m);
}

/* Moves the machine's finding of code (from rules_gpu or rules_matrix)
 * into the output, once; returns it, or NULL when there is none. */
struct finding *
rx_adopt(struct ctx *c, enum finding_code code, const struct explain_match *m)
{
	struct finding *f;

	if (c->adopted[code]) {
		for (size_t i = 0; i < c->out->n; i++)
			if (c->out->v[i].code == code) {
				rx_message_evidence(&c->out->v[i], m);
				return &c->out->v[i];
			}
		return NULL;
	}
	for (size_t i = 0; i < c->machine.n; i++) {
		if (c->machine.v[i].code != code)
			continue;
		f = VEC_PUSH(c->out);
		*f = c->machine.v[i];
		/* The machine's copy now belongs to out. */
		memmove(c->machine.v + i, c->machine.v + i + 1,
		    (c->machine.n - i - 1) * sizeof *c->machine.v);
		c->machine.n--;
		c->adopted[code] = true;
		rx_message_evidence(f, m);
		return f;
	}
	return NULL;
}

/* A finding of code already in the output (taken over or made here). */
struct finding *
rx_have(const struct ctx *c, enum finding_code code)
{
	for (size_t i = 0; i < c->out->n; i++)
		if (c->out->v[i].code == code)
			return &c->out->v[i];
	return NULL;
}

/* rules_library() for a soname, once per run; returns how many findings
 * it added. */
size_t
rx_library_rules(struct ctx *c, const char *soname, const struct explain_match *m)
{
	const struct lib_fact *lib = rx_lib_named(c, soname);
	size_t from = c->out->n;

	if (lib == NULL || strv_contains(&c->libs_done, soname))
		return 0;
	strv_push(&c->libs_done, soname);
	rules_library(c->in, lib, c->out);
	messages_evidence(c, from, m);
	return c->out->n - from;
}

/* "libcudart.so.12 resolves to X (ld_library_path)" or "… is not found". */
void
rx_resolution_evidence(struct finding *f, const struct lib_fact *lib)
{
	if (lib == NULL)
		return;
	if (lib->resolved != NULL)
		strv_pushf(&f->evidence, _("here %s resolves to %s (%s)"),
		    lib->soname, lib->resolved, lib->via != STEP_NONE ?
		    step_words(lib->via, STEPW_FACT) : "?");
	else
		strv_pushf(&f->evidence, _("here the dynamic loader does not find %s"),
		    lib->soname);
}

const char *
rx_driver_version(const struct ctx *c, const char **src)
{
	return diagnose_driver_version(c->facts, src);
}

void
rx_driver_evidence(const struct ctx *c, struct finding *f)
{
	const char *src, *drv = rx_driver_version(c, &src);

	if (drv == NULL) {
		strv_push(&f->evidence, _("the driver version here is not known "
		    "(no loaded nvidia module, no versioned libcuda)"));
		return;
	}
	strv_pushf(&f->evidence, _("driver in use: %s (%s)"), drv, src);
	diagnose_reach_evidence(c->facts, drv, &f->evidence);
}

/* ------------------------------------------------------ LD_LIBRARY_PATH */





/* The fix line that takes the directory of path out of LD_LIBRARY_PATH,
 * after comment; nothing when it is not there. */
void
rx_fix_drop_dir_of(const struct ctx *c, struct finding *f, const char *path,
    const char *comment)
{
	char *dir = path_dirname(path);
	char *line = lr_llp_filter(c->facts, rx_drop_dir, dir);

	if (line != NULL) {
		lr_fix_comment(f, comment);
		ip_fix_line(f, line);
	}
	free(dir);
}

bool
rx_drop_stubs(const char *dir, const void *arg)
{
	(void)arg;
	return lr_is_stubs_dir(dir);
}

bool
rx_drop_dir(const char *dir, const void *arg)
{
	return path_same(dir, arg);
}

bool
rx_drop_compat(const char *dir, const void *arg)
{
	char *n = path_normalise(dir);
	size_t l = strlen(n);
	bool compat = (l >= 7 && strcmp(n + l - 7, "/compat") == 0) ||
	    strstr(n, "/compat/") != NULL;

	(void)arg;
	free(n);
	return compat;
}



/* Adds the install plan to the not-found findings rules_library made
 * for soname in [from, out->n). */
void
rx_plan_for_not_found(struct ctx *c, size_t from, const char *soname)
{
	for (size_t i = from; i < c->out->n; i++) {
		struct finding *f = &c->out->v[i];
		size_t before = f->fix.n;
		struct strv saved = STRV_INIT;

		if (f->code != FINDING_SONAME_NOT_FOUND || c->m == NULL)
			continue;
		/* Keep the old hint when the matrix has no plan to offer. */
		for (size_t k = 0; k < f->fix.n; k++)
			strv_push(&saved, f->fix.v[k]);
		ip_drop_wheel_hints(f);
		before = f->fix.n;
		ip_install_soname(&c->ip, f, soname);
		if (f->fix.n == before) {
			strv_free(&f->fix);
			f->fix = saved;
		} else {
			strv_free(&saved);
		}
	}
}

/* ------------------------------------------------------------- driver */

/* The rules for one message by its kind. */
void
rx_explain_kind(struct ctx *c, const struct explain_match *m)
{
	switch (m->kind) {
	case EXPLAIN_DLOPEN_FAILED:
	case EXPLAIN_CANNOT_OPEN:
		rx_explain_soname(c, m);
		break;
	case EXPLAIN_UNDEFINED_SYMBOL:
	case EXPLAIN_VERSION_NOT_FOUND:
		rx_explain_version(c, m);
		break;
	case EXPLAIN_WRONG_ELF_CLASS:
		rx_explain_wrong_class(c, m);
		break;
	case EXPLAIN_DLL_NOT_FOUND:
		rx_explain_dll(c, m);
		break;
	case EXPLAIN_DRIVER_TOO_OLD:
		rx_explain_driver_old(c, m);
		break;
	case EXPLAIN_DRIVER_MISMATCH:
		rx_explain_mismatch(c, m);
		break;
	case EXPLAIN_NO_DRIVER:
	case EXPLAIN_NO_DEVICE:
		rx_explain_no_gpu(c, m);
		break;
	case EXPLAIN_STUB_LIBRARY:
		rx_explain_stub(c, m);
		break;
	case EXPLAIN_NO_KERNEL_IMAGE:
	case EXPLAIN_ARCH_UNSUPPORTED:
		rx_explain_arch(c, m);
		break;
	case EXPLAIN_PTX_TOOLCHAIN:
		rx_explain_ptx(c, m);
		break;
	case EXPLAIN_FORWARD_COMPAT:
		rx_explain_forward_compat(c, m);
		break;
	case EXPLAIN_CUDNN_VERSION:
		rx_explain_cudnn_version(c, m);
		break;
	case EXPLAIN_CUDNN_STATUS:
		rx_explain_cudnn_status(c, m);
		break;
	case EXPLAIN_CUDA_ERROR:
		rx_explain_cuda_error(c, m);
		break;
	case EXPLAIN_BUILD_CUDA_MISMATCH:
		rx_explain_build_cuda(c, m);
		break;
	case EXPLAIN_TOOLKIT_ARCH:
		rx_explain_toolkit_arch(c, m);
		break;
	case EXPLAIN_PTXAS_VERSION:
		rx_explain_ptxas(c, m);
		break;
	case EXPLAIN_CAUSE_ELSEWHERE:
		rx_explain_incomplete(c, m);
		break;
	case EXPLAIN_OUT_OF_MEMORY:
		rx_explain_oom(c, m);
		break;
	case EXPLAIN_CPU_ONLY_BUILD:
		rx_explain_cpu_only(c, m);
		break;
	case EXPLAIN_DLSYM_MISSING:
		rx_explain_dlsym(c, m);
		break;
	case EXPLAIN_KIND_COUNT:
		break;
	}
}

/* What the message names, for a finding made from it whose rule did
 * not say (the loader's and the machine's rules do): the library and
 * who needs it, the symbol, the error code, the compute capability. */
static void
match_subject(struct finding *f, const struct explain_match *m)
{
	const char *lib = m->soname != NULL ? m->soname : m->file;

	if (m->symbol != NULL && lib != NULL)
		/* TRANSLATORS: a finding's subject: "cublasLtCreate in
		 * libcublasLt.so.12" (a symbol in a library). */
		finding_subject(f, _("%s in %s"), m->symbol, lib);
	else if (m->symbol != NULL && m->required_by != NULL)
		finding_subject(f, _("%s needs %s"), m->required_by, m->symbol);
	else if (m->symbol != NULL)
		finding_subject(f, "%s", m->symbol);
	/* "version `libcudart.so.12' not found": the version is what the
	 * program asks for, the library what lacks it. */
	else if (m->version != NULL && m->required_by != NULL)
		finding_subject(f, _("%s needs %s"), m->required_by, m->version);
	else if (m->version != NULL && lib != NULL)
		finding_subject(f, _("%s in %s"), m->version, lib);
	else if (lib != NULL && m->required_by != NULL)
		/* TRANSLATORS: a finding's subject: "libtorch_cuda.so needs
		 * libcudart.so.12". */
		finding_subject(f, _("%s needs %s"), m->required_by, lib);
	else if (lib != NULL)
		finding_subject(f, "%s", lib);
	else if (m->code != NULL && m->number > 0)
		finding_subject(f, "%s (%ld)", m->code, m->number);
	else if (m->code != NULL)
		finding_subject(f, "%s", m->code);
	else if (m->cc != NULL)
		/* TRANSLATORS: a finding's subject: "compute capability 12.0". */
		finding_subject(f, _("compute capability %s"), m->cc);
}

/* A message whose paths are all elsewhere is about another machine. */
static void
explain_match(struct ctx *c, const struct explain_match *m)
{
	const struct explain_where *w = rx_where(c, m);
	size_t from = c->out->n;

	if (w != NULL && w->elsewhere)
		rx_explain_elsewhere(c, m);
	else
		rx_explain_kind(c, m);
	for (size_t i = from; i < c->out->n; i++)
		if (c->out->v[i].subject == NULL)
			match_subject(&c->out->v[i], m);
}

void
rules_explain(const struct diagnose_input *in, const struct explain *ex,
    const struct explain_facts *xf, struct findings *out)
{
	struct ctx c = {
		.in = in, .facts = in->facts, .m = in->matrix, .ex = ex, .xf = xf,
		.ip = { .facts = in->facts, .m = in->matrix }, .out = out,
	};

	rules_gpu(in->facts, &c.machine);
	if (in->matrix != NULL)
		rules_matrix(in, &c.machine);
	for (size_t i = 0; i < ex->matches.n; i++)
		explain_match(&c, &ex->matches.v[i]);
	/* Text no table knows: what the loader says about the libraries it
	 * names is still worth saying. */
	if (ex->matches.n == 0)
		for (size_t i = 0; xf != NULL && i < xf->nlibs; i++) {
			size_t from = out->n;

			if (strv_contains(&c.libs_done, xf->libs[i].soname))
				continue;
			strv_push(&c.libs_done, xf->libs[i].soname);
			rules_library(in, &xf->libs[i], out);
			rx_plan_for_not_found(&c, from, xf->libs[i].soname);
		}
	findings_free(&c.machine);
	strv_free(&c.libs_done);
	findings_sort(out);
}

