/* What the loader rules share: names and versions of libraries, where a
 * file lies, and the fix and evidence lines they write. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_loader_int.h"
#include "i18n.h"
#include "loader/resolve.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------- helpers */

bool
lr_is_value(const struct fact_str *f, const char *value)
{
	return fact_known(f) && strcmp(f->value, value) == 0;
}

bool
lr_streq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

const struct lib_fact *
lr_lib_named(const struct facts *facts, const char *soname)
{
	return facts_library(facts, soname);
}


/* True when path lies strictly below dir (path_under, dir itself not). */
bool
lr_under(const char *path, const char *dir)
{
	return path_under(path, dir) && !path_same(path, dir);
}

/* A directory whose last component is "stubs": where toolkits keep the
 * stub libcuda.so that only serves the linker. */
bool
lr_is_stubs_dir(const char *dir)
{
	char *n;
	bool stubs;

	if (dir == NULL)
		return false;
	n = path_normalise(dir);
	stubs = strcmp(path_basename(n), "stubs") == 0;
	free(n);
	return stubs;
}

/* "libcudart" for "libcudart.so.12"; the caller frees it. NULL when the
 * name has no ".so". */
char *
lr_stem_of(const char *soname)
{
	const char *so = strstr(soname, ".so");

	if (so == NULL || (so[3] != '\0' && so[3] != '.'))
		return NULL;
	return xstrndup(soname, (size_t)(so - soname));
}

/* The version a library file name carries after "stem.so.", or false:
 * "libcudart.so.12.4.127" gives 12.4.127. */
bool
lr_name_version(const char *name, const char *stem, struct version *v)
{
	size_t sl;

	if (stem == NULL)
		return false;
	sl = strlen(stem);
	return strncmp(name, stem, sl) == 0 && strncmp(name + sl, ".so.", 4) == 0 &&
	    version_parse(name + sl + 4, v);
}

/* The version a soname claims, "libcudart.so.11.0" → 11.0; false for an
 * unversioned name, which claims none. */
bool
lr_soname_version(const char *soname, struct version *v)
{
	char *stem = lr_stem_of(soname);
	bool ok = lr_name_version(soname, stem, v);

	free(stem);
	return ok;
}

bool
lr_is_libcuda(const char *soname)
{
	return lr_streq(soname, "libcuda.so.1") || lr_streq(soname, "libcuda.so");
}

/* Driver libraries carry the driver's version in their file names, not
 * the soname's. */
bool
lr_is_driver_lib(const char *soname)
{
	return strncmp(soname, "libcuda.so", 10) == 0 ||
	    strncmp(soname, "libnvidia-", 10) == 0;
}

char *
lr_quoted(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	shquote(&sb, s);
	return strbuf_take(&sb);
}

void
lr_fix_comment(struct finding *f, const char *text)
{
	strv_pushf(&f->fix, "# %s", text);
}

/* A fix command with the comment that introduces it, unless an earlier
 * library's part of the same finding already gave that command. */
void
lr_fix_once(struct finding *f, const char *comment, char *line)
{
	if (!strv_contains(&f->fix, line)) {
		lr_fix_comment(f, comment);
		strv_push(&f->fix, line);
	}
	free(line);
}

/* System directories need root to change; a user's own do not. */
static const char *
sudo_for(const char *path)
{
	static const char *const sys[] = { "/usr/", "/lib", "/opt/", "/etc/",
	    "/bin", "/sbin" };

	for (size_t i = 0; i < sizeof sys / sizeof *sys; i++)
		if (strncmp(path, sys[i], strlen(sys[i])) == 0)
			return "sudo ";
	return "";
}

void
lr_fix_rm(struct finding *f, const char *path)
{
	char *q = lr_quoted(path);

	strv_pushf(&f->fix, "%srm -- %s", sudo_for(path), q);
	free(q);
}

void
lr_fix_chmod_readable(struct finding *f, const char *path)
{
	char *q = lr_quoted(path);

	strv_pushf(&f->fix, "%schmod a+r -- %s", sudo_for(path), q);
	free(q);
}

/* export LD_LIBRARY_PATH=DIR"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" */
void
lr_fix_prepend(struct finding *f, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "export LD_LIBRARY_PATH=");
	shquote(&sb, dir);
	strbuf_puts(&sb, "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"");
	strv_push_owned(&f->fix, strbuf_take(&sb));
}

