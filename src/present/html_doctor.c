/* The doctor page: header, verdict, findings, then the facts as compact
 * definition lists and tables, drawn from the doctor JSON document. The
 * facts show what a reader compares (versions, paths, what loads); every
 * field is in the JSON block and in --json. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/html.h"
#include "present/html_parts.h"
#include "present/json.h"
#include "present/words.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Longer lists are cut here, with a count of the rest. */
#define LIST_LIMIT	12

/* Labels for the JSON fields the facts show most; any other field is
 * shown under its JSON name, which is what --json users search for. */
static const struct { const char *key, *label; } labels[] = {
	{ "name", N_("name") }, { "pci", N_("PCI address") },
	{ "version", N_("version") }, { "root", N_("directory") },
	{ "release", N_("release") }, { "nvcc", N_("nvcc") },
	{ "lib_dir", N_("libraries") }, { "where", N_("installed by") },
	{ "prefix", N_("prefix") }, { "kind", N_("kind") },
	{ "python", N_("interpreter") }, { "python_version", N_("Python") },
	{ "active", N_("active") }, { "module_version", N_("kernel module") },
	{ "kernel_release", N_("running kernel") },
	{ "max_cuda", N_("highest CUDA it runs") },
	{ "nvidia_loaded", N_("nvidia module loaded") },
	{ "found_via", N_("found via") }, { "components", N_("components") },
};

static const char *
label_of(const char *key)
{
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (strcmp(labels[i].key, key) == 0)
			return _(labels[i].label);
	return key;
}

static bool
shown(const json_t *v)
{
	size_t i;
	const json_t *e;

	if (json_is_null(v) || json_is_object(v))
		return false;
	if (json_is_array(v)) {
		if (json_array_size(v) == 0)
			return false;
		json_array_foreach(v, i, e)
			if (!json_is_string(e))
				return false;
	}
	return true;
}

static void
value(FILE *fp, const json_t *v)
{
	size_t i;
	const json_t *e;

	if (json_is_string(v))
		html_elem(fp, "code", NULL, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(fp, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		html_esc(fp, json_is_true(v) ? _("yes") : _("no"));
	else if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			if (i == LIST_LIMIT) {
				fputs("<br>", fp);
				fprintf(fp, _("… and %zu more"),
				    json_array_size(v) - LIST_LIMIT);
				break;
			}
			if (i > 0)
				fputs("<br>", fp);
			html_elem(fp, "code", NULL, json_string_value(e));
		}
	}
}

/* Fields the Windows probe does not look at, which the bridged facts
 * (winprobe/winbridge.c) fill with the model's empty value: 0 packages
 * would be a claim, not a fact. */
static const char *const not_windows[] = {
	"package_count", "system_site_packages", NULL
};

static bool
not_on_windows(const char *key)
{
	for (const char *const *k = not_windows; *k != NULL; k++)
		if (strcmp(*k, key) == 0)
			return true;
	return false;
}

/* An object's plain fields (strings, numbers, yes/no, lists of strings)
 * as a definition list; nested objects are for --json. */
static bool
fields(FILE *fp, const json_t *o, bool windows)
{
	const char *key;
	const json_t *v;
	bool any = false;

	json_object_foreach((json_t *)o, key, v) {
		if (!shown(v) || (windows && not_on_windows(key)))
			continue;
		if (!any)
			fputs("<dl>\n", fp);
		any = true;
		html_elem(fp, "dt", NULL, label_of(key));
		fputs("<dd>", fp);
		value(fp, v);
		fputs("</dd>\n", fp);
	}
	if (any)
		fputs("</dl>\n", fp);
	return any;
}

static void
section(FILE *fp, const char *title, const json_t *v, const char *item_title,
    bool windows)
{
	size_t i;
	const json_t *e;

	if (title != NULL) {
		html_elem(fp, "h2", NULL, title);
		fputc('\n', fp);
	}
	if (json_is_object(v)) {
		if (!fields(fp, v, windows)) {
			html_elem(fp, "p", "none", _("unknown"));
			fputc('\n', fp);
		}
		return;
	}
	if (json_array_size(v) == 0) {
		html_elem(fp, "p", "none", _("none found"));
		fputc('\n', fp);
	}
	json_array_foreach(v, i, e) {
		if (item_title != NULL && html_jstr(e, item_title) != NULL) {
			html_elem(fp, "h3", NULL, html_jstr(e, item_title));
			fputc('\n', fp);
		}
		fields(fp, e, windows);
	}
}

