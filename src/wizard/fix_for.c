/* The Fix step for one finding: which choices fix it (wfix_prefill),
 * whether an activation script can fix it at all, and what is left to
 * say when the wizard ends (wfix_farewell). See fix.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/page.h"

/* The findings a script that sets PATH, LD_LIBRARY_PATH and CUDA_HOME
 * can fix: where the loader or a tool looks. The others need a driver,
 * a package, a reboot or another GPU. */
static const enum finding_code scriptable[] = {
	FINDING_SONAME_NOT_FOUND, FINDING_SONAME_VERSION_MISMATCH,
	FINDING_LIB_SHADOWED, FINDING_MIXED_CUDA_VERSIONS,
	FINDING_ENV_PATH_MISSING, FINDING_EMPTY_PATH_ENTRY,
	FINDING_CUDA_HOME_MISMATCH, FINDING_NVCC_RUNTIME_MISMATCH,
	FINDING_SONAME_OFF_SEARCH_PATH, FINDING_LIBDIR_ON_PATH,
	FINDING_DUPLICATE_PATH_ENTRY, FINDING_STUB_LIBCUDA,
};

bool
wfix_scriptable(enum finding_code code)
{
	for (size_t i = 0; i < sizeof scriptable / sizeof *scriptable; i++)
		if (scriptable[i] == code)
			return true;
	return false;
}

/* What the finding says, to look the facts' paths up in: its subject
 * and detail, and with evidence its evidence and fix lines too (those
 * also list the places that were searched, so not for a toolkit). */
static char *
finding_text(const struct finding *f, bool evidence)
{
	struct strbuf sb = STRBUF_INIT;

	if (f->subject != NULL)
		strbuf_printf(&sb, "%s\n", f->subject);
	if (f->detail != NULL)
		strbuf_printf(&sb, "%s\n", f->detail);
	for (size_t i = 0; evidence && i < f->evidence.n; i++)
		strbuf_printf(&sb, "%s\n", f->evidence.v[i]);
	for (size_t i = 0; evidence && i < f->fix.n; i++)
		strbuf_printf(&sb, "%s\n", f->fix.v[i]);
	return strbuf_take(&sb);
}

/* The entry of list l (past "none") whose value the text names, the
 * longest such (a venv inside a conda prefix names both); 0: none. */
static int
named_entry(const struct wfix_list *l, const char *text)
{
	int best = 0;
	size_t bestn = 0;

	for (size_t i = 1; i < l->labels.n; i++) {
		const char *v = l->values[i];
		size_t n = v != NULL ? strlen(v) : 0;

		if (n > bestn && strstr(text, v) != NULL) {
			best = (int)i;
			bestn = n;
		}
	}
	return best;
}

/* The major version in "PREFIX<digits>" in text ("libcudart.so.12",
 * "libcudnn.so.9"); NULL when absent. Newly allocated. */
static char *
major_after(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);
	size_t n;

	if (p == NULL)
		return NULL;
	p += strlen(prefix);
	n = strspn(p, "0123456789");
	return n > 0 ? xasprintf("%.*s.", (int)n, p) : NULL;
}

/* The first entry whose label starts with the version "MAJOR."
 * (labels are "VERSION  PATH"); 0: none. */
static int
version_entry(const struct wfix_list *l, const char *major)
{
	for (size_t i = 1; major != NULL && i < l->labels.n; i++)
		if (strncmp(l->labels.v[i], major, strlen(major)) == 0)
			return (int)i;
	return 0;
}

/* The entry for a library the finding names by soname ("PREFIX<N>"):
 * the one of that major version; else the one its words name; 0 (the
 * default) when neither: a toolkit of another major is no fix. */
static int
lib_entry(const struct wfix_list *l, const char *words, const char *prefix)
{
	char *major = major_after(words, prefix);
	int i = major != NULL ? version_entry(l, major) :
	    named_entry(l, words);

	free(major);
	return i;
}

static void
choose_for(struct wfix *fx, const struct finding *f)
{
	char *words = finding_text(f, false), *all = finding_text(f, true);
	int t, c, e;

	t = lib_entry(&fx->list[WF_TOOLKIT], words, "libcudart.so.");
	c = strstr(words, "libcudnn") != NULL ?
	    lib_entry(&fx->list[WF_CUDNN], words, "libcudnn.so.") : 0;
	e = named_entry(&fx->list[WF_PYENV], all);
	wfix_choose(fx, WF_TOOLKIT, t);
	wfix_choose(fx, WF_CUDNN, c);
	wfix_choose(fx, WF_PYENV, e);
	free(words);
	free(all);
}

void
wfix_prefill(struct wfix *fx, const struct finding *f)
{
	free(fx->for_text);
	strv_free(&fx->for_fix);
	fx->for_text = xstrdup(f->subject != NULL ? f->subject :
	    _(finding_title(f->code)));
	fx->for_unscriptable = !wfix_scriptable(f->code);
	for (size_t i = 0; i < f->fix.n; i++)
		strv_push(&fx->for_fix, f->fix.v[i]);
	/* The shell stays the user's; the rest is what this finding
	 * needs, else the defaults. */
	choose_for(fx, f);
	fx->mode = WFM_FORM;
	fx->field = WF_WRITE;
	fx->preview_scroll = fx->preview_h = 0;
}

/* What is left for findings the script cannot fix, finding by finding
 * under its headline, so alternatives ("# or …") stay with the fix
 * they are an alternative to. A command already listed for an earlier
 * finding is not repeated (two findings that both want the driver
 * installed); a finding left with no command of its own is skipped. */
static void
left_to_run(const struct findings *fs, struct strbuf *sb)
{
	struct strv done = STRV_INIT;

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		struct strv lines = STRV_INIT;
		bool any = false;
		char *head;

		if (f->severity == SEV_INFO || wfix_scriptable(f->code))
			continue;
		for (size_t j = 0; j < f->fix.n; j++) {
			const char *l = f->fix.v[j];

			if (l[0] == '#') {
				strv_push(&lines, l);
			} else if (!strv_contains(&done, l)) {
				strv_push(&lines, l);
				strv_push(&done, l);
				any = true;
			}
		}
		if (any) {
			if (sb->len == 0)
				strbuf_printf(sb, "%s\n", _("still to run (a script "
				    "cannot do these):"));
			head = wfinding_headline(f);
			strbuf_printf(sb, "  %s %s\n", words_severity(f->severity),
			    head);
			free(head);
			for (size_t j = 0; j < lines.n; j++)
				strbuf_printf(sb, "    %s\n", lines.v[j]);
		}
		strv_free(&lines);
	}
	strv_free(&done);
}

char *
wfix_farewell(const struct wfix *fx)
{
	struct strbuf sb = STRBUF_INIT, run = STRBUF_INIT;
	char *how = wfix_howto(fx);

	left_to_run(&fx->r->findings, &run);
	if (how == NULL && run.len == 0) {
		strbuf_free(&run);
		return NULL;
	}
	if (how != NULL) {
		strbuf_printf(&sb, _("cudawiz wrote %s\n"), fx->w_path);
		strbuf_printf(&sb, "%s\n", how);
		if (fx->checked && fx->check.ok)
			strbuf_printf(&sb, "%s\n", _("checked: every library the "
			    "frameworks need resolves inside it"));
		else if (fx->checked)
			strbuf_printf(&sb, _("checked: it does not fix everything "
			    "(cudawiz env --check %s says what)\n"), fx->w_path);
	}
	strbuf_add(&sb, strbuf_str(&run), run.len);
	free(how);
	strbuf_free(&run);
	return strbuf_take(&sb);
}
