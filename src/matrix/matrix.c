/* Reading, checking, writing and extending a matrix document; see matrix.h
 * and data/SCHEMA.md.
 *
 * The document may come from the network, so nothing in it is trusted:
 * every key must be known, every value must have its type and pattern, and
 * the first thing wrong is reported with its JSON path. One description of
 * the schema (the tables below) drives parsing, copying, freeing and
 * writing (as JSON, and as C for the built-in matrix), so they cannot
 * drift apart and parse(to_json(m)) gives m back. */
#include "config.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/utf8width.h"
#include "util/version.h"
#include "util/xalloc.h"

#define SCHEMA_ID	"cudawiz/matrix/1"
#define TEXT_MAX	200	/* characters in a text field */
#define QUOTE_MAX	40	/* characters of a bad value shown in an error */
#define PATH_DEPTH	16	/* deeper than any valid document nests */
#define UINT_FIELD_MAX	999	/* majors; a negative or absurd one is a typo */

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

static size_t *
vec_n(void *vec)
{
	return (size_t *)((char *)vec + offsetof(struct anyvec, n));
}

static size_t
vec_len(const void *vec)
{
	size_t n;

	memcpy(&n, (const char *)vec + offsetof(struct anyvec, n), sizeof n);
	return n;
}

static size_t *
vec_cap(void *vec)
{
	return (size_t *)((char *)vec + offsetof(struct anyvec, cap));
}

static char *
vec_items(const void *vec)
{
	char *arr;

	memcpy(&arr, vec, sizeof arr);
	return arr;
}

_Static_assert(offsetof(struct matrix_builds, n) == offsetof(struct anyvec, n) &&
    offsetof(struct matrix_ranges, n) == offsetof(struct anyvec, n) &&
    offsetof(struct matrix_builds, cap) == offsetof(struct anyvec, cap) &&
    sizeof(struct matrix_builds) == sizeof(struct anyvec),
    "vectors share one layout");

static const char *const status_words[] = {
	[MATRIX_CONFIRMED] = "confirmed",
	[MATRIX_DERIVED] = "derived",
	[MATRIX_SECONDARY] = "secondary",
	[MATRIX_UNCONFIRMED] = "unconfirmed",
};
static const char *const loads_words[] = {
	[MATRIX_LOADS_DLOPEN] = "dlopen",
	[MATRIX_LOADS_NEEDED] = "needed",
};
static const char *const bundles_words[] = {
	[MATRIX_BUNDLES_NO] = "no",
	[MATRIX_BUNDLES_YES] = "yes",
	[MATRIX_BUNDLES_OPTIONAL] = "optional",
};
#define NWORDS(a) (sizeof (a) / sizeof (a)[0])

static int check_range(struct ctx *c, const void *row);
static int check_cuda_major(struct ctx *c, const void *row);
static int check_architecture(struct ctx *c, const void *row);
static int check_framework(struct ctx *c, const void *row);

#define STR(k, kd, s)		{ .key = #k, .kind = kd, .off = offsetof(s, k) }
#define STRNULL(k, kd, s)	{ .key = #k, .kind = kd, .nullable = true, .off = offsetof(s, k) }
#define LIST(k, it, s)		{ .key = #k, .kind = K_STRINGS, .item = it, .off = offsetof(s, k) }
#define UINTF(k, s)		{ .key = #k, .kind = K_UINT, .lo = 1, .hi = UINT_FIELD_MAX, .off = offsetof(s, k) }
#define STATUS(s)		{ .key = "status", .kind = K_STATUS, .off = offsetof(s, status) }
#define TABLE(s, f, chk)	{ sizeof(s), f, sizeof (f) / sizeof (f)[0], chk, #s }

static const struct field range_fields[] = {
	STR(min, K_VERSION, struct matrix_range),
	STRNULL(max, K_VERSION, struct matrix_range),
};
static const struct table range_table = TABLE(struct matrix_range, range_fields, check_range);

static const struct field cuda_release_fields[] = {
	STR(version, K_VERSION, struct matrix_cuda_release),
	STR(label, K_TEXT, struct matrix_cuda_release),
	STR(linux_driver, K_DRIVER, struct matrix_cuda_release),
	STRNULL(windows_driver, K_DRIVER, struct matrix_cuda_release),
	STATUS(struct matrix_cuda_release),
};
static const struct table cuda_release_table = TABLE(struct matrix_cuda_release,
    cuda_release_fields, NULL);

static const struct field cuda_major_fields[] = {
	UINTF(major, struct matrix_cuda_major),
	STRNULL(minor_compat_linux, K_DRIVER, struct matrix_cuda_major),
	STRNULL(minor_compat_windows, K_DRIVER, struct matrix_cuda_major),
	STRNULL(max_driver_branch, K_DRIVER, struct matrix_cuda_major),
	STR(lowest_cc, K_CC, struct matrix_cuda_major),
	STR(highest_cc, K_CC, struct matrix_cuda_major),
	LIST(dropped_cc, K_CC, struct matrix_cuda_major),
	STATUS(struct matrix_cuda_major),
};
static const struct table cuda_major_table = TABLE(struct matrix_cuda_major,
    cuda_major_fields, check_cuda_major);

static const struct field architecture_fields[] = {
	STR(cc, K_CC, struct matrix_architecture),
	STR(name, K_TEXT, struct matrix_architecture),
	STRNULL(first_cuda, K_VERSION, struct matrix_architecture),
	STRNULL(last_cuda, K_VERSION, struct matrix_architecture),
	STATUS(struct matrix_architecture),
};
static const struct table architecture_table = TABLE(struct matrix_architecture,
    architecture_fields, check_architecture);

static const struct field gpu_fields[] = {
	STR(name, K_TEXT, struct matrix_gpu),
	LIST(pci_ids, K_PCI_ID, struct matrix_gpu),
	STR(cc, K_CC, struct matrix_gpu),
	STATUS(struct matrix_gpu),
};
static const struct table gpu_table = TABLE(struct matrix_gpu, gpu_fields, NULL);

static const struct field cudnn_release_fields[] = {
	{ .key = "versions", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_cudnn_release, versions) },
	{ .key = "cuda", .kind = K_ROWS, .sub = &range_table,
	  .off = offsetof(struct matrix_cudnn_release, cuda) },
	STRNULL(driver_linux, K_DRIVER, struct matrix_cudnn_release),
	STATUS(struct matrix_cudnn_release),
};
static const struct table cudnn_release_table = TABLE(struct matrix_cudnn_release,
    cudnn_release_fields, NULL);

