/* The fleet page, drawn from the cudawiz/fleet/1 document in the frame
 * and style every cudawiz page shares (html.c): the verdict band, then a
 * table per list the text view shows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/fleet.h"
#include "present/html_parts.h"
#include "util/xalloc.h"

/* The host names of a JSON array, comma-separated, in a cell. */
static void
names_cell(FILE *fp, const json_t *a)
{
	size_t i;
	const json_t *s;

	fputs("<td>", fp);
	json_array_foreach(a, i, s) {
		if (i > 0)
			fputs(", ", fp);
		html_esc(fp, json_string_value(s));
	}
	fputs("</td>", fp);
}

static void
verdict(FILE *fp, const json_t *sum)
{
	bool ok = json_is_true(json_object_get(sum, "ok"));
	char *line = xasprintf(_("%zu hosts from %zu files: %zu with an "
	    "error finding, %zu stale, %zu unreadable, %zu duplicates.\n"),
	    (size_t)json_integer_value(json_object_get(sum, "hosts")),
	    (size_t)json_integer_value(json_object_get(sum, "files")),
	    (size_t)json_integer_value(json_object_get(sum,
	    "hosts_with_errors")),
	    (size_t)json_integer_value(json_object_get(sum, "stale")),
	    (size_t)json_integer_value(json_object_get(sum, "unreadable")),
	    (size_t)json_integer_value(json_object_get(sum, "duplicates")));

	fprintf(fp, "<div class=\"verdict %s\">", ok ? "sev-ok" : "sev-error");
	html_esc(fp, line);
	fputs("</div>\n", fp);
	free(line);
}

static void
findings(FILE *fp, const json_t *a)
{
	static const char *const cols[] = { N_("Finding"), N_("Severity"),
	    N_("Hosts"), N_("Which"), NULL };
	size_t i;
	const json_t *g;

	if (json_array_size(a) == 0)
		return;
	html_table_head(fp, _("Findings, the most hosts first:"), cols);
	json_array_foreach(a, i, g) {
		const char *sev = html_jstr(g, "severity");

		fputs("<tr>", fp);
		html_elem(fp, "td", "code", html_jstr(g, "code"));
		fprintf(fp, "<td class=\"sev-%s\">", sev != NULL &&
		    (strcmp(sev, "error") == 0 || strcmp(sev, "warning") == 0) ?
		    sev : "info");
		html_esc(fp, sev);
		fprintf(fp, "</td><td>%lld</td>",
		    (long long)json_integer_value(json_object_get(g, "count")));
		names_cell(fp, json_object_get(g, "hosts"));
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
}

static void
drift(FILE *fp, const json_t *d)
{
	static const char *const cols[] = { N_("Item"), N_("Reference"),
	    N_("Value"), N_("Hosts"), NULL };
	const json_t *items = json_object_get(d, "items"), *it;
	bool base = json_object_get(d, "baseline") != NULL &&
	    !json_is_null(json_object_get(d, "baseline"));
	size_t i;

	if (json_array_size(items) == 0)
		return;
	html_table_head(fp, base ? _("Drift from the baseline") :
	    _("Drift from the majority"), cols);
	json_array_foreach(items, i, it) {
		const json_t *vals = json_object_get(it, "values"), *v;
		const char *ref = json_is_true(json_object_get(it, "tie")) ?
		    _("no majority") : html_jstr(it, "reference");
		size_t j;

		json_array_foreach(vals, j, v) {
			const char *val = html_jstr(v, "value");

			fputs("<tr>", fp);
			html_elem(fp, "td", "code", html_jstr(it, "key"));
			html_elem(fp, "td", NULL, ref != NULL ? ref :
			    _("(absent)"));
			html_elem(fp, "td", NULL, val != NULL ? val :
			    _("(absent)"));
			names_cell(fp, json_object_get(v, "hosts"));
			fputs("</tr>\n", fp);
		}
	}
	fputs("</tbody></table>\n", fp);
}

/* A table of two string members of each object of a. */
static void
pairs(FILE *fp, const json_t *a, const char *title, const char *k1,
    const char *k2, const char *const *cols)
{
	size_t i;
	const json_t *o;

	if (json_array_size(a) == 0)
		return;
	html_table_head(fp, title, cols);
	json_array_foreach(a, i, o) {
		fputs("<tr>", fp);
		html_elem(fp, "td", "code", html_jstr(o, k1));
		html_elem(fp, "td", NULL, html_jstr(o, k2));
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
}

static void
stale(FILE *fp, const json_t *doc)
{
	static const char *const cols[] = { N_("Host"), N_("Report time"),
	    NULL };
	const json_t *hosts = json_object_get(doc, "hosts"), *h;
	json_t *rows = json_array();
	size_t i;

	json_array_foreach(hosts, i, h)
		if (json_is_true(json_object_get(h, "stale")))
			json_array_append(rows, (json_t *)h);
	pairs(fp, rows, _("Stale reports"), "name", "time", cols);
	json_decref(rows);
}

static void
fleet_body(FILE *fp, const json_t *doc)
{
	static const char *const bad_cols[] = { N_("File"), N_("Reason"),
	    NULL };
	static const char *const dup_cols[] = { N_("File"), N_("Host"),
	    NULL };

	fprintf(fp, "<h1>%s fleet</h1>\n", PACKAGE);
	verdict(fp, json_object_get(doc, "summary"));
	findings(fp, json_object_get(doc, "findings"));
	drift(fp, json_object_get(doc, "drift"));
	stale(fp, doc);
	pairs(fp, json_object_get(doc, "unreadable"), _("Unreadable reports:"),
	    "file", "reason", bad_cols);
	pairs(fp, json_object_get(doc, "duplicates"), _("Duplicate reports "
	    "(the newest of a host is kept):"), "file", "host", dup_cols);
}

int
fleet_print_html(FILE *fp, const struct fleet *fl)
{
	struct html_capture c;
	FILE *js = html_capture_begin(&c);

	return html_capture_page(&c, js == NULL ? -1 :
	    fleet_print_json(js, fl), fp, "cudawiz fleet", fleet_body);
}