/* The same change written by `cudawiz env` as a script for the user's
 * shell: reversible, never an empty entry, and provable with --check.
 * Once per finding; python_env and toolkit become its options. */
void
lr_fix_env_script(struct finding *f, const char *python_env,
    const char *toolkit)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < f->fix.n; i++)
		if (strncmp(f->fix.v[i], "cudawiz env", 11) == 0)
			return;
	strbuf_puts(&sb, "cudawiz env");
	if (python_env != NULL) {
		strbuf_puts(&sb, " --python-env ");
		shquote(&sb, python_env);
	}
	if (toolkit != NULL) {
		strbuf_puts(&sb, " --toolkit ");
		shquote(&sb, toolkit);
	}
	strbuf_puts(&sb, " -o cuda-env.sh && . ./cuda-env.sh");
	lr_fix_comment(f, _("or let cudawiz write the change as a script for "
	    "your shell, with a way back (see 'cudawiz env --help'):"));
	strv_push_owned(&f->fix, strbuf_take(&sb));
}

/* "usr-local-cuda-13.0-lib64.conf": a file name for a directory. */
static char *
conf_name(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = dir; *p != '\0'; p++) {
		if (*p == '/') {
			if (sb.len > 0 && p[1] != '\0')
				strbuf_putc(&sb, '-');
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		    *p == '-') {
			strbuf_putc(&sb, *p);
		} else {
			strbuf_putc(&sb, '_');
		}
	}
	if (sb.len == 0)
		strbuf_puts(&sb, "root");
	strbuf_puts(&sb, ".conf");
	return strbuf_take(&sb);
}

/* A line of /etc/ld.so.conf cannot hold a newline, and ldconfig splits
 * at blanks in older versions: such a directory gets no conf fix. */
bool
lr_conf_safe(const char *dir)
{
	return strpbrk(dir, "\n\t \r") == NULL;
}

/* printf '%s\n' DIR | sudo tee /etc/ld.so.conf.d/NAME.conf, then ldconfig. */
void
lr_fix_ldconf(struct finding *f, const char *dir, const char *file)
{
	char *qd = lr_quoted(dir), *name = file != NULL ? NULL : conf_name(dir);
	char *path = file != NULL ? xstrdup(file) :
	    xasprintf("/etc/ld.so.conf.d/%s", name);
	char *qp = lr_quoted(path);

	strv_pushf(&f->fix, "printf '%%s\\n' %s | sudo tee %s", qd, qp);
	fd_ldconfig(f);
	free(qd);
	free(name);
	free(path);
	free(qp);
}

/* The ld.so.conf file that lists dir, or NULL. */
const char *
lr_ldconf_file_of(const struct facts *facts, const char *dir)
{
	for (size_t i = 0; i < facts->env.ldconf.n; i++)
		if (path_same(facts->env.ldconf.v[i].dir, dir))
			return facts->env.ldconf.v[i].from;
	return NULL;
}

/* True when ldconfig puts dir's libraries into the cache: an ld.so.conf
 * directory or one of the trusted ones it always scans. */
bool
lr_ldconfig_scans(const struct facts *facts, const char *dir)
{
	static const char *const trusted[] = {
		"/lib", "/usr/lib", "/lib64", "/usr/lib64",
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	};

	if (lr_ldconf_file_of(facts, dir) != NULL)
		return true;
	for (size_t i = 0; i < sizeof trusted / sizeof *trusted; i++)
		if (path_same(trusted[i], dir))
			return true;
	return false;
}

/*
 * sudo sed -i '\|^DIR/...$|d' FILE: drops the line that lists dir
 * (trailing slashes and blanks allowed). The directory is matched
 * literally: every character sed would read as special is escaped.
 */
char *
lr_ldconf_drop_line(const char *dir, const char *file)
{
	struct strbuf re = STRBUF_INIT;
	char *qre, *qf, *n = path_normalise(dir), *line;

	strbuf_puts(&re, "\\|^[[:space:]]*");
	for (const char *p = n; *p != '\0'; p++) {
		if (strchr("\\|.[]*^$", *p) != NULL)
			strbuf_putc(&re, '\\');
		strbuf_putc(&re, *p);
	}
	strbuf_puts(&re, "/*[[:space:]]*$|d");
	qre = lr_quoted(strbuf_str(&re));
	qf = lr_quoted(file);
	line = xasprintf("sudo sed -i %s %s", qre, qf);
	strbuf_free(&re);
	free(qre);
	free(qf);
	free(n);
	return line;
}

