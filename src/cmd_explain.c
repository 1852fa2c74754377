/* cudawiz explain TEXT|-: paste an error message; get the finding and the
 * fix.
 *
 * The text (the arguments joined by blanks, or standard input for "-",
 * cut at EXPLAIN_INPUT_MAX) is recognised (explain/recognize.c); each
 * library it names is resolved on this machine, or under --root, by the
 * loader model, and the files of a library that lacks a symbol version are
 * read for the ones that define it; the probes describe the driver,
 * toolkits and cuDNN; rules_explain() turns all of it into findings. */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "explain_input.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "loader/elfobj.h"
#include "loader/resolve.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/explain.h"
#include "present/html.h"
#include "present/style.h"
#include "probe/probe.h"
#include "run/run.h"
#include "sysroot/sysroot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

extern char **environ;

/* Libraries named by text that matches nothing are resolved too, but not
 * a whole log's worth. */
#define MENTIONED_RESOLVED	8

struct run {
	const struct cli_opts	*opts;
	struct explain_input	 input;
	struct explain		 ex;
	const struct matrix	*m;		/* these three: the pipeline's */
	struct sysroot		*sr;
	struct facts		*facts;
	struct loader_session	 ls;
	struct strv		 ldconf, extra;
	struct strv		 sonames;
	struct lib_fact		*libs;
	struct strv		*defining;	/* per match */
	struct explain_where	*where;		/* per match */
	struct findings		 findings;
};

/* --------------------------------------------------- this machine's view */

/* Whether the file at path defines what m misses: the symbol of that
 * version (a library can define the version node and still lack a
 * symbol a newer build added), or the version alone. False when the file
 * cannot be read. */
static bool
defines_version(const struct sysroot *sr, const char *path,
    const struct explain_match *m)
{
	struct elfobj obj;
	char *err = NULL;
	bool yes = false;

	if (elfobj_read(sr, path, m->symbol != NULL ? ELFOBJ_SYMBOLS :
	    ELFOBJ_DYNAMIC, &obj, &err) == 0)
		yes = m->symbol != NULL ?
		    elfobj_find_symbol(&obj, m->symbol, m->version, true) != NULL :
		    strv_contains(&obj.verdefs, m->version);
	free(err);
	elfobj_free(&obj);
	return yes;
}

/* For a match about a missing version or symbol: the files of its
 * library here that define it, the winner first. */
static void
find_defining(struct run *r)
{
	for (size_t i = 0; i < r->ex.matches.n; i++) {
		const struct explain_match *m = &r->ex.matches.v[i];
		const char *so = m->soname != NULL ? m->soname : r->where[i].provider;
		const struct lib_fact *lib;

		if (r->where[i].elsewhere || so == NULL || !((m->kind ==
		    EXPLAIN_VERSION_NOT_FOUND && m->version != NULL) ||
		    (m->kind == EXPLAIN_UNDEFINED_SYMBOL && (m->version != NULL ||
		    r->where[i].provider != NULL)) ||
		    (m->kind == EXPLAIN_DLSYM_MISSING && m->symbol != NULL)) ||
		    (lib = explain_lib_of(&r->sonames, r->libs, so)) == NULL)
			continue;
		if (lib->resolved != NULL &&
		    defines_version(r->sr, lib->resolved, m))
			strv_push(&r->defining[i], lib->resolved);
		for (size_t k = 0; k < lib->copies.n; k++)
			if (lib->copies.v[k].loadable &&
			    defines_version(r->sr, lib->copies.v[k].path, m) &&
			    !strv_contains(&r->defining[i], lib->copies.v[k].path))
				strv_push(&r->defining[i], lib->copies.v[k].path);
	}
}

