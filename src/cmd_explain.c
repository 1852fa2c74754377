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
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "diagnose/diagnose.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "loader/elfobj.h"
#include "loader/resolve.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
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

static const struct lib_fact *
lib_of(const struct run *r, const char *soname)
{
	for (size_t i = 0; i < r->sonames.n; i++)
		if (strcmp(r->sonames.v[i], soname) == 0)
			return &r->libs[i];
	return NULL;
}

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
		    m->soname == NULL || (lib = lib_of(r, m->soname)) == NULL)
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

/* ------------------------------------------------------------------ text */

/* What a library name stands for, by the matrix: "the cudart of CUDA
 * 11.0–11.8 (matrix: confirmed)". NULL when it does not know. */
static char *
library_meaning(const struct matrix *m, const char *name)
{
	struct matrix_range r;
	const char *library;
	enum matrix_status st;

	if (name == NULL)
		return NULL;
	if (!matrix_soname_cuda(m, name, &r, &library, &st)) {
		for (unsigned mj = 7; mj <= 12; mj++) {
			const struct matrix_cudnn_library *cl =
			    matrix_cudnn_library(m, mj);

			if (cl != NULL && (strv_contains(&cl->sonames, name) ||
			    (cl->windows_dll != NULL &&
			    strcasecmp(cl->windows_dll, name) == 0)))
				return xasprintf(_("%s is a library of cuDNN %u (matrix: %s)"),
				    name, mj, matrix_status_name(cl->status));
		}
		return NULL;
	}
	if (strcmp(library, "cuda") == 0 || strcmp(library, "nvml") == 0)
		return xasprintf(_("%s comes with the NVIDIA driver (matrix: %s)"),
		    name, matrix_status_name(st));
	if (r.max == NULL)
		return xasprintf(_("%s is the %s library of CUDA %s and newer (matrix: %s)"),
		    name, library, r.min, matrix_status_name(st));
	if (strcmp(r.min, r.max) == 0)
		return xasprintf(_("%s is the %s library of CUDA %s (matrix: %s)"),
		    name, library, r.min, matrix_status_name(st));
	if (strchr(r.max, '.') == NULL)
		return xasprintf(_("%s is the %s library of CUDA %s and later %s.x releases (matrix: %s)"),
		    name, library, r.min, r.max, matrix_status_name(st));
	return xasprintf(_("%s is the %s library of CUDA %s to %s (matrix: %s)"),
	    name, library, r.min, r.max, matrix_status_name(st));
}

static void
print_resolution(FILE *fp, const struct lib_fact *lib)
{
	if (lib == NULL)
		return;
	if (lib->resolved != NULL)
		fprintf(fp, _("   Here %s resolves to %s (%s).\n"), lib->soname,
		    lib->resolved, lib->via != NULL ? lib->via : "?");
	else
		fprintf(fp, _("   Here the dynamic loader does not find %s.\n"),
		    lib->soname);
}

static void
print_match(const struct run *r, FILE *fp, size_t k, bool color)
{
	const struct explain_match *m = &r->ex.matches.v[k];
	struct strv sonames = STRV_INIT;
	char *meaning;

	fprintf(fp, "%s%zu. ", style_bold(color), k + 1);
	fprintf(fp, _("Line %zu: %s"), m->line, m->excerpt);
	fprintf(fp, "%s", style_off(color));
	if (m->repeats > 0)
		fprintf(fp, ngettext(" (and %zu more line)", " (and %zu more lines)",
		    m->repeats), m->repeats);
	fprintf(fp, "\n   %s.\n", _(explain_kind_title(m->kind)));
	if (m->code != NULL && m->number >= 0)
		fprintf(fp, "   %s (%ld)%s%s\n", m->code, m->number,
		    m->meaning != NULL ? ": " : "", m->meaning != NULL ? _(m->meaning) : "");
	else if (m->code != NULL)
		fprintf(fp, "   %s%s%s\n", m->code, m->meaning != NULL ? ": " : "",
		    m->meaning != NULL ? _(m->meaning) : "");
	meaning = library_meaning(r->m, m->soname);
	if (meaning != NULL)
		fprintf(fp, "   %s.\n", meaning);
	free(meaning);
	explain_match_sonames(m, &sonames);
	for (size_t i = 0; i < sonames.n; i++)
		print_resolution(fp, lib_of(r, sonames.v[i]));
	strv_free(&sonames);
}

