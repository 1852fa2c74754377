/* A matrix's rows: freeing them, copying the borrowed built-in rows
 * before a change, and the accessors; see matrix.h. The schema's tables
 * (schema.c) drive both walks. Reading and checking are in parse.c,
 * writing in write.c. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "matrix/schema_int.h"
#include "util/strv.h"
#include "util/xalloc.h"

static void free_row(const struct table *t, void *row);

static void
free_field(const struct field *f, char *base)
{
	void *p = base + f->off;

	switch (f->kind) {
	case K_SCHEMA:
	case K_STATUS:
	case K_LOADS:
	case K_BUNDLES:
	case K_UINT:
	case K_BOOL:
		break;
	case K_OBJECT:
		free_row(f->sub, p);
		break;
	case K_ROWS: {
		char *arr = vec_items(p);

		for (size_t i = 0; i < *vec_n(p); i++)
			free_row(f->sub, arr + i * f->sub->size);
		free(arr);
		memset(p, 0, sizeof(struct anyvec));
		break;
	}
	case K_STRINGS:
		strv_free(p);
		break;
	default:
		FREE((char **)p);
		break;
	}
}

static void
free_row(const struct table *t, void *row)
{
	for (size_t i = 0; i < t->nfields; i++)
		free_field(&t->fields[i], row);
}

void
matrix_free(struct matrix *m)
{
	if (m == NULL)
		return;
	if (!m->borrowed)
		free_row(&mx_top_table, m);
	free(m->path);
	free(m);
}

static void own_row(const struct table *t, void *row);

/* Replaces what the field at base points to by a copy of its own. */
static void
own_field(const struct field *f, char *base)
{
	void *p = base + f->off;

	switch (f->kind) {
	case K_SCHEMA:
	case K_STATUS:
	case K_LOADS:
	case K_BUNDLES:
	case K_UINT:
	case K_BOOL:
		break;
	case K_OBJECT:
		own_row(f->sub, p);
		break;
	case K_ROWS: {
		size_t n = vec_len(p);
		char *copy = NULL;

		if (n > 0) {
			copy = xreallocarray(NULL, n, f->sub->size);
			memcpy(copy, vec_items(p), n * f->sub->size);
			for (size_t i = 0; i < n; i++)
				own_row(f->sub, copy + i * f->sub->size);
		}
		memcpy(p, &copy, sizeof copy);
		*vec_cap(p) = n;
		break;
	}
	case K_STRINGS: {
		struct strv *sv = p, shared = *sv;

		*sv = (struct strv){ NULL, 0, 0 };
		for (size_t i = 0; i < shared.n; i++)
			strv_push(sv, shared.v[i]);
		break;
	}
	default: {
		char **sp = p;

		if (*sp != NULL)
			*sp = xstrdup(*sp);
		break;
	}
	}
}

static void
own_row(const struct table *t, void *row)
{
	for (size_t i = 0; i < t->nfields; i++)
		own_field(&t->fields[i], row);
}

/* The built-in rows are shared and read-only; a matrix about to change
 * takes a copy of them first, which then is its own to change and free. */
void
mx_own_rows(struct matrix *m)
{
	if (!m->borrowed)
		return;
	own_row(&mx_top_table, m);
	m->borrowed = false;
}

/* ----------------------------------------------------------- accessors */

void
matrix_set_source(struct matrix *m, enum matrix_source src, const char *path)
{
	m->source = src;
	free(m->path);
	m->path = path != NULL ? xstrdup(path) : NULL;
}

enum matrix_source
matrix_source(const struct matrix *m)
{
	return m->source;
}

const char *
matrix_source_name(enum matrix_source src)
{
	switch (src) {
	case MATRIX_EMBEDDED:
		return "embedded";
	case MATRIX_CACHE:
		return "cache";
	case MATRIX_FILE:
		return "file";
	}
	return "embedded";
}

const char *
matrix_path(const struct matrix *m)
{
	return m->path;
}

const char *
matrix_date(const struct matrix *m)
{
	return m->date;
}

unsigned
matrix_refresh_days(const struct matrix *m)
{
	return m->refresh_days;
}

size_t
matrix_ignored_keys(const struct matrix *m)
{
	return m->ignored;
}

const char *
matrix_status_name(enum matrix_status st)
{
	if ((size_t)st < NWORDS(mx_status_words))
		return mx_status_words[st];
	return mx_status_words[MATRIX_UNCONFIRMED];
}

const char *
matrix_section_name(enum matrix_section sec)
{
	if ((size_t)sec < MATRIX_SEC_COUNT)
		return mx_top_fields[FIRST_SECTION + sec].key;
	return "";
}

size_t
matrix_count(const struct matrix *m, enum matrix_section sec)
{
	if ((size_t)sec >= MATRIX_SEC_COUNT)
		return 0;
	return vec_len((const char *)m + mx_top_fields[FIRST_SECTION + sec].off);
}

