/* cudawiz explain in the Windows program: the pasted text alone. The
 * message is recognised (explain/recognize.c) and judged by the same
 * rules as on Linux (rules_explain), with the built-in matrix (or
 * --matrix FILE) and no facts of this machine: nothing is probed, so the
 * findings are what the text and the matrix say, and no library is
 * resolved here (why NAME.dll does that). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "explain/recognize.h"
#include "explain_input.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/explain.h"
#include "present/html.h"
#include "present/style.h"
#include "util/strv.h"
#include "util/xalloc.h"

static int
print(const struct cli_opts *opts, const struct explain_view *v)
{
	if (opts->html)
		return html_print_explain(stdout, v);
	if (opts->json)
		return explain_print_json(stdout, v);
	return explain_print_text(stdout, v,
	    style_want_color(STDOUT_FILENO, opts->color));
}

int
cmd_explain(const struct cli_opts *opts)
{
	struct explain_input input = { 0 };
	struct explain ex = { 0 };
	struct findings findings = { 0 };
	struct strv sonames = STRV_INIT;
	struct strv *defining;
	struct explain_where *where;
	struct matrix *m;
	struct facts *facts;
	struct diagnose_input in = { 0 };
	struct explain_facts xf = { 0 };
	struct explain_view v = { 0 };
	char *note = NULL, *err = NULL;
	int rc;

	if (explain_input_read(opts, &input) != 0) {
		explain_input_free(&input);
		return EXIT_USAGE;
	}
	m = select_matrix(opts->matrix_file, &note, &err);
	if (m == NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		free(note);
		explain_input_free(&input);
		return EXIT_USAGE;
	}
	/* The cache is Linux's (matrix update fills it); its absence here is
	 * no news. */
	free(note);
	explain_recognise(input.text, input.len, &ex);
	facts = facts_new("/", false);
	diagnose_annotate(facts, m);
	defining = xcalloc(ex.matches.n + 1, sizeof *defining);
	where = xcalloc(ex.matches.n + 1, sizeof *where);

	in.facts = facts;
	in.matrix = m;
	in.now = time(NULL);
	xf.defining = defining;
	xf.where = where;
	rules_explain(&in, &ex, &xf, &findings);

	v.input = input.text;
	v.input_len = input.len;
	v.input_cut = input.cut;
	v.ex = &ex;
	v.m = m;
	v.root = facts->root;
	v.sonames = &sonames;
	v.findings = &findings;
	v.where = where;
	rc = print(opts, &v);
	rc = cmd_report_exit(rc, &findings);

	findings_free(&findings);
	for (size_t i = 0; i < ex.matches.n; i++)
		strv_free(&defining[i]);
	free(defining);
	free(where);
	strv_free(&sonames);
	facts_free(facts);
	explain_free(&ex);
	matrix_free(m);
	explain_input_free(&input);
	return rc;
}