static void
resolve_libraries(struct run *r)
{
	for (size_t i = 0; i < r->ex.matches.n; i++) {
		if (r->where[i].elsewhere)
			continue;
		explain_match_sonames(&r->ex.matches.v[i], &r->sonames);
		if (r->where[i].provider != NULL &&
		    !strv_contains(&r->sonames, r->where[i].provider))
			strv_push(&r->sonames, r->where[i].provider);
	}
	if (r->ex.matches.n == 0)
		for (size_t i = 0; i < r->ex.sonames.n &&
		    r->sonames.n < MENTIONED_RESOLVED; i++)
			if (explain_is_soname(r->ex.sonames.v[i]))
				strv_push(&r->sonames, r->ex.sonames.v[i]);
	r->libs = xcalloc(r->sonames.n + 1, sizeof *r->libs);
	for (size_t i = 0; i < r->sonames.n; i++)
		probe_resolve_library(&r->ls.env, r->sonames.v[i], &r->libs[i]);
}

/* ------------------------------------------- which machine, which copy */

/* Paths looked at per message line, and the bounds of the symbol search
 * in a program's closure: a torch extension loads about 40 objects. */
#define WHERE_PATHS_MAX		16
#define CLOSURE_OBJS_MAX	96
#define COPIES_MAX		8

static bool
path_start(const char *t, size_t i)
{
	return t[i] == '/' && t[i + 1] != '/' && (i == 0 ||
	    strchr(" \t'\"(=:,[`<", t[i - 1]) != NULL);
}

/* Whether the message's line names absolute paths, and whether any of
 * them is here: a log pasted from another machine names none that is. */
static void
find_machine(struct run *r, const struct explain_match *m,
    struct explain_where *w)
{
	const char *t = r->input.text;
	size_t a = m->offset, b = m->offset, seen = 0;
	struct stat st;

	while (a > 0 && t[a - 1] != '\n')
		a--;
	while (b < r->input.len && t[b] != '\n' && t[b] != '\0')
		b++;
	/* TensorFlow's "; LD_LIBRARY_PATH: …" is the environment it ran
	 * in (a container's defaults), not files the message is about. */
	for (size_t i = a; i + 18 <= b; i++)
		if (strncasecmp(t + i, "ld_library_path: ", 17) == 0) {
			b = i;
			break;
		}
	for (size_t i = a; i < b && seen < WHERE_PATHS_MAX; i++) {
		size_t e = i;
		char *path;

		if (!path_start(t, i))
			continue;
		while (e < b && strchr(" \t\r'\"():,;`]>", t[e]) == NULL)
			e++;
		while (e > i + 1 && t[e - 1] == '.')
			e--;
		if (e - i < 2) {
			continue;
		}
		path = xstrndup(t + i, e - i);
		seen++;
		w->has_paths = true;
		if (sysroot_lstat(r->sr, path, &st) == 0) {
			free(path);
			FREE(&w->path);
			return;
		}
		if (w->path == NULL)
			w->path = path;
		else
			free(path);
		i = e;
	}
	w->elsewhere = w->has_paths;
}

/* obj defines name (of version, any when NULL): read for its symbols. */
static bool
defines_symbol(const struct sysroot *sr, const char *path, const char *name,
    const char *version)
{
	struct elfobj obj;
	char *err = NULL;
	bool yes = false;

	if (elfobj_read(sr, path, ELFOBJ_SYMBOLS, &obj, &err) == 0)
		yes = elfobj_find_symbol(&obj, name, version, true) != NULL;
	free(err);
	elfobj_free(&obj);
	return yes;
}

/* The soname required_by's own reference to the symbol names through its
 * version (DT_VERNEED's file), or NULL. */
static char *
needed_provider(const struct sysroot *sr, const char *path, const char *sym)
{
	struct elfobj obj;
	const struct elfobj_symbol *u;
	char *err = NULL, *so = NULL;

	if (elfobj_read(sr, path, ELFOBJ_SYMBOLS, &obj, &err) == 0 &&
	    (u = elfobj_find_symbol(&obj, sym, NULL, false)) != NULL &&
	    u->version != NULL)
		for (size_t k = 0; k < obj.verneeds.n && so == NULL; k++)
			if (strv_contains(&obj.verneeds.v[k].names, u->version))
				so = xstrdup(obj.verneeds.v[k].file);
	free(err);
	elfobj_free(&obj);
	return so;
}

