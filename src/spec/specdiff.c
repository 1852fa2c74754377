/* Comparing two specs item by item; see specdiff.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "spec/specdiff.h"
#include "util/xalloc.h"

static const struct {
	const char		*name;
	enum spec_family	 family;
} families[] = {
	{ "driver", SPEC_DRIVER },
	{ "gpu", SPEC_GPU },
	{ "toolkit", SPEC_TOOLKIT },
	{ "cudnn", SPEC_CUDNN },
	{ "framework", SPEC_FRAMEWORK },
	{ "env", SPEC_ENV },
};

enum spec_family
spec_key_family(const char *key)
{
	const char *dot = strchr(key, '.');
	size_t n = dot != NULL ? (size_t)(dot - key) : strlen(key);

	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strlen(families[i].name) == n &&
		    strncmp(families[i].name, key, n) == 0)
			return families[i].family;
	return SPEC_OTHER;
}

const json_t *
spec_items(const json_t *doc)
{
	const json_t *items = json_object_get(doc, "items");
	const char *k;
	json_t *v;

	if (!json_is_object(items))
		return NULL;
	json_object_foreach((json_t *)items, k, v)
		if (!json_is_string(v))
			return NULL;
	return items;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of both objects, sorted, each once. */
static const char **
union_keys(const json_t *a, const json_t *b, size_t *n)
{
	size_t cap = json_object_size(a) + json_object_size(b), m = 0;
	const char **keys = xreallocarray(NULL, cap ? cap : 1, sizeof *keys);
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)a, k, v)
		keys[m++] = k;
	json_object_foreach((json_t *)b, k, v)
		if (json_object_get(a, k) == NULL)
			keys[m++] = k;
	qsort(keys, m, sizeof *keys, cmp_str);
	*n = m;
	return keys;
}

size_t
spec_diff(const json_t *ref, const json_t *mine,
    void (*fn)(const struct spec_delta *d, void *arg), void *arg)
{
	size_t n, diffs = 0;
	const char **keys = union_keys(ref, mine, &n);

	for (size_t i = 0; i < n; i++) {
		const char *r = json_string_value(json_object_get(ref, keys[i]));
		const char *m = json_string_value(json_object_get(mine, keys[i]));
		struct spec_delta d = { keys[i], spec_key_family(keys[i]), r, m };

		if (r != NULL && m != NULL && strcmp(r, m) == 0)
			continue;
		diffs++;
		if (fn != NULL)
			fn(&d, arg);
	}
	free(keys);
	return diffs;
}
