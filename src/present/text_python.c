/* The "Python environments" section of the text doctor report: one line
 * per environment, and under it one per framework with the CUDA it was
 * built for, whether it will load and use the GPU, or the first thing in
 * the way, and the GPU architectures it carries. Readable at 80 columns:
 * a piece that would run past the edge starts a new, indented line.
 * Everything else is in the JSON report. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/style.h"
#include "present/text.h"
#include "present/textline.h"
#include "present/words.h"
#include "util/xalloc.h"

/* Environments shown beyond the active ones and those with frameworks. */
#define PLAIN_LIMIT	16

/* What stands between the framework and the GPU, or that nothing does. */
static void
status_piece(struct tline *l, const struct framework_fact *fw)
{
	if (framework_gpu_ready(fw)) {
		pl_piece(l, _("GPU-ready"));
		return;
	}
	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct fw_need *n = &fw->needs.v[i];

		if (!n->optional && (n->lib == NULL || n->lib->resolved == NULL)) {
			pl_piecef(l, _("%s not found"), n->soname);
			return;
		}
	}
	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct fw_need *n = &fw->needs.v[i];

		if (n->shadowed_via != STEP_NONE) {
			pl_piecef(l, _("%s shadowed via %s"), n->soname,
			    words_via(n->shadowed_via));
			return;
		}
	}
	pl_piece(l, framework_loads(fw) ? _("loads") : _("does not load"));
}

/* "sm_50…sm_90 + compute_90": the range of SASS (the list is sorted)
 * and every PTX. */
static void
archs_line(FILE *fp, const struct fw_archs *a)
{
	struct tline l;
	char buf[256];

	if (a->error != NULL) {
		const char *base = a->source != NULL && strrchr(a->source, '/') != NULL ?
		    strrchr(a->source, '/') + 1 : a->source;
		size_t n = a->source != NULL ? strlen(a->source) : 0;
		char *why;

		pl_start(&l, fp, 8, 10);
		pl_piece(&l, _("GPU code:"));
		/* A reason that starts with the library's path names it as
		 * the line below names a library read: by its file name. */
		if (n > 0 && strncmp(a->error, a->source, n) == 0)
			why = xasprintf(_("not checked (%s%s)"), base, a->error + n);
		else
			why = xasprintf(_("not checked (%s)"), a->error);
		pl_words(&l, why);
		free(why);
		pl_end(&l);
		return;
	}
	if (!a->read)
		return;
	pl_start(&l, fp, 8, 10);
	pl_piece(&l, _("GPU code:"));
	if (a->sass.n == 0 && a->ptx.n == 0) {
		pl_piece(&l, _("none found"));
	} else {
		size_t off = 0;

		buf[0] = '\0';
		if (a->sass.n == 1)
			off = (size_t)snprintf(buf, sizeof buf, "%s",
			    a->sass.v[0]);
		else if (a->sass.n > 1)
			off = (size_t)snprintf(buf, sizeof buf, "%s…%s",
			    a->sass.v[0], a->sass.v[a->sass.n - 1]);
		for (size_t i = 0; i < a->ptx.n && off < sizeof buf; i++)
			off += (size_t)snprintf(buf + off, sizeof buf - off,
			    "%s%s", off == 0 ? "" : i == 0 ? " + " : ", ",
			    a->ptx.v[i]);
		pl_piece(&l, buf);
		if (a->sass.n == 0)
			pl_piece(&l, _("(PTX only: compiled when first run)"));
	}
	/* The library's name says enough; its path is in the JSON. */
	if (a->source != NULL)
		pl_piecef(&l, "(%s)", strrchr(a->source, '/') != NULL ?
		    strrchr(a->source, '/') + 1 : a->source);
	pl_end(&l);
}

static void
framework_line(FILE *fp, const struct framework_fact *fw)
{
	struct tline l;

	pl_start(&l, fp, 6, 8);
	pl_piecef(&l, "%s %s", fw->package != NULL ? fw->package :
	    fw->name != NULL ? fw->name : "?",
	    fw->version != NULL ? fw->version : "?");
	if (fw->cuda != NULL && fw->cudnn != NULL)
		pl_piecef(&l, _("CUDA %s, cuDNN %s"), fw->cuda, fw->cudnn);
	else if (fw->cuda != NULL)
		pl_piecef(&l, _("CUDA %s"), fw->cuda);
	pl_piece(&l, fw->gpu == FW_GPU_YES ? _("GPU build") :
	    fw->gpu == FW_GPU_NO ? _("CPU-only build") :
	    _("GPU support unknown"));
	if (fw->gpu_through != NULL)
		pl_piecef(&l, _("(GPU through %s)"), fw->gpu_through);
	status_piece(&l, fw);
	pl_end(&l);
	archs_line(fp, &fw->archs);
}

static void
env_line(FILE *fp, const struct py_env *e)
{
	struct tline l;

	pl_start(&l, fp, 2, 6);
	if (e->name != NULL)
		pl_piecef(&l, "%s %s", words_env_kind(e->kind), e->name);
	else
		pl_piece(&l, words_env_kind(e->kind));
	pl_piece(&l, e->prefix);
	if (e->active)
		pl_piece(&l, _("active"));
	if (e->python_version != NULL)
		pl_piecef(&l, _("Python %s"), e->python_version);
	pl_piecef(&l, ngettext("%zu package", "%zu packages", e->packages.n),
	    e->packages.n);
	pl_end(&l);
}

/* The CUDA libraries the env provides itself: "cuDNN 8.9.2 (cudnn
 * 8.9.2.26)", each with the conda package that installed it. */
static void
cuda_libs_line(FILE *fp, const struct py_env *e)
{
	struct tline l;

	if (e->cuda_libs.n == 0)
		return;
	pl_start(&l, fp, 6, 8);
	pl_piece(&l, _("CUDA libraries:"));
	for (size_t i = 0; i < e->cuda_libs.n; i++) {
		const struct py_cudalib *c = &e->cuda_libs.v[i];
		const char *n = strncmp(c->name, "lib", 3) == 0 ? c->name + 3 :
		    c->name;

		if (c->package != NULL)
			pl_piecef(&l, "%s %s (%s %s)", n,
			    c->version != NULL ? c->version : "?", c->package,
			    c->package_version != NULL ? c->package_version :
			    "?");
		else
			pl_piecef(&l, _("%s %s (no conda package)"), n,
			    c->version != NULL ? c->version : "?");
	}
	pl_end(&l);
}

void
text_print_python(FILE *fp, const struct facts *f, bool color)
{
	size_t plain = 0, hidden = 0;

	fprintf(fp, "\n%s%s%s\n", style_bold(color), _("Python environments"),
	    style_off(color));
	if (f->python_state.state != FACT_KNOWN) {
		fprintf(fp, "  %s\n", _("not looked for"));
		return;
	}
	if (f->python_envs.n == 0)
		fprintf(fp, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		if (!e->active && e->frameworks.n == 0 &&
		    plain++ >= PLAIN_LIMIT) {
			hidden++;
			continue;
		}
		env_line(fp, e);
		cuda_libs_line(fp, e);
		for (size_t j = 0; j < e->frameworks.n; j++)
			framework_line(fp, &e->frameworks.v[j]);
	}
	if (hidden > 0)
		fprintf(fp, _("  … and %zu more (see --json)\n"), hidden);
}
