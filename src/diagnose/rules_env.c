/* Rules about the environment variables: ENV_PATH_MISSING,
 * EMPTY_PATH_ENTRY, DUPLICATE_PATH_ENTRY and LIBDIR_ON_PATH.
 *
 * Every fix for a search path is the same corrected assignment: the
 * variable rebuilt without its empty, missing and repeated entries, in the
 * original order (the first copy is the one that was searched), so pasting
 * the fix of any one of these findings clears all of them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define EVIDENCE_LIMIT	10
/* Evidence is read by people: a 10,000-entry value is shown cut. */
#define VALUE_SHOWN	120

/* Directories the loader searches without being told (see libsearch.c). */
static const char *const default_dirs[] = {
	"/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib",
};

/*
 * True when entry i repeats its first copy only because /X is a link to
 * /usr/X (merged /usr: /bin and /usr/bin, /lib/x86_64-linux-gnu and
 * /usr/lib/x86_64-linux-gnu). Stock PATHs name both on purpose, so the
 * repeat is no one's mistake and is neither reported nor removed.
 */
static bool
usr_merge_alias(const struct path_var *pv, size_t i)
{
	const struct path_entry *e = &pv->entries.v[i];
	char *a, *b;
	bool alias;

	if (e->duplicate_of < 0 || (size_t)e->duplicate_of >= pv->entries.n)
		return false;
	a = path_normalise(e->value);
	b = path_normalise(pv->entries.v[e->duplicate_of].value);
	alias = (strncmp(a, "/usr/", 5) == 0 && strcmp(a + 4, b) == 0) ||
	    (strncmp(b, "/usr/", 5) == 0 && strcmp(b + 4, a) == 0);
	free(a);
	free(b);
	return alias;
}

/* Entry i stays in a corrected value: it is a directory, or might be. */
static bool
entry_kept(const struct path_var *pv, size_t i)
{
	const struct path_entry *e = &pv->entries.v[i];

	return !e->empty && e->exists != 0 && !(e->exists == 1 && !e->is_dir) &&
	    (e->duplicate_of < 0 || usr_merge_alias(pv, i));
}

/* The pasteable line that sets pv to its corrected value. */
static char *
corrected_assignment(const struct path_var *pv)
{
	struct strbuf val = STRBUF_INIT, line = STRBUF_INIT;

	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];

		if (!entry_kept(pv, i))
			continue;
		if (val.len > 0)
			strbuf_putc(&val, ':');
		strbuf_puts(&val, e->value);
	}
	if (val.len == 0) {
		strbuf_free(&val);
		/* Without PATH nothing runs: fall back to the usual system
		 * directories rather than unsetting it. */
		if (strcmp(pv->name, "PATH") == 0)
			return xstrdup("export PATH=/usr/local/bin:/usr/bin:/bin");
		return xasprintf("unset %s", pv->name);
	}
	strbuf_printf(&line, "export %s=", pv->name);
	shquote(&line, strbuf_str(&val));
	strbuf_free(&val);
	return strbuf_take(&line);
}

/* NAME=value for evidence, cut to VALUE_SHOWN bytes. */
static char *
shown_value(const char *name, const char *value)
{
	size_t len = strlen(value);

	if (len <= VALUE_SHOWN)
		return xasprintf("%s=%s", name, value);
	return xasprintf(_("%s=%.*s… (%zu bytes)"), name, VALUE_SHOWN, value,
	    len);
}

/* ---------------------------------------------------------- ENV_PATH_MISSING */

static void
missing_in_path_var(const struct path_var *pv, enum severity sev,
    struct findings *out)
{
	struct strv ev = STRV_INIT;
	size_t missing = 0;
	const char *first = NULL;
	struct finding *f;

	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];

		if (e->empty || e->duplicate_of >= 0)
			continue;
		if (e->exists == 0)
			strv_pushf(&ev, _("%s (entry %zu): %s"), e->value, i + 1,
			    e->why != NULL ? e->why : _("does not exist"));
		else if (e->exists == 1 && !e->is_dir)
			strv_pushf(&ev, _("%s (entry %zu): not a directory"),
			    e->value, i + 1);
		else
			continue;
		if (missing++ == 0)
			first = e->value;
	}
	if (missing == 0)
		return;
	f = finding_add(out, FINDING_ENV_PATH_MISSING,
	    ngettext("%s has %zu entry that is not an existing directory. "
	    "It is tried and skipped every time, and a directory made there "
	    "later would be searched without anyone meaning it to.",
	    "%s has %zu entries that are not existing directories. "
	    "They are tried and skipped every time, and a directory made there "
	    "later would be searched without anyone meaning it to.", missing),
	    pv->name, missing);
	subj_entry(f, pv->name, first, missing);
	f->severity = sev;
	f->evidence = ev;
	finding_evidence_cap(f, EVIDENCE_LIMIT);
	strv_push_owned(&f->fix, corrected_assignment(pv));
	lr_fix_env_script(f, NULL, NULL);
}

