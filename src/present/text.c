/* The text doctor report; see text.h.
 *
 * Sections follow the pipeline: GPUs, driver, toolkits, cuDNN, libraries,
 * environment, probe notes, then the findings with evidence and fixes.
 * Long lists are cut with a count of what was left out; the JSON report
 * always has everything. */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "present/style.h"
#include "present/text.h"
#include "present/words.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define WIDTH		78
#define LIST_LIMIT	12

struct out {
	FILE	*fp;
	bool	 color;
};

static void
heading(struct out *o, const char *title)
{
	fprintf(o->fp, "\n%s%s%s\n", style_bold(o->color), title,
	    style_off(o->color));
}

static int
text_width(const char *s)
{
	return utf8_width(s);
}

/* s, then spaces to width columns (printf's %-20s counts bytes, which
 * a translated or wide label outgrows). */
static void
padded(FILE *fp, const char *s, int width)
{
	int w = utf8_width(s);

	fputs(s, fp);
	if (w < width)
		fprintf(fp, "%*s", width - w, "");
}

/* "  LABEL " with the label padded to the value column, then fmt. */
static void labelf(struct out *o, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
labelf(struct out *o, const char *label, const char *fmt, ...)
{
	va_list ap;

	fputs("  ", o->fp);
	padded(o->fp, label, 20);
	fputc(' ', o->fp);
	va_start(ap, fmt);
	vfprintf(o->fp, fmt, ap);
	va_end(ap);
}

/*
 * A report line built from pieces. A piece that would carry the line past
 * WIDTH starts a new line, indented by 6, instead: paths are never broken,
 * so a long one moves below its label rather than running off the edge.
 */
struct line {
	struct out	*o;
	int		 col;
	bool		 bare;		/* only the label is on the line yet */
	bool		 blank;		/* the label is all spaces */
};

static void
line_start(struct line *l, struct out *o, const char *label)
{
	l->o = o;
	fprintf(o->fp, "  %s", label);
	l->col = 2 + text_width(label);
	l->bare = true;
	l->blank = label[strspn(label, " ")] == '\0';
}

static void
piece(struct line *l, const char *text)
{
	int w = text_width(text);

	if (l->bare) {
		/* Values line up in a column after the labels. */
		int at = l->col < 22 ? 23 : l->col + 1;

		if (at + w > WIDTH && l->blank) {
			/* A long value under a blank label: breaking first
			 * would leave a line of spaces alone. */
			if (l->col < 6) {
				fprintf(l->o->fp, "%*s", 6 - l->col, "");
				l->col = 6;
			}
		} else if (at + w > WIDTH) {
			fprintf(l->o->fp, "\n%6s", "");
			l->col = 6;
		} else {
			fprintf(l->o->fp, "%*s", at - l->col, "");
			l->col = at;
		}
		l->bare = false;
	} else if (l->col + 2 + w > WIDTH) {
		fprintf(l->o->fp, "\n%6s", "");
		l->col = 6;
	} else {
		fputs("  ", l->o->fp);
		l->col += 2;
	}
	fputs(text, l->o->fp);
	l->col += w;
}

static void
piecef(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
piecef(struct line *l, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	piece(l, buf);
}

static void
line_end(struct line *l)
{
	fputc('\n', l->o->fp);
}

/* Prints text wrapped at WIDTH from column col, every line after the
 * first indented by indent. */
static void
wrapped(struct out *o, int col, int indent, const char *text)
{
	const char *p = text;
	bool line_start = true;		/* nothing printed on this line yet */

	while (*p != '\0') {
		size_t word = strcspn(p, " \n");

		if (!line_start && col + 1 + utf8_width_n(p, word) > WIDTH) {
			fprintf(o->fp, "\n%*s", indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', o->fp);
			col++;
		}
		fwrite(p, 1, word, o->fp);
		col += utf8_width_n(p, word);
		line_start = false;
		p += word;
		if (*p == '\n') {
			fprintf(o->fp, "\n%*s", indent, "");
			col = indent;
			line_start = true;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', o->fp);
}

static const char *
fact_text(const struct fact_str *f, const char *absent)
{
	if (f->state == FACT_KNOWN)
		return f->value != NULL ? f->value : absent;
	if (f->state == FACT_UNREADABLE)
		return _("unreadable");
	return _("unknown");
}

static void
fact_line(struct out *o, const char *label, const struct fact_str *f,
    const char *absent)
{
	struct line l;

	line_start(&l, o, label);
	piece(&l, fact_text(f, absent));
	if (f->state == FACT_KNOWN && f->value != NULL && f->source != NULL)
		piecef(&l, "(%s)", f->source);
	else if (f->state != FACT_KNOWN && f->why != NULL)
		piecef(&l, "(%s)", f->why);
	line_end(&l);
}

static void
print_gpus(struct out *o, const struct facts *f)
{
	heading(o, _("GPUs"));
	if (f->gpus_state.state != FACT_KNOWN) {
		fact_line(o, _("PCI bus"), &f->gpus_state, "");
		return;
	}
	if (f->gpus.n == 0)
		fprintf(o->fp, "  %s\n", f->driver.is_wsl ?
		    _("none on the PCI bus (normal inside WSL: the GPU is reached through /dev/dxg)") :
		    _("no NVIDIA device on the PCI bus"));
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct gpu_fact *g = &f->gpus.v[i];

		fprintf(o->fp, "  %s  %s [%04x:%04x]  %s %s\n", g->pci_address,
		    fact_text(&g->name, "?"), g->vendor_id, g->device_id,
		    _("driver:"), fact_text(&g->kernel_driver, _("none")));
		if (fact_known(&g->cc) && fact_known(&g->arch))
			fprintf(o->fp, "      %s, %s %s\n", g->arch.value,
			    _("compute capability"), g->cc.value);
		else if (fact_known(&g->cc))
			fprintf(o->fp, "      %s %s\n", _("compute capability"),
			    g->cc.value);
		else
			fprintf(o->fp, "      %s %s\n", _("compute capability"),
			    _("unknown"));
		if (fact_known(&g->legacy_branch))
			fprintf(o->fp, "      %s %s\n",
			    _("last driver branch for it:"),
			    g->legacy_branch.value);
		if (fact_known(&g->uuid))
			fprintf(o->fp, "      %s\n", g->uuid.value);
		if (fact_known(&g->link_width) && fact_known(&g->max_link_width))
			fprintf(o->fp, "      %s x%s %s x%s, %s (%s %s)\n",
			    _("PCIe link"), g->link_width.value, _("of"),
			    g->max_link_width.value,
			    fact_text(&g->link_speed, "?"), _("up to"),
			    fact_text(&g->max_link_speed, "?"));
	}
	for (size_t i = 0; i < f->xids.n; i++)
		fprintf(o->fp, "  %s: Xid %u %s %s (%zu)\n", _("kernel log"),
		    f->xids.v[i].code, _("on"), f->xids.v[i].pci,
		    f->xids.v[i].count);
}

/* The probe settled whether the module is loaded (nvidia_loaded); this
 * line says the same, so a module loaded without /proc/driver/nvidia
 * reads "loaded", never "not loaded". */
static void
print_module_line(struct out *o, const struct driver_facts *d)
{
	const struct fact_str *mv = &d->module_version;
	struct line l;

	if (fact_known(mv) || !fact_known(&d->nvidia_loaded) ||
	    strcmp(d->nvidia_loaded.value, "yes") != 0) {
		fact_line(o, _("nvidia module"), mv, _("not loaded"));
		return;
	}
	line_start(&l, o, _("nvidia module"));
	if (fact_known(&d->sys_module_version)) {
		piecef(&l, _("loaded, version %s"), d->sys_module_version.value);
		piecef(&l, "(%s)", d->sys_module_version.source);
	} else {
		piece(&l, _("loaded, version unknown"));
	}
	if (mv->why != NULL)
		piecef(&l, "(%s)", mv->why);
	line_end(&l);
}

/* The libcuda.so.1 programs really load, which need not be one of the
 * driver's own libraries: a forward-compatibility library runs a newer
 * CUDA than the kernel module. */
static void
print_loaded_libcuda(struct out *o, const struct driver_facts *d)
{
	const struct loaded_libcuda *lc = &d->libcuda;
	struct line l;

	if (lc->path == NULL)
		return;
	/* Said already when it is one of the driver's libraries above. */
	for (size_t i = 0; i < d->libs.n && !lc->fwd_compat; i++)
		if (strcmp(d->libs.v[i].path, lc->path) == 0)
			return;
	line_start(&l, o, _("libcuda loaded"));
	piece(&l, lc->version != NULL ? lc->version : "-");
	piece(&l, lc->path);
	if (lc->fwd_compat && lc->compat_cuda != NULL)
		piecef(&l, _("(forward compatibility for CUDA %s)"), lc->compat_cuda);
	else if (lc->fwd_compat)
		piece(&l, _("(forward compatibility)"));
	line_end(&l);
}

/* The module file of one kernel: its version and signature when read. */
static void
module_pieces(struct line *l, const struct driver_facts *d, const char *kernel)
{
	const struct kernel_module_file *best = NULL;

	for (size_t i = 0; i < d->module_files.n; i++) {
		const struct kernel_module_file *m = &d->module_files.v[i];

		if (strcmp(m->kernel, kernel) == 0 && (best == NULL ||
		    (best->version == NULL && m->version != NULL)))
			best = m;
	}
	if (best == NULL) {
		piece(l, _("no nvidia module"));
		return;
	}
	if (best->version != NULL)
		piecef(l, _("nvidia module %s"), best->version);
	if (best->signed_state >= 0)
		piece(l, best->signed_state ? _("signed") : _("unsigned"));
	piece(l, best->path);
}

/* The kernel-module facts: the running kernel's module file, the next
 * boot's, DKMS's builds, Secure Boot, and the kernel log. */
static void
print_kernel_modules(struct out *o, const struct driver_facts *d)
{
	struct line l;

	if (fact_known(&d->kernel_release) &&
	    strv_contains(&d->kernels, d->kernel_release.value)) {
		line_start(&l, o, _("running kernel"));
		module_pieces(&l, d, d->kernel_release.value);
		line_end(&l);
	}
	if (fact_known(&d->boot_kernel) && (!fact_known(&d->kernel_release) ||
	    strcmp(d->boot_kernel.value, d->kernel_release.value) != 0)) {
		line_start(&l, o, _("next boot"));
		piecef(&l, "%s:", d->boot_kernel.value);
		module_pieces(&l, d, d->boot_kernel.value);
		piecef(&l, "(%s)", d->boot_kernel.source);
		line_end(&l);
	}
	for (size_t i = 0; i < d->dkms.n; i++) {
		line_start(&l, o, "DKMS");
		piecef(&l, "%s/%s", d->dkms.v[i].module, d->dkms.v[i].version);
		piecef(&l, _("for %s:"), d->dkms.v[i].kernel);
		piece(&l, d->dkms.v[i].installed ? _("installed") : _("built"));
		line_end(&l);
	}
	if (fact_known(&d->secure_boot)) {
		line_start(&l, o, "Secure Boot");
		piece(&l, strcmp(d->secure_boot.value, "yes") == 0 ? _("on") :
		    _("off"));
		if (fact_known(&d->mok_enrolled))
			piece(&l, strcmp(d->mok_enrolled.value, "yes") == 0 ?
			    _("(DKMS key enrolled)") : _("(DKMS key not enrolled)"));
		line_end(&l);
	}
}

static void
print_driver(struct out *o, const struct facts *f)
{
	const struct driver_facts *d = &f->driver;

	heading(o, _("Driver"));
	fact_line(o, _("kernel"), &d->kernel_release, _("unknown"));
	print_module_line(o, d);
	if (fact_known(&d->max_cuda) || fact_known(&d->compat_major)) {
		struct line l;

		line_start(&l, o, _("runs CUDA"));
		if (fact_known(&d->max_cuda))
			piecef(&l, _("up to %s"), d->max_cuda.value);
		if (fact_known(&d->compat_major))
			piecef(&l, _("(every %s.x through minor-version compatibility)"),
			    d->compat_major.value);
		line_end(&l);
	}
	if (d->nouveau_loaded.state == FACT_KNOWN && d->nouveau_loaded.value != NULL &&
	    strcmp(d->nouveau_loaded.value, "yes") == 0)
		labelf(o, _("nouveau module"), "%s\n", _("loaded"));
	for (size_t i = 0; i < d->libs.n; i++) {
		struct line l;

		line_start(&l, o, d->libs.v[i].name);
		piece(&l, d->libs.v[i].version != NULL ? d->libs.v[i].version : "-");
		piece(&l, d->libs.v[i].path);
		line_end(&l);
	}
	if (d->libs.n == 0)
		labelf(o, _("libraries"), "%s\n",
		    _("no libcuda or libnvidia-ml in the library directories"));
	print_loaded_libcuda(o, d);
	if (d->modules_for_running.state == FACT_KNOWN)
		labelf(o, _("module files"), "%s\n",
		    strcmp(d->modules_for_running.value, "yes") == 0 ?
		    _("built for the running kernel") :
		    _("none for the running kernel"));
	print_kernel_modules(o, d);
	if (d->is_wsl)
		labelf(o, _("platform"), "%s\n", _("WSL"));
	if (d->docker || d->podman)
		labelf(o, _("platform"), "%s\n",
		    d->docker ? _("Docker container") : _("Podman container"));
	if (d->colab_release != NULL || d->lib64_nvidia)
		labelf(o, _("platform"), "%s%s%s\n",
		    _("Colab-like runtime"), d->colab_release != NULL ? " " : "",
		    d->colab_release != NULL ? d->colab_release : "");
}

static void
print_toolkits(struct out *o, const struct facts *f)
{
	heading(o, _("CUDA toolkits"));
	if (f->toolkits.n == 0)
		fprintf(o->fp, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		struct line l;

		line_start(&l, o, t->root);
		/* The release is the toolkit's version; the wheel's or
		 * file's own versions go beside it, once. */
		piecef(&l, "%s %s", _("CUDA"), t->release != NULL ? t->release :
		    fact_text(&t->version, "?"));
		if (t->components.n > 0) {
			struct strbuf sb = STRBUF_INIT;

			for (size_t j = 0; j < t->components.n; j++)
				strbuf_printf(&sb, "%s%s", j == 0 ? "(" : ", ",
				    t->components.v[j]);
			strbuf_putc(&sb, ')');
			piece(&l, sb.buf);
			strbuf_free(&sb);
		}
		if (t->version.source != NULL)
			piecef(&l, "(%s)", t->version.source);
		line_end(&l);
		for (size_t j = 0; j < t->cudart.n; j++) {
			const struct cudart_dir *cd = &t->cudart.v[j];
			char *real = cd->file != NULL ? path_dirname(cd->file) : NULL;

			fprintf(o->fp, "      %s %s %s\n", cd->soname, _("in"), cd->dir);
			/* lib64 is named as users know it; the Libraries
			 * section names the directory it links to. */
			if (real != NULL && strcmp(real, cd->dir) != 0)
				fprintf(o->fp, "          = %s\n", real);
			free(real);
		}
		fprintf(o->fp, "      nvcc: %s\n", t->nvcc != NULL ? t->nvcc : _("none"));
		if (t->stubs_dir != NULL)
			fprintf(o->fp, "      %s %s\n", _("stubs:"), t->stubs_dir);
		for (size_t j = 0; j < t->aliases.n; j++)
			fprintf(o->fp, "      %s %s\n", _("also reached as"),
			    t->aliases.v[j]);
	}
}

static void
print_cudnn(struct out *o, const struct facts *f)
{
	heading(o, _("cuDNN"));
	if (f->cudnn.n == 0)
		fprintf(o->fp, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *c = &f->cudnn.v[i];
		struct line l;

		line_start(&l, o, fact_text(&c->version,
		    fact_text(&c->lib_version, "?")));
		piece(&l, c->lib_dir);
		if (fact_known(&c->cuda_major))
			piecef(&l, _("(%s, for CUDA %s)"), c->where != NULL ?
			    c->where : "?", c->cuda_major.value);
		else
			piecef(&l, "(%s)", c->where != NULL ? c->where : "?");
		line_end(&l);
	}
}

/* True when a and b name files in the same directory (as text). */
static bool
same_dir(const char *a, const char *b)
{
	size_t la = (size_t)(path_basename(a) - a);
	size_t lb = (size_t)(path_basename(b) - b);

	return la == lb && strncmp(a, b, la) == 0;
}

/*
 * Each library: the file the loader opens and the step that found it,
 * the real file behind a link; for one not found, where copies do exist
 * and why the loader does not take them. Optional libraries that exist
 * nowhere take one short line.
 */
static void
print_libraries(struct out *o, const struct facts *f)
{
	if (f->libraries.n == 0)
		return;
	heading(o, _("Libraries the loader would find"));
	for (size_t i = 0; i < f->libraries.n; i++) {
		const struct lib_fact *lib = &f->libraries.v[i];
		struct line l;
		size_t shown = 0;

		line_start(&l, o, lib->soname);
		if (lib->resolved != NULL) {
			piece(&l, lib->resolved);
			line_end(&l);
			line_start(&l, o, "");
			piecef(&l, _("via %s"), words_via(lib->via));
			/* The real file: its name alone when it lies beside
			 * the link, as it nearly always does. */
			if (lib->target != NULL &&
			    strcmp(lib->target, lib->resolved) != 0)
				piecef(&l, "-> %s", same_dir(lib->target,
				    lib->resolved) ? path_basename(lib->target) :
				    lib->target);
			if (lib->stub)
				piece(&l, _("[the toolkit's stub]"));
		} else {
			piece(&l, lib->optional ? _("not found (optional)") :
			    _("not found"));
		}
		line_end(&l);
		if (lib->resolved != NULL)
			continue;
		for (size_t j = 0; j < lib->copies.n; j++) {
			const struct lib_copy *c = &lib->copies.v[j];

			if (shown == LIST_LIMIT) {
				fprintf(o->fp, "      %s\n", _("…"));
				break;
			}
			line_start(&l, o, "    ");
			piece(&l, c->path);
			if (!c->loadable)
				piecef(&l, "(%s)", c->problem != NULL ?
				    c->problem : _("cannot be loaded"));
			else if (c->stub)
				piece(&l, _("(the toolkit's stub)"));
			else if (c->tried)
				piece(&l, _("(passed over)"));
			else
				piece(&l, _("(exists, off the search path)"));
			line_end(&l);
			shown++;
		}
	}
}

static void
print_path_var(struct out *o, const struct path_var *pv)
{
	size_t missing = 0, empty = 0;

	if (!pv->set) {
		labelf(o, pv->name, "%s\n", _("(unset)"));
		return;
	}
	for (size_t i = 0; i < pv->entries.n; i++) {
		if (pv->entries.v[i].empty)
			empty++;
		else if (pv->entries.v[i].exists == 0)
			missing++;
	}
	labelf(o, pv->name, "%s", "");
	fprintf(o->fp, ngettext("%zu entry", "%zu entries", pv->entries.n),
	    pv->entries.n);
	if (missing > 0)
		fprintf(o->fp, _(", %zu missing"), missing);
	if (empty > 0)
		fprintf(o->fp, _(", %zu empty"), empty);
	fputc('\n', o->fp);
	for (size_t i = 0; i < pv->entries.n && i < LIST_LIMIT; i++) {
		const struct path_entry *e = &pv->entries.v[i];

		fprintf(o->fp, "      %s%s\n", e->empty ? _("(empty)") : e->value,
		    e->empty ? "" : e->exists == 0 ? _("  [missing]") :
		    e->exists < 0 ? _("  [unreadable]") : "");
	}
	if (pv->entries.n > LIST_LIMIT)
		fprintf(o->fp, _("      … and %zu more\n"),
		    pv->entries.n - LIST_LIMIT);
}

static void
print_env(struct out *o, const struct facts *f)
{
	const struct env_facts *e = &f->env;
	size_t missing = 0;

	heading(o, _("Environment"));
	print_path_var(o, &e->ld_library_path);
	print_path_var(o, &e->path);
	if (e->ld_preload.set)
		print_path_var(o, &e->ld_preload);
	for (size_t i = 0; i < ENV_VAR_COUNT; i++) {
		const struct env_var *v = &e->var[i];

		if (!v->set) {
			labelf(o, v->name, "%s\n", _("(unset)"));
			continue;
		}
		labelf(o, v->name, "%s%s\n",
		    v->value[0] != '\0' ? v->value : _("(empty)"),
		    v->exists == 0 ? _("  [missing]") : "");
	}
	for (size_t i = 0; i < e->ldconf.n; i++)
		if (e->ldconf.v[i].exists == 0)
			missing++;
	labelf(o, "ld.so.conf", "%s", "");
	if (e->ldconf_state.state != FACT_KNOWN) {
		fprintf(o->fp, "%s\n", fact_text(&e->ldconf_state, ""));
		return;
	}
	fprintf(o->fp, ngettext("%zu directory", "%zu directories", e->ldconf.n),
	    e->ldconf.n);
	if (missing > 0)
		fprintf(o->fp, _(", %zu missing"), missing);
	fputc('\n', o->fp);
}

static void
print_notes(struct out *o, const struct facts *f)
{
	size_t shown = f->notes.n < LIST_LIMIT * 2 ? f->notes.n : LIST_LIMIT * 2;

	if (f->notes.n == 0)
		return;
	heading(o, _("Notes (problems met while looking)"));
	for (size_t i = 0; i < shown; i++)
		fprintf(o->fp, "  %s: %s\n", f->notes.v[i].path,
		    f->notes.v[i].problem);
	if (f->notes.n > shown)
		fprintf(o->fp, _("  … and %zu more (see --json)\n"),
		    f->notes.n - shown);
	if (f->notes.dropped > 0)
		fprintf(o->fp, ngettext("  … and %zu more not kept\n",
		    "  … and %zu more not kept\n", f->notes.dropped),
		    f->notes.dropped);
}

static void print_findings_body(struct out *o, const struct findings *fs,
    const struct strv *said);

static void
print_findings(struct out *o, const struct facts *facts,
    const struct findings *fs)
{
	struct strv said = STRV_INIT;
	const char *src, *drv = diagnose_driver_version(facts, &src);

	/* What the driver runs is said once, in the Driver section; every
	 * finding that needs it carries it for the JSON report and the
	 * wizard's detail, where it stands alone. */
	diagnose_reach_evidence(facts, drv, &said);
	heading(o, _("Findings"));
	print_findings_body(o, fs, &said);
	strv_free(&said);
}

int
text_print_findings(FILE *fp, const struct findings *fs, bool color)
{
	struct out o = { fp, color };

	print_findings_body(&o, fs, NULL);
	return ferror(fp) ? -1 : 0;
}

static void
print_findings_body(struct out *o, const struct findings *fs,
    const struct strv *said)
{
	if (fs->n == 0) {
		fprintf(o->fp, "  %s\n", _("No problems found."));
		return;
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *fd = &fs->v[i];

		fprintf(o->fp, "\n  %s", style_sev_on(fd->severity, o->color));
		padded(o->fp, words_severity(fd->severity), 7);
		fprintf(o->fp, "%s %s\n", style_off(o->color),
		    finding_code_name(fd->code));
		fprintf(o->fp, "          %s", style_bold(o->color));
		wrapped(o, 10, 10, _(finding_title(fd->code)));
		fputs(style_off(o->color), o->fp);
		if (fd->detail != NULL && fd->detail[0] != '\0') {
			fprintf(o->fp, "          ");
			wrapped(o, 10, 10, fd->detail);
		}
		for (size_t j = 0; j < fd->evidence.n; j++) {
			int col;

			if (said != NULL && strv_contains(said, fd->evidence.v[j]))
				continue;
			col = fprintf(o->fp, "          %s ", _("evidence:"));

			wrapped(o, col, 12, fd->evidence.v[j]);
		}
		for (size_t j = 0; j < fd->fix.n; j++)
			fprintf(o->fp, "          %s %s\n", _("fix:"), fd->fix.v[j]);
	}
}

/* "host gpu01, Debian GNU/Linux 12 (bookworm), kernel 6.1.0-18-amd64":
 * which machine a report pasted somewhere came from. Nothing when the
 * name is not known. */
static void
print_host(FILE *fp, const struct host_facts *h)
{
	if (!fact_known(&h->name))
		return;
	fprintf(fp, _("host %s"), h->name.value);
	if (fact_known(&h->os))
		fprintf(fp, ", %s", h->os.value);
	if (fact_known(&h->kernel))
		fprintf(fp, _(", kernel %s"), h->kernel.value);
	fputc('\n', fp);
}

int
text_print_doctor(FILE *fp, const struct facts *facts,
    const struct findings *findings, const struct matrix *m, bool color)
{
	struct out o = { fp, color };
	size_t ne = findings_count(findings, SEV_ERROR);
	size_t nw = findings_count(findings, SEV_WARNING);
	size_t ni = findings_count(findings, SEV_INFO);
	char *counts;

	fprintf(fp, "%s%s %s doctor%s\n", style_bold(color), PACKAGE, VERSION,
	    style_off(color));
	print_host(fp, &facts->host);
	if (!facts->live_allowed)
		fprintf(fp, _("root %s (a tree standing in for /: nothing is run or loaded)\n"),
		    facts->root);
	if (m != NULL)
		fprintf(fp, _("compatibility data: %s, %s%s%s\n"),
		    matrix_source_name(matrix_source(m)), matrix_date(m),
		    matrix_path(m) != NULL ? " " : "",
		    matrix_path(m) != NULL ? matrix_path(m) : "");
	print_gpus(&o, facts);
	print_driver(&o, facts);
	print_toolkits(&o, facts);
	print_cudnn(&o, facts);
	print_libraries(&o, facts);
	text_print_python(fp, facts, color);
	print_env(&o, facts);
	text_print_verify(fp, facts, color);
	print_notes(&o, facts);
	print_findings(&o, facts, findings);
	counts = words_counts(ne, nw, ni);
	/* TRANSLATORS: doctor's last line: "Summary: 1 error, 2 warnings,
	 * 0 notes." (the counts are words_counts'). */
	fprintf(fp, _("\nSummary: %s.\n"), counts);
	free(counts);
	return ferror(fp) ? -1 : 0;
}

/* The first `cudawiz env …` a finding's fix names, without its "&& . …"
 * tail; NULL when none does. Allocated. */
static char *
env_command(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		for (size_t j = 0; j < fs->v[i].fix.n; j++) {
			const char *line = fs->v[i].fix.v[j];
			const char *and = strstr(line, " && ");

			if (strncmp(line, "cudawiz env", 11) == 0)
				return and != NULL ? xstrndup(line,
				    (size_t)(and - line)) : xstrdup(line);
		}
	return NULL;
}

/* A command and what it does, the words in a column where the command
 * leaves room. */
static void
next_line(FILE *fp, const char *cmd, const char *what)
{
	int w = utf8_width(cmd);

	if (w > 32)
		fprintf(fp, "  %s\n  %34s%s\n", cmd, "", what);
	else
		fprintf(fp, "  %s%*s  %s\n", cmd, 32 - w, "", what);
}

void
text_print_next(FILE *fp, const struct findings *fs)
{
	char *env = env_command(fs);

	fprintf(fp, "\n%s\n", _("Next:"));
	if (env != NULL) {
		next_line(fp, env, _("write the fix as a script"));
		next_line(fp, "cudawiz env --check cuda-env.sh",
		    _("prove that it fixes what it says"));
		next_line(fp, ". ./cuda-env.sh",
		    _("use it (its header says how to undo)"));
	}
	next_line(fp, "cudawiz verify", _("live checks: driver, runtimes, cuDNN"));
	next_line(fp, "cudawiz explain 'MESSAGE'", _("explain an error a program printed"));
	next_line(fp, "cudawiz", _("the wizard (in a terminal)"));
	free(env);
}
