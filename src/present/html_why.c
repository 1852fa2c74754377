/* The why page: the outcome first (where the name loads from, or the
 * loader's error), the findings, then the search steps in order and what
 * the winner loads in turn; drawn from the why JSON document. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "present/html.h"
#include "present/html_parts.h"
#include "present/why.h"
#include "util/xalloc.h"

static const char *
step_name(const char *json_name)
{
	return html_step_words(json_name, STEPW_STEP);
}

static void
outcome(FILE *fp, const json_t *doc)
{
	const char *name = html_jstr(doc, "soname");
	const char *res = html_jstr(doc, "resolved");
	const char *err = html_jstr(doc, "error");
	char *line = NULL;

	if (name == NULL)
		name = html_jstr(doc, "from");
	if (res != NULL)
		/* TRANSLATORS: why's outcome: "libcudart.so.12 loads from
		 * /usr/lib/x86_64-linux-gnu/libcudart.so.12 (ld.so.cache)". */
		line = xasprintf(_("%s loads from %s (%s)"), name, res,
		    step_name(html_jstr(doc, "via")));
	fprintf(fp, "<div class=\"verdict %s\">", res != NULL || (err == NULL &&
	    html_jstr(doc, "soname") == NULL) ? "sev-ok" : "sev-error");
	if (line != NULL)
		html_esc(fp, line);
	else if (err != NULL)
		html_esc(fp, err);
	else
		html_esc(fp, name);
	fputs("</div>\n", fp);
	free(line);
}

static void
steps(FILE *fp, const json_t *a)
{
	size_t i;
	const json_t *s;

	static const char *const cols[] = { "#", N_("step"),
		N_("directory or file"), N_("result"), NULL };

	html_table_head(fp, _("Search steps, in the loader's order"), cols);
	json_array_foreach(a, i, s) {
		html_step_row(fp, i, step_name(html_jstr(s, "source")), s);
	}
	fputs("</tbody></table>\n", fp);
}

static void
closure(FILE *fp, const json_t *a)
{
	size_t i;
	const json_t *o;
	static const char *const cols[] = { N_("library"), N_("loads from"),
		N_("needed by"), NULL };

	if (json_array_size(a) == 0)
		return;
	html_table_head(fp, _("What it loads in turn"), cols);
	json_array_foreach(a, i, o) {
		fputs("<tr><td>", fp);
		html_elem(fp, "code", NULL, html_jstr(o, "name"));
		fputs("</td><td>", fp);
		if (html_jstr(o, "resolved") != NULL)
			html_elem(fp, "code", NULL, html_jstr(o, "resolved"));
		else
			html_elem(fp, "span", "sev-error", html_jstr(o, "error"));
		fputs("</td><td>", fp);
		html_elem(fp, "code", NULL, html_jstr(o, "needed_by"));
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
}

static void
why_body(FILE *fp, const json_t *doc)
{
	const char *name = html_jstr(doc, "soname");

	fprintf(fp, "<h1>%s why ", PACKAGE);
	html_esc(fp, name != NULL ? name : html_jstr(doc, "from"));
	fputs("</h1>\n", fp);
	outcome(fp, doc);
	html_verdict(fp, json_object_get(doc, "findings"));
	html_findings(fp, json_object_get(doc, "findings"));
	steps(fp, json_object_get(doc, "steps"));
	closure(fp, json_object_get(doc, "closure"));
}

int
html_print_why(FILE *fp, const struct why_view *w)
{
	struct html_capture c;
	FILE *js = html_capture_begin(&c);

	return html_capture_page(&c, js == NULL ? -1 : why_print_json(js, w),
	    fp, "cudawiz why", why_body);
}
