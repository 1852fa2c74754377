/* The cudawiz/fleet/1 document (data/SCHEMA.md): every list the text
 * view shows, hosts named as in their reports. */
#include "config.h"

#include <time.h>

#include "present/fleet.h"
#include "present/json.h"

static const char *const family_names[] = {
	[SPEC_DRIVER] = "driver", [SPEC_GPU] = "gpu",
	[SPEC_TOOLKIT] = "toolkit", [SPEC_CUDNN] = "cudnn",
	[SPEC_FRAMEWORK] = "framework", [SPEC_ENV] = "env",
	[SPEC_OTHER] = "other",
};

static void
set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v != NULL ? v : json_null());
}

static json_t *
jsize(size_t n)
{
	return json_integer((json_int_t)n);
}

static json_t *
host_names(const struct fleet *fl, const struct fleet_idx *x)
{
	json_t *a = json_array();

	for (size_t i = 0; i < x->n; i++)
		json_array_append_new(a, jstr(fl->hosts.v[x->v[i]].host));
	return a;
}

static json_t *
rfc3339(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return json_null();
	return json_string(buf);
}

static json_t *
hosts_json(const struct fleet *fl)
{
	json_t *a = json_array();

	for (size_t h = 0; h < fl->hosts.n; h++) {
		const struct fleet_report *r = &fl->hosts.v[h];
		json_t *o = json_object();
		int64_t age = fl->now - r->time_unix;

		set(o, "name", jstr(r->host));
		set(o, "file", jstr(r->file));
		set(o, "machine_id", jstr(r->machine_id));
		set(o, "time", jstr(r->time));
		set(o, "time_unix", r->has_time ?
		    json_integer((json_int_t)r->time_unix) : NULL);
		set(o, "age_s", r->has_time ? json_integer((json_int_t)age) :
		    NULL);
		set(o, "stale", r->has_time ?
		    json_boolean(age > (int64_t)fl->max_age_s) : NULL);
		set(o, "errors", jsize(r->count[SEV_ERROR]));
		set(o, "warnings", jsize(r->count[SEV_WARNING]));
		set(o, "info", jsize(r->count[SEV_INFO]));
		set(o, "spec", json_boolean(r->items != NULL));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
groups_json(const struct fleet *fl)
{
	json_t *a = json_array();

	for (size_t i = 0; i < fl->groups.n; i++) {
		const struct fleet_group *g = &fl->groups.v[i];
		json_t *o = json_object();

		set(o, "code", jstr(g->code));
		set(o, "severity", json_string(severity_name(g->worst)));
		set(o, "count", jsize(g->hosts.n));
		set(o, "hosts", host_names(fl, &g->hosts));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
drift_json(const struct fleet *fl)
{
	json_t *d = json_object(), *items = json_array(), *b = NULL;

	set(d, "against", json_string(fl->baseline != NULL ? "baseline" :
	    "majority"));
	if (fl->baseline != NULL) {
		b = json_object();
		set(b, "file", jstr(fl->baseline));
		set(b, "host", jstr(fl->baseline_host));
	}
	set(d, "baseline", b);
	set(d, "compared", jsize(fl->compared));
	set(d, "no_spec", host_names(fl, &fl->no_spec));
	for (size_t i = 0; i < fl->drift.n; i++) {
		const struct fleet_drift *dr = &fl->drift.v[i];
		json_t *o = json_object(), *vals = json_array();

		set(o, "key", jstr(dr->key));
		set(o, "family", json_string(family_names[dr->family]));
		set(o, "reference", jstr(dr->ref));
		set(o, "reference_absent", json_boolean(dr->ref_absent));
		set(o, "tie", json_boolean(dr->tie));
		set(o, "reference_hosts", jsize(dr->ref_hosts));
		for (size_t j = 0; j < dr->values.n; j++) {
			json_t *v = json_object();

			set(v, "value", jstr(dr->values.v[j].value));
			set(v, "hosts", host_names(fl,
			    &dr->values.v[j].hosts));
			json_array_append_new(vals, v);
		}
		set(o, "values", vals);
		json_array_append_new(items, o);
	}
	set(d, "items", items);
	return d;
}

static json_t *
summary_json(const struct fleet *fl)
{
	json_t *s = json_object();

	set(s, "files", jsize(fl->files));
	set(s, "hosts", jsize(fl->hosts.n));
	set(s, "hosts_with_errors", jsize(fl->with_errors.n));
	set(s, "stale", jsize(fl->stale.n));
	set(s, "no_time", jsize(fl->no_time.n));
	set(s, "unreadable", jsize(fl->unreadable.n));
	set(s, "duplicates", jsize(fl->duplicates.n));
	set(s, "drift_items", jsize(fl->drift.n));
	set(s, "ok", json_boolean(!fleet_failed(fl)));
	return s;
}

int
fleet_print_json(FILE *fp, const struct fleet *fl)
{
	json_t *doc = json_object(), *bad = json_array(), *dup = json_array();
	int rc;

	set(doc, "schema", json_string(SCHEMA_FLEET));
	set(doc, "version", json_string(VERSION));
	set(doc, "time", rfc3339(fl->now));
	set(doc, "time_unix", json_integer((json_int_t)fl->now));
	set(doc, "max_age_s", json_integer((json_int_t)fl->max_age_s));
	set(doc, "summary", summary_json(fl));
	set(doc, "hosts", hosts_json(fl));
	set(doc, "findings", groups_json(fl));
	set(doc, "drift", drift_json(fl));
	set(doc, "stale", host_names(fl, &fl->stale));
	set(doc, "no_time", host_names(fl, &fl->no_time));
	for (size_t i = 0; i < fl->unreadable.n; i++) {
		json_t *o = json_object();

		set(o, "file", jstr(fl->unreadable.v[i].file));
		set(o, "reason", jstr(fl->unreadable.v[i].why));
		json_array_append_new(bad, o);
	}
	set(doc, "unreadable", bad);
	for (size_t i = 0; i < fl->duplicates.n; i++) {
		json_t *o = json_object();

		set(o, "file", jstr(fl->duplicates.v[i].file));
		set(o, "host", jstr(fl->duplicates.v[i].host));
		set(o, "kept", jstr(fl->duplicates.v[i].kept));
		json_array_append_new(dup, o);
	}
	set(doc, "duplicates", dup);
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc;
}
