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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "loader/elfobj.h"
#include "loader/resolve.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/explain.h"
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

struct input {
	char	*text;
	size_t	 len;
	bool	 cut;		/* longer than EXPLAIN_INPUT_MAX */
	bool	 from_stdin;
};

struct run {
	const struct cli_opts	*opts;
	struct input		 input;
	struct explain		 ex;
	const struct matrix	*m;		/* these three: the pipeline's */
	struct sysroot		*sr;
	struct facts		*facts;
	struct loader_session	 ls;
	struct strv		 ldconf, extra;
	struct strv		 sonames;
	struct lib_fact		*libs;
	struct strv		*defining;	/* per match */
	struct findings		 findings;
};

/* ----------------------------------------------------------------- input */

/* Reads standard input up to the cap; the rest is left unread, so an
 * endless pipe cannot keep cudawiz reading. Returns 0 or an errno. */
static int
read_stdin(struct input *in)
{
	size_t cap = EXPLAIN_INPUT_MAX + 1, n;

	in->text = xmalloc(cap + 1);
	in->len = 0;
	while (in->len < cap) {
		n = fread(in->text + in->len, 1, cap - in->len, stdin);
		in->len += n;
		if (n == 0) {
			if (ferror(stdin))
				return errno != 0 ? errno : EIO;
			break;
		}
	}
	if (in->len > EXPLAIN_INPUT_MAX) {
		in->len = EXPLAIN_INPUT_MAX;
		in->cut = true;
	}
	in->text[in->len] = '\0';
	return 0;
}

/* The arguments as one text: a message pasted without quotes arrives as
 * many words. */
static void
join_args(const struct cli_opts *opts, struct input *in)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < opts->nargs; i++) {
		if (i > 0)
			strbuf_putc(&sb, ' ');
		strbuf_puts(&sb, opts->args[i]);
		if (sb.len > EXPLAIN_INPUT_MAX)
			break;
	}
	in->text = strbuf_take(&sb);
	in->len = strlen(in->text);
	if (in->len > EXPLAIN_INPUT_MAX) {
		in->len = EXPLAIN_INPUT_MAX;
		in->text[in->len] = '\0';
		in->cut = true;
	}
}

static bool
blank(const struct input *in)
{
	for (size_t i = 0; i < in->len; i++)
		if (strchr(" \t\r\n\v\f", in->text[i]) == NULL)
			return false;
	return true;
}

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

/* For a match about a missing version or versioned symbol: the files of
 * its library here that define it, the winner first. */
static void
find_defining(struct run *r)
{
	r->defining = xcalloc(r->ex.matches.n + 1, sizeof *r->defining);
	for (size_t i = 0; i < r->ex.matches.n; i++) {
		const struct explain_match *m = &r->ex.matches.v[i];
		const struct lib_fact *lib;

		if ((m->kind != EXPLAIN_VERSION_NOT_FOUND &&
		    m->kind != EXPLAIN_UNDEFINED_SYMBOL) || m->version == NULL ||
		    m->soname == NULL || (lib = explain_lib_of(&r->sonames, r->libs,
		    m->soname)) == NULL)
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
	for (size_t i = 0; i < r->ex.matches.n; i++)
		explain_match_sonames(&r->ex.matches.v[i], &r->sonames);
	if (r->ex.matches.n == 0)
		for (size_t i = 0; i < r->ex.sonames.n &&
		    r->sonames.n < MENTIONED_RESOLVED; i++)
			if (explain_is_soname(r->ex.sonames.v[i]))
				strv_push(&r->sonames, r->ex.sonames.v[i]);
	r->libs = xcalloc(r->sonames.n + 1, sizeof *r->libs);
	for (size_t i = 0; i < r->sonames.n; i++)
		probe_resolve_library(&r->ls.env, r->sonames.v[i], &r->libs[i]);
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
	return explain_print_json(stdout, &v);
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
	strv_free(&r->sonames);
	if (r->facts != NULL)
		loader_session_free(&r->ls);
	strv_free(&r->ldconf);
	strv_free(&r->extra);
	explain_free(&r->ex);
	free(r->input.text);
}

int
cmd_explain(const struct cli_opts *opts)
{
	struct run r = { .opts = opts };
	struct diagnose_input in;
	struct explain_facts xf;
	struct cw_run cr;
	int rc;

	if (opts->nargs == 1 && strcmp(opts->args[0], "-") == 0) {
		r.input.from_stdin = true;
		if ((rc = read_stdin(&r.input)) != 0) {
			fprintf(stderr, _("%s: explain: reading standard input: %s\n"),
			    PACKAGE, strerror(rc));
			run_free(&r);
			return EXIT_USAGE;
		}
	} else {
		join_args(opts, &r.input);
	}
	if (blank(&r.input)) {
		fprintf(stderr, _("%s: explain: the input is empty: give the error "
		    "message as the argument, or pipe it into '%s explain -'\n"),
		    PACKAGE, PACKAGE);
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
	resolve_libraries(&r);
	find_defining(&r);

	run_diagnose_input(&cr, r.facts, &in);
	xf.libs = r.libs;
	xf.nlibs = r.sonames.n;
	xf.defining = r.defining;
	rules_explain(&in, &r.ex, &xf, &r.findings);

	rc = opts->json ? print_json(&r) :
	    print_text(&r, style_want_color(STDOUT_FILENO, opts->color));
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0) {
		perror(PACKAGE ": writing the report");
		rc = EXIT_USAGE;
	} else {
		rc = findings_count(&r.findings, SEV_ERROR) > 0 ? EXIT_FINDINGS :
		    EXIT_OK;
	}
	run_free(&r);
	run_close(&cr);
	return rc;
}