void
lr_fix_ldconf_drop(struct finding *f, const char *dir, const char *file)
{
	strv_push_owned(&f->fix, lr_ldconf_drop_line(dir, file));
}

/* The line that sets LD_LIBRARY_PATH to its entries less those drop()
 * rejects, keeping the order; empty, missing and repeated entries go too,
 * as in rules_env.c's fixes, so pasting one fix never brings back what
 * another removed. *dropped says whether drop() rejected any. */
static char *
llp_line(const struct facts *facts,
    bool (*drop)(const char *dir, const void *arg), const void *arg,
    bool *dropped)
{
	const struct path_var *pv = &facts->env.ld_library_path;
	struct strbuf val = STRBUF_INIT, line = STRBUF_INIT;

	*dropped = false;
	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];

		if (e->empty || e->exists == 0 || e->duplicate_of >= 0 ||
		    (e->exists == 1 && !e->is_dir))
			continue;
		if (drop(e->value, arg)) {
			*dropped = true;
			continue;
		}
		if (val.len > 0)
			strbuf_putc(&val, ':');
		strbuf_puts(&val, e->value);
	}
	if (val.len == 0) {
		strbuf_free(&val);
		return xstrdup("unset LD_LIBRARY_PATH");
	}
	strbuf_puts(&line, "export LD_LIBRARY_PATH=");
	shquote(&line, strbuf_str(&val));
	strbuf_free(&val);
	return strbuf_take(&line);
}

char *
lr_llp_filter(const struct facts *facts,
    bool (*drop)(const char *dir, const void *arg), const void *arg)
{
	bool dropped;
	char *line = llp_line(facts, drop, arg, &dropped);

	if (!dropped)
		FREE(&line);
	return line;
}

struct llp_drop {
	const struct strv	*dirs;
	bool			 stubs;
};

static bool
llp_drop_listed(const char *dir, const void *arg)
{
	const struct llp_drop *d = arg;

	if (d->stubs && lr_is_stubs_dir(dir))
		return true;
	for (size_t j = 0; d->dirs != NULL && j < d->dirs->n; j++)
		if (path_same(dir, d->dirs->v[j]))
			return true;
	return false;
}

char *
lr_llp_without(const struct facts *facts, const struct strv *drop,
    bool drop_stubs)
{
	struct llp_drop d = { drop, drop_stubs };
	bool dropped;

	return llp_line(facts, llp_drop_listed, &d, &dropped);
}

/* True when dir is one of LD_LIBRARY_PATH's entries. */
static bool
on_llp(const struct facts *facts, const char *dir)
{
	const struct path_var *pv = &facts->env.ld_library_path;

	for (size_t i = 0; i < pv->entries.n; i++)
		if (!pv->entries.v[i].empty && path_same(pv->entries.v[i].value, dir))
			return true;
	return false;
}

/* How a winner was reached, in words. */
const char *
lr_via_words(enum step_source via)
{
	return step_words(via, STEPW_SENTENCE);
}

/* export LD_LIBRARY_PATH=DIRS"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}": the
 * old value's expansion is quoted so that no shell splits it. */
char *
lr_llp_prepend_line(const char *dirs)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "export LD_LIBRARY_PATH=");
	shquote(&sb, dirs);
	strbuf_puts(&sb, "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"");
	return strbuf_take(&sb);
}

/* "LD_LIBRARY_PATH entry /opt/x", "the ld.so.cache", … for one step. */
char *
lr_step_words(const struct resolve_step *s)
{
	const char *dir = s->dir != NULL ? s->dir : "";

	switch (s->source) {
	case STEP_LD_LIBRARY_PATH:
		return xasprintf(_("LD_LIBRARY_PATH entry %s"), dir);
	case STEP_RPATH:
		return xasprintf(_("DT_RPATH entry %s"), dir);
	case STEP_RUNPATH:
		return xasprintf(_("DT_RUNPATH entry %s"), dir);
	case STEP_CACHE:
		/* Under --root a tree without a cache has its ld.so.conf
		 * directories searched in the cache's place. */
		if (s->dir != NULL)
			return xasprintf(_("ld.so.conf directory %s"), dir);
		return xstrdup(_("the ld.so.cache"));
	case STEP_DEFAULT:
		return xasprintf(_("default directory %s"), dir);
	case STEP_LOADED:
		return xstrdup(_("the objects already loaded"));
	case STEP_NONE:
	case STEP_PATH:
		break;
	}
	return xstrdup(_("the path as given"));
}