static const struct field cudnn_library_fields[] = {
	UINTF(major, struct matrix_cudnn_library),
	LIST(sonames, K_SONAME, struct matrix_cudnn_library),
	STR(header, K_TEXT, struct matrix_cudnn_library),
	STRNULL(windows_dll, K_DLL, struct matrix_cudnn_library),
	STATUS(struct matrix_cudnn_library),
};
static const struct table cudnn_library_table = TABLE(struct matrix_cudnn_library,
    cudnn_library_fields, NULL);

static const struct field soname_fields[] = {
	STR(library, K_PACKAGE, struct matrix_soname),
	{ .key = "cuda", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_soname, cuda) },
	STR(soname, K_SONAME, struct matrix_soname),
	STRNULL(windows_dll, K_DLL, struct matrix_soname),
	STATUS(struct matrix_soname),
};
static const struct table soname_table = TABLE(struct matrix_soname, soname_fields, NULL);

static const struct field wheel_fields[] = {
	STR(package, K_PACKAGE, struct matrix_wheel),
	UINTF(cuda_major, struct matrix_wheel),
	STR(lib_dir, K_RELPATH, struct matrix_wheel),
	LIST(provides, K_SONAME, struct matrix_wheel),
	STATUS(struct matrix_wheel),
};
static const struct table wheel_table = TABLE(struct matrix_wheel, wheel_fields, NULL);

static const struct field conda_fields[] = {
	STR(name, K_PACKAGE, struct matrix_conda_package),
	STR(role, K_TEXT, struct matrix_conda_package),
	STATUS(struct matrix_conda_package),
};
static const struct table conda_table = TABLE(struct matrix_conda_package, conda_fields, NULL);

static const struct field build_fields[] = {
	STRNULL(variant, K_TEXT, struct matrix_build),
	STR(cuda, K_VERSION, struct matrix_build),
	STRNULL(cudnn, K_VERSION, struct matrix_build),
	LIST(sonames, K_SONAME, struct matrix_build),
	{ .key = "loads", .kind = K_LOADS, .off = offsetof(struct matrix_build, loads) },
	{ .key = "bundles_cuda", .kind = K_BUNDLES,
	  .off = offsetof(struct matrix_build, bundles_cuda) },
	LIST(ccs, K_CC, struct matrix_build),
	{ .key = "default", .member = "is_default", .kind = K_BOOL,
	  .off = offsetof(struct matrix_build, is_default) },
};
static const struct table build_table = TABLE(struct matrix_build, build_fields, NULL);

static const struct field framework_fields[] = {
	STR(name, K_PACKAGE, struct matrix_framework),
	LIST(packages, K_PACKAGE, struct matrix_framework),
	{ .key = "versions", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_framework, versions) },
	{ .key = "builds", .kind = K_ROWS, .sub = &build_table,
	  .off = offsetof(struct matrix_framework, builds) },
	STATUS(struct matrix_framework),
};
static const struct table framework_table = TABLE(struct matrix_framework,
    framework_fields, check_framework);

#define SECTION(k, t) { .key = #k, .kind = K_ROWS, .sub = &t, .off = offsetof(struct matrix, k) }

/* In enum matrix_section order after the first three. */
static const struct field top_fields[] = {
	{ .key = "schema", .kind = K_SCHEMA },
	STR(date, K_DATE, struct matrix),
	{ .key = "refresh_days", .kind = K_UINT, .lo = 1, .hi = 3650,
	  .off = offsetof(struct matrix, refresh_days) },
	SECTION(cuda_releases, cuda_release_table),
	SECTION(cuda_majors, cuda_major_table),
	SECTION(architectures, architecture_table),
	SECTION(gpus, gpu_table),
	SECTION(cudnn_releases, cudnn_release_table),
	SECTION(cudnn_libraries, cudnn_library_table),
	SECTION(sonames, soname_table),
	SECTION(wheels, wheel_table),
	SECTION(conda_packages, conda_table),
	SECTION(frameworks, framework_table),
};
static const struct table top_table = TABLE(struct matrix, top_fields, NULL);
#define FIRST_SECTION 3

/* ------------------------------------------------------------- patterns */

static bool
is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool
is_lower_alnum(char ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z');
}

static bool
is_alnum(char ch)
{
	return is_lower_alnum(ch) || (ch >= 'A' && ch <= 'Z');
}

/* A run of lo to hi digits at s[*i]; advances *i past it. */
static bool
digits(const char *s, size_t len, size_t *i, size_t lo, size_t hi)
{
	size_t n = 0;

	while (*i < len && is_digit(s[*i])) {
		(*i)++;
		n++;
	}
	return n >= lo && n <= hi;
}

/* ^[0-9]{3}(\.[0-9]{1,3}){0,2}$ */
static bool
match_driver(const char *s, size_t len)
{
	size_t i = 0;

	if (!digits(s, len, &i, 3, 3))
		return false;
	for (int part = 0; part < 2 && i < len; part++) {
		if (s[i++] != '.' || !digits(s, len, &i, 1, 3))
			return false;
	}
	return i == len;
}

/* ^[0-9]{1,2}\.[0-9]$ */
static bool
match_cc(const char *s, size_t len)
{
	size_t i = 0;

	if (!digits(s, len, &i, 1, 2) || i >= len || s[i++] != '.')
		return false;
	return digits(s, len, &i, 1, 1) && i == len;
}

static unsigned
num(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	return v;
}

