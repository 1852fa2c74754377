/* The wizard: a state machine over the pages (page.h), fed keys, drawn
 * into an abstract screen (screen.h). It knows nothing of terminals:
 * term.c runs it on ncurses, tests/tools/wizard-render.c on a grid and a
 * file of keys, both through wizard_loop(). */
#ifndef CUDAWIZ_WIZARD_H
#define CUDAWIZ_WIZARD_H

#include <stdbool.h>

#include "wizard/report.h"
#include "wizard/screen.h"

struct wizard;

/* r is borrowed and must outlive the wizard; the slow steps change it
 * (the checks' results, the findings). utf8: box lines and ticks in
 * UTF-8, else ASCII. */
struct wizard	*wizard_new(struct wiz_report *r, bool utf8);
void		 wizard_free(struct wizard *w);
/* The screen is now rows × cols. */
void		 wizard_resize(struct wizard *w, int rows, int cols);
void		 wizard_key(struct wizard *w, int key);
/* A mouse click on the cell at row, col (0-based): a page's row opens
 * what it shows (the page's click hook, else the finding on the row);
 * the status line's "?: help" and "q: quit" do that; a click closes
 * the help; elsewhere nothing happens. */
void		 wizard_click(struct wizard *w, int row, int col);
bool		 wizard_done(const struct wizard *w);
/* Draws everything for the current state; the screen's size is the one
 * last given to wizard_resize. */
void		 wizard_draw(const struct wizard *w, struct wscreen *s);

/* Where the loop gets its events and shows its screens. */
struct wiz_io {
	/* The next key (keys.h); WK_RESIZE with *rows and *cols set to
	 * the new size; WK_CLICK with them set to the clicked cell; WK_EOF
	 * to stop. */
	int	(*next)(void *arg, int *rows, int *cols);
	/* A screen to show, drawn after key (WK_NONE: the first one). */
	void	(*show)(void *arg, const struct wscreen *s, int key);
	/* While a slow step runs: a key pressed meanwhile, without waiting
	 * (WK_INTR for Ctrl-C, WK_RESIZE with *rows and *cols set), or
	 * WK_NONE; NULL: none can be. */
	int	(*poll)(void *arg, int *rows, int *cols);
	/* A slow step starts (true) or ends: Ctrl-C then stops the step
	 * rather than the wizard. NULL: nothing to do. */
	void	(*busy)(void *arg, bool on);
	/* The copy key: puts text on the clipboard where the terminal
	 * takes it (OSC 52) and always writes it to a file as well.
	 * Returns what to tell the user on the status line ("copied; also
	 * in /tmp/…"), newly allocated; NULL callback: no copying. */
	char	*(*copy)(void *arg, const char *text);
	/* Seconds on a monotonic clock, for the "running for N s" line of a
	 * slow step; NULL: that line is not shown (tests pin the screens). */
	double	(*now)(void *arg);
	void	*arg;
};

/* What to leave on the normal screen after the wizard ends: the script
 * written (absolute path), how to activate and undo it, the install
 * commands still to run. Newly allocated lines; NULL when there is
 * nothing to say. */
char	*wizard_farewell(const struct wizard *w);

/* Runs until the user quits or the events end. */
void	wizard_loop(struct wizard *w, const struct wiz_io *io, int rows,
	    int cols, bool utf8);

#endif
