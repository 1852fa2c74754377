/* The matrix schema as data, shared by the parts that walk it: the
 * tables and value patterns (schema.c), the parser and checker (parse.c),
 * copying and freeing (matrix.c) and the writers (write.c). Internal to
 * src/matrix, like internal.h. */
#ifndef CUDAWIZ_MATRIX_SCHEMA_INT_H
#define CUDAWIZ_MATRIX_SCHEMA_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "matrix/internal.h"
#include "matrix/matrix.h"

#define SCHEMA_ID	"cudawiz/matrix/1"
#define TEXT_MAX	200	/* characters in a text field */
#define QUOTE_MAX	40	/* characters of a bad value shown in an error */
#define PATH_DEPTH	16	/* deeper than any valid document nests */
#define UINT_FIELD_MAX	999	/* majors; a negative or absurd one is a typo */
#define URL_MAX		200	/* characters in a url */

/* ------------------------------------------------------------- the schema */

enum kind {
	/* Strings, stored as char *. */
	K_VERSION,
	K_DRIVER,
	K_CC,
	K_DATE,
	K_SONAME,
	K_DLL,
	K_PACKAGE,
	K_RELPATH,
	K_PCI_ID,
	K_TEXT,
	K_PUBNAME,	/* a package as published, pip extras allowed */
	K_URL,		/* an https:// address */
	K_SCHEMA,	/* the fixed schema name; checked first, not stored */
	/* Words stored as their enum. */
	K_STATUS,
	K_LOADS,
	K_BUNDLES,
	K_UINT,		/* unsigned, between lo and hi */
	K_BOOL,
	K_OBJECT,	/* a nested struct described by sub */
	K_ROWS,		/* a vector of structs described by sub */
	K_STRINGS,	/* a struct strv whose strings are of kind item */
};

struct table;

struct field {
	const char		*key;
	const char		*member;	/* the C name, when not key */
	enum kind		 kind;
	enum kind		 item;		/* K_STRINGS */
	bool			 nullable;
	/* May be absent (then NULL, empty or 0): every field added after a
	 * schema's first release is, so older documents still load. */
	bool			 optional;
	unsigned		 lo, hi;	/* K_UINT */
	size_t			 off;
	const struct table	*sub;		/* K_OBJECT, K_ROWS */
};

struct ctx;

struct table {
	size_t			 size;
	const struct field	*fields;
	size_t			 nfields;
	/* Checks between fields of one row, after each field passed. */
	int			(*check)(struct ctx *c, const void *row);
	const char		*ctype;		/* "struct matrix_gpu", for C */
};

/* Every vector in the rows has this layout ({ T *v; size_t n, cap; }), so
 * one piece of code can grow and walk them all. The counts are reached as
 * the size_t objects they are and the pointer is moved with memcpy, as
 * vec_push_ does, so no object is read through a type it does not have. */
struct anyvec {
	void	*v;
	size_t	 n, cap;
};

static inline size_t *
vec_n(void *vec)
{
	return (size_t *)((char *)vec + offsetof(struct anyvec, n));
}

static inline size_t
vec_len(const void *vec)
{
	size_t n;

	memcpy(&n, (const char *)vec + offsetof(struct anyvec, n), sizeof n);
	return n;
}

static inline size_t *
vec_cap(void *vec)
{
	return (size_t *)((char *)vec + offsetof(struct anyvec, cap));
}

static inline char *
vec_items(const void *vec)
{
	char *arr;

	memcpy(&arr, vec, sizeof arr);
	return arr;
}

_Static_assert(offsetof(struct matrix_builds, n) == offsetof(struct anyvec, n) &&
    offsetof(struct matrix_ranges, n) == offsetof(struct anyvec, n) &&
    offsetof(struct matrix_builds, cap) == offsetof(struct anyvec, cap) &&
    sizeof(struct matrix_builds) == sizeof(struct anyvec) &&
    offsetof(struct matrix_fw_checks, n) == offsetof(struct anyvec, n) &&
    sizeof(struct matrix_fw_checks) == sizeof(struct anyvec),
    "vectors share one layout");

#define NWORDS(a) (sizeof (a) / sizeof (a)[0])

/* schema.c: the words of enum fields, and the document's top table, whose
 * fields are in enum matrix_section order from FIRST_SECTION on. */
extern const char *const mx_status_words[MATRIX_UNCONFIRMED + 1];
extern const char *const mx_loads_words[MATRIX_LOADS_NEEDED + 1];
extern const char *const mx_bundles_words[MATRIX_BUNDLES_OPTIONAL + 1];
extern const struct field mx_top_fields[];
extern const struct table mx_top_table;
#define FIRST_SECTION 3

/* schema.c: the value patterns. */
bool	mx_is_alnum(char ch);
bool	mx_unsafe_cp(long cp);
bool	mx_match_kind(enum kind k, const char *s, size_t len);

/* parse.c: the checks between the fields of one row, which the tables
 * name. */
int	mx_check_range(struct ctx *c, const void *row);
int	mx_check_cuda_major(struct ctx *c, const void *row);
int	mx_check_architecture(struct ctx *c, const void *row);
int	mx_check_framework(struct ctx *c, const void *row);
int	mx_check_fw_check(struct ctx *c, const void *row);

/* matrix.c: copies the borrowed built-in rows before a change. */
void	mx_own_rows(struct matrix *m);

#endif