/* YYYY-MM-DD that names a day of the Gregorian calendar. */
static bool
match_date(const char *s, size_t len)
{
	static const unsigned char mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned y, mo, d;

	if (len != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (i != 4 && i != 7 && !is_digit(s[i]))
			return false;
	y = num(s, 4);
	mo = num(s + 5, 2);
	d = num(s + 8, 2);
	if (y == 0 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
		return false;
	if (mo == 2 && d == 29)
		return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
	return true;
}

static bool
is_soname_char(char ch)
{
	return is_alnum(ch) || ch == '_' || ch == '+' || ch == '-';
}

/* ^lib[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*\.so(\.[0-9]+)*$
 * The numeric tail is taken off first: only after all of it is gone can
 * what is left end in ".so", so no backtracking is needed. */
static bool
match_soname(const char *s, size_t len)
{
	size_t end = len, i;

	for (;;) {
		size_t j = end;

		while (j > 0 && is_digit(s[j - 1]))
			j--;
		if (j == end || j == 0 || s[j - 1] != '.')
			break;
		end = j - 1;
	}
	if (end < 3 + 1 + 3 || memcmp(s + end - 3, ".so", 3) != 0 ||
	    memcmp(s, "lib", 3) != 0)
		return false;
	end -= 3;
	/* lib, then segments of name characters, each non-empty, between dots. */
	for (i = 3; i < end; i++) {
		if (s[i] == '.') {
			if (s[i - 1] == '.' || i == 3 || i + 1 == end)
				return false;
		} else if (!is_soname_char(s[i])) {
			return false;
		}
	}
	return end > 3;
}

/* ^[A-Za-z0-9_]+\.dll$ */
static bool
match_dll(const char *s, size_t len)
{
	if (len < 5 || memcmp(s + len - 4, ".dll", 4) != 0)
		return false;
	for (size_t i = 0; i < len - 4; i++)
		if (!is_alnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* ^[a-z0-9][a-z0-9._-]{0,99}$ */
static bool
match_package(const char *s, size_t len)
{
	if (len < 1 || len > 100 || !is_lower_alnum(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

/* ^[a-z0-9_]+(/[a-z0-9_]+)*$: relative, and no "." or ".." can appear. */
static bool
match_relpath(const char *s, size_t len)
{
	if (len == 0 || s[0] == '/' || s[len - 1] == '/')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '/') {
			if (s[i - 1] == '/')
				return false;
		} else if (!is_lower_alnum(s[i]) && s[i] != '_') {
			return false;
		}
	}
	return true;
}

/* ^0x[0-9a-f]{4}$ */
static bool
match_pci_id(const char *s, size_t len)
{
	if (len != 6 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < len; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return false;
	return true;
}

/* Code points that would let a value steer a terminal or reorder what is
 * shown around it: C0, DEL, C1, and the bidirectional overrides and
 * isolates. */
static bool
unsafe_cp(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* 1 to TEXT_MAX characters of UTF-8, none of them unsafe. */
static bool
match_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;

	for (size_t i = 0, n; i < len; i += n) {
		long cp;

		n = utf8_seq(p + i, len - i, &cp);
		if (n == 0 || unsafe_cp(cp))
			return false;
		chars++;
	}
	return chars >= 1 && chars <= TEXT_MAX;
}

static bool
match_kind(enum kind k, const char *s, size_t len)
{
	switch (k) {
	case K_VERSION:
		return version_parsen(s, len, NULL);
	case K_DRIVER:
		return match_driver(s, len);
	case K_CC:
		return match_cc(s, len);
	case K_DATE:
		return match_date(s, len);
	case K_SONAME:
		return match_soname(s, len);
	case K_DLL:
		return match_dll(s, len);
	case K_PACKAGE:
		return match_package(s, len);
	case K_RELPATH:
		return match_relpath(s, len);
	case K_PCI_ID:
		return match_pci_id(s, len);
	case K_TEXT:
		return match_text(s, len);
	case K_SCHEMA:
		return len == strlen(SCHEMA_ID) && memcmp(s, SCHEMA_ID, len) == 0;
	default:
		return false;
	}
}

/* ----------------------------------------------------------- errors */

struct frame {
	const char	*key;		/* NULL: an array index */
	size_t		 index;
};

struct ctx {
	struct frame	 frame[PATH_DEPTH];
	size_t		 depth;
	char		*err;		/* the first error, "path: message" */
};

static void
push_key(struct ctx *c, const char *key)
{
	if (c->depth < PATH_DEPTH)
		c->frame[c->depth] = (struct frame){ key, 0 };
	c->depth++;
}

static void
push_index(struct ctx *c, size_t index)
{
	if (c->depth < PATH_DEPTH)
		c->frame[c->depth] = (struct frame){ NULL, index };
	c->depth++;
}

static void
pop(struct ctx *c)
{
	c->depth--;
}

/* Appends s as it may be shown on one terminal line: at most max
 * characters of it (then "..."), with every unsafe character, every byte
 * that is not UTF-8 and (when quoting) quotes and backslashes escaped. */
static void
put_escaped(struct strbuf *sb, const char *s, size_t len, size_t max, bool quoting)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;

	for (size_t i = 0, n; i < len; i += n) {
		long cp = 0;

		if (chars++ == max) {
			strbuf_puts(sb, "...");
			break;
		}
		n = utf8_seq(p + i, len - i, &cp);
		if (n == 0) {
			strbuf_printf(sb, "\\x%02x", p[i]);
			n = 1;
		} else if (quoting && (cp == '"' || cp == '\\')) {
			strbuf_putc(sb, '\\');
			strbuf_putc(sb, (char)cp);
		} else if (cp == '\n') {
			strbuf_puts(sb, "\\n");
		} else if (cp == '\t') {
			strbuf_puts(sb, "\\t");
		} else if (unsafe_cp(cp)) {
			strbuf_printf(sb, cp < 0x80 ? "\\x%02x" : "\\u%04x",
			    (unsigned)cp);
		} else {
			strbuf_add(sb, s + i, n);
		}
	}
}

static void
put_quoted(struct strbuf *sb, const char *s, size_t len, size_t max)
{
	strbuf_putc(sb, '"');
	put_escaped(sb, s, len, max, true);
	strbuf_putc(sb, '"');
}

/* A JSON value as an error message shows it. */
static char *
describe(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;

	switch (json_typeof(v)) {
	case JSON_STRING:
		put_quoted(&sb, json_string_value(v), json_string_length(v), QUOTE_MAX);
		break;
	case JSON_INTEGER:
		strbuf_printf(&sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		strbuf_printf(&sb, "%g", json_real_value(v));
		break;
	case JSON_TRUE:
		strbuf_puts(&sb, "true");
		break;
	case JSON_FALSE:
		strbuf_puts(&sb, "false");
		break;
	case JSON_NULL:
		strbuf_puts(&sb, "null");
		break;
	case JSON_OBJECT:
		strbuf_puts(&sb, _("an object"));
		break;
	case JSON_ARRAY:
		strbuf_puts(&sb, _("an array"));
		break;
	}
	return strbuf_take(&sb);
}

static void
put_path_key(struct strbuf *sb, const char *key, size_t len)
{
	bool plain = len > 0 && len <= QUOTE_MAX;

	for (size_t i = 0; plain && i < len; i++)
		plain = is_alnum(key[i]) || key[i] == '_';
	if (plain) {
		if (sb->len > 0)
			strbuf_putc(sb, '.');
		strbuf_add(sb, key, len);
	} else {
		strbuf_putc(sb, '[');
		put_quoted(sb, key, len, QUOTE_MAX);
		strbuf_putc(sb, ']');
	}
}

/* Records the first error at the current path; returns -1 for the caller
 * to pass up. */
__attribute__((format(printf, 2, 3)))
static int
fail(struct ctx *c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (c->err != NULL)
		return -1;
	for (size_t i = 0; i < c->depth && i < PATH_DEPTH; i++) {
		if (c->frame[i].key != NULL)
			put_path_key(&sb, c->frame[i].key, strlen(c->frame[i].key));
		else
			strbuf_printf(&sb, "[%zu]", c->frame[i].index);
	}
	if (sb.len == 0)
		strbuf_puts(&sb, _("document"));
	strbuf_puts(&sb, ": ");
	va_start(ap, fmt);
	{
		char *msg = xvasprintf(fmt, ap);

		strbuf_puts(&sb, msg);
		free(msg);
	}
	va_end(ap);
	c->err = strbuf_take(&sb);
	return -1;
}

static const char *
type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return _("an object");
	case JSON_ARRAY:
		return _("an array");
	case JSON_STRING:
		return _("a string");
	case JSON_INTEGER:
		return _("an integer");
	case JSON_REAL:
		return _("a number with a fraction");
	case JSON_TRUE:
	case JSON_FALSE:
		return _("a boolean");
	case JSON_NULL:
		break;
	}
	return _("null");
}

static int
fail_type(struct ctx *c, const char *want, const json_t *v)
{
	return fail(c, _("expected %s, found %s"), want, type_name(v));
}

/* The error for string s that is not of kind k. */
static int
fail_pattern(struct ctx *c, enum kind k, const char *s, size_t len)
{
	struct strbuf q = STRBUF_INIT;
	int rc;

	put_quoted(&q, s, len, QUOTE_MAX);
	switch (k) {
	case K_VERSION:
		rc = fail(c, _("%s is not a version (such as 12.4.1)"), strbuf_str(&q));
		break;
	case K_DRIVER:
		rc = fail(c, _("%s is not a driver version (such as 535.104.05)"), strbuf_str(&q));
		break;
	case K_CC:
		rc = fail(c, _("%s is not a compute capability (such as 8.6)"), strbuf_str(&q));
		break;
	case K_DATE:
		rc = fail(c, _("%s is not a calendar date (YYYY-MM-DD)"), strbuf_str(&q));
		break;
	case K_SONAME:
		rc = fail(c, _("%s is not a library soname (such as libcudart.so.12)"), strbuf_str(&q));
		break;
	case K_DLL:
		rc = fail(c, _("%s is not a DLL name (such as cudart64_12.dll)"), strbuf_str(&q));
		break;
	case K_PACKAGE:
		rc = fail(c, _("%s is not a package name"), strbuf_str(&q));
		break;
	case K_RELPATH:
		rc = fail(c, _("%s is not a relative path of lowercase names"), strbuf_str(&q));
		break;
	case K_PCI_ID:
		rc = fail(c, _("%s is not a PCI device id (such as 0x2330)"), strbuf_str(&q));
		break;
	case K_TEXT:
		rc = fail(c, _("%s is not text of 1 to %d printable characters"),
		    strbuf_str(&q), TEXT_MAX);
		break;
	case K_SCHEMA:
		rc = fail(c, _("%s is not %s, the schema this cudawiz reads"),
		    strbuf_str(&q), SCHEMA_ID);
		break;
	default:
		rc = fail(c, _("%s is not valid here"), strbuf_str(&q));
		break;
	}
	strbuf_free(&q);
	return rc;
}

static const char *
kind_want(enum kind k)
{
	switch (k) {
	case K_UINT:
		return _("an integer");
	case K_BOOL:
		return _("true or false");
	case K_OBJECT:
		return _("an object");
	case K_ROWS:
	case K_STRINGS:
		return _("an array");
	default:
		return _("a string");
	}
}

/* ------------------------------------------------------------- parsing */

static int parse_row(struct ctx *c, const json_t *obj, const struct table *t,
    void *row);

static int
parse_word(struct ctx *c, const json_t *v, const char *const *words, size_t n,
    int *out)
{
	const char *s = json_string_value(v);
	struct strbuf q = STRBUF_INIT, all = STRBUF_INIT;
	int rc;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(s, words[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	}
	put_quoted(&q, s, json_string_length(v), QUOTE_MAX);
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&all, "%s%s", i > 0 ? ", " : "", words[i]);
	rc = fail(c, _("%s is not one of %s"), strbuf_str(&q), strbuf_str(&all));
	strbuf_free(&q);
	strbuf_free(&all);
	return rc;
}

static int
parse_string(struct ctx *c, enum kind k, const json_t *v, char **out)
{
	const char *s;
	size_t len;

	if (!json_is_string(v))
		return fail_type(c, _("a string"), v);
	s = json_string_value(v);
	len = json_string_length(v);
	/* No pattern admits a NUL byte, so a "\u0000" (which jansson refuses
	 * anyway) cannot cut the stored value short of what was checked. */
	if (!match_kind(k, s, len))
		return fail_pattern(c, k, s, len);
	if (out != NULL)
		*out = xstrndup(s, len);
	return 0;
}

static int
parse_field(struct ctx *c, const struct field *f, const json_t *v, char *base)
{
	void *dst = base + f->off;

	if (json_is_null(v)) {
		if (f->nullable)
			return 0;
		return fail_type(c, f->kind <= K_SCHEMA ? _("a string") : kind_want(f->kind), v);
	}
	switch (f->kind) {
	case K_SCHEMA:
		return parse_string(c, f->kind, v, NULL);
	case K_STATUS:
	case K_LOADS:
	case K_BUNDLES: {
		int w = 0;

		if (!json_is_string(v))
			return fail_type(c, _("a string"), v);
		if (f->kind == K_STATUS) {
			if (parse_word(c, v, status_words, NWORDS(status_words), &w) < 0)
				return -1;
			*(enum matrix_status *)dst = (enum matrix_status)w;
		} else if (f->kind == K_LOADS) {
			if (parse_word(c, v, loads_words, NWORDS(loads_words), &w) < 0)
				return -1;
			*(enum matrix_loads *)dst = (enum matrix_loads)w;
		} else {
			if (parse_word(c, v, bundles_words, NWORDS(bundles_words), &w) < 0)
				return -1;
			*(enum matrix_bundles *)dst = (enum matrix_bundles)w;
		}
		return 0;
	}
	case K_UINT: {
		json_int_t n;

		if (!json_is_integer(v))
			return fail_type(c, _("an integer"), v);
		n = json_integer_value(v);
		if (n < (json_int_t)f->lo || n > (json_int_t)f->hi) {
			char *d = describe(v);

			fail(c, _("%s is out of range (%u to %u)"), d, f->lo, f->hi);
			free(d);
			return -1;
		}
		*(unsigned *)dst = (unsigned)n;
		return 0;
	}
	case K_BOOL:
		if (!json_is_boolean(v))
			return fail_type(c, _("true or false"), v);
		*(bool *)dst = json_is_true(v);
		return 0;
	case K_OBJECT:
		return parse_row(c, v, f->sub, dst);
	case K_ROWS: {
		size_t i;
		json_t *el;

		if (!json_is_array(v))
			return fail_type(c, _("an array"), v);
		json_array_foreach(v, i, el) {
			void *row = vec_push_(dst, vec_n(dst), vec_cap(dst), f->sub->size);

			push_index(c, i);
			if (parse_row(c, el, f->sub, row) < 0)
				return -1;
			pop(c);
		}
		return 0;
	}
	case K_STRINGS: {
		struct strv *sv = dst;
		size_t i;
		json_t *el;

		if (!json_is_array(v))
			return fail_type(c, _("an array"), v);
		json_array_foreach(v, i, el) {
			char *s;

			push_index(c, i);
			if (parse_string(c, f->item, el, &s) < 0)
				return -1;
			strv_push_owned(sv, s);
			pop(c);
		}
		return 0;
	}
	default:
		return parse_string(c, f->kind, v, (char **)dst);
	}
}

static const struct field *
find_field(const struct table *t, const char *key)
{
	for (size_t i = 0; i < t->nfields; i++)
		if (strcmp(t->fields[i].key, key) == 0)
			return &t->fields[i];
	return NULL;
}

/* Fills row from obj: keys in the document's order (so the error named is
 * the first one a reader meets), then the keys that are missing, then the
 * checks between fields. */
static int
parse_row(struct ctx *c, const json_t *obj, const struct table *t, void *row)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return fail_type(c, _("an object"), obj);
	json_object_foreach((json_t *)obj, key, v) {
		const struct field *f = find_field(t, key);

		push_key(c, key);
		if (f == NULL)
			return fail(c, _("unknown key"));
		if (parse_field(c, f, v, row) < 0)
			return -1;
		pop(c);
	}
	for (size_t i = 0; i < t->nfields; i++) {
		if (json_object_get(obj, t->fields[i].key) == NULL) {
			push_key(c, t->fields[i].key);
			return fail(c, _("missing"));
		}
	}
	return t->check != NULL ? t->check(c, row) : 0;
}

static int
vcmp(const char *a, const char *b)
{
	struct version va, vb;

	/* Both were checked as versions before any comparison is made. */
	if (!version_parse(a, &va) || !version_parse(b, &vb))
		return strcmp(a, b);
	return version_cmp(&va, &vb);
}

static int
check_range(struct ctx *c, const void *row)
{
	const struct matrix_range *r = row;

	if (r->max != NULL && !matrix_range_contains(r, r->min))
		return fail(c, _("min %s is above max %s"), r->min, r->max);
	return 0;
}

static int
check_cuda_major(struct ctx *c, const void *row)
{
	const struct matrix_cuda_major *mj = row;

	if (vcmp(mj->lowest_cc, mj->highest_cc) > 0)
		return fail(c, _("lowest_cc %s is above highest_cc %s"), mj->lowest_cc,
		    mj->highest_cc);
	return 0;
}

static int
check_architecture(struct ctx *c, const void *row)
{
	const struct matrix_architecture *a = row;
	struct matrix_range r = { a->first_cuda, a->last_cuda };

	if (r.min != NULL && r.max != NULL && !matrix_range_contains(&r, r.min))
		return fail(c, _("first_cuda %s is above last_cuda %s"), r.min, r.max);
	return 0;
}

static int
check_framework(struct ctx *c, const void *row)
{
	const struct matrix_framework *fw = row;
	size_t defaults = 0;

	for (size_t i = 0; i < fw->builds.n; i++)
		defaults += fw->builds.v[i].is_default;
	if (defaults > 1) {
		push_key(c, "builds");
		return fail(c, _("%zu builds say they are the default; at most one may"),
		    defaults);
	}
	return 0;
}

/* Rows that a question finds by one key must not repeat it, or which one
 * answers would depend on their order. */
static const struct {
	enum matrix_section	 section;
	const char		*field;
} unique_keys[] = {
	{ MATRIX_SEC_CUDA_RELEASES, "version" },	/* "11.8" is "11.8.0" */
	{ MATRIX_SEC_CUDA_MAJORS, "major" },
	{ MATRIX_SEC_ARCHITECTURES, "cc" },
	{ MATRIX_SEC_CUDNN_LIBRARIES, "major" },
	{ MATRIX_SEC_WHEELS, "package" },
	{ MATRIX_SEC_CONDA_PACKAGES, "name" },
};

struct rowkey {
	struct version	 v;	/* numbers compare as versions */
	const char	*s;	/* names compare as strings */
};

static int
check_unique_key(struct ctx *c, const struct matrix *m, const struct field *sec,
    const char *key)
{
	const struct field *f = find_field(sec->sub, key);
	const char *arr = vec_items((const char *)m + sec->off);
	size_t n = vec_len((const char *)m + sec->off);
	struct rowkey *k = xcalloc(n > 0 ? n : 1, sizeof *k);
	int rc = 0;

	/* Each key is read once; the pairs are then cheap to compare. */
	for (size_t i = 0; i < n; i++) {
		const char *field = arr + i * sec->sub->size + f->off;

		if (f->kind == K_UINT) {
			memcpy(&k[i].v.part[0], field, sizeof(unsigned));
			k[i].v.nparts = 1;
		} else if (f->kind == K_VERSION || f->kind == K_CC) {
			char *str;

			memcpy(&str, field, sizeof str);
			if (!version_parse(str, &k[i].v))
				k[i].s = str;
		} else {
			memcpy(&k[i].s, field, sizeof k[i].s);
		}
	}
	for (size_t i = 1; i < n && rc == 0; i++) {
		for (size_t j = 0; j < i; j++) {
			bool same = k[i].s != NULL || k[j].s != NULL ?
			    k[i].s != NULL && k[j].s != NULL && strcmp(k[i].s, k[j].s) == 0 :
			    version_cmp(&k[i].v, &k[j].v) == 0;

			if (same) {
				push_key(c, sec->key);
				push_index(c, i);
				push_key(c, key);
				rc = fail(c, _("repeats %s[%zu]"), sec->key, j);
				break;
			}
		}
	}
	free(k);
	return rc;
}

static int
check_unique(struct ctx *c, const struct matrix *m)
{
	for (size_t i = 0; i < sizeof unique_keys / sizeof unique_keys[0]; i++)
		if (check_unique_key(c, m, &top_fields[FIRST_SECTION + unique_keys[i].section],
		    unique_keys[i].field) < 0)
			return -1;
	for (size_t i = 0; i < m->gpus.n; i++) {
		const struct strv *ids = &m->gpus.v[i].pci_ids;

		for (size_t k = 0; k < ids->n; k++) {
			for (size_t j = 0; j <= i; j++) {
				const struct strv *o = &m->gpus.v[j].pci_ids;
				size_t lim = j == i ? k : o->n;

				for (size_t l = 0; l < lim; l++) {
					if (strcmp(ids->v[k], o->v[l]) != 0)
						continue;
					push_key(c, "gpus");
					push_index(c, i);
					push_key(c, "pci_ids");
					push_index(c, k);
					return fail(c, _("%s repeats gpus[%zu]"), ids->v[k], j);
				}
			}
		}
	}
	return 0;
}

/* Where in the text the byte at pos lies, as a JSON path: jansson reports
 * a duplicate key or a syntax error by offset only, and a path is what
 * every other error gives. A small scanner is enough, because everything
 * before pos has already parsed. */
static char *
path_at(const char *data, size_t len, size_t pos)
{
	struct scan {
		bool		 object;
		bool		 want_key;
		size_t		 index;
		const char	*key;
		size_t		 keylen;
	};
	struct {
		struct scan	*v;
		size_t		 n, cap;
	} st = { NULL, 0, 0 };
	struct strbuf sb = STRBUF_INIT;

	if (pos > len)
		pos = len;
	for (size_t i = 0; i < pos; i++) {
		struct scan *top = st.n > 0 ? &st.v[st.n - 1] : NULL;
		size_t start;

		switch (data[i]) {
		case '{':
		case '[': {
			struct scan *s = VEC_PUSH(&st);

			s->object = data[i] == '{';
			s->want_key = s->object;
			break;
		}
		case '}':
		case ']':
			if (st.n > 0)
				st.n--;
			break;
		case ',':
			if (top != NULL && top->object)
				top->want_key = true;
			else if (top != NULL)
				top->index++;
			break;
		case ':':
			if (top != NULL)
				top->want_key = false;
			break;
		case '"':
			start = ++i;
			while (i < pos && data[i] != '"')
				i += data[i] == '\\' ? 2 : 1;
			if (top != NULL && top->object && top->want_key) {
				top->key = data + start;
				top->keylen = (i < pos ? i : pos) - start;
			}
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; i < st.n; i++) {
		if (i == PATH_DEPTH) {
			strbuf_puts(&sb, "...");
			break;
		}
		if (st.v[i].object && st.v[i].key != NULL)
			put_path_key(&sb, st.v[i].key, st.v[i].keylen);
		else if (!st.v[i].object)
			strbuf_printf(&sb, "[%zu]", st.v[i].index);
	}
	free(st.v);
	if (sb.len == 0)
		strbuf_puts(&sb, _("document"));
	return strbuf_take(&sb);
}

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
		free_row(&top_table, m);
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
static void
own_rows(struct matrix *m)
{
	if (!m->borrowed)
		return;
	own_row(&top_table, m);
	m->borrowed = false;
}

static bool
only_space(const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
			return false;
	return true;
}

/* jansson reports an allocation that failed in its lexer as a syntax error
 * ("invalid token near ..."), and one elsewhere as an error with no text
 * and no position, so while a matrix is read its allocator is wrapped to
 * notice a failure itself. The wrapper calls the allocator that was set
 * (a test's failing one too) and is taken off again afterwards. */
static json_malloc_t outer_malloc;
static bool json_oom;

static void *
noting_malloc(size_t size)
{
	void *p = outer_malloc(size);

	if (p == NULL)
		json_oom = true;
	return p;
}

/* json_loadb; *oom says whether jansson ran out of memory, in which case
 * nothing is returned, whatever it built. */
static json_t *
load_json(const char *data, size_t len, json_error_t *jerr, bool *oom)
{
	json_malloc_t m;
	json_free_t f;
	json_t *doc;

	json_get_alloc_funcs(&m, &f);
	if (m == NULL || f == NULL) {
		m = malloc;
		f = free;
	}
	outer_malloc = m;
	json_oom = false;
	json_set_alloc_funcs(noting_malloc, f);
	doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, jerr);
	json_set_alloc_funcs(m, f);
	*oom = json_oom;
	if (*oom && doc != NULL) {
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

struct matrix *
matrix_parse(const char *data, size_t len, char **err)
{
	struct ctx c = { .depth = 0, .err = NULL };
	struct matrix *m;
	json_error_t jerr;
	json_t *doc, *schema;
	bool oom;

	*err = NULL;
	if (len == 0 || only_space(data, len)) {
		*err = xasprintf("%s: %s", _("document"), _("empty"));
		return NULL;
	}
	doc = load_json(data, len, &jerr, &oom);
	if (oom) {
		*err = xasprintf("%s: %s", _("document"), _("out of memory"));
		return NULL;
	}
	if (doc == NULL) {
		char *path = path_at(data, len, (size_t)(jerr.position > 0 ? jerr.position : 0));

		if (json_error_code(&jerr) == json_error_duplicate_key) {
			*err = xasprintf(_("%s: duplicate key"), path);
		} else {
			/* jansson quotes the bad token as it was: raw bytes
			 * from the document. */
			struct strbuf why = STRBUF_INIT;

			put_escaped(&why, jerr.text, strlen(jerr.text), QUOTE_MAX * 4, false);
			*err = xasprintf(_("%s: not valid JSON at line %d, column %d: %s"),
			    path, jerr.line, jerr.column, strbuf_str(&why));
			strbuf_free(&why);
		}
		free(path);
		return NULL;
	}
	if (!json_is_object(doc)) {
		fail_type(&c, _("an object"), doc);
		json_decref(doc);
		*err = c.err;
		return NULL;
	}
	/* The schema first: a document of another version should say so,
	 * not trip over the first key it renamed. */
	schema = json_object_get(doc, "schema");
	push_key(&c, "schema");
	if (schema == NULL)
		fail(&c, _("missing"));
	else
		parse_string(&c, K_SCHEMA, schema, NULL);
	pop(&c);
	if (c.err != NULL) {
		json_decref(doc);
		*err = c.err;
		return NULL;
	}
	m = xcalloc(1, sizeof *m);
	m->source = MATRIX_FILE;
	if (parse_row(&c, doc, &top_table, m) < 0 || check_unique(&c, m) < 0) {
		json_decref(doc);
		matrix_free(m);
		*err = c.err;
		return NULL;
	}
	json_decref(doc);
	return m;
}

#ifndef CUDAWIZ_MKEMBEDDED
/* mkembedded checked the data when cudawiz was built, and the rows are
 * shared until a change (own_rows): loading parses and copies nothing. */
struct matrix *
matrix_embedded(void)
{
	struct matrix *m = xmalloc(sizeof *m);

	*m = matrix_builtin;
	m->source = MATRIX_EMBEDDED;
	m->borrowed = true;
	m->path = NULL;
	return m;
}
#endif

/* ------------------------------------------------------------- writing */

static json_t *
jcheck(json_t *v)
{
	if (v == NULL)
		die(_("out of memory"));
	return v;
}

static json_t *
jstring(const char *s)
{
	return s != NULL ? jcheck(json_string(s)) : json_null();
}

static json_t *row_to_json(const struct table *t, const void *row);

static json_t *
field_to_json(const struct field *f, const char *base)
{
	const void *p = base + f->off;

	switch (f->kind) {
	case K_SCHEMA:
		return jstring(SCHEMA_ID);
	case K_STATUS:
		return jstring(status_words[*(const enum matrix_status *)p]);
	case K_LOADS:
		return jstring(loads_words[*(const enum matrix_loads *)p]);
	case K_BUNDLES:
		return jstring(bundles_words[*(const enum matrix_bundles *)p]);
	case K_UINT:
		return jcheck(json_integer(*(const unsigned *)p));
	case K_BOOL:
		return json_boolean(*(const bool *)p);
	case K_OBJECT:
		return row_to_json(f->sub, p);
	case K_ROWS: {
		json_t *a = jcheck(json_array());
		const char *arr = vec_items(p);

		for (size_t i = 0; i < vec_len(p); i++)
			if (json_array_append_new(a, row_to_json(f->sub, arr + i * f->sub->size)) < 0)
				die(_("out of memory"));
		return a;
	}
	case K_STRINGS: {
		const struct strv *sv = p;
		json_t *a = jcheck(json_array());

		for (size_t i = 0; i < sv->n; i++)
			if (json_array_append_new(a, jstring(sv->v[i])) < 0)
				die(_("out of memory"));
		return a;
	}
	default:
		return jstring(*(char *const *)p);
	}
}

static json_t *
row_to_json(const struct table *t, const void *row)
{
	json_t *o = jcheck(json_object());

	for (size_t i = 0; i < t->nfields; i++)
		if (json_object_set_new(o, t->fields[i].key,
		    field_to_json(&t->fields[i], row)) < 0)
			die(_("out of memory"));
	return o;
}

char *
matrix_to_json(const struct matrix *m)
{
	json_t *doc = row_to_json(&top_table, m);
	char *s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);

	json_decref(doc);
	if (s == NULL)
		die(_("out of memory"));
	return s;
}

#ifdef CUDAWIZ_MKEMBEDDED
/* ------------------------------------------------------- writing as C */

/* The built-in matrix as static initialisers: each vector becomes a const
 * array, written before the rows that point to it, and every row's fields
 * are named, so the output does not depend on the order of the members. */
struct cwriter {
	FILE	*out;
	size_t	 next;		/* the number of the next array */
};

/* s as a C string literal: printable ASCII as it is, every other byte as
 * a three-digit octal escape (which cannot run into a following digit),
 * and '?' too, so no trigraph can form. */
static void
put_c_string(struct strbuf *sb, const char *s)
{
	if (s == NULL) {
		strbuf_puts(sb, "NULL");
		return;
	}
	strbuf_puts(sb, "(char *)\"");
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' && *p != '?')
			strbuf_putc(sb, (char)*p);
		else
			strbuf_printf(sb, "\\%03o", *p);
	}
	strbuf_putc(sb, '"');
}

static void put_c_row(struct cwriter *w, const struct table *t, const void *row,
    const char *sep, struct strbuf *sb);

/* Writes the array for n rows of t at arr; returns its number. */
static size_t
write_c_rows(struct cwriter *w, const struct table *t, const char *arr, size_t n)
{
	struct strbuf body = STRBUF_INIT;
	size_t id;

	for (size_t i = 0; i < n; i++) {
		strbuf_puts(&body, "\t{ ");
		put_c_row(w, t, arr + i * t->size, ", ", &body);
		strbuf_puts(&body, " },\n");
	}
	id = w->next++;
	fprintf(w->out, "static const %s rows_%zu[%zu] = {\n%s};\n\n",
	    t->ctype, id, n, strbuf_str(&body));
	strbuf_free(&body);
	return id;
}

static size_t
write_c_strings(struct cwriter *w, const struct strv *sv)
{
	struct strbuf body = STRBUF_INIT;
	size_t id;

	for (size_t i = 0; i < sv->n; i++) {
		strbuf_puts(&body, "\t");
		put_c_string(&body, sv->v[i]);
		strbuf_puts(&body, ",\n");
	}
	id = w->next++;
	fprintf(w->out, "static char *const strs_%zu[%zu] = {\n%s};\n\n",
	    id, sv->n, strbuf_str(&body));
	strbuf_free(&body);
	return id;
}

static void
put_c_field(struct cwriter *w, const struct field *f, const char *base,
    struct strbuf *sb)
{
	const void *p = base + f->off;

	switch (f->kind) {
	case K_SCHEMA:
		break;
	case K_STATUS:
		strbuf_printf(sb, "%d", (int)*(const enum matrix_status *)p);
		break;
	case K_LOADS:
		strbuf_printf(sb, "%d", (int)*(const enum matrix_loads *)p);
		break;
	case K_BUNDLES:
		strbuf_printf(sb, "%d", (int)*(const enum matrix_bundles *)p);
		break;
	case K_UINT:
		strbuf_printf(sb, "%uu", *(const unsigned *)p);
		break;
	case K_BOOL:
		strbuf_puts(sb, *(const bool *)p ? "true" : "false");
		break;
	case K_OBJECT:
		strbuf_puts(sb, "{ ");
		put_c_row(w, f->sub, p, ", ", sb);
		strbuf_puts(sb, " }");
		break;
	case K_ROWS: {
		size_t n = vec_len(p);

		if (n == 0)
			strbuf_puts(sb, "{ NULL, 0, 0 }");
		else
			strbuf_printf(sb, "{ (%s *)rows_%zu, %zu, %zu }", f->sub->ctype,
			    write_c_rows(w, f->sub, vec_items(p), n), n, n);
		break;
	}
	case K_STRINGS: {
		const struct strv *sv = p;

		if (sv->n == 0)
			strbuf_puts(sb, "{ NULL, 0, 0 }");
		else
			strbuf_printf(sb, "{ (char **)strs_%zu, %zu, %zu }",
			    write_c_strings(w, sv), sv->n, sv->n);
		break;
	}
	default:
		put_c_string(sb, *(char *const *)p);
		break;
	}
}

static void
put_c_row(struct cwriter *w, const struct table *t, const void *row,
    const char *sep, struct strbuf *sb)
{
	bool first = true;

	for (size_t i = 0; i < t->nfields; i++) {
		const struct field *f = &t->fields[i];

		if (f->kind == K_SCHEMA)
			continue;
		if (!first)
			strbuf_puts(sb, sep);
		first = false;
		strbuf_printf(sb, ".%s = ", f->member != NULL ? f->member : f->key);
		put_c_field(w, f, row, sb);
	}
}

int
matrix_write_c(const struct matrix *m, const char *from, FILE *out)
{
	struct cwriter w = { out, 0 };
	struct strbuf top = STRBUF_INIT;

	/* The file's name alone, so the output does not depend on where the
	 * build ran; it goes into a comment, so anything that could end the
	 * comment or start a line is shown as '?'. */
	if (strrchr(from, '/') != NULL)
		from = strrchr(from, '/') + 1;
	fputs("/* Generated from ", out);
	for (const char *p = from; *p != '\0'; p++)
		fputc(is_alnum(*p) || strchr("._-+", *p) != NULL ? *p : '?', out);
	fputs(" by src/matrix/mkembedded; do not edit. */\n"
	    "#include \"config.h\"\n\n"
	    "#include <stdbool.h>\n"
	    "#include <stddef.h>\n\n"
	    "#include \"matrix/internal.h\"\n\n", out);
	put_c_row(&w, &top_table, m, ",\n\t", &top);
	fprintf(out, "const struct matrix matrix_builtin = {\n"
	    "\t.source = MATRIX_EMBEDDED,\n"
	    "\t.borrowed = true,\n"
	    "\t%s,\n};\n", strbuf_str(&top));
	strbuf_free(&top);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
#endif

/* ------------------------------------------------------------- adding */

/* Checks one value as matrix_parse would, under the path name. */
static int
check_value(struct ctx *c, const char *name, enum kind k, const char *s)
{
	int rc = 0;

	push_key(c, name);
	if (s == NULL)
		rc = fail(c, _("missing"));
	else if (!match_kind(k, s, strlen(s)))
		rc = fail_pattern(c, k, s, strlen(s));
	pop(c);
	return rc;
}

int
matrix_add_cuda_release(struct matrix *m, const char *version,
    const char *linux_driver, char **err)
{
	struct ctx c = { .depth = 0, .err = NULL };
	struct matrix_cuda_release *r = NULL;

	*err = NULL;
	if (check_value(&c, "version", K_VERSION, version) < 0 ||
	    check_value(&c, "linux_driver", K_DRIVER, linux_driver) < 0) {
		*err = c.err;
		return -1;
	}
	own_rows(m);
	for (size_t i = 0; i < m->cuda_releases.n && r == NULL; i++)
		if (vcmp(m->cuda_releases.v[i].version, version) == 0)
			r = &m->cuda_releases.v[i];
	/* A manifest names the driver bundled with the release, which can be
	 * newer than the minimum the release notes give (11.7.1 bundles
	 * 515.65.01 and needs 515.48.07): a confirmed minimum stays. Rows
	 * not yet confirmed take NVIDIA's own number, which is never too
	 * low. */
	if (r != NULL && r->status == MATRIX_CONFIRMED)
		return 0;
	if (r == NULL) {
		r = VEC_PUSH(&m->cuda_releases);
		r->version = xstrdup(version);
		r->label = xasprintf("CUDA %s", version);
	}
	free(r->linux_driver);
	r->linux_driver = xstrdup(linux_driver);
	r->status = MATRIX_CONFIRMED;
	return 0;
}

/* True when a range of rs already covers some release of CUDA major. */
static bool
covers_major(const struct matrix_ranges *rs, unsigned major)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct version lo, hi;

		if (!version_parse(rs->v[i].min, &lo) || lo.part[0] > major)
			continue;
		if (rs->v[i].max == NULL ||
		    (version_parse(rs->v[i].max, &hi) && hi.part[0] >= major))
			return true;
	}
	return false;
}

int
matrix_add_cudnn_release(struct matrix *m, const char *version,
    const char *const *cuda_majors, size_t n, char **err)
{
	struct ctx c = { .depth = 0, .err = NULL };
	struct matrix_cudnn_release *r = NULL;

	*err = NULL;
	if (check_value(&c, "version", K_VERSION, version) < 0) {
		*err = c.err;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct version v;

		push_key(&c, "cuda_variant");
		push_index(&c, i);
		if (cuda_majors[i] == NULL) {
			fail(&c, _("missing"));
		} else if (!version_parse(cuda_majors[i], &v) || v.nparts != 1 ||
		    v.part[0] < 1 || v.part[0] > UINT_FIELD_MAX) {
			struct strbuf q = STRBUF_INIT;

			put_quoted(&q, cuda_majors[i], strlen(cuda_majors[i]), QUOTE_MAX);
			fail(&c, _("%s is not a CUDA major (such as 12)"), strbuf_str(&q));
			strbuf_free(&q);
		}
		pop(&c);
		pop(&c);
		if (c.err != NULL) {
			*err = c.err;
			return -1;
		}
	}
	own_rows(m);
	for (size_t i = 0; i < m->cudnn_releases.n && r == NULL; i++)
		if (matrix_range_contains(&m->cudnn_releases.v[i].versions, version))
			r = &m->cudnn_releases.v[i];
	if (r == NULL) {
		r = VEC_PUSH(&m->cudnn_releases);
		r->versions.min = xstrdup(version);
		r->versions.max = xstrdup(version);
		r->status = MATRIX_CONFIRMED;
	}
	/* A row already known keeps its finer ranges ("11.8", "12.0"–"12.9");
	 * only a major it does not mention at all is added, as the whole
	 * major. */
	for (size_t i = 0; i < n; i++) {
		unsigned major = (unsigned)strtoul(cuda_majors[i], NULL, 10);
		struct matrix_range *nr;

		if (covers_major(&r->cuda, major))
			continue;
		nr = VEC_PUSH(&r->cuda);
		nr->min = xasprintf("%u.0", major);
		nr->max = xasprintf("%u", major);
	}
	return 0;
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

const char *
matrix_status_name(enum matrix_status st)
{
	if ((size_t)st < NWORDS(status_words))
		return status_words[st];
	return status_words[MATRIX_UNCONFIRMED];
}

const char *
matrix_section_name(enum matrix_section sec)
{
	if ((size_t)sec < MATRIX_SEC_COUNT)
		return top_fields[FIRST_SECTION + sec].key;
	return "";
}

size_t
matrix_count(const struct matrix *m, enum matrix_section sec)
{
	if ((size_t)sec >= MATRIX_SEC_COUNT)
		return 0;
	return vec_len((const char *)m + top_fields[FIRST_SECTION + sec].off);
}