/* The step that found the winner, or NULL. */
static const struct resolve_step *
winner_step(const struct lib_fact *lib)
{
	if (lib->resolved == NULL || lib->steps.n == 0 ||
	    lib->steps.v[lib->steps.n - 1].result != STEP_FOUND)
		return NULL;
	return &lib->steps.v[lib->steps.n - 1];
}

/* "libcudart.so.12 resolves to /x/libcudart.so.12 (LD_LIBRARY_PATH entry
 * /x), the file /x/libcudart.so.12.4.127" */
void
lr_winner_evidence(struct finding *f, const struct lib_fact *lib)
{
	const struct resolve_step *w = winner_step(lib);
	char *words = w != NULL ? lr_step_words(w) : xstrdup(lr_via_words(lib->via));

	if (lib->target != NULL && strcmp(lib->target, lib->resolved) != 0)
		strv_pushf(&f->evidence, _("%s resolves to %s (%s), the file %s"),
		    lib->soname, lib->resolved, words, lib->target);
	else
		strv_pushf(&f->evidence, _("%s resolves to %s (%s)"),
		    lib->soname, lib->resolved, words);
	free(words);
}

/* Directories named per kind of step: a search list of 10,000 entries
 * makes one line, not a page; the rest are counted. */
#define LR_SEARCH_DIRS_MAX	10

/* One line per kind of step, for a name no step found: where the
 * loader looked. */
void
lr_search_evidence(struct finding *f, const struct lib_fact *lib)
{
	static const enum step_source order[] = {
		STEP_RPATH, STEP_LD_LIBRARY_PATH, STEP_RUNPATH, STEP_CACHE,
		STEP_DEFAULT,
	};

	for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
		struct strbuf dirs = STRBUF_INIT;
		size_t named = 0, more = 0;

		for (size_t i = 0; i < lib->steps.n; i++) {
			const struct resolve_step *s = &lib->steps.v[i];

			if (s->source != order[k] || s->dir == NULL ||
			    (s->result != STEP_NOT_FOUND &&
			    s->result != STEP_DIR_MISSING))
				continue;
			if (named == LR_SEARCH_DIRS_MAX) {
				more++;
				continue;
			}
			named++;
			if (dirs.len > 0)
				strbuf_puts(&dirs, ", ");
			strbuf_puts(&dirs, s->dir);
			if (s->result == STEP_DIR_MISSING)
				strbuf_puts(&dirs, _(" (missing)"));
			else if (s->detail != NULL)
				strbuf_printf(&dirs, " (%s)", s->detail);
		}
		if (more > 0) {
			strbuf_puts(&dirs, ", ");
			strbuf_printf(&dirs, ngettext("… and %zu more",
			    "… and %zu more", more), more);
		}
		if (dirs.len > 0) {
			strv_pushf(&f->evidence, _("not in %s: %s"),
			    step_words(order[k], STEPW_LIST), strbuf_str(&dirs));
		}
		strbuf_free(&dirs);
	}
	for (size_t i = 0; i < lib->steps.n; i++) {
		const struct resolve_step *s = &lib->steps.v[i];

		if (s->source != STEP_CACHE || s->result != STEP_NOT_FOUND ||
		    s->path != NULL || s->dir != NULL)
			continue;
		if (s->detail != NULL)
			strv_pushf(&f->evidence, _("the ld.so.cache: %s"), s->detail);
		else
			strv_pushf(&f->evidence, _("the ld.so.cache has no entry for %s"),
			    lib->soname);
	}
	if (lib->error != NULL)
		strv_pushf(&f->evidence, _("the loader's error: %s"), lib->error);
}

/* A copy no step reaches that the loader would take: what a fix points
 * the search at. Copies that carry the right SONAME come first, then
 * those outside pip's site-packages (frameworks reach those themselves). */
const struct lib_copy *
lr_best_off_path_copy(const struct lib_fact *lib)
{
	const struct lib_copy *best = NULL;
	int best_score = -1;

	for (size_t i = 0; i < lib->copies.n; i++) {
		const struct lib_copy *c = &lib->copies.v[i];
		int score = 0;

		if (!c->loadable || c->tried || c->stub)
			continue;
		if (c->soname == NULL || lr_streq(c->soname, lib->soname))
			score += 2;
		if (strstr(c->path, "-packages/") == NULL)
			score += 1;
		if (score > best_score) {
			best = c;
			best_score = score;
		}
	}
	return best;
}