/* The toolkit to point CUDA_HOME / CUDA_PATH at: the one whose nvcc is on
 * PATH, else the only one there is; NULL when that is not clear. */
static const struct toolkit_fact *
suggested_toolkit(const struct facts *facts)
{
	for (size_t i = 0; i < facts->toolkits.n; i++)
		if (strv_contains(&facts->toolkits.v[i].found_via, "PATH"))
			return &facts->toolkits.v[i];
	return facts->toolkits.n == 1 ? &facts->toolkits.v[0] : NULL;
}

static void
missing_scalar(const struct facts *facts, const struct env_var *v,
    struct findings *out)
{
	const struct toolkit_fact *tk;
	struct finding *f;
	struct strbuf sb = STRBUF_INIT;

	if (!v->set || v->exists != 0)
		return;
	if (v->value[0] == '\0')
		f = finding_add(out, FINDING_ENV_PATH_MISSING,
		    _("%s is set but empty. Build tools that read it look for "
		    "the toolkit in the current directory or give up."), v->name);
	else
		f = finding_add(out, FINDING_ENV_PATH_MISSING,
		    _("%s names %s, which does not exist. Build tools that read "
		    "it (CMake, PyTorch extensions, conda recipes) will not find "
		    "the toolkit there."), v->name, v->value);
	finding_subject(f, "%s=%s", v->name, v->value);
	strv_pushf(&f->evidence, "%s=%s: %s", v->name, v->value,
	    v->why != NULL ? v->why : _("does not exist"));
	tk = suggested_toolkit(facts);
	if (tk != NULL) {
		strbuf_printf(&sb, "export %s=", v->name);
		shquote(&sb, tk->root);
		strv_push_owned(&f->fix, strbuf_take(&sb));
	} else {
		strv_pushf(&f->fix, "unset %s", v->name);
	}
	lr_fix_env_script(f, NULL, tk != NULL ? tk->root : NULL);
}

/* ---------------------------------------------------------- EMPTY_PATH_ENTRY */

static void
empty_entries(const struct path_var *pv, struct findings *out)
{
	bool is_llp = strcmp(pv->name, "LD_LIBRARY_PATH") == 0;
	size_t empties = 0, n = pv->entries.n;
	struct finding *f;

	if (!pv->set)
		return;
	if (is_llp && pv->raw[0] == '\0') {
		/* glibc skips an empty value, so nothing is searched yet; the
		 * danger is the next "/dir:$LD_LIBRARY_PATH", which leaves a
		 * trailing ':' and so the current directory in the search. */
		f = finding_add(out, FINDING_EMPTY_PATH_ENTRY,
		    _("LD_LIBRARY_PATH is set but empty. The loader ignores an "
		    "empty value, but a script that then prepends with "
		    "\"/dir:$LD_LIBRARY_PATH\" leaves a trailing ':', an empty "
		    "entry, and the loader searches the current directory for "
		    "every library."));
		finding_subject(f, "LD_LIBRARY_PATH=");
		f->severity = SEV_INFO;
		strv_push(&f->evidence, "LD_LIBRARY_PATH=");
		strv_push(&f->fix, "unset LD_LIBRARY_PATH");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (pv->entries.v[i].empty)
			empties++;
	if (empties == 0)
		return;
	if (is_llp)
		f = finding_add(out, FINDING_EMPTY_PATH_ENTRY,
		    _("LD_LIBRARY_PATH has an empty entry (a leading or trailing "
		    "':' or ';', or two in a row). The loader reads it as the "
		    "current directory: a program started from a directory that "
		    "holds a stray libcudart.so or libcuda.so loads that file. "
		    "Prepend with \"/dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\" "
		    "to avoid this."));
	else
		f = finding_add(out, FINDING_EMPTY_PATH_ENTRY,
		    _("%s has an empty entry (a leading or trailing ':', or two in "
		    "a row). The shell reads it as the current directory, so a "
		    "program of the same name in whatever directory you are in "
		    "runs instead of the installed one."), pv->name);
	finding_subject(f, "%s", pv->name);
	strv_push_owned(&f->evidence, shown_value(pv->name, pv->raw));
	for (size_t i = 0; i < n; i++) {
		const struct path_entry *e = &pv->entries.v[i];

		if (!e->empty)
			continue;
		if (n == 1)
			strv_pushf(&f->evidence, _("the whole value is one empty entry"));
		else if (i == 0)
			strv_pushf(&f->evidence, _("entry 1 is empty (a leading separator)"));
		else if (i == n - 1)
			strv_pushf(&f->evidence, _("entry %zu is empty (a trailing separator)"),
			    i + 1);
		else
			strv_pushf(&f->evidence, _("entry %zu is empty (between %s and %s)"),
			    i + 1, pv->entries.v[i - 1].empty ? _("another empty entry") :
			    pv->entries.v[i - 1].value, pv->entries.v[i + 1].empty ?
			    _("another empty entry") : pv->entries.v[i + 1].value);
	}
	finding_evidence_cap(f, EVIDENCE_LIMIT + 1);
	strv_push_owned(&f->fix, corrected_assignment(pv));
	lr_fix_env_script(f, NULL, NULL);
}

/* ------------------------------------------------------ DUPLICATE_PATH_ENTRY */

static void
duplicate_entries(const struct path_var *pv, struct findings *out)
{
	struct strv ev = STRV_INIT;
	size_t dups = 0;
	const char *dup = NULL;
	struct finding *f;

	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];
		const struct path_entry *first;

		if (e->empty || e->duplicate_of < 0 ||
		    (size_t)e->duplicate_of >= pv->entries.n ||
		    usr_merge_alias(pv, i))
			continue;
		first = &pv->entries.v[e->duplicate_of];
		if (dups++ == 0)
			dup = first->value;
		if (strcmp(first->value, e->value) == 0)
			strv_pushf(&ev, _("entry %zu repeats entry %ld: %s"), i + 1,
			    e->duplicate_of + 1, e->value);
		else
			strv_pushf(&ev, _("entry %zu (%s) is the same directory as entry %ld (%s)"),
			    i + 1, e->value, e->duplicate_of + 1, first->value);
	}
	if (dups == 0)
		return;
	f = finding_add(out, FINDING_DUPLICATE_PATH_ENTRY,
	    ngettext("%s has %zu entry that repeats an earlier one. Only the "
	    "first copy is ever used; the rest cost a lookup each and make the "
	    "value hard to read, usually because a startup script prepends on "
	    "every shell.",
	    "%s has %zu entries that repeat an earlier one. Only the "
	    "first copy is ever used; the rest cost a lookup each and make the "
	    "value hard to read, usually because a startup script prepends on "
	    "every shell.", dups), pv->name, dups);
	subj_entry(f, pv->name, dup, dups);
	f->evidence = ev;
	finding_evidence_cap(f, EVIDENCE_LIMIT);
	strv_push_owned(&f->fix, corrected_assignment(pv));
}

