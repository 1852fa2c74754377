/* The explain page: the verdict, the message as given, what was
 * recognised in it, then the findings; drawn from the explain JSON
 * document. */
#include "config.h"

#include "i18n.h"
#include "present/explain.h"
#include "present/html.h"
#include "present/html_parts.h"

static void
recognised(FILE *fp, const json_t *a)
{
	size_t i;
	const json_t *r;

	if (json_array_size(a) == 0)
		return;
	html_elem(fp, "h2", NULL, _("What the message says"));
	fputs("\n<ul>\n", fp);
	json_array_foreach(a, i, r) {
		const char *title = html_jstr(r, "title");

		fputs("<li>", fp);
		html_elem(fp, "strong", NULL, title != NULL ? _(title) : "");
		fputs("<br>", fp);
		html_elem(fp, "code", NULL, html_jstr(r, "excerpt"));
		if (html_jstr(r, "library") != NULL) {
			fputs("<br>", fp);
			html_esc(fp, html_jstr(r, "library"));
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

static void
explain_body(FILE *fp, const json_t *doc)
{
	fprintf(fp, "<h1>%s explain</h1>\n", PACKAGE);
	html_verdict(fp, json_object_get(doc, "findings"));
	html_elem(fp, "h2", NULL, _("The message"));
	fputs("\n<pre>", fp);
	html_esc(fp, html_jstr(doc, "input"));
	fputs("</pre>\n", fp);
	recognised(fp, json_object_get(doc, "recognised"));
	html_findings(fp, json_object_get(doc, "findings"));
}

int
html_print_explain(FILE *fp, const struct explain_view *v)
{
	struct html_capture c;
	FILE *js = html_capture_begin(&c);

	return html_capture_page(&c, js == NULL ? -1 :
	    explain_print_json(js, v), fp, "cudawiz explain", explain_body);
}