static void
print_list(FILE *fp, const char *label, const struct strv *sv)
{
	if (sv->n == 0)
		return;
	fprintf(fp, "  %-10s ", label);
	for (size_t i = 0; i < sv->n; i++)
		fprintf(fp, "%s%s", i > 0 ? ", " : "", sv->v[i]);
	fputc('\n', fp);
}

static void
print_notes(const struct run *r, FILE *fp)
{
	if (r->input.cut)
		fprintf(fp, _("Note: only the first %d KiB of the input were read; "
		    "the rest was left out.\n"), EXPLAIN_INPUT_MAX / 1024);
	if (r->ex.nontext > 0)
		fprintf(fp, ngettext("Note: %zu byte that is not text was read as a blank.\n",
		    "Note: %zu bytes that are not text were read as blanks.\n",
		    r->ex.nontext), r->ex.nontext);
	if (r->ex.dropped > 0)
		fprintf(fp, ngettext("Note: %zu more distinct message is not listed.\n",
		    "Note: %zu more distinct messages are not listed.\n",
		    r->ex.dropped), r->ex.dropped);
}

static int
print_text(const struct run *r, bool color)
{
	FILE *fp = stdout;
	const struct explain *ex = &r->ex;

	if (ex->matches.n > 0) {
		fprintf(fp, ngettext("Recognised %zu message",
		    "Recognised %zu messages", ex->matches.n), ex->matches.n);
		fprintf(fp, ngettext(" in %zu line of input.\n",
		    " in %zu lines of input.\n", ex->lines), ex->lines);
		print_notes(r, fp);
		fputc('\n', fp);
		for (size_t i = 0; i < ex->matches.n; i++) {
			print_match(r, fp, i, color);
			fputc('\n', fp);
		}
	} else {
		fputs(_("Not recognised: this text holds no CUDA, cuDNN, driver or "
		    "dynamic loader message that cudawiz knows.\n"), fp);
		print_notes(r, fp);
		if (ex->sonames.n + ex->dlls.n + ex->versions.n + ex->errors.n > 0) {
			fputs(_("Picked out of it:\n"), fp);
			print_list(fp, _("libraries"), &ex->sonames);
			print_list(fp, _("DLLs"), &ex->dlls);
			print_list(fp, _("versions"), &ex->versions);
			print_list(fp, _("errors"), &ex->errors);
		}
		for (size_t i = 0; i < r->sonames.n; i++)
			print_resolution(fp, &r->libs[i]);
		fputc('\n', fp);
	}
	if (r->findings.n == 0) {
		if (ex->matches.n > 0)
			fputs(_("Nothing on this machine explains these messages: "
			    "the program may have run with another environment "
			    "(LD_LIBRARY_PATH, a conda or virtual environment, a "
			    "container), or on another machine.\n"), fp);
		return ferror(fp) ? -1 : 0;
	}
	fprintf(fp, "%s%s%s\n", style_bold(color), _("Findings"), style_off(color));
	return text_print_findings(fp, &r->findings, color);
}

/* ------------------------------------------------------------------ JSON */

static void
put(json_t *o, const char *key, const char *value)
{
	if (value != NULL)
		json_object_set_new(o, key, jstr(value));
}

/* The names of found/wanted by kind: they mean different things. */
static void
put_versions(json_t *o, const struct explain_match *m)
{
	const char *fk = "found", *wk = "wanted";

	switch (m->kind) {
	case EXPLAIN_DRIVER_MISMATCH:
		fk = "kernel_module";
		wk = "library";
		break;
	case EXPLAIN_CUDNN_VERSION:
		fk = "loaded";
		wk = "compiled";
		break;
	case EXPLAIN_DRIVER_TOO_OLD:
		fk = "driver_cuda";
		break;
	case EXPLAIN_WRONG_ELF_CLASS:
		fk = "elf_class";
		break;
	default:
		break;
	}
	put(o, fk, m->found);
	put(o, wk, m->wanted);
}

