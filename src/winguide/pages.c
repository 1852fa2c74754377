/* The guided mode's pages as text, the Linux wizard's pages in its order
 * with its titles (the same N_() strings, so their translations carry
 * over): what the Windows probe found and what the rules made of it.
 * Paths are shown as Windows spells them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/strbuf.h"
#include "util/utf8width.h"
#include "util/xalloc.h"
#include "winguide/guide.h"
#include "winload/winname.h"
#include "winprobe/winprobe.h"

static const char *const titles[WG_PAGE_COUNT] = {
	[WG_SUMMARY] = N_("Summary"),
	[WG_GPUS] = N_("GPUs and driver"),
	[WG_TOOLKITS] = N_("Toolkits and cuDNN"),
	[WG_PYTHON] = N_("Python environments and frameworks"),
	[WG_ENV] = N_("Environment variables"),
	[WG_COMPAT] = N_("Compatibility"),
	[WG_VERIFY] = N_("Live verification"),
	[WG_DIAGNOSIS] = N_("Diagnosis"),
	[WG_FIX] = N_("Fix"),
	[WG_DONE] = N_("Done"),
};

const char *
wg_page_title(enum wg_page p)
{
	return p < WG_PAGE_COUNT ? titles[p] : titles[0];
}

char *
wg_heading(enum wg_page p)
{
	return xasprintf("[%d/%d] %s", (int)p + 1, WG_PAGE_COUNT,
	    _(wg_page_title(p)));
}

size_t
wg_finding_count(const struct wg_in *in)
{
	return in->findings->n + (in->st->verify_findings != NULL ?
	    in->st->verify_findings->n : 0);
}

const struct finding *
wg_finding(const struct wg_in *in, size_t n)
{
	const struct findings *v = in->st->verify_findings;

	if (n == 0)
		return NULL;
	if (n <= in->findings->n)
		return &in->findings->v[n - 1];
	n -= in->findings->n;
	return v != NULL && n <= v->n ? &v->v[n - 1] : NULL;
}

static size_t
count_sev(const struct wg_in *in, enum severity sev)
{
	size_t n = findings_count(in->findings, sev);

	if (in->st->verify_findings != NULL)
		n += findings_count(in->st->verify_findings, sev);
	return n;
}

static void
heading(struct strbuf *sb, const char *title)
{
	if (sb->len > 0)
		strbuf_putc(sb, '\n');
	strbuf_printf(sb, "%s\n", title);
}

/* A tree path as a Windows path, on one line: a path is copied, and
 * its spaces ("Program Files") are no place to break it. */
static void
item_path(struct strbuf *sb, const struct wg_in *in, int indent,
    const char *lead, const char *tree, const char *tail)
{
	char *w = winname_windows_path(in->facts->drive, tree);

	strbuf_printf(sb, "%*s%s%s%s\n", indent, "", lead, w, tail);
	free(w);
}

/* "CUDA will not work as it is set up now: 1 error, 0 warnings, 1 note" */
static void
verdict(struct strbuf *sb, const struct wg_in *in)
{
	size_t ne = count_sev(in, SEV_ERROR), nw = count_sev(in, SEV_WARNING);
	char *counts = words_counts(ne, nw, count_sev(in, SEV_INFO));
	/* TRANSLATORS: the verdict, then the counts of errors, warnings
	 * and notes. */
	char *t = xasprintf(_("%s: %s"), ne > 0 ?
	    _("CUDA will not work as it is set up now") : nw > 0 ?
	    _("CUDA may work, with problems") : _("no problem found"), counts);

	wg_wrap(sb, in->width, 0, 2, t);
	free(t);
	free(counts);
}

/* "  2. ERROR    title: subject", wrapped under the title. */
static void
finding_line(struct strbuf *sb, const struct wg_in *in, size_t n)
{
	const struct finding *f = wg_finding(in, n);
	char *t = f->subject != NULL ? xasprintf("%zu. %-8s %s: %s", n,
	    words_severity(f->severity), _(finding_title(f->code)), f->subject) :
	    xasprintf("%zu. %-8s %s", n, words_severity(f->severity),
	    _(finding_title(f->code)));

	wg_wrap(sb, in->width, 2, 6, t);
	free(t);
}

