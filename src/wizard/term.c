/* The wizard on ncursesw; see term.h.
 *
 * The wizard draws into an abstract screen; this file copies it to
 * curses, maps curses keys to the wizard's, and owns the terminal's
 * state: every way out (quitting, SIGINT/SIGTERM/SIGHUP, die()) restores
 * it. ncurses keeps SIGWINCH and reports it as KEY_RESIZE; the layout is
 * then recomputed from the new size. Signals only set a flag, read
 * between keys (getch waits at most POLL_MS), because endwin() is not
 * async-signal-safe. While a slow step runs (the checks, an update),
 * SIGINT only asks that step to stop: Ctrl-C then means "stop this",
 * not "quit", and the wizard goes on. */
#include "config.h"

#include <curses.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/runcap.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/screen.h"
#include "wizard/term.h"
#include "wizard/wizard.h"

#define POLL_MS		200

static volatile sig_atomic_t caught;
static volatile sig_atomic_t busy;	/* a slow step runs */
static volatile sig_atomic_t interrupted;	/* SIGINT while busy */
static bool active;		/* curses owns the terminal */
static bool resized;		/* KEY_RESIZE read while busy: owed */

static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* Colours and monochrome attributes per slot (screen.h's order). */
static const struct {
	short	fg, bg;		/* -1: the terminal's default */
	attr_t	color_attr;
	attr_t	mono;
} slots[WS_COUNT] = {
	[WS_NORMAL]	= { -1, -1, A_NORMAL, A_NORMAL },
	[WS_TITLE]	= { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE | A_BOLD },
	[WS_HEADING]	= { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[WS_DIM]	= { -1, -1, A_DIM, A_DIM },
	[WS_SELECTED]	= { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[WS_KEY]	= { COLOR_YELLOW, -1, A_NORMAL, A_BOLD },
	[WS_OK]		= { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[WS_INFO]	= { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[WS_WARNING]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[WS_ERROR]	= { COLOR_RED, -1, A_BOLD, A_BOLD },
	[WS_FRAME]	= { COLOR_BLUE, -1, A_NORMAL, A_NORMAL },
	[WS_STATUS]	= { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
};

static attr_t attrs[WS_COUNT];

static void
on_signal(int sig)
{
	if (sig == SIGINT && busy)
		interrupted = 1;
	else
		caught = sig;
	/* A helper the step waits on is killed now, not when it is done:
	 * it is in its own process group, so the signal never reached it. */
	if (busy)
		runcap_abort();
}

static void
restore(void)
{
	if (active) {
		active = false;
		endwin();
	}
}

/* die() runs this before it prints, so its message lands on a sane
 * terminal. */
static void
die_hook(void)
{
	restore();
}

static bool
want_color(int flag)
{
	const char *v = getenv("NO_COLOR");

	if (flag >= 0)
		return flag == 1 && has_colors();
	if (v != NULL && *v != '\0')
		return false;
	return has_colors();
}

static void
setup_attrs(bool color)
{
	bool defaults;

	if (!color) {
		for (int i = 0; i < WS_COUNT; i++)
			attrs[i] = slots[i].mono;
		return;
	}
	start_color();
	defaults = use_default_colors() == OK;
	for (int i = 0; i < WS_COUNT; i++) {
		short fg = slots[i].fg, bg = slots[i].bg;

		if (fg < 0 && bg < 0) {
			attrs[i] = slots[i].color_attr;
			continue;
		}
		/* Without default colours, -1 means white on black. */
		if (!defaults) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		init_pair((short)i, fg, bg);
		attrs[i] = COLOR_PAIR(i) | slots[i].color_attr;
	}
}

static int
map_key(int ch)
{
	switch (ch) {
	case KEY_UP:		return WK_UP;
	case KEY_DOWN:		return WK_DOWN;
	case KEY_LEFT:		return WK_LEFT;
	case KEY_RIGHT:		return WK_RIGHT;
	case KEY_PPAGE:		return WK_PGUP;
	case KEY_NPAGE:		return WK_PGDN;
	case KEY_HOME:		return WK_HOME;
	case KEY_END:		return WK_END;
	case KEY_ENTER: case '\n': case '\r':
		return WK_ENTER;
	case '\t':		return WK_TAB;
	case KEY_BTAB:		return WK_BTAB;
	case KEY_BACKSPACE: case 127: case 8:
		return WK_BACKSPACE;
	case 27:		return WK_ESC;
	case KEY_F(1):		return WK_F1;
	default:
		break;
	}
	return ch > ' ' && ch < 0x7f ? ch : ch == ' ' ? ' ' : WK_NONE;
}

static int
term_next(void *arg, int *rows, int *cols)
{
	(void)arg;
	for (;;) {
		int ch;

		if (caught)
			return WK_EOF;
		if (resized) {
			resized = false;
			getmaxyx(stdscr, *rows, *cols);
			return WK_RESIZE;
		}
		ch = getch();
		if (ch == ERR)
			continue;
		if (ch == KEY_RESIZE) {
			getmaxyx(stdscr, *rows, *cols);
			return WK_RESIZE;
		}
		ch = map_key(ch);
		if (ch != WK_NONE)
			return ch;
	}
}

/* A key pressed while a step runs, without waiting. */
static int
term_poll(void *arg)
{
	int ch;

	(void)arg;
	if (interrupted) {
		interrupted = 0;
		return WK_INTR;
	}
	nodelay(stdscr, TRUE);
	ch = getch();
	timeout(POLL_MS);
	if (ch == ERR)
		return WK_NONE;
	if (ch == KEY_RESIZE) {
		/* The step's frames keep the old size; the loop resizes
		 * once it is over. */
		resized = true;
		return WK_NONE;
	}
	/* Ctrl-C's byte, should the terminal deliver it rather than a
	 * signal. */
	return ch == 3 ? WK_INTR : map_key(ch);
}

static void
term_busy(void *arg, bool on)
{
	(void)arg;
	interrupted = 0;
	runcap_abort_clear();
	busy = on;
}

static void
term_show(void *arg, const struct wscreen *s, int key)
{
	(void)arg;
	(void)key;
	for (int y = 0; y < s->rows; y++) {
		for (int x = 0; x < s->cols; x++) {
			const struct wcell *c = wscreen_cell(s, y, x);

			if (c->ch[0] == '\0')
				continue;	/* a wide character's right half */
			attrset(attrs[c->slot < WS_COUNT ? c->slot : 0]);
			/* The bottom-right cell returns ERR when written
			 * (the cursor cannot move past it): harmless. */
			(void)mvaddstr(y, x, c->ch);
		}
	}
	attrset(A_NORMAL);
	refresh();
}

int
wiz_term_run(struct wiz_report *r, const struct wiz_term_opts *o)
{
	struct sigaction sa, old[sizeof sigs / sizeof sigs[0]];
	struct wiz_io io = { term_next, term_show, term_poll, term_busy, NULL };
	struct wizard *w;
	SCREEN *scr;
	bool utf8;
	int rows, cols, sig;

	utf8 = !o->ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	/* Ours before newterm: ncurses then leaves these signals alone. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	caught = 0;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, &old[i]);
	scr = newterm(NULL, stdout, stdin);
	if (scr == NULL) {
		for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
			sigaction(sigs[i], &old[i], NULL);
		fprintf(stderr, _("%s: cannot use the terminal '%s'\n"), PACKAGE,
		    getenv("TERM") != NULL ? getenv("TERM") : "");
		return -1;
	}
	active = true;
	die_set_hook(die_hook);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(POLL_MS);
	curs_set(0);
	setup_attrs(want_color(o->color));
	getmaxyx(stdscr, rows, cols);
	w = wizard_new(r, utf8);
	wizard_loop(w, &io, rows, cols, utf8);
	wizard_free(w);
	restore();
	delscreen(scr);
	die_set_hook(NULL);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &old[i], NULL);
	sig = caught;
	return sig;
}