/*
 * True when path belongs to a Python or conda environment: wheels under
 * site-packages, a pip-layout toolkit, pip's cuDNN, the active conda
 * environment or virtualenv. Their programs reach these libraries
 * through their own RPATH ($ORIGIN/../lib), so a plain program not
 * reaching them is how it should be; putting them on LD_LIBRARY_PATH is
 * what breaks the system's tools.
 */
bool
lr_env_managed(const struct facts *facts, const char *path)
{
	static const enum env_var_id prefixes[] = {
		ENV_CONDA_PREFIX, ENV_VIRTUAL_ENV,
	};

	for (size_t i = 0; i < facts->toolkits.n; i++)
		if (facts->toolkits.v[i].layout == TOOLKIT_LAYOUT_PIP &&
		    lr_under(path, facts->toolkits.v[i].root))
			return true;
	for (size_t i = 0; i < facts->cudnn.n; i++)
		if (lr_streq(facts->cudnn.v[i].where, "pip") &&
		    lr_under(path, facts->cudnn.v[i].lib_dir))
			return true;
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
		const struct env_var *v = &facts->env.var[prefixes[i]];

		if (v->set && v->value != NULL && v->value[0] == '/' &&
		    lr_under(path, v->value))
			return true;
	}
	return strstr(path, "-packages/") != NULL;
}

/* True when dir is a PATH entry holding CUDA libraries: rules_env.c's
 * LIBDIR_ON_PATH already says to put it on LD_LIBRARY_PATH. */
bool
lr_libdir_on_path(const struct facts *facts, const char *dir)
{
	const struct path_var *pv = &facts->env.path;

	for (size_t i = 0; i < pv->entries.n; i++)
		if (!pv->entries.v[i].empty && pv->entries.v[i].has_cuda_libs &&
		    path_same(pv->entries.v[i].value, dir))
			return true;
	return false;
}

/* The fixes that make dir reachable: LD_LIBRARY_PATH for this shell, or
 * ld.so.conf for every program; just ldconfig when ld.so.conf already
 * lists it and the cache is only stale. */
void
lr_fix_reach(struct finding *f, const struct facts *facts, const char *dir)
{
	lr_fix_reach_name(f, facts, dir, NULL, NULL);
}

void
lr_fix_reach_name(struct finding *f, const struct facts *facts,
    const char *dir, const char *name, const struct lib_copy *copy)
{
	if (name != NULL && lr_ldconfig_scans(facts, dir) && !on_llp(facts, dir)) {
		switch (fd_ldconfig_effect(facts, name, copy)) {
		case FD_LDC_CHANGES:
			lr_fix_comment(f, _("ldconfig already scans this directory; "
			    "the cache is stale, so rebuild it:"));
			fd_ldconfig(f);
			return;
		case FD_LDC_CURRENT:
			/* Rerunning it changes nothing: the cache is current. */
			fd_ldconfig_for(f, facts, name, copy);
			return;
		case FD_LDC_NEVER:
			break;
		}
		/* ldconfig files libraries under their SONAME only: rerunning
		 * it changes nothing for a name without a version, or for a
		 * file whose SONAME is another name. */
		fd_ldconfig_for(f, facts, name, copy);
		lr_fix_comment(f, _("the loader finds that name only by "
		    "searching a directory:"));
		lr_fix_prepend(f, dir);
		if (strncmp(name, "libcuda.so", 10) == 0)
			lr_fix_comment(f, _("or have the program load libcuda.so.1, "
			    "the name the driver installs"));
		return;
	}
	if (name == NULL && lr_ldconfig_scans(facts, dir) && !on_llp(facts, dir)) {
		lr_fix_comment(f, _("ldconfig already scans this directory; the "
		    "cache is stale, so rebuild it:"));
		fd_ldconfig(f);
		return;
	}
	lr_fix_comment(f, _("for this shell and the programs it starts:"));
	lr_fix_prepend(f, dir);
	if (lr_conf_safe(dir)) {
		lr_fix_comment(f, _("or for every program on this machine:"));
		lr_fix_ldconf(f, dir, NULL);
	}
}
