/* The "verify" part of the doctor and verify documents: the state of live
 * verification and, run by run, how the helper ended and every record it
 * wrote, with all of the record's fields as the helper gave them. */
#include "config.h"

#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "present/json.h"

static void
put(json_t *obj, const char *key, json_t *val)
{
	json_object_set_new(obj, key, val != NULL ? val : json_null());
}

static json_t *
kv_json(const struct verify_kv *kv)
{
	json_t *v;

	switch (kv->type) {
	case VKV_BOOL:
		return json_boolean(kv->num != 0);
	case VKV_NUM:
		/* Integers stay integers: sizes and codes are exact. */
		if (kv->num == (double)(json_int_t)kv->num &&
		    kv->num > -9.0e15 && kv->num < 9.0e15)
			return json_integer((json_int_t)kv->num);
		return json_real(kv->num);
	case VKV_STR:
		return jstr(kv->str);
	case VKV_JSON:
		v = json_loads(kv->str, JSON_DECODE_ANY, NULL);
		return v != NULL ? v : json_null();
	case VKV_NULL:
		break;
	}
	return json_null();
}

static json_t *
record_json(const struct verify_record *rec)
{
	json_t *o = json_object();

	for (size_t i = 0; i < rec->kv.n; i++)
		put(o, rec->kv.v[i].key, kv_json(&rec->kv.v[i]));
	return o;
}

static json_t *
run_json(const struct verify_run *r)
{
	json_t *o = json_object(), *recs = json_array();

	put(o, "kind", json_string(verify_kind_name(r->kind)));
	put(o, "lib", jstr(r->lib));
	put(o, "cudart", jstr(r->cudart));
	put(o, "where", jstr(r->where));
	put(o, "owner", jstr(r->owner));
	put(o, "owner_name", jstr(r->owner_name));
	put(o, "loaded", json_true());
	put(o, "argv", jstrv(&r->argv));
	put(o, "ld_library_path", jstr(r->ld_library_path));
	put(o, "outcome", json_string(verify_outcome_name(r->outcome)));
	put(o, "exit_status", r->outcome == VERIFY_EXITED ||
	    r->outcome == VERIFY_DONE ? json_integer(r->exit_status) : NULL);
	put(o, "signal", r->outcome == VERIFY_SIGNALLED ?
	    json_integer(r->signal) : NULL);
	put(o, "start_error", jstr(r->start_error));
	put(o, "last_step", jstr(r->last_step));
	put(o, "stderr_tail", jstr(r->stderr_tail));
	put(o, "garbage_lines", json_integer((json_int_t)r->garbage_lines));
	put(o, "garbage_sample", jstr(r->garbage_sample));
	put(o, "ms", json_real(r->ms));
	for (size_t i = 0; i < r->records.n; i++)
		json_array_append_new(recs, record_json(&r->records.v[i]));
	put(o, "records", recs);
	return o;
}

/* A library left unloaded: where it is and why, nothing run. */
static json_t *
not_loaded_json(const struct verify_run *r)
{
	json_t *o = json_object();

	put(o, "kind", json_string(verify_kind_name(r->kind)));
	put(o, "lib", jstr(r->lib));
	put(o, "where", jstr(r->where));
	put(o, "owner", jstr(r->owner));
	put(o, "owner_name", jstr(r->owner_name));
	put(o, "loaded", json_false());
	put(o, "why", jstr(r->not_loaded_why));
	return o;
}

json_t *
verify_json(const struct verify_facts *vf)
{
	json_t *o = json_object(), *runs = json_array();
	json_t *skipped = json_array();

	put(o, "state", json_string(verify_state_name(vf->state)));
	put(o, "why", jstr(vf->why));
	put(o, "helper", jstr(vf->helper));
	put(o, "timeout_s", vf->state == VERIFY_STATE_RAN ?
	    json_real(vf->timeout_s) : NULL);
	put(o, "quick", json_boolean(vf->quick));
	put(o, "cancelled", json_boolean(vf->cancelled));
	put(o, "ms", vf->state == VERIFY_STATE_RAN ? json_real(vf->ms) : NULL);
	for (size_t i = 0; i < vf->runs.n; i++)
		json_array_append_new(runs, run_json(&vf->runs.v[i]));
	put(o, "runs", runs);
	for (size_t i = 0; i < vf->not_loaded.n; i++)
		json_array_append_new(skipped,
		    not_loaded_json(&vf->not_loaded.v[i]));
	put(o, "not_loaded", skipped);
	put(o, "env", jstr(vf->env));
	return o;
}
