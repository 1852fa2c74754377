/* The verdict and the findings of every HTML page; see html_parts.h.
 * The words are the text report's (words.c, the findings' titles). */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/html_parts.h"
#include "present/words.h"
#include "util/xalloc.h"

static enum severity
severity_of(const json_t *f)
{
	const char *s = html_jstr(f, "severity");

	if (s != NULL && strcmp(s, "error") == 0)
		return SEV_ERROR;
	if (s != NULL && strcmp(s, "warning") == 0)
		return SEV_WARNING;
	return SEV_INFO;
}

static const char *
sev_class(enum severity sev)
{
	return sev == SEV_ERROR ? "sev-error" : sev == SEV_WARNING ?
	    "sev-warning" : "sev-info";
}

/* An icon as well as the word and the colour, for readers who cannot
 * tell the colours apart. */
static const char *
sev_icon(enum severity sev)
{
	return sev == SEV_ERROR ? "\xe2\x9c\x96" : sev == SEV_WARNING ?
	    "\xe2\x9a\xa0" : "\xe2\x84\xb9";
}

void
html_verdict(FILE *fp, const json_t *findings)
{
	size_t n[3] = { 0, 0, 0 }, i;
	const json_t *f;
	char *counts;
	char *line;
	const char *cls = "sev-ok";

	json_array_foreach(findings, i, f)
		n[severity_of(f)]++;
	if (n[SEV_ERROR] > 0)
		cls = sev_class(SEV_ERROR);
	else if (n[SEV_WARNING] > 0)
		cls = sev_class(SEV_WARNING);
	fprintf(fp, "<div class=\"verdict %s\">", cls);
	counts = words_counts(n[SEV_ERROR], n[SEV_WARNING], n[SEV_INFO]);
	/* TRANSLATORS: the HTML report's verdict, as the text report's
	 * last line: "Summary: 1 error, 2 warnings, 0 notes." */
	line = xasprintf(_("Summary: %s."), counts);
	html_esc(fp, line);
	free(line);
	free(counts);
	if (json_array_size(findings) == 0) {
		fputc(' ', fp);
		html_esc(fp, _("No problems found."));
	}
	fputs("</div>\n", fp);
}

static void
strings(FILE *fp, const json_t *a, const char *open, const char *close)
{
	size_t i;
	const json_t *s;

	json_array_foreach(a, i, s) {
		fputs(open, fp);
		html_esc(fp, json_string_value(s));
		fputs(close, fp);
	}
}

/* The fix commands: a comment line ("# or let cudawiz write …") starts a
 * new block, so each block is one way to fix it, selected whole by a
 * click (user-select: all) and pasted whole. */
static void
fixes(FILE *fp, const json_t *a)
{
	size_t i;
	const json_t *s;
	bool open = false;

	json_array_foreach(a, i, s) {
		const char *line = json_string_value(s);
		bool comment = line != NULL && line[0] == '#';

		if (open && comment) {
			fputs("</code></pre>\n", fp);
			open = false;
		}
		fputs(open ? "\n" : "<pre><code>", fp);
		open = true;
		if (comment)
			html_elem(fp, "span", "comment", line);
		else
			html_esc(fp, line);
	}
	if (open)
		fputs("</code></pre>\n", fp);
}

static void
finding(FILE *fp, const json_t *f)
{
	enum severity sev = severity_of(f);
	const json_t *ev = json_object_get(f, "evidence");
	const json_t *fix = json_object_get(f, "fix");
	const char *title = html_jstr(f, "title");

	fprintf(fp, "<section class=\"finding %s\">\n<div><span class=\"badge\">"
	    "%s ", sev_class(sev), sev_icon(sev));
	html_esc(fp, words_severity(sev));
	fputs("</span>", fp);
	html_elem(fp, "code", "code", html_jstr(f, "code"));
	fputs("</div>\n", fp);
	html_elem(fp, "h3", NULL, title != NULL ? _(title) : "");
	fputc('\n', fp);
	if (html_jstr(f, "subject") != NULL) {
		html_elem(fp, "p", "subject", html_jstr(f, "subject"));
		fputc('\n', fp);
	}
	if (html_jstr(f, "detail") != NULL) {
		html_elem(fp, "p", "detail", html_jstr(f, "detail"));
		fputc('\n', fp);
	}
	if (json_array_size(ev) > 0) {
		fputs("<details><summary>", fp);
		fprintf(fp, ngettext("Evidence (%zu line)", "Evidence (%zu lines)",
		    json_array_size(ev)), json_array_size(ev));
		fputs("</summary><ul>\n", fp);
		strings(fp, ev, "<li><code>", "</code></li>\n");
		fputs("</ul></details>\n", fp);
	}
	if (json_array_size(fix) > 0) {
		html_elem(fp, "p", "fix", _("To fix it, run:"));
		fputc('\n', fp);
		fixes(fp, fix);
	}
	fputs("</section>\n", fp);
}

void
html_findings(FILE *fp, const json_t *findings)
{
	const json_t *f;
	size_t i;

	html_elem(fp, "h2", NULL, _("Findings"));
	fputc('\n', fp);
	if (json_array_size(findings) == 0) {
		html_elem(fp, "p", "none", _("No problems found."));
		fputc('\n', fp);
	}
	/* Most severe first, each severity in the order diagnose gave. */
	for (int sev = SEV_ERROR; sev >= SEV_INFO; sev--)
		json_array_foreach(findings, i, f)
			if (severity_of(f) == (enum severity)sev)
				finding(fp, f);
}
