/* The HTML page's frame; see html.h and html_parts.h.
 *
 * The page has no script but the JSON block (a "copy" button would need
 * one: the fix commands are selectable blocks instead), no link, no font
 * and no image: it must open on the machine that cannot reach anything. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/html_parts.h"

void
html_esc(FILE *fp, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p != NULL &&
	    *p != '\0'; p++)
		switch (*p) {
		case '&':	fputs("&amp;", fp); break;
		case '<':	fputs("&lt;", fp); break;
		case '>':	fputs("&gt;", fp); break;
		case '"':	fputs("&quot;", fp); break;
		case '\'':	fputs("&#39;", fp); break;
		case '\n':
		case '\t':	fputc(*p, fp); break;
		default:
			/* HTML forbids C0 controls and DEL in text. */
			if (*p < 0x20 || *p == 0x7f)
				fputs("\xef\xbf\xbd", fp);
			else
				fputc(*p, fp);
		}
}

void
html_elem(FILE *fp, const char *tag, const char *cls, const char *s)
{
	fprintf(fp, "<%s", tag);
	if (cls != NULL)
		fprintf(fp, " class=\"%s\"", cls);
	fputc('>', fp);
	html_esc(fp, s);
	fprintf(fp, "</%s>", tag);
}

void
html_table_head(FILE *fp, const char *title, const char *const *cols)
{
	html_elem(fp, "h2", NULL, title);
	fputs("\n<table><thead><tr>", fp);
	for (; *cols != NULL; cols++)
		html_elem(fp, "th", NULL, _(*cols));
	fputs("</tr></thead><tbody>\n", fp);
}

const char *
html_jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

void
html_step_row(FILE *fp, size_t i, const char *source, const json_t *s)
{
	const char *where = html_jstr(s, "path");

	fprintf(fp, "<tr><td>%zu</td><td>", i + 1);
	html_esc(fp, source);
	fputs("</td><td>", fp);
	html_elem(fp, "code", NULL, where != NULL ? where :
	    html_jstr(s, "dir"));
	fputs("</td><td>", fp);
	html_esc(fp, html_jstr(s, "result"));
	if (html_jstr(s, "detail") != NULL) {
		fputs(": ", fp);
		html_esc(fp, html_jstr(s, "detail"));
	}
	fputs("</td></tr>\n", fp);
}

const char *
html_step_words(const char *json_name, enum step_words w)
{
	for (int s = STEP_PATH; json_name != NULL && s <= STEP_DEFAULT; s++)
		if (strcmp(step_words((enum step_source)s, STEPW_JSON),
		    json_name) == 0 || strcmp(step_words((enum step_source)s,
		    STEPW_FACT), json_name) == 0)
			return step_words((enum step_source)s, w);
	return json_name != NULL ? json_name : "";
}

/* The JSON as it was printed, with "</" as "<\/" (the same string to a
 * JSON parser), so no value can end the script element. */
static void
json_block(FILE *fp, const char *json, size_t len)
{
	fputs("<script type=\"application/json\" class=\"cudawiz-json\">", fp);
	for (size_t i = 0; i < len; i++) {
		if (json[i] == '<' && i + 1 < len && json[i + 1] == '/') {
			fputs("<\\/", fp);
			i++;
			continue;
		}
		fputc(json[i], fp);
	}
	fputs("</script>\n", fp);
}

FILE *
html_capture_begin(struct html_capture *c)
{
	return memstream_open(&c->ms);
}

static void
page(FILE *out, const char *title, const json_t *doc, const char *json,
    size_t len, html_body_fn *body)
{
	/* TRANSLATORS: the language of this translation as an HTML lang
	 * code ("de", "zh-CN"): the report page declares it. */
	const char *lang = _("en");

	fputs("<!DOCTYPE html>\n<html lang=\"", out);
	html_esc(out, lang);
	fputs("\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n<meta name=\"color-scheme\" "
	    "content=\"light dark\">\n", out);
	html_elem(out, "title", NULL, title);
	/* The page's own margin and background; the report's look is in
	 * its div, which a notebook takes alone. */
	fputs("\n<style>body{margin:0;background:Canvas;color:CanvasText}"
	    "</style>\n</head>\n<body>\n<!-- cudawiz-report begin -->\n"
	    "<div class=\"cudawiz-report\">\n<style>", out);
	fputs(html_style, out);
	fputs("</style>\n", out);
	body(out, doc);
	json_block(out, json, len);
	fputs("</div>\n<!-- cudawiz-report end -->\n</body>\n</html>\n", out);
}

int
html_capture_page(struct html_capture *c, int json_rc, FILE *out,
    const char *title, html_body_fn *body)
{
	json_error_t err;
	json_t *doc = NULL;
	int rc = -1;

	if (c->ms.fp == NULL)
		return -1;
	if (memstream_close(&c->ms) != 0)
		json_rc = -1;
	if (json_rc == 0)
		doc = json_loadb(c->ms.buf, c->ms.len, 0, &err);
	if (doc != NULL) {
		page(out, title, doc, c->ms.buf, c->ms.len, body);
		rc = ferror(out) ? -1 : 0;
	}
	json_decref(doc);
	free(c->ms.buf);
	c->ms.buf = NULL;
	return rc;
}
