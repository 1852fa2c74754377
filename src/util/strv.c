/* String vectors; see strv.h. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/strv.h"
#include "util/xalloc.h"

void
strv_push_owned(struct strv *sv, char *s)
{
	char **slot = VEC_PUSH(sv);

	*slot = s;
}

void
strv_push(struct strv *sv, const char *s)
{
	strv_push_owned(sv, xstrdup(s));
}

void
strv_pushf(struct strv *sv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_push_owned(sv, xvasprintf(fmt, ap));
	va_end(ap);
}

bool
strv_contains(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
strv_sort(struct strv *sv)
{
	if (sv->n > 1)
		qsort(sv->v, sv->n, sizeof *sv->v, cmp_str);
}

void
strv_split(struct strv *sv, const char *s, const char *seps)
{
	for (;;) {
		size_t n = strcspn(s, seps);

		strv_push_owned(sv, xstrndup(s, n));
		if (s[n] == '\0')
			break;
		s += n + 1;
	}
}

void
strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	FREE(&sv->v);
	sv->n = sv->cap = 0;
}
