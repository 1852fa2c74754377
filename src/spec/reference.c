/* --baseline FILE, for doctor (handed on to diagnose's rules_drift) and
 * fleet alike: the reference machine's spec. Either document a fleet has
 * at hand will do: a spec from `spec export`, or a doctor --json report,
 * which carries the same items as its "spec". Anything else is refused
 * with the file's name and why: a reference silently read as empty would
 * turn every item into a difference. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "spec/reference.h"
#include "spec/specdiff.h"
#include "util/readfile.h"
#include "util/xalloc.h"

/* A doctor report of a hostile tree can run to megabytes; a reference
 * far past this is not one. */
#define BASELINE_MAX	(64u * 1024 * 1024)
#define DOCTOR_SCHEMA	"cudawiz/doctor/1"
/* The Windows program's report carries the same "host" and "spec". */
#define WINDOWS_DOCTOR_SCHEMA	"cudawiz/windows-doctor/1"

/* The items of doc, or NULL with *why. */
static const json_t *
items_of(const json_t *doc, const char **host, const char **why)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const json_t *spec = doc, *items;

	if (schema != NULL && (strcmp(schema, DOCTOR_SCHEMA) == 0 ||
	    strcmp(schema, WINDOWS_DOCTOR_SCHEMA) == 0)) {
		spec = json_object_get(doc, "spec");
		if (spec == NULL) {
			*why = _("a doctor report without a \"spec\" (from an "
			    "older cudawiz): use 'cudawiz spec export' on the "
			    "reference machine");
			return NULL;
		}
		schema = json_string_value(json_object_get(spec, "schema"));
	}
	if (schema == NULL || strcmp(schema, SPEC_SCHEMA) != 0) {
		*why = _("not a cudawiz spec (cudawiz/spec/1) nor a doctor "
		    "report (cudawiz/doctor/1)");
		return NULL;
	}
	items = spec_items(spec);
	if (items == NULL) {
		*why = _("its \"items\" are not an object of strings");
		return NULL;
	}
	*host = json_string_value(json_object_get(json_object_get(doc, "host"),
	    "name"));
	return items;
}

json_t *
spec_load_reference(const char *path, const json_t **items,
    const char **host, char **err)
{
	const char *why = NULL;
	json_error_t jerr;
	json_t *doc;
	char *data, *rwhy = NULL;
	size_t len;
	int rc = readfile_capped(path, BASELINE_MAX, &data, &len, &rwhy);

	*host = NULL;
	if (rc == 1) {
		*err = xasprintf(_("--baseline %s: no such file"), path);
		return NULL;
	}
	if (rc < 0) {
		*err = xasprintf("--baseline %s: %s", path, rwhy);
		free(rwhy);
		return NULL;
	}
	doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	free(data);
	if (doc == NULL) {
		*err = xasprintf(_("--baseline %s: not JSON (line %d: %s)"),
		    path, jerr.line, jerr.text);
		return NULL;
	}
	*items = items_of(doc, host, &why);
	if (*items == NULL) {
		*err = xasprintf("--baseline %s: %s", path, why);
		json_decref(doc);
		return NULL;
	}
	return doc;
}
