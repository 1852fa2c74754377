/* Writing a matrix: as a JSON document (matrix_to_json), and as C
 * initialisers for the built-in matrix (matrix_write_c, mkembedded only);
 * both walk the schema's tables (schema.c). */
#include "config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "matrix/schema_int.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"

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
		return jstring(mx_status_words[*(const enum matrix_status *)p]);
	case K_LOADS:
		return jstring(mx_loads_words[*(const enum matrix_loads *)p]);
	case K_BUNDLES:
		return jstring(mx_bundles_words[*(const enum matrix_bundles *)p]);
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
	json_t *doc = row_to_json(&mx_top_table, m);
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
		fputc(mx_is_alnum(*p) || strchr("._-+", *p) != NULL ? *p : '?', out);
	fputs(" by src/matrix/mkembedded; do not edit. */\n"
	    "#include \"config.h\"\n\n"
	    "#include <stdbool.h>\n"
	    "#include <stddef.h>\n\n"
	    "#include \"matrix/internal.h\"\n\n", out);
	put_c_row(&w, &mx_top_table, m, ",\n\t", &top);
	fprintf(out, "const struct matrix matrix_builtin = {\n"
	    "\t.source = MATRIX_EMBEDDED,\n"
	    "\t.borrowed = true,\n"
	    "\t%s,\n};\n", strbuf_str(&top));
	strbuf_free(&top);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
#endif
