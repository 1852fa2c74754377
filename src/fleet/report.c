/* Reading one host's doctor report; see report.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fleet/report.h"
#include "fleet/skim.h"
#include "i18n.h"
#include "spec/specdiff.h"
#include "util/readfile.h"
#include "util/xalloc.h"

/* A finding code from another cudawiz version is kept as it is, but only
 * if it looks like one: it becomes a group's name in every view. */
#define CODE_MAX 64
/* 5000-01-01T00:00:00Z. */
#define TIME_MAX 95617584000LL

json_t *
fleet_parse_json(const char *data, size_t len, char **why)
{
	json_error_t jerr;
	json_t *doc;

	if (len == 0) {
		*why = xstrdup(_("empty file"));
		return NULL;
	}
	/* No JSON_ALLOW_NUL (a "\u0000" would cut every C string made of
	 * it), no JSON_DISABLE_EOF_CHECK (two documents glued together are
	 * not one report). */
	doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL)
		*why = xasprintf(_("not JSON: %s (line %d, column %d)"),
		    jerr.text, jerr.line, jerr.column);
	return doc;
}

/* file's bytes, under the cap; -1 with *why. */
static int
read_report(const char *file, char **data, size_t *len, char **why)
{
	int rc = readfile_capped(file, FLEET_REPORT_MAX, data, len, why);

	if (rc > 0)
		*why = xstrdup(_("no such file"));
	return rc == 0 ? 0 : -1;
}

json_t *
fleet_load_json(const char *file, char **why)
{
	char *data;
	size_t len;
	json_t *doc;

	if (read_report(file, &data, &len, why) != 0)
		return NULL;
	doc = fleet_parse_json(data, len, why);
	free(data);
	return doc;
}

static bool
code_ok(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return n > 0 && n <= CODE_MAX && s[n] == '\0';
}

static bool
severity_parse(const char *s, enum severity *sev)
{
	for (int i = SEV_INFO; i <= SEV_ERROR; i++)
		if (s != NULL && strcmp(s, severity_name((enum severity)i)) == 0) {
			*sev = (enum severity)i;
			return true;
		}
	return false;
}

/* A string member, or NULL when absent or null; *bad when it is there
 * but is something else. */
static const char *
opt_str(const json_t *o, const char *key, bool *bad)
{
	const json_t *v = json_object_get(o, key);

	if (v == NULL || json_is_null(v))
		return NULL;
	if (!json_is_string(v))
		*bad = true;
	return json_string_value(v);
}

static int
read_findings(const json_t *a, struct fleet_report *r, char **why)
{
	size_t i;
	const json_t *f;

	if (!json_is_array(a)) {
		*why = xstrdup(_("its \"findings\" is not a list"));
		return -1;
	}
	json_array_foreach(a, i, f) {
		struct fleet_finding *ff;
		const char *code = json_string_value(json_object_get(f, "code"));
		enum severity sev;
		bool bad = false;
		const char *subject = opt_str(f, "subject", &bad);

		if (code == NULL || !code_ok(code) || bad || !severity_parse(
		    json_string_value(json_object_get(f, "severity")), &sev)) {
			*why = xasprintf(_("finding %zu has no valid code, "
			    "severity or subject"), i + 1);
			return -1;
		}
		ff = VEC_PUSH(&r->findings);
		ff->code = xstrdup(code);
		ff->severity = sev;
		ff->subject = subject != NULL ? xstrdup(subject) : NULL;
	}
	return 0;
}

/* The summary's counts; counted from the findings when it has none (a
 * report is checked, not trusted: a summary that disagrees with its own
 * findings makes the file damaged). */
static int
read_summary(const json_t *s, struct fleet_report *r, char **why)
{
	static const char *const keys[] = { "info", "warnings", "errors" };
	size_t counted[3] = { 0, 0, 0 };

	for (size_t i = 0; i < r->findings.n; i++)
		counted[r->findings.v[i].severity]++;
	for (int sev = SEV_INFO; sev <= SEV_ERROR; sev++) {
		const json_t *v = json_object_get(s, keys[sev]);

		r->count[sev] = counted[sev];
		if (s == NULL)
			continue;
		if (!json_is_integer(v) ||
		    json_integer_value(v) != (json_int_t)counted[sev]) {
			*why = xasprintf(_("its summary's \"%s\" does not match "
			    "its findings"), keys[sev]);
			return -1;
		}
	}
	return 0;
}

