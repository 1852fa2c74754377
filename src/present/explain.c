/* The text and JSON views of `cudawiz explain` (present/explain.h): the
 * messages recognised, what the matrix says each library is, where the
 * loader finds it here, and the findings of rules_explain(). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "matrix/matrix.h"
#include "present/explain.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"

const struct lib_fact *
explain_lib_of(const struct strv *sonames, const struct lib_fact *libs,
    const char *soname)
{
	for (size_t i = 0; i < sonames->n; i++)
		if (strcmp(sonames->v[i], soname) == 0)
			return &libs[i];
	return NULL;
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
		    lib->resolved, lib->via != STEP_NONE ?
		    step_words(lib->via, STEPW_FACT) : "?");
	else
		fprintf(fp, _("   Here the dynamic loader does not find %s.\n"),
		    lib->soname);
}

static bool
elsewhere(const struct explain_view *v, size_t k)
{
	return v->where != NULL && v->where[k].elsewhere;
}

/* "other" when every message that names paths names none that is here. */
static const char *
machine_of_all(const struct explain_view *v)
{
	bool other = false;

	for (size_t k = 0; v->where != NULL && k < v->ex->matches.n; k++) {
		if (v->where[k].has_paths && !v->where[k].elsewhere)
			return "this";
		other = other || v->where[k].elsewhere;
	}
	return other ? "other" : "this";
}