/* ------------------------------------------------------------ LIBDIR_ON_PATH */

/* True when the loader reaches dir without PATH's help. */
static bool
loader_reaches(const struct facts *facts, const char *dir)
{
	const struct env_facts *env = &facts->env;
	bool found = false;

	for (size_t i = 0; i < env->ld_library_path.entries.n && !found; i++) {
		const struct path_entry *e = &env->ld_library_path.entries.v[i];
		char *n;

		if (e->empty)
			continue;
		n = path_normalise(e->value);
		found = strcmp(n, dir) == 0;
		free(n);
	}
	for (size_t i = 0; i < env->ldconf.n && !found; i++) {
		char *n = path_normalise(env->ldconf.v[i].dir);

		found = strcmp(n, dir) == 0;
		free(n);
	}
	for (size_t i = 0; i < sizeof default_dirs / sizeof default_dirs[0] &&
	    !found; i++)
		found = strcmp(default_dirs[i], dir) == 0;
	return found;
}

static void
libdirs_on_path(const struct facts *facts, struct findings *out)
{
	const struct path_var *pv = &facts->env.path;
	struct strbuf dirs = STRBUF_INIT;
	struct strv ev = STRV_INIT;
	struct finding *f;

	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];
		char *n;

		if (!e->has_cuda_libs || e->empty || e->duplicate_of >= 0)
			continue;
		n = path_normalise(e->value);
		if (!loader_reaches(facts, n)) {
			strv_pushf(&ev, _("PATH entry %zu, %s, holds CUDA libraries"),
			    i + 1, e->value);
			if (dirs.len > 0)
				strbuf_putc(&dirs, ':');
			strbuf_puts(&dirs, e->value);
		}
		free(n);
	}
	if (ev.n == 0) {
		strbuf_free(&dirs);
		return;
	}
	f = finding_add(out, FINDING_LIBDIR_ON_PATH,
	    _("PATH is where the shell looks for programs; the dynamic loader "
	    "never reads it. The CUDA libraries in these directories are not "
	    "found through PATH: add the directories to LD_LIBRARY_PATH."));
	subj_entry(f, "PATH", strbuf_str(&dirs), 1);
	f->evidence = ev;
	finding_evidence_cap(f, EVIDENCE_LIMIT);
	strv_push_owned(&f->fix, lr_llp_prepend_line(strbuf_str(&dirs)));
	strbuf_free(&dirs);
}

void
rules_env(const struct facts *facts, struct findings *out)
{
	const struct env_facts *env = &facts->env;

	missing_in_path_var(&env->ld_library_path, SEV_WARNING, out);
	missing_in_path_var(&env->path, SEV_INFO, out);
	missing_scalar(facts, &env->var[ENV_CUDA_HOME], out);
	missing_scalar(facts, &env->var[ENV_CUDA_PATH], out);
	empty_entries(&env->ld_library_path, out);
	empty_entries(&env->path, out);
	duplicate_entries(&env->ld_library_path, out);
	duplicate_entries(&env->path, out);
	libdirs_on_path(facts, out);
}