static void
page_summary(struct strbuf *sb, const struct wg_in *in)
{
	size_t n = wg_finding_count(in);
	struct strbuf menu = STRBUF_INIT;
	char *t;

	verdict(sb, in);
	if (n > 0)
		strbuf_putc(sb, '\n');
	for (size_t i = 1; i <= n; i++)
		finding_line(sb, in, i);
	strbuf_putc(sb, '\n');
	if (count_sev(in, SEV_ERROR) + count_sev(in, SEV_WARNING) > 0)
		wg_wrap(sb, in->width, 0, 2, _("Next: 'd 1' shows why the "
		    "first one happens and how to fix it; Enter goes through "
		    "the pages one by one."));
	else
		wg_wrap(sb, in->width, 0, 2, _("Next: Enter goes through the "
		    "pages one by one."));
	heading(sb, _("Pages"));
	/* An entry is never broken: lines break between them. */
	for (int i = 0, col = 0; i < WG_PAGE_COUNT; i++) {
		char *e = xasprintf("%d %s", i + 1, _(titles[i]));
		int w = utf8_width(e);

		if (col > 0 && col + 3 + w > in->width) {
			strbuf_printf(sb, "  %s\n", strbuf_str(&menu));
			strbuf_free(&menu);
			col = 0;
		}
		strbuf_printf(&menu, "%s%s", col > 0 ? "   " : "", e);
		col += (col > 0 ? 3 : 2) + w;
		free(e);
	}
	strbuf_printf(sb, "  %s\n", strbuf_str(&menu));
	strbuf_free(&menu);
	strbuf_putc(sb, '\n');
	/* TRANSLATORS: the drive the Windows probe read, "C:". */
	t = xasprintf(_("Machine: this Windows, drive %c:"), in->facts->drive);
	wg_wrap(sb, in->width, 0, 2, t);
	free(t);
}

static void
page_gpus(struct strbuf *sb, const struct wg_in *in)
{
	const struct win_facts *f = in->facts;
	const struct win_driver *d = &f->driver;

	heading(sb, _("GPUs"));
	if (!f->gpus_read)
		wg_wrap(sb, in->width, 2, 4, _("the registry's display adapters "
		    "could not be read"));
	else if (f->gpus.n == 0)
		wg_wrap(sb, in->width, 2, 4, _("no display adapter in the "
		    "registry"));
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct win_gpu *g = &f->gpus.v[i];
		struct strbuf l = STRBUF_INIT;

		strbuf_puts(&l, g->name != NULL ? g->name : "?");
		if (g->vendor != 0)
			strbuf_printf(&l, "  [%04x:%04x]", g->vendor, g->device);
		if (g->version != NULL)
			strbuf_printf(&l, "  %s %s", _("driver"), g->version);
		if (g->file_version != NULL)
			strbuf_printf(&l, "  (%s %s)", _("file version"),
			    g->file_version);
		if (g->provider != NULL)
			strbuf_printf(&l, "  %s", g->provider);
		wg_wrap(sb, in->width, 2, 6, strbuf_str(&l));
		strbuf_free(&l);
	}
	heading(sb, _("Driver"));
	if (d->state == WIN_NVCUDA_ABSENT) {
		char *t = xasprintf("nvcuda.dll  %s", _("not found: no NVIDIA "
		    "driver is installed"));

		wg_wrap(sb, in->width, 2, 6, t);
		free(t);
	} else {
		char *lead = xasprintf("nvcuda.dll  %s  ", d->version != NULL ?
		    d->version : _("version unknown"));
		char *tail = d->nvcuda.file_version != NULL ?
		    xasprintf("  (%s %s)", _("file version"),
		    d->nvcuda.file_version) : xstrdup("");

		item_path(sb, in, 2, lead, d->nvcuda.path, tail);
		free(lead);
		free(tail);
		if (d->state != WIN_NVCUDA_NVIDIA)
			wg_wrap(sb, in->width, 6, 6, d->nvcuda.error != NULL ?
			    d->nvcuda.error : _("not NVIDIA's"));
	}
	if (d->nvml.path != NULL)
		item_path(sb, in, 2, "nvml.dll    ", d->nvml.path, "");
	else
		strbuf_printf(sb, "  nvml.dll    %s\n", _("not found"));
}

