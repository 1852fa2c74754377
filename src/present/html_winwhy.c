/* The Windows program's why NAME.dll page, drawn from its --json
 * document (src/win/cmd_why.c): where LoadLibrary finds the DLL in the
 * standard order and in Python 3.8's, each search step by step, and the
 * os.add_dll_directory() line when only PATH reaches it. The DLL search
 * model's step names are Windows' own, shown as the JSON has them. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "present/html.h"
#include "present/html_parts.h"
#include "util/xalloc.h"

static void
outcome(FILE *fp, const char *name, const json_t *res)
{
	const char *at = html_jstr(res, "resolved");
	char *line;

	if (at != NULL)
		line = xasprintf(_("%s loads from %s (%s)"), name, at,
		    html_jstr(res, "via") != NULL ? html_jstr(res, "via") : "?");
	else
		line = xasprintf(_("%s is not found: %s"), name,
		    html_jstr(res, "error_text") != NULL ?
		    html_jstr(res, "error_text") : "?");
	html_elem(fp, "div", at != NULL ? "verdict sev-ok" :
	    "verdict sev-error", line);
	fputc('\n', fp);
	free(line);
}

static void
search(FILE *fp, const char *title, const char *name, const json_t *res)
{
	const json_t *s, *c;
	size_t i;

	static const char *const cols[] = { "#", N_("step"),
		N_("directory or file"), N_("result"), NULL };

	html_table_head(fp, title, cols);
	json_array_foreach(json_object_get(res, "steps"), i, s) {
		html_step_row(fp, i, html_jstr(s, "source"), s);
	}
	fputs("</tbody></table>\n", fp);
	outcome(fp, name, res);
	if (json_array_size(json_object_get(res, "other_copies")) > 0) {
		html_elem(fp, "p", NULL,
		    _("other copies in the directories searched:"));
		fputs("\n<ul>\n", fp);
		json_array_foreach(json_object_get(res, "other_copies"), i, c) {
			fputs("<li>", fp);
			html_elem(fp, "code", NULL, json_string_value(c));
			fputs("</li>\n", fp);
		}
		fputs("</ul>\n", fp);
	}
}

static void
system_dirs(FILE *fp, const json_t *sys)
{
	static const struct { const char *key, *label; } rows[] = {
		{ "system32", "System32" },
		{ "windows", N_("Windows directory") },
		{ "current_dir", N_("current directory") },
		{ "python_dir", N_("python.exe's directory") },
		{ "path", "PATH" },
	};

	fputs("<dl>\n", fp);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *v = html_jstr(sys, rows[i].key);

		html_elem(fp, "dt", NULL, _(rows[i].label));
		fputs("<dd>", fp);
		if (v != NULL)
			html_elem(fp, "code", NULL, v);
		else
			html_elem(fp, "span", "none", _("(unknown)"));
		fputs("</dd>\n", fp);
	}
	fputs("</dl>\n", fp);
}

static void
win_why_body(FILE *fp, const json_t *doc)
{
	const char *name = html_jstr(doc, "name");
	const char *fix = html_jstr(doc, "add_dll_directory");
	char *line;

	if (name == NULL)
		name = "?";
	fputs("<h1>", fp);
	line = xasprintf(_("How Windows would load %s on this machine"), name);
	html_esc(fp, line);
	free(line);
	fputs("</h1>\n", fp);
	system_dirs(fp, json_object_get(doc, "system"));
	search(fp, _("LoadLibrary from python.exe (the standard order, PATH "
	    "included)"), name, json_object_get(doc, "standard"));
	search(fp, _("Python 3.8 and later, for an extension module's "
	    "dependencies (PATH and the current directory are not "
	    "searched)"), name, json_object_get(doc, "python38"));
	if (fix == NULL)
		return;
	html_elem(fp, "h2", NULL, _("Fix"));
	line = xasprintf(_("%s is found only through PATH or the current "
	    "directory, which Python 3.8 and later do not search. Before the "
	    "import, add:"), name);
	fputc('\n', fp);
	html_elem(fp, "p", NULL, line);
	free(line);
	fputs("\n<pre><code>import os\nos.add_dll_directory(r&quot;", fp);
	html_esc(fp, fix);
	fputs("&quot;)</code></pre>\n", fp);
}

static int
dump(FILE *fp, const json_t *doc)
{
	if (json_dumpf(doc, fp, JSON_INDENT(2)) != 0 || fputc('\n', fp) == EOF)
		return -1;
	return 0;
}

int
html_print_win_why(FILE *fp, const json_t *doc)
{
	struct html_capture c;
	FILE *js = html_capture_begin(&c);

	return html_capture_page(&c, js == NULL ? -1 : dump(js, doc), fp,
	    "cudawiz why", win_why_body);
}