static json_t *
match_json(const struct run *r, size_t k)
{
	const struct explain_match *m = &r->ex.matches.v[k];
	json_t *o = json_object();
	struct strv sonames = STRV_INIT;
	char *meaning = library_meaning(r->m, m->soname);

	json_object_set_new(o, "kind", json_string(explain_kind_name(m->kind)));
	json_object_set_new(o, "title", jstr(_(explain_kind_title(m->kind))));
	json_object_set_new(o, "line", json_integer((json_int_t)m->line));
	json_object_set_new(o, "repeats", json_integer((json_int_t)m->repeats));
	put(o, "excerpt", m->excerpt);
	put(o, "soname", m->soname);
	put(o, "file", m->file);
	put(o, "required_by", m->required_by);
	put(o, "symbol", m->symbol);
	put(o, "version", m->version);
	put_versions(o, m);
	put(o, "code", m->code);
	if (m->number >= 0)
		json_object_set_new(o, "number", json_integer(m->number));
	if (m->meaning != NULL)
		put(o, "meaning", _(m->meaning));
	put(o, "reason", m->reason);
	put(o, "ld_library_path", m->ld_library_path);
	put(o, "device", m->device);
	put(o, "cc", m->cc);
	if (m->ccs.n > 0)
		json_object_set_new(o, "ccs", jstrv(&m->ccs));
	put(o, "library", meaning);
	free(meaning);
	explain_match_sonames(m, &sonames);
	if (sonames.n > 0)
		json_object_set_new(o, "resolves", jstrv(&sonames));
	strv_free(&sonames);
	return o;
}

static json_t *
lib_json(const struct lib_fact *l)
{
	json_t *o = json_object(), *copies = json_array();

	put(o, "soname", l->soname);
	json_object_set_new(o, "resolved", jstr(l->resolved));
	put(o, "via", l->via);
	put(o, "target", l->target);
	put(o, "error", l->error);
	for (size_t i = 0; i < l->copies.n; i++)
		json_array_append_new(copies, jstr(l->copies.v[i].path));
	json_object_set_new(o, "other_copies", copies);
	return o;
}

/* The input as a JSON string: jstr() takes a C string, so a NUL byte is
 * shown as U+FFFD rather than ending the text there. */
static json_t *
input_json(const struct input *in)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	for (size_t i = 0; i < in->len; ) {
		const char *nul = memchr(in->text + i, '\0', in->len - i);
		size_t n = nul != NULL ? (size_t)(nul - in->text) - i : in->len - i;

		strbuf_add(&sb, in->text + i, n);
		i += n;
		if (nul != NULL) {
			strbuf_puts(&sb, "\xef\xbf\xbd");
			i++;
		}
	}
	j = jstr(strbuf_str(&sb));
	strbuf_free(&sb);
	return j;
}

static int
print_json(const struct run *r)
{
	json_t *doc = json_object(), *rec = json_array(), *libs = json_array();
	json_t *mentions = json_object(), *input = json_object();
	int rc;

	json_object_set_new(doc, "schema", json_string("cudawiz/explain/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "root", jstr(r->facts->root));
	json_object_set_new(doc, "input", input_json(&r->input));
	json_object_set_new(input, "bytes", json_integer((json_int_t)r->input.len));
	json_object_set_new(input, "lines", json_integer((json_int_t)r->ex.lines));
	json_object_set_new(input, "truncated", json_boolean(r->input.cut));
	json_object_set_new(input, "limit", json_integer(EXPLAIN_INPUT_MAX));
	json_object_set_new(input, "nontext_bytes", json_integer((json_int_t)r->ex.nontext));
	json_object_set_new(doc, "input_info", input);
	json_object_set_new(doc, "recognised_any", json_boolean(r->ex.matches.n > 0));
	for (size_t i = 0; i < r->ex.matches.n; i++)
		json_array_append_new(rec, match_json(r, i));
	json_object_set_new(doc, "recognised", rec);
	json_object_set_new(doc, "dropped", json_integer((json_int_t)r->ex.dropped));
	json_object_set_new(mentions, "sonames", jstrv(&r->ex.sonames));
	json_object_set_new(mentions, "dlls", jstrv(&r->ex.dlls));
	json_object_set_new(mentions, "versions", jstrv(&r->ex.versions));
	json_object_set_new(mentions, "errors", jstrv(&r->ex.errors));
	json_object_set_new(doc, "mentions", mentions);
	for (size_t i = 0; i < r->sonames.n; i++)
		json_array_append_new(libs, lib_json(&r->libs[i]));
	json_object_set_new(doc, "libraries", libs);
	json_object_set_new(doc, "findings", findings_json(&r->findings));
	rc = json_write(stdout, doc);
	json_decref(doc);
	return rc == 0 ? 0 : -1;
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

	if (opts->nargs == 0) {
		fprintf(stderr, _("%s: usage: %s explain TEXT | %s explain - "
		    "(the message on standard input)\n"), PACKAGE, PACKAGE,
		    PACKAGE);
		return EXIT_USAGE;
	}
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