static void
page_toolkits(struct strbuf *sb, const struct wg_in *in)
{
	const struct win_facts *f = in->facts;

	heading(sb, _("CUDA toolkits"));
	if (f->toolkits.n == 0)
		strbuf_printf(sb, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct win_toolkit *t = &f->toolkits.v[i];
		const char *v = t->json_version != NULL ? t->json_version :
		    t->dir_version;
		char *lead = xasprintf("%-8s ", v != NULL ? v : "?");
		const char *rt = t->cudart.path != NULL ?
		    strrchr(t->cudart.path, '/') : NULL;
		char *tail = xasprintf("%s%s%s",
		    (long)i == f->cuda_path_toolkit ? "  (CUDA_PATH)" : "",
		    rt != NULL ? "  " : "", rt != NULL ? rt + 1 : "");

		item_path(sb, in, 2, lead, t->dir, tail);
		free(lead);
		free(tail);
	}
	heading(sb, _("cuDNN"));
	if (f->cudnn.n == 0)
		strbuf_printf(sb, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct win_cudnn *c = &f->cudnn.v[i];
		const char *v = c->header_version != NULL ? c->header_version :
		    c->dll.file_version;
		char *lead = xasprintf("%-8s ", v != NULL ? v : "?");

		item_path(sb, in, 2, lead, c->dir, "");
		free(lead);
	}
}

/* A DLL a framework loads and where from, the path on one line as
 * item_path's. */
static void
need_line(struct strbuf *sb, const struct win_need *n)
{
	char *t;

	if (n->got.path != NULL)
		t = xasprintf("%-22s %s", n->dll, n->got.path);
	else
		t = xasprintf("%-22s %s (%u)", n->dll, _("not found"),
		    n->got.error);
	strbuf_printf(sb, "        %s\n", t);
	free(t);
}

static void
page_python(struct strbuf *sb, const struct wg_in *in)
{
	const struct win_facts *f = in->facts;

	heading(sb, _("Python installs"));
	if (f->pythons.n == 0)
		strbuf_printf(sb, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->pythons.n; i++) {
		const struct win_python *p = &f->pythons.v[i];
		char *lead = xasprintf("%-8s ", p->version != NULL ?
		    p->version : "?");
		char *tail = xasprintf("  (%s)", win_python_kind_name(p->kind));

		item_path(sb, in, 2, lead, p->dir, tail);
		free(lead);
		free(tail);
		for (size_t j = 0; j < p->frameworks.n; j++) {
			const struct win_framework *fw = &p->frameworks.v[j];

			strbuf_printf(sb, "      %s %s\n", fw->name,
			    fw->version != NULL ? fw->version : "?");
			for (size_t k = 0; k < fw->needs.n; k++)
				need_line(sb, &fw->needs.v[k]);
		}
	}
}

static void
page_env(struct strbuf *sb, const struct wg_in *in)
{
	const struct win_facts *f = in->facts;

	heading(sb, "CUDA_PATH, CUDA_PATH_V*");
	if (f->cudavars.n == 0)
		wg_wrap(sb, in->width, 2, 4, _("none is set"));
	for (size_t i = 0; i < f->cudavars.n; i++) {
		const struct win_cudavar *v = &f->cudavars.v[i];
		char *t = xasprintf("%s=%s", v->name, v->value);

		wg_wrap(sb, in->width, 2, 6, t);
		free(t);
		if (v->dir == NULL)
			wg_wrap(sb, in->width, 6, 6, v->why != NULL ? v->why :
			    "?");
	}
	if (f->notes.n > 0) {
		heading(sb, _("What could not be looked at"));
		for (size_t i = 0; i < f->notes.n; i++)
			wg_wrap(sb, in->width, 2, 4, f->notes.v[i]);
	}
}

