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
	int	hscroll;	/* columns commands are scrolled left (doc.h) */
};

struct wfix;
struct wvstep;
struct wustep;

/* What a page asks the wizard to do after a key (a page never switches
 * pages itself): set by key(), done and reset by the wizard. Every
 * field starts at its "nothing" value (-1, false, NULL). */
struct wnav {
	int	 page;		/* >= 0: go to this page (its index) */
	int	 finding;	/* >= 0: open this finding's detail (Diagnosis) */
	int	 fix;		/* >= 0: the Fix page, prefilled for this finding */
	bool	 back;		/* Esc at the top of a page: the previous one */
	bool	 rescan;	/* probe and diagnose the machine again */
	bool	 quit;		/* q: quit (asking first if a script is unwritten) */
	char	*copy;		/* owned: text for the clipboard (the copy key) */
	char	*flash;		/* owned: a one-line message for the status line */
};

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
	/* Requests to the wizard (see struct wnav); owned by the wizard.
	 * Only key() writes it. */
	struct wnav		*nav;
	/* The layout's kind (layout.h): compact below 80x24, wide from
	 * 160 columns; a page may use the width (detail beside a list). */
	bool			 compact, wide;
	/* Seconds the slow step now running has taken (the "running for
	 * N s" line); < 0: none runs, or no clock (tests). */
	double			 busy_s;
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
	/* Optional. The keys of the page's current context (a detail, a
	 * list opened, a preview) for the status line, N_(); NULL: hint. */
	const char	*(*hint_now)(const struct wpage_ctx *c);
	/* Optional. Moves the page's view so line `line` of the document
	 * build() makes now shows (search); NULL: st->scroll = line. A page
	 * with its own draw() sets build to make the document it shows. */
	void		(*reveal)(const struct wpage_ctx *c, int line);
	/* Optional. A mouse click on line `line` of that document (its item
	 * `item`, -1 none), at (row, col) of the body, from 0: a page that
	 * draws two parts side by side tells which was clicked. NULL: clicks
	 * on finding rows open them. */
	enum wpage_key	(*click)(const struct wpage_ctx *c, int line, int item,
			    int row, int col);
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
/* The findings whose code is one of codes, one entry each ("✗ what it
 * is about (CODE)"), tagged with the finding's index as their item so
 * Enter or a click opens it; pages put them under the facts they are
 * about. */
void		 wdoc_findings_of(struct wdoc *d, const struct wpage_ctx *c,
		    const enum finding_code *codes, size_t ncodes);
/* "3 errors, 3 warnings, 1 note" (newly allocated). */
char		*wcounts(const struct findings *fs);
/* What a finding is about, in one line: its subject, else its title
 * (translated). */
const char	*wfinding_text(const struct finding *f);
/* One line that reads alone: "subject: title" (newly allocated); the
 * title alone when there is no subject. A subject says what, not what
 * is wrong with it: rows that show no title need this. */
char		*wfinding_headline(const struct finding *f);
/* text cut to cols columns with the ellipsis where it is cut (newly
 * allocated); text itself when it fits. */
char		*wcut(const char *text, int cols, const char *ellipsis);
/* Finding i's detail (Diagnosis; the Summary's and the fact pages'
 * entries open it): what it is about, why, the evidence, the fix lines
 * unwrapped (doc.h's wdoc_command) and, where other findings install
 * into the same environment, the one command for all of them. */
void		 wdoc_finding_detail(struct wdoc *d, const struct wpage_ctx *c,
		    size_t i);
/* The text the copy key puts on the clipboard for finding i: its fix
 * lines, comments with their '#', one a line; NULL when it has none. */
char		*wfinding_fix_text(const struct finding *f);

#endif
