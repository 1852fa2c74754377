/* Reading one line of the helper's output into a record (docs/VERIFY.md).
 *
 * The helper is ours, but the libraries it loads are not: a line that is
 * not one JSON object with a string "check" is counted as garbage by the
 * caller, never guessed at. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "verify/verify.h"

/* A record's line is short; anything longer is not the protocol. */
#define VERIFY_LINE_MAX	(256 * 1024)

static void
add_kv(struct verify_record *rec, const char *key, json_t *v)
{
	struct verify_kv *kv = VEC_PUSH(&rec->kv);

	kv->key = xstrdup(key);
	switch (json_typeof(v)) {
	case JSON_NULL:
		kv->type = VKV_NULL;
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		kv->type = VKV_BOOL;
		kv->num = json_is_true(v) ? 1 : 0;
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		kv->type = VKV_NUM;
		kv->num = json_number_value(v);
		break;
	case JSON_STRING:
		kv->type = VKV_STR;
		kv->str = xstrndup(json_string_value(v), json_string_length(v));
		break;
	default: {
		char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);

		kv->type = VKV_JSON;
		kv->str = s != NULL ? xstrdup(s) : xstrdup("null");
		free(s);
	}
	}
}

static char *
str_or_null(json_t *v)
{
	return json_is_string(v) ? xstrndup(json_string_value(v),
	    json_string_length(v)) : NULL;
}

bool
verify_parse_line(const char *line, size_t len, struct verify_record *out)
{
	json_error_t err;
	json_t *o, *v;
	const char *key;

	memset(out, 0, sizeof *out);
	if (len == 0 || len > VERIFY_LINE_MAX)
		return false;
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &err);
	if (o == NULL)
		return false;
	if (!json_is_object(o) || !json_is_string(json_object_get(o, "check"))) {
		json_decref(o);
		return false;
	}
	out->check = str_or_null(json_object_get(o, "check"));
	out->device = -1;
	out->ok = -1;
	v = json_object_get(o, "device");
	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    json_integer_value(v) < 1 << 20)
		out->device = (int)json_integer_value(v);
	v = json_object_get(o, "ok");
	if (json_is_boolean(v))
		out->ok = json_is_true(v) ? 1 : 0;
	v = json_object_get(o, "code");
	if (json_is_integer(v)) {
		out->has_code = true;
		out->code = json_integer_value(v);
	}
	out->name = str_or_null(json_object_get(o, "name"));
	out->message = str_or_null(json_object_get(o, "message"));
	json_object_foreach(o, key, v)
		add_kv(out, key, v);
	json_decref(o);
	return true;
}