static void
page_compat(struct strbuf *sb, const struct wg_in *in)
{
	const struct win_facts *f = in->facts;
	bool any = false;
	char *t;

	heading(sb, _("Driver"));
	t = xasprintf("nvcuda.dll  %s", f->driver.version != NULL ?
	    f->driver.version : f->driver.state == WIN_NVCUDA_ABSENT ?
	    _("not found: no NVIDIA driver is installed") :
	    _("version unknown"));
	wg_wrap(sb, in->width, 2, 6, t);
	free(t);
	heading(sb, _("What each framework was built for"));
	for (size_t i = 0; i < f->pythons.n; i++)
		for (size_t j = 0; j < f->pythons.v[i].frameworks.n; j++) {
			const struct win_framework *fw =
			    &f->pythons.v[i].frameworks.v[j];
			struct strbuf l = STRBUF_INIT;

			any = true;
			strbuf_printf(&l, "%s %s", fw->name, fw->version != NULL ?
			    fw->version : "?");
			if (fw->cuda_version != NULL)
				strbuf_printf(&l, "  CUDA %s", fw->cuda_version);
			if (fw->cudnn_version != NULL)
				strbuf_printf(&l, ", cuDNN %s", fw->cudnn_version);
			if (fw->cuda_version == NULL)
				strbuf_printf(&l, "  (%s)", _("no CUDA build "
				    "recorded"));
			wg_wrap(sb, in->width, 2, 6, strbuf_str(&l));
			strbuf_free(&l);
			for (size_t k = 0; k < fw->wants.n; k++) {
				const char *got = NULL;

				for (size_t m = 0; m < fw->needs.n; m++)
					if (strcmp(fw->needs.v[m].dll,
					    fw->wants.v[k]) == 0)
						got = fw->needs.v[m].got.path;
				strbuf_printf(sb, "      %-22s %s\n",
				    fw->wants.v[k], got != NULL ? got :
				    _("not found"));
			}
		}
	if (!any)
		wg_wrap(sb, in->width, 2, 4, _("no framework found in the "
		    "Python installs"));
}

static void
page_verify(struct strbuf *sb, const struct wg_in *in)
{
	const struct findings *v = in->st->verify_findings;

	if (!in->st->verified) {
		wg_wrap(sb, in->width, 0, 0, _("The live checks load "
		    "nvcuda.dll, each toolkit's cudart64_*.dll and each "
		    "cudnn64_*.dll in cudawiz-verify.exe, a process of its own "
		    "for each, and try them on the GPU, as 'cudawiz verify' "
		    "does. Nothing on the machine is changed."));
		strbuf_putc(sb, '\n');
		wg_wrap(sb, in->width, 0, 2, _("Run them now? Type y to run "
		    "them, n (or Enter) to go on without."));
		return;
	}
	strbuf_puts(sb, in->st->verify_runs != NULL ? in->st->verify_runs : "");
	if (v == NULL || v->n == 0) {
		strbuf_putc(sb, '\n');
		wg_wrap(sb, in->width, 0, 2, _("No problem found by the live "
		    "checks."));
		return;
	}
	heading(sb, _("What the live checks found"));
	for (size_t i = 0; i < v->n; i++)
		finding_line(sb, in, in->findings->n + i + 1);
}

static void
page_diagnosis(struct strbuf *sb, const struct wg_in *in)
{
	size_t n = wg_finding_count(in);

	verdict(sb, in);
	if (n == 0)
		return;
	strbuf_putc(sb, '\n');
	for (size_t i = 1; i <= n; i++)
		finding_line(sb, in, i);
	strbuf_putc(sb, '\n');
	wg_wrap(sb, in->width, 0, 2, _("Type d and a number ('d 1') for a "
	    "finding's detail: why, the evidence and the fix."));
}

/* The command that loads the script into the shell it was written for. */
static char *
activate_line(const char *script, const char *shell)
{
	bool bare = strpbrk(script, "\\/:") == NULL;
	bool ps = strcmp(shell, "powershell") == 0;
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, ps ? ". '" : "call \"");
	if (bare)
		strbuf_puts(&sb, ".\\");
	for (const char *p = script; *p != '\0'; p++) {
		if (ps && *p == '\'')
			strbuf_putc(&sb, '\'');
		strbuf_putc(&sb, *p);
	}
	strbuf_puts(&sb, ps ? "'" : "\"");
	return strbuf_take(&sb);
}