/* The copies of name in LD_LIBRARY_PATH's directories after the one
 * the search stopped in, which the resolver never reached. */
static void
llp_copies(const struct run *r, const char *name, struct strv *out)
{
	const char *llp = r->ls.env.ld_library_path, *p, *e;
	struct stat st;
	size_t n = 0;

	for (p = llp; p != NULL && *p != '\0' && n < WHERE_PATHS_MAX; p = e, n++) {
		char *path;

		e = strchr(p, ':');
		e = e != NULL ? e : p + strlen(p);
		if (*p == '/') {
			path = xasprintf("%.*s/%s", (int)(e - p), p, name);
			if (sysroot_stat(r->sr, path, &st) == 0 && S_ISREG(st.st_mode) &&
			    !strv_contains(out, path))
				strv_push_owned(out, path);
			else
				free(path);
		}
		if (*e == ':')
			e++;
	}
}

/* glibc's "F: undefined symbol: S": F needs S. Among F's needs as the
 * loader resolves them here, which one should define S (the one whose
 * other copy here does, or the one F's symbol version names), and the
 * copy of it that loads and lacks it. */
static void
find_provider(struct run *r, size_t i)
{
	const struct explain_match *m = &r->ex.matches.v[i];
	struct explain_where *w = &r->where[i];
	struct resolution res = { 0 };
	struct closure cl = { 0 };
	char *err = NULL, *path = NULL, *named;
	struct stat st;

	if (m->kind != EXPLAIN_UNDEFINED_SYMBOL || m->soname != NULL ||
	    m->symbol == NULL || m->required_by == NULL || w->elsewhere)
		return;
	if (m->required_by[0] == '/') {
		if (sysroot_stat(r->sr, m->required_by, &st) == 0)
			path = xstrdup(m->required_by);
	} else if (explain_is_soname(m->required_by) &&
	    resolve_name(&r->ls.env, m->required_by, NULL, &res)) {
		path = xstrdup(res.resolved);
	}
	resolution_free(&res);
	if (path == NULL || resolve_closure(&r->ls.env, path, &cl, &err) != 0) {
		free(err);
		free(path);
		closure_free(&cl);
		return;
	}
	named = needed_provider(r->sr, path, m->symbol);
	for (size_t k = 1; k < cl.objs.n && k < CLOSURE_OBJS_MAX; k++) {
		const struct loaded_obj *o = &cl.objs.v[k];
		struct resolution rs = { 0 };

		if (o->path == NULL || o->name == NULL || !explain_is_soname(o->name) ||
		    (named != NULL && strcmp(o->name, named) != 0))
			continue;
		if (defines_symbol(r->sr, o->path, m->symbol, m->version)) {
			/* Here it loads: the program ran with another search. */
			w->provider = xstrdup(o->name);
			break;
		}
		/* The other copies: every search directory and the ones the
		 * probes know (toolkits, environments), as a plain dlopen. */
		(void)resolve_name(&r->ls.env, o->name, NULL, &rs);
		if (rs.resolved != NULL && strcmp(rs.resolved, o->path) != 0 &&
		    defines_symbol(r->sr, rs.resolved, m->symbol, m->version))
			strv_push(&r->defining[i], rs.resolved);
		llp_copies(r, o->name, &rs.other_copies);
		for (size_t c = 0; c < rs.other_copies.n && c < COPIES_MAX; c++)
			if (strcmp(rs.other_copies.v[c], o->path) != 0 &&
			    !strv_contains(&r->defining[i], rs.other_copies.v[c]) &&
			    defines_symbol(r->sr, rs.other_copies.v[c], m->symbol,
			    m->version))
				strv_push(&r->defining[i], rs.other_copies.v[c]);
		resolution_free(&rs);
		if (r->defining[i].n > 0 || named != NULL) {
			w->provider = xstrdup(o->name);
			w->loaded = xstrdup(o->path);
			break;
		}
	}
	if (w->provider == NULL && named != NULL)
		w->provider = xstrdup(named);
	free(named);
	free(path);
	closure_free(&cl);
}

