/* Reading and checking a matrix document, and checking the values that
 * extend one (matrix_add_*); see matrix.h and data/SCHEMA.md.
 *
 * The document may come from the network, so nothing in it is trusted:
 * every key must be known, every value must have its type and pattern, and
 * the first thing wrong is reported with its JSON path. The schema's tables
 * (schema.c) drive the parser, so parse(to_json(m)) gives m back. */
#include "config.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "matrix/schema_int.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/utf8width.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ----------------------------------------------------------- errors */

struct frame {
	const char	*key;		/* NULL: an array index */
	size_t		 index;
};

struct ctx {
	struct frame	 frame[PATH_DEPTH];
	size_t		 depth;
	size_t		 ignored;	/* unknown keys skipped */
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
		} else if (mx_unsafe_cp(cp)) {
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
		plain = mx_is_alnum(key[i]) || key[i] == '_';
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
	case K_PUBNAME:
		rc = fail(c, _("%s is not a published package name (such as jax[cuda12])"),
		    strbuf_str(&q));
		break;
	case K_URL:
		rc = fail(c, _("%s is not an https:// address of at most %d characters"),
		    strbuf_str(&q), URL_MAX);
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
	if (!mx_match_kind(k, s, len))
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
			if (parse_word(c, v, mx_status_words, NWORDS(mx_status_words), &w) < 0)
				return -1;
			*(enum matrix_status *)dst = (enum matrix_status)w;
		} else if (f->kind == K_LOADS) {
			if (parse_word(c, v, mx_loads_words, NWORDS(mx_loads_words), &w) < 0)
				return -1;
			*(enum matrix_loads *)dst = (enum matrix_loads)w;
		} else {
			if (parse_word(c, v, mx_bundles_words, NWORDS(mx_bundles_words), &w) < 0)
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
 * checks between fields.
 *
 * A key the table does not know is skipped and counted: it is a field or
 * a section a newer schema 1 added (data/SCHEMA.md, "Compatibility"), and
 * a newer cache must still load here. A typo cannot drop data silently
 * all the same, since the field it misspells is then missing (or, for an
 * optional field, absent, which is what older documents say). */
static int
parse_row(struct ctx *c, const json_t *obj, const struct table *t, void *row)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return fail_type(c, _("an object"), obj);
	json_object_foreach((json_t *)obj, key, v) {
		const struct field *f = find_field(t, key);

		if (f == NULL) {
			c->ignored++;
			continue;
		}
		push_key(c, key);
		if (parse_field(c, f, v, row) < 0)
			return -1;
		pop(c);
	}
	for (size_t i = 0; i < t->nfields; i++) {
		if (!t->fields[i].optional &&
		    json_object_get(obj, t->fields[i].key) == NULL) {
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

int
mx_check_range(struct ctx *c, const void *row)
{
	const struct matrix_range *r = row;

	if (r->max != NULL && !matrix_range_contains(r, r->min))
		return fail(c, _("min %s is above max %s"), r->min, r->max);
	return 0;
}

int
mx_check_cuda_major(struct ctx *c, const void *row)
{
	const struct matrix_cuda_major *mj = row;

	if (vcmp(mj->lowest_cc, mj->highest_cc) > 0)
		return fail(c, _("lowest_cc %s is above highest_cc %s"), mj->lowest_cc,
		    mj->highest_cc);
	return 0;
}

int
mx_check_architecture(struct ctx *c, const void *row)
{
	const struct matrix_architecture *a = row;
	struct matrix_range r = { a->first_cuda, a->last_cuda };

	if (r.min != NULL && r.max != NULL && !matrix_range_contains(&r, r.min))
		return fail(c, _("first_cuda %s is above last_cuda %s"), r.min, r.max);
	if (a->first_driver_branch != NULL && a->last_driver_branch != NULL &&
	    vcmp(a->first_driver_branch, a->last_driver_branch) > 0)
		return fail(c, _("first_driver_branch %s is above last_driver_branch %s"),
		    a->first_driver_branch, a->last_driver_branch);
	return 0;
}

int
mx_check_framework(struct ctx *c, const void *row)
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

/* The moments a framework's own check acts at (data/SCHEMA.md). */
int
mx_check_fw_check(struct ctx *c, const void *row)
{
	static const char *const words[] = { "startup", "import", "runpath" };
	const struct matrix_fw_check *k = row;

	for (size_t i = 0; i < NWORDS(words); i++)
		if (strcmp(k->when, words[i]) == 0)
			return 0;
	push_key(c, "when");
	return fail(c, _("\"%s\" is not startup, import or runpath"), k->when);
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

static bool
same_or_null(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* A published row is found by channel, package, index and CUDA major. */
static int
check_unique_published(struct ctx *c, const struct matrix *m)
{
	for (size_t i = 1; i < m->published.n; i++) {
		const struct matrix_published *p = &m->published.v[i];

		for (size_t j = 0; j < i; j++) {
			const struct matrix_published *o = &m->published.v[j];

			if (strcmp(p->channel, o->channel) != 0 ||
			    strcmp(p->package, o->package) != 0 ||
			    !same_or_null(p->index_url, o->index_url) ||
			    p->cuda_major != o->cuda_major)
				continue;
			push_key(c, "published");
			push_index(c, i);
			push_key(c, "package");
			return fail(c, _("repeats published[%zu] (same channel, index_url and cuda_major)"), j);
		}
	}
	return 0;
}

static int
check_unique(struct ctx *c, const struct matrix *m)
{
	if (check_unique_published(c, m) < 0)
		return -1;
	for (size_t i = 0; i < sizeof unique_keys / sizeof unique_keys[0]; i++)
		if (check_unique_key(c, m, &mx_top_fields[FIRST_SECTION + unique_keys[i].section],
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
	if (parse_row(&c, doc, &mx_top_table, m) < 0 || check_unique(&c, m) < 0) {
		json_decref(doc);
		matrix_free(m);
		*err = c.err;
		return NULL;
	}
	m->ignored = c.ignored;
	json_decref(doc);
	return m;
}

#ifndef CUDAWIZ_MKEMBEDDED
/* mkembedded checked the data when cudawiz was built, and the rows are
 * shared until a change (mx_own_rows): loading parses and copies nothing. */
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

/* ------------------------------------------------------------- adding */

/* Checks one value as matrix_parse would, under the path name. */
static int
check_value(struct ctx *c, const char *name, enum kind k, const char *s)
{
	int rc = 0;

	push_key(c, name);
	if (s == NULL)
		rc = fail(c, _("missing"));
	else if (!mx_match_kind(k, s, strlen(s)))
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
	mx_own_rows(m);
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
	mx_own_rows(m);
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