/* Each library the probes looked for (a framework's needs have the
 * same fields): where the loader finds it. */
static void
libraries(FILE *fp, const char *title, const json_t *libs)
{
	size_t i;
	const json_t *l;

	static const char *const cols[] = { N_("library"), N_("loads from"),
		N_("found via"), NULL };

	html_table_head(fp, title, cols);
	json_array_foreach(libs, i, l) {
		const char *res = html_jstr(l, "resolved");

		fputs("<tr><td>", fp);
		html_elem(fp, "code", NULL, html_jstr(l, "soname"));
		fputs("</td><td>", fp);
		if (res != NULL)
			html_elem(fp, "code", NULL, res);
		else
			html_elem(fp, "span", "none", _("not found"));
		fputs("</td><td>", fp);
		html_esc(fp, html_step_words(html_jstr(l, "via"), STEPW_SHORT));
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
}

/* The variables that steer CUDA, set or not, and ld.so.conf's size. */
static void
environment(FILE *fp, const json_t *env, bool windows)
{
	const char *key;
	const json_t *v;

	html_elem(fp, "h2", NULL, _("Environment"));
	fputs("\n<dl>\n", fp);
	json_object_foreach((json_t *)env, key, v) {
		if (!json_is_object(v) || json_object_get(v, "set") == NULL)
			continue;
		/* The dynamic loader's variables mean nothing to Windows'. */
		if (windows && strncmp(key, "LD_", 3) == 0)
			continue;
		html_elem(fp, "dt", NULL, key);
		fputs("<dd>", fp);
		if (!json_is_true(json_object_get(v, "set")))
			html_elem(fp, "span", "none", _("(unset)"));
		else
			html_elem(fp, "code", NULL, html_jstr(v, "value"));
		fputs("</dd>\n", fp);
	}
	fputs("</dl>\n", fp);
}

static void
notes(FILE *fp, const json_t *ns)
{
	size_t i;
	const json_t *n;

	if (json_array_size(ns) == 0)
		return;
	html_elem(fp, "h2", NULL, _("Notes (problems met while looking)"));
	fputs("\n<ul>\n", fp);
	json_array_foreach(ns, i, n) {
		fputs("<li>", fp);
		html_elem(fp, "code", NULL, html_jstr(n, "path"));
		fputs(": ", fp);
		html_esc(fp, html_jstr(n, "problem"));
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

/* The text report's host line (text.c), from the document's "host". */
static void
host_line(FILE *fp, const json_t *host)
{
	const char *name = html_jstr(host, "name");
	const char *os = html_jstr(host, "os");
	const char *kernel = html_jstr(host, "kernel");
	struct strbuf sb = STRBUF_INIT;

	if (name == NULL)
		return;
	strbuf_printf(&sb, _("host %s"), name);
	if (os != NULL)
		strbuf_printf(&sb, ", %s", os);
	if (kernel != NULL)
		strbuf_printf(&sb, _(", kernel %s"), kernel);
	html_elem(fp, "p", "meta", strbuf_str(&sb));
	strbuf_free(&sb);
}

/* Windows' driver: nvcuda.dll, which the bridge gives as the driver's
 * library, then the fields the matrix adds (the rest are Linux's
 * kernel module's, unknown there). */
static void
win_driver(FILE *fp, const json_t *drv)
{
	const json_t *libs = json_object_get(drv, "libraries"), *l;
	size_t i;

	html_elem(fp, "h2", NULL, _("Driver"));
	fputs("\n<dl>\n", fp);
	if (json_array_size(libs) == 0) {
		html_elem(fp, "dt", NULL, "nvcuda.dll");
		fputs("<dd>", fp);
		html_elem(fp, "span", "none", _("not found: no NVIDIA driver is "
		    "installed"));
		fputs("</dd>\n", fp);
	}
	json_array_foreach(libs, i, l) {
		html_elem(fp, "dt", NULL, "nvcuda.dll");
		fputs("<dd>", fp);
		html_elem(fp, "code", NULL, html_jstr(l, "version") != NULL ?
		    html_jstr(l, "version") : _("version unknown"));
		fputc(' ', fp);
		html_elem(fp, "code", NULL, html_jstr(l, "path"));
		fputs("</dd>\n", fp);
	}
	fputs("</dl>\n", fp);
	fields(fp, drv, true);
}

static void
body(FILE *fp, const json_t *doc, bool windows)
{
	const json_t *facts = json_object_get(doc, "facts");
	const json_t *m = json_object_get(doc, "matrix");
	const json_t *envs = json_object_get(facts, "python_envs");
	const json_t *findings = json_object_get(doc, "findings");
	const char *root = html_jstr(doc, "root");
	size_t i;
	const json_t *e;
	char *line;

	if (windows)
		fprintf(fp, "<h1>%s %s doctor (Windows, %c:)</h1>\n", PACKAGE,
		    VERSION, root != NULL && root[0] != '\0' ? root[0] : 'C');
	else
		fprintf(fp, "<h1>%s %s doctor</h1>\n", PACKAGE, VERSION);
	host_line(fp, json_object_get(doc, "host"));
	/* The Windows doctor probes the live system, its root a drive. */
	if (!windows && !json_is_true(json_object_get(doc, "live_checks"))) {
		line = xasprintf(_("root %s (a tree standing in for /: nothing is run or loaded)\n"),
		    root);
		html_elem(fp, "p", "meta", line);
		free(line);
	}
	if (html_jstr(m, "date") != NULL) {
		line = xasprintf(_("compatibility data: %s, %s%s%s\n"),
		    words_matrix_source(html_jstr(m, "source")),
		    html_jstr(m, "date"), html_jstr(m, "path") != NULL ? " " : "",
		    html_jstr(m, "path") != NULL ? html_jstr(m, "path") : "");
		html_elem(fp, "p", "meta", line);
		free(line);
	}
	html_verdict(fp, findings);
	html_findings(fp, findings);
	section(fp, _("GPUs"), json_object_get(facts, "gpus"), "name", windows);
	if (windows)
		win_driver(fp, json_object_get(facts, "driver"));
	else
		section(fp, _("Driver"), json_object_get(facts, "driver"), NULL,
		    false);
	section(fp, _("CUDA toolkits"), json_object_get(facts, "toolkits"),
	    "root", windows);
	section(fp, _("cuDNN"), json_object_get(facts, "cudnn"), "lib_dir",
	    windows);
	section(fp, _("Python environments"), envs, "prefix", windows);
	json_array_foreach(envs, i, e) {
		const json_t *fws = json_object_get(e, "frameworks"), *fw;
		size_t j;

		if (json_array_size(fws) == 0)
			continue;
		fputs("<h3>", fp);
		html_esc(fp, _("Frameworks"));
		fputs(" · ", fp);
		html_esc(fp, html_jstr(e, "prefix"));
		fputs("</h3>\n", fp);
		section(fp, NULL, fws, "name", windows);
		/* Windows' facts hold no loader cache: what each framework
		 * loads is its own needs, resolved by the DLL search. */
		json_array_foreach(fws, j, fw)
			if (windows &&
			    json_array_size(json_object_get(fw, "needs")) > 0) {
				line = xasprintf(_("DLLs %s loads"),
				    html_jstr(fw, "name"));
				libraries(fp, line, json_object_get(fw, "needs"));
				free(line);
			}
	}
	if (!windows || json_array_size(json_object_get(facts,
	    "libraries")) > 0)
		libraries(fp, _("Libraries"), json_object_get(facts,
		    "libraries"));
	environment(fp, json_object_get(facts, "env"), windows);
	notes(fp, json_object_get(facts, "notes"));
}

static void
doctor_body(FILE *fp, const json_t *doc)
{
	body(fp, doc, false);
}

static void
win_doctor_body(FILE *fp, const json_t *doc)
{
	body(fp, doc, true);
}

int
html_print_doctor(FILE *fp, const struct facts *facts,
    const struct findings *findings, const struct matrix *m, time_t now,
    time_t checked)
{
	struct html_capture c;
	FILE *js = html_capture_begin(&c);

	return html_capture_page(&c, js == NULL ? -1 :
	    json_print_doctor(js, facts, findings, m, now, checked), fp,
	    "cudawiz doctor", doctor_body);
}

int
html_print_doctor_windows(FILE *fp, const struct facts *facts,
    const struct findings *findings, const struct matrix *m, time_t now)
{
	struct html_capture c;
	FILE *js = html_capture_begin(&c);

	return html_capture_page(&c, js == NULL ? -1 :
	    json_print_doctor(js, facts, findings, m, now, 0), fp,
	    "cudawiz doctor", win_doctor_body);
}
