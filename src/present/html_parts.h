/* What the HTML view's files share (html.h is what the commands see).
 * Every page is drawn from the JSON document the same command prints with
 * --json, parsed back: the page and the JSON block inside it can never
 * disagree, and the notebook view reads the same fields. */
#ifndef CUDAWIZ_PRESENT_HTML_PARTS_H
#define CUDAWIZ_PRESENT_HTML_PARTS_H

#include <jansson.h>
#include <stdio.h>

#include "facts/stepsource.h"
#include "util/memstream.h"

/* Draws what is inside the report's <div>, after the style. */
typedef void	html_body_fn(FILE *fp, const json_t *doc);

/* A report's JSON caught in memory: html_capture_begin() gives the
 * stream the JSON printer writes to; html_capture_page() closes it and
 * writes the page (title, then body() over the parsed document). Both
 * return -1 (and free what they hold) when something failed. */
struct html_capture {
	struct memstream	ms;
};
FILE	*html_capture_begin(struct html_capture *c);
int	 html_capture_page(struct html_capture *c, int json_rc, FILE *out,
	    const char *title, html_body_fn *body);

/* s as HTML text or an attribute value: & < > " ' escaped, control
 * characters other than newline and tab as U+FFFD. NULL writes nothing. */
void	html_esc(FILE *fp, const char *s);
/* <tag class="cls">escaped s</tag>; cls may be NULL. */
void	html_elem(FILE *fp, const char *tag, const char *cls, const char *s);
/* <h2>title</h2> and a table's head, its columns' titles translated;
 * cols ends with NULL. The caller writes the rows and
 * "</tbody></table>". */
void	html_table_head(FILE *fp, const char *title, const char *const *cols);
/* A JSON string's value, or NULL for anything else. */
const char *html_jstr(const json_t *o, const char *key);
/* One row of a search-steps table (why's, Linux or Windows): its number
 * (from 0), the step's source as words, where it looked, what it found. */
void	html_step_row(FILE *fp, size_t i, const char *source, const json_t *s);

/* A loader step's JSON name (why's "cache" or doctor's "ld.so.conf") in
 * the reader's words of column w; the name itself when unknown. */
const char *html_step_words(const char *json_name, enum step_words w);

/* The stylesheet, every rule under .cudawiz-report (html_style.c). */
extern const char html_style[];

/* The verdict: the summary's counts in the text report's words, on a
 * band coloured by the worst severity; then every finding, most severe
 * first (html_findings.c). */
void	html_verdict(FILE *fp, const json_t *findings);
void	html_findings(FILE *fp, const json_t *findings);

#endif