static void
find_where(struct run *r)
{
	r->where = xcalloc(r->ex.matches.n + 1, sizeof *r->where);
	r->defining = xcalloc(r->ex.matches.n + 1, sizeof *r->defining);
	for (size_t i = 0; i < r->ex.matches.n; i++) {
		find_machine(r, &r->ex.matches.v[i], &r->where[i]);
		find_provider(r, i);
	}
}

/* ---------------------------------------------------------------- report */

/* The report is present/explain.c's; the run lends it what it shows. */
static void
view_of(const struct run *r, struct explain_view *v)
{
	v->input = r->input.text;
	v->input_len = r->input.len;
	v->input_cut = r->input.cut;
	v->ex = &r->ex;
	v->m = r->m;
	v->root = r->facts->root;
	v->sonames = &r->sonames;
	v->libs = r->libs;
	v->findings = &r->findings;
	v->where = r->where;
}

static int
print_text(const struct run *r, bool color)
{
	struct explain_view v;

	view_of(r, &v);
	return explain_print_text(stdout, &v, color);
}

static int
print_json(const struct run *r)
{
	struct explain_view v;

	view_of(r, &v);
	return r->opts->html ? html_print_explain(stdout, &v) :
	    explain_print_json(stdout, &v);
}

/* --------------------------------------------------------------- command */

static void
run_free(struct run *r)
{
	findings_free(&r->findings);
	for (size_t i = 0; r->libs != NULL && i < r->sonames.n; i++)
		lib_fact_free(&r->libs[i]);
	free(r->libs);
	for (size_t i = 0; r->defining != NULL && i < r->ex.matches.n; i++)
		strv_free(&r->defining[i]);
	free(r->defining);
	for (size_t i = 0; r->where != NULL && i < r->ex.matches.n; i++) {
		free(r->where[i].path);
		free(r->where[i].provider);
		free(r->where[i].loaded);
	}
	free(r->where);
	strv_free(&r->sonames);
	if (r->facts != NULL)
		loader_session_free(&r->ls);
	strv_free(&r->ldconf);
	strv_free(&r->extra);
	explain_free(&r->ex);
	explain_input_free(&r->input);
}

int
cmd_explain(const struct cli_opts *opts)
{
	struct run r = { .opts = opts };
	struct diagnose_input in;
	struct explain_facts xf;
	struct cw_run cr;
	int rc;

	if (explain_input_read(opts, &r.input) != 0) {
		run_free(&r);
		return EXIT_USAGE;
	}
	explain_recognise(r.input.text, r.input.len, &r.ex);

	if (run_open_or_say(&cr, opts->root, opts->matrix_file, environ) != 0) {
		run_free(&r);
		return EXIT_USAGE;
	}
	run_say_note(&cr);
	r.m = cr.m;
	r.sr = cr.sr;
	run_probe(&cr, RUN_FULL);
	run_annotate(&cr);
	r.facts = cr.facts;
	loader_session_init_prof(&r.ls, r.sr, environ, run_loader_profile(&cr));
	probe_loader_dirs(r.facts, &r.ldconf, &r.extra);
	r.ls.env.extra_dirs = &r.extra;
	if (!sysroot_is_host(r.sr))
		r.ls.env.ldconf_dirs = &r.ldconf;
	find_where(&r);
	resolve_libraries(&r);
	find_defining(&r);

	run_diagnose_input(&cr, r.facts, &in);
	xf.libs = r.libs;
	xf.nlibs = r.sonames.n;
	xf.defining = r.defining;
	xf.where = r.where;
	rules_explain(&in, &r.ex, &xf, &r.findings);

	rc = opts->json || opts->html ? print_json(&r) :
	    print_text(&r, style_want_color(STDOUT_FILENO, opts->color));
	rc = cmd_report_exit(rc, &r.findings);
	run_free(&r);
	run_close(&cr);
	return rc;
}
