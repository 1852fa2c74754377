/* The wizard's pages: a table of { title, content, keys, help }, in the
 * order the wizard walks them. A page reads only the report (report.h)
 * and its own state; it draws into the body rectangle of the layout and
 * never touches a terminal.
 *
 * Most pages are documents: build() turns the report into wrapped lines
 * and the wizard scrolls them. A page with a list (Diagnosis) has its
 * own draw() and key(). */
#ifndef CUDAWIZ_WIZARD_PAGE_H
#define CUDAWIZ_WIZARD_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/finding.h"
#include "facts/facts.h"
#include "wizard/doc.h"
#include "wizard/glyph.h"
#include "wizard/report.h"
#include "wizard/screen.h"

/* What a page remembers between keys; kept per page, so going back
 * finds a page where it was left. */
struct page_state {
	int	scroll;
	int	sel;		/* the selected list entry */
	bool	detail;		/* a list entry's detail is open */
	int	detail_scroll;
};

struct wfix;
struct wvstep;
struct wustep;

struct wpage_ctx {
	const struct wiz_report	*r;
	const struct wglyphs	*g;
	struct page_state	*st;	/* draw() only reads it */
	struct wrect		 body;
	/* The Fix step's choices and results (fix.h), shared by the Fix
	 * and Done pages; owned by the wizard. draw() only reads it. */
	struct wfix		*fix;
	/* The checks run from the Live verification page (vstep.h); owned
	 * by the wizard. draw() only reads it. */
	struct wvstep		*vstep;
	/* The matrix update run from the Compatibility page (ustep.h);
	 * owned by the wizard. draw() only reads it. */
	struct wustep		*ustep;
};

/* One line of a page's help: the keys and what they do (N_ strings). */
struct wkeyhelp {
	const char	*keys;
	const char	*what;
};

/* What a key did to a page. */
enum wpage_key {
	WPK_IGNORED = 0,	/* the wizard's own meaning applies */
	WPK_DONE,		/* the page used it */
};

struct wpage {
	const char	*title;		/* N_() */
	void		(*build)(const struct wpage_ctx *c, struct wdoc *d);
	struct wview	(*draw)(const struct wpage_ctx *c, struct wscreen *s);
	enum wpage_key	(*key)(const struct wpage_ctx *c, int key);
	const struct wkeyhelp *help;	/* ends with { NULL, NULL }; may be NULL */
	const char	*hint;		/* N_(): keys shown on the status line; NULL */
};

extern const struct wpage page_welcome, page_gpus, page_toolkits,
	page_python, page_env, page_compat, page_verify, page_diagnosis,
	page_fix, page_done;

/* The Fix page's parts (page_fix_view.c): the preview and the check's
 * result as documents. */
void	wfix_build_preview(const struct wpage_ctx *c, struct wdoc *d);
void	wfix_build_result(const struct wpage_ctx *c, struct wdoc *d);

/* The pages in order (pages.c). */
const struct wpage	*wiz_page(size_t i);
size_t			 wiz_page_count(void);

/* Shared by the pages (pageutil.c). */
enum wslot	 wsev_slot(enum severity sev);
const char	*wsev_glyph(const struct wglyphs *g, enum severity sev);
/* A fact's value, "unknown", "unreadable", or absent when known absent. */
const char	*wfact_text(const struct fact_str *f, const char *absent);
/* The strings of sv joined by sep (newly allocated). */
char		*wjoin(const struct strv *sv, const char *sep);
/* "label  value (source)" for a fact, as a kv line. */
void		 wdoc_fact(struct wdoc *d, int indent, int labelw,
		    const char *label, const struct fact_str *f,
		    const char *absent);
/* The findings whose code is one of codes, as "✗ ERROR CODE" lines;
 * pages put them under the facts they are about. */
void		 wdoc_findings_of(struct wdoc *d, const struct wpage_ctx *c,
		    const enum finding_code *codes, size_t ncodes);

#endif
