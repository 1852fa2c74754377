/* The wizard's keys: printable ASCII as itself, control characters
 * other than Tab, Enter, Esc and Backspace as themselves too (Ctrl-A is
 * 1: WK_CTRL('a')), the rest as WK_* codes
 * above the Unicode range, so the same numbers come from ncurses
 * (term.c) and from a test's key file (keys.c's words). */
#ifndef CUDAWIZ_WIZARD_KEYS_H
#define CUDAWIZ_WIZARD_KEYS_H

enum wkey {
	WK_NONE = 0,
	WK_UP = 0x110000,
	WK_DOWN,
	WK_LEFT,
	WK_RIGHT,
	WK_PGUP,
	WK_PGDN,
	WK_HOME,
	WK_END,
	WK_ENTER,
	WK_TAB,
	WK_BTAB,
	WK_BACKSPACE,
	WK_ESC,
	WK_F1,
	WK_RESIZE,	/* an event, not a key: the size changed */
	WK_EOF,		/* no more input (end of the key file, a signal) */
	WK_WORKED,	/* an event: a slow step (the Fix page's check) ended */
	WK_PROGRESS,	/* an event: a frame drawn while a slow step runs */
	WK_INTR,	/* Ctrl-C while a slow step runs: stop it */
	WK_DELETE,	/* the Delete key (forward delete) */
	WK_REDRAW,	/* Ctrl-L: paint the whole screen anew */
	WK_CLICK,	/* an event: a mouse click, *rows and *cols at the cell */
};

/* The code of Ctrl and a letter: WK_CTRL('a') == 1. */
#define WK_CTRL(c)	((c) & 0x1f)

/* "down", "enter", "pgdn", "q", "?", "space", "ctrl-a", "delete" … to
 * a key; WK_NONE when the word names none. Single characters stand for
 * themselves. (A test's "click:ROW,COL" is read by the key file's
 * reader, not here.) */
int		 wkey_from_word(const char *word);
/* The word for a key, as wkey_from_word reads it (static storage). */
const char	*wkey_word(int key);

#endif