static int
read_host(const json_t *h, const char *file, struct fleet_report *r,
    char **why)
{
	const char *base = strrchr(file, '/'), *name, *mid, *time;
	const json_t *tu = json_object_get(h, "time_unix");
	bool bad = h != NULL && !json_is_object(h);
	size_t n;

	name = opt_str(h, "name", &bad);
	mid = opt_str(h, "machine_id", &bad);
	time = opt_str(h, "time", &bad);
	/* A time before 1970 or past year 5000 is no run's: refused, so
	 * that an age is always a plain subtraction. */
	if (tu != NULL && !json_is_null(tu) && (!json_is_integer(tu) ||
	    json_integer_value(tu) < 0 || json_integer_value(tu) > TIME_MAX))
		bad = true;
	if (bad || (name != NULL && *name == '\0')) {
		*why = xstrdup(_("its \"host\" is not a host object"));
		return -1;
	}
	if (name == NULL) {
		base = base != NULL ? base + 1 : file;
		n = strlen(base);
		if (n > 5 && strcmp(base + n - 5, ".json") == 0)
			n -= 5;
		r->host = xstrndup(base, n);
	} else {
		r->host = xstrdup(name);
	}
	r->machine_id = mid != NULL ? xstrdup(mid) : NULL;
	r->time = time != NULL ? xstrdup(time) : NULL;
	r->has_time = json_is_integer(tu);
	r->time_unix = r->has_time ? (int64_t)json_integer_value(tu) : 0;
	return 0;
}

int
fleet_report_from_json(const char *file, const json_t *doc,
    struct fleet_report *r, char **why)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const json_t *spec = json_object_get(doc, "spec");

	memset(r, 0, sizeof *r);
	*why = NULL;
	if (!json_is_object(doc))
		*why = xstrdup(_("not a cudawiz doctor report (not a JSON "
		    "object)"));
	else if (schema == NULL)
		*why = xstrdup(_("not a cudawiz doctor report (no \"schema\")"));
	else if (strcmp(schema, FLEET_SCHEMA_DOCTOR) != 0 &&
	    strcmp(schema, FLEET_SCHEMA_WINDOWS_DOCTOR) != 0)
		*why = xasprintf(_("not a cudawiz doctor report (schema "
		    "\"%s\")"), schema);
	else if (spec != NULL && !json_is_null(spec) && spec_items(spec) == NULL)
		*why = xstrdup(_("its \"spec\" is not a cudawiz/spec/1 object"));
	if (*why != NULL)
		return -1;
	r->file = xstrdup(file);
	if (read_host(json_object_get(doc, "host"), file, r, why) != 0 ||
	    read_findings(json_object_get(doc, "findings"), r, why) != 0 ||
	    read_summary(json_object_get(doc, "summary"), r, why) != 0) {
		fleet_report_free(r);
		return -1;
	}
	if (spec != NULL && !json_is_null(spec))
		r->items = json_incref((json_t *)spec_items(spec));
	return 0;
}

/* The members fleet reads, parsed alone after a skim (skim.h); NULL
 * when the skim is not sure, and the whole document must be parsed. */
static json_t *
skimmed(const char *data, size_t len)
{
	static const char *const want[] = { "schema", "host", "findings",
	    "summary", "spec", NULL };
	struct skim_span spans[sizeof want / sizeof want[0]];
	json_t *doc;

	if (skim_object(data, len, want, spans) != 0)
		return NULL;
	doc = json_object();
	for (size_t i = 0; want[i] != NULL; i++) {
		json_error_t jerr;
		json_t *v;

		if (spans[i].at == NULL)
			continue;
		v = json_loadb(spans[i].at, spans[i].len, JSON_DECODE_ANY |
		    JSON_REJECT_DUPLICATES, &jerr);
		if (v == NULL) {
			json_decref(doc);
			return NULL;
		}
		json_object_set_new(doc, want[i], v);
	}
	return doc;
}

int
fleet_report_read(const char *file, struct fleet_report *r, char **why)
{
	char *data;
	size_t len;
	json_t *doc;
	int rc;

	memset(r, 0, sizeof *r);
	if (read_report(file, &data, &len, why) != 0)
		return -1;
	if ((doc = skimmed(data, len)) == NULL)
		doc = fleet_parse_json(data, len, why);
	free(data);
	if (doc == NULL)
		return -1;
	rc = fleet_report_from_json(file, doc, r, why);
	/* The items outlive the document: the rest is freed now, so 1,000
	 * reports cost their items, not their facts. */
	json_decref(doc);
	return rc;
}

void
fleet_report_free(struct fleet_report *r)
{
	for (size_t i = 0; i < r->findings.n; i++) {
		free(r->findings.v[i].code);
		free(r->findings.v[i].subject);
	}
	free(r->findings.v);
	FREE(&r->file);
	FREE(&r->host);
	FREE(&r->machine_id);
	FREE(&r->time);
	json_decref(r->items);
	memset(r, 0, sizeof *r);
}