static void
page_fix(struct strbuf *sb, const struct wg_in *in)
{
	size_t n = wg_finding_count(in), shown = 0;
	const struct wg_state *st = in->st;

	for (size_t i = 1; i <= n; i++) {
		const struct finding *f = wg_finding(in, i);

		if (f->severity == SEV_INFO || f->fix.n == 0)
			continue;
		if (shown++ > 0)
			strbuf_putc(sb, '\n');
		finding_line(sb, in, i);
		/* Commands paste as they are: never wrapped. */
		for (size_t j = 0; j < f->fix.n; j++)
			strbuf_printf(sb, "    %s\n", f->fix.v[j]);
	}
	if (shown == 0)
		wg_wrap(sb, in->width, 0, 2, _("Nothing to fix: no error or "
		    "warning has a fix."));
	heading(sb, _("Activation script"));
	if (st->script != NULL) {
		char *t = xasprintf(_("Written: %s"), st->script);
		char *a = activate_line(st->script, st->script_shell);

		wg_wrap(sb, in->width, 2, 4, t);
		wg_wrap(sb, in->width, 2, 4, _("Load it into this shell with:"));
		strbuf_printf(sb, "    %s\n", a);
		free(a);
		free(t);
	} else if (st->script_error != NULL) {
		char *t = xasprintf(_("The script was not written: %s"),
		    st->script_error);

		wg_wrap(sb, in->width, 2, 4, t);
		free(t);
	}
	if (st->script == NULL)
		wg_wrap(sb, in->width, 2, 4, _("Type w to write an activation "
		    "script that sets PATH and CUDA_PATH for one PowerShell or "
		    "cmd.exe session, as 'cudawiz env' does."));
}

static void
page_done(struct strbuf *sb, const struct wg_in *in)
{
	const struct wg_state *st = in->st;
	size_t ne = count_sev(in, SEV_ERROR);

	heading(sb, _("What was found"));
	verdict(sb, in);
	heading(sb, _("What was written"));
	if (st->script != NULL) {
		char *t = xasprintf(_("Written: %s"), st->script);

		wg_wrap(sb, in->width, 2, 4, t);
		free(t);
	} else {
		wg_wrap(sb, in->width, 2, 4, _("Nothing was written."));
	}
	heading(sb, _("What to run next"));
	if (st->script != NULL) {
		char *a = activate_line(st->script, st->script_shell);

		strbuf_printf(sb, "    %s\n", a);
		free(a);
	} else if (ne > 0) {
		char *t = xasprintf(_("the fix lines on page %d (%s)"),
		    WG_FIX + 1, _(titles[WG_FIX]));

		wg_wrap(sb, in->width, 2, 4, t);
		free(t);
	}
	/* The commands that say whether it worked. */
	strbuf_puts(sb, "    cudawiz.exe doctor\n");
	strbuf_puts(sb, "    cudawiz.exe verify\n");
}

char *
wg_page_text(enum wg_page p, const struct wg_in *in)
{
	struct strbuf sb = STRBUF_INIT;

	switch (p) {
	case WG_SUMMARY:	page_summary(&sb, in); break;
	case WG_GPUS:		page_gpus(&sb, in); break;
	case WG_TOOLKITS:	page_toolkits(&sb, in); break;
	case WG_PYTHON:		page_python(&sb, in); break;
	case WG_ENV:		page_env(&sb, in); break;
	case WG_COMPAT:		page_compat(&sb, in); break;
	case WG_VERIFY:		page_verify(&sb, in); break;
	case WG_DIAGNOSIS:	page_diagnosis(&sb, in); break;
	case WG_FIX:		page_fix(&sb, in); break;
	case WG_DONE:		page_done(&sb, in); break;
	case WG_PAGE_COUNT:	break;
	}
	if (sb.len == 0)
		strbuf_putc(&sb, '\n');
	return strbuf_take(&sb);
}
