/* The guided mode of the Windows program (issue 23): the wizard's pages
 * (src/wizard/pages.c: the same pages, order and titles) as numbered,
 * line-based text, for a console without curses. Everything here is
 * pure: a page is text built from the Windows facts, the findings and
 * what the user did so far; src/win/guide.c reads the replies and prints.
 * So the pages are tested on Linux (test_winguide) as they are. */
#ifndef CUDAWIZ_WINGUIDE_GUIDE_H
#define CUDAWIZ_WINGUIDE_GUIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/finding.h"
#include "winprobe/winfacts.h"

struct strbuf;

enum wg_page {
	WG_SUMMARY = 0,
	WG_GPUS,
	WG_TOOLKITS,
	WG_PYTHON,
	WG_ENV,
	WG_COMPAT,
	WG_VERIFY,
	WG_DIAGNOSIS,
	WG_FIX,
	WG_DONE,
	WG_PAGE_COUNT
};

/* What the user did: the live checks run, the script written. */
struct wg_state {
	bool		 verified;	/* the live checks ran */
	const char	*verify_runs;	/* their lines, as verify prints them */
	const struct findings *verify_findings;	/* theirs; NULL */
	const char	*script;	/* the activation script written; NULL */
	const char	*script_shell;	/* "powershell" or "cmd" */
	/* The script was asked for and not written: what env said. */
	const char	*script_error;
};

/* What every page is built from; none of it owned. */
struct wg_in {
	const struct win_facts	*facts;
	const struct findings	*findings;
	const struct wg_state	*st;
	int			 width;	/* columns text wraps to (>= 20) */
};

/* The page's title, untranslated (the Linux wizard's N_() string). */
const char	*wg_page_title(enum wg_page p);
/* "[3/10] Toolkits and cuDNN" (translated). Owned by the caller. */
char		*wg_heading(enum wg_page p);
/* The page's text, ending in '\n'. Owned by the caller. */
char		*wg_page_text(enum wg_page p, const struct wg_in *in);
/* The reply line's choices for the page, ending in ": ". Owned. */
char		*wg_prompt(enum wg_page p, const struct wg_in *in);
/* Finding n (from 1, as the pages number them): what, why, evidence
 * and its fix lines, never wrapped; NULL when there is no finding n. */
char		*wg_detail(const struct wg_in *in, size_t n);
/* What each reply does. Owned. */
char		*wg_help(void);

/* A reply, read. */
enum wg_cmd {
	WG_CMD_NEXT,		/* Enter, n */
	WG_CMD_BACK,		/* p */
	WG_CMD_JUMP,		/* a page number: arg, from 0 */
	WG_CMD_RESCAN,		/* r */
	WG_CMD_QUIT,		/* q */
	WG_CMD_HELP,		/* ? */
	WG_CMD_DETAIL,		/* d N: arg, from 1 */
	WG_CMD_VERIFY,		/* y on the Live verification page */
	WG_CMD_WRITE,		/* w on the Fix page */
	WG_CMD_UNKNOWN,
};

/* Reads one reply (its line, without the newline) on page p; nfindings
 * bounds d N. */
enum wg_cmd	wg_parse(const char *line, enum wg_page p, size_t nfindings,
		    size_t *arg);

/* text wrapped at spaces to width columns (UTF-8 aware), the first line
 * indented by indent, the others by cont; each '\n' of text starts a
 * new line. Appended to sb. */
void		wg_wrap(struct strbuf *sb, int width, int indent, int cont,
		    const char *text);

/* The finding shown at n (from 1): the findings, then the live checks'. */
const struct finding *wg_finding(const struct wg_in *in, size_t n);
size_t		wg_finding_count(const struct wg_in *in);

#endif