static void
print_match(const struct explain_view *v, FILE *fp, size_t k, bool color)
{
	const struct explain_match *m = &v->ex->matches.v[k];
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
	meaning = library_meaning(v->m, m->soname);
	if (meaning != NULL)
		fprintf(fp, "   %s.\n", meaning);
	free(meaning);
	if (elsewhere(v, k)) {
		fprintf(fp, _("   The paths in this message are not on this machine "
		    "(%s is not here): diagnosed from the message alone, for the "
		    "machine it came from.\n"), v->where[k].path);
		return;
	}
	explain_match_sonames(m, &sonames);
	for (size_t i = 0; i < sonames.n; i++)
		print_resolution(fp, explain_lib_of(v->sonames, v->libs,
		    sonames.v[i]));
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
print_notes(const struct explain_view *v, FILE *fp)
{
	if (v->input_cut)
		fprintf(fp, _("Note: only the first %d KiB of the input were read; "
		    "the rest was left out.\n"), EXPLAIN_INPUT_MAX / 1024);
	if (v->ex->nontext > 0)
		fprintf(fp, ngettext("Note: %zu byte that is not text was read as a blank.\n",
		    "Note: %zu bytes that are not text were read as blanks.\n",
		    v->ex->nontext), v->ex->nontext);
	if (v->ex->dropped > 0)
		fprintf(fp, ngettext("Note: %zu more distinct message is not listed.\n",
		    "Note: %zu more distinct messages are not listed.\n",
		    v->ex->dropped), v->ex->dropped);
}

/* What to paste when nothing was recognised (issue 19, point 12). */
static const char explain_paste_advice[] = N_("Paste the whole log from "
    "the first error on, not only its last line: the lines above a summary "
    "name the cause (TensorFlow's \"Could not load dynamic library\" lines "
    "above \"Cannot dlopen some GPU libraries\"; for NCCL, a run with "
    "NCCL_DEBUG=INFO).");

int
explain_print_text(FILE *fp, const struct explain_view *v, bool color)
{
	const struct explain *ex = v->ex;

	if (ex->matches.n > 0) {
		fprintf(fp, ngettext("Recognised %zu message",
		    "Recognised %zu messages", ex->matches.n), ex->matches.n);
		fprintf(fp, ngettext(" in %zu line of input.\n",
		    " in %zu lines of input.\n", ex->lines), ex->lines);
		print_notes(v, fp);
		fputc('\n', fp);
		for (size_t i = 0; i < ex->matches.n; i++) {
			print_match(v, fp, i, color);
			fputc('\n', fp);
		}
	} else {
		fputs(_("Not recognised: this text holds no CUDA, cuDNN, driver or "
		    "dynamic loader message that cudawiz knows.\n"), fp);
		print_notes(v, fp);
		if (ex->sonames.n + ex->dlls.n + ex->versions.n + ex->errors.n > 0) {
			fputs(_("Picked out of it:\n"), fp);
			print_list(fp, _("libraries"), &ex->sonames);
			print_list(fp, _("DLLs"), &ex->dlls);
			print_list(fp, _("versions"), &ex->versions);
			print_list(fp, _("errors"), &ex->errors);
		}
		for (size_t i = 0; i < v->sonames->n; i++)
			print_resolution(fp, &v->libs[i]);
		fputc('\n', fp);
		fprintf(fp, "%s\n\n", _(explain_paste_advice));
	}
	if (strcmp(machine_of_all(v), "other") == 0)
		fputs(_("The paths in these messages are not on this machine: "
		    "they were diagnosed from the messages alone, and the fixes are "
		    "for the machine they came from.\n\n"), fp);
	if (v->findings->n == 0) {
		if (ex->matches.n > 0)
			fputs(_("Nothing on this machine explains these messages: "
			    "the program may have run with another environment "
			    "(LD_LIBRARY_PATH, a conda or virtual environment, a "
			    "container), or on another machine.\n"), fp);
		return ferror(fp) ? -1 : 0;
	}
	fprintf(fp, "%s%s%s\n", style_bold(color), _("Findings"), style_off(color));
	return text_print_findings(fp, v->findings, color);
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
match_json(const struct explain_view *v, size_t k)
{
	const struct explain_match *m = &v->ex->matches.v[k];
	json_t *o = json_object();
	struct strv sonames = STRV_INIT;
	char *meaning = library_meaning(v->m, m->soname);

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
	json_object_set_new(o, "machine", json_string(elsewhere(v, k) ?
	    "other" : "this"));
	if (elsewhere(v, k)) {
		put(o, "missing_path", v->where[k].path);
		return o;
	}
	if (v->where != NULL && v->where[k].provider != NULL) {
		put(o, "provider", v->where[k].provider);
		put(o, "provider_loaded", v->where[k].loaded);
	}
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
	put(o, "via", step_words(l->via, STEPW_FACT));
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
input_json(const struct explain_view *v)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	for (size_t i = 0; i < v->input_len; ) {
		const char *nul = memchr(v->input + i, '\0', v->input_len - i);
		size_t n = nul != NULL ? (size_t)(nul - v->input) - i : v->input_len - i;

		strbuf_add(&sb, v->input + i, n);
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

int
explain_print_json(FILE *fp, const struct explain_view *v)
{
	json_t *doc = json_object(), *rec = json_array(), *libs = json_array();
	json_t *mentions = json_object(), *input = json_object();
	int rc;

	json_object_set_new(doc, "schema", json_string("cudawiz/explain/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "root", jstr(v->root));
	json_object_set_new(doc, "input", input_json(v));
	json_object_set_new(input, "bytes", json_integer((json_int_t)v->input_len));
	json_object_set_new(input, "lines", json_integer((json_int_t)v->ex->lines));
	json_object_set_new(input, "truncated", json_boolean(v->input_cut));
	json_object_set_new(input, "limit", json_integer(EXPLAIN_INPUT_MAX));
	json_object_set_new(input, "nontext_bytes", json_integer((json_int_t)v->ex->nontext));
	json_object_set_new(doc, "input_info", input);
	json_object_set_new(doc, "recognised_any", json_boolean(v->ex->matches.n > 0));
	json_object_set_new(doc, "machine", json_string(machine_of_all(v)));
	if (v->ex->matches.n == 0)
		json_object_set_new(doc, "paste_instead", jstr(_(explain_paste_advice)));
	for (size_t i = 0; i < v->ex->matches.n; i++)
		json_array_append_new(rec, match_json(v, i));
	json_object_set_new(doc, "recognised", rec);
	json_object_set_new(doc, "dropped", json_integer((json_int_t)v->ex->dropped));
	json_object_set_new(mentions, "sonames", jstrv(&v->ex->sonames));
	json_object_set_new(mentions, "dlls", jstrv(&v->ex->dlls));
	json_object_set_new(mentions, "versions", jstrv(&v->ex->versions));
	json_object_set_new(mentions, "errors", jstrv(&v->ex->errors));
	json_object_set_new(doc, "mentions", mentions);
	for (size_t i = 0; i < v->sonames->n; i++)
		json_array_append_new(libs, lib_json(&v->libs[i]));
	json_object_set_new(doc, "libraries", libs);
	json_object_set_new(doc, "findings", findings_json(v->findings));
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc == 0 ? 0 : -1;
}
