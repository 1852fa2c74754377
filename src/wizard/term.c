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
 * not "quit", and the wizard goes on; a timer then looks at the keyboard
 * too, so Esc or q stop the child being waited on at once. The copy key
 * writes the text to a private file and sends it to the terminal's
 * clipboard (OSC 52) where the terminal is likely to take it. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "i18n.h"
#include "util/base64.h"
#include "util/fdio.h"
#include "util/monoclock.h"
#include "util/runcap.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/screen.h"
#include "wizard/term.h"
#include "wizard/terminfo.h"
#include "wizard/wizard.h"

#define POLL_MS		200
#define WATCH_MS	100	/* how often a busy step looks at the keys */
/* More than terminals take in one OSC 52 (xterm's default is about
 * 100 kB): the file alone then. */
#define OSC52_MAX	(64 * 1024)

static volatile sig_atomic_t caught;
static volatile sig_atomic_t busy;	/* a slow step runs */
static volatile sig_atomic_t interrupted;	/* SIGINT while busy */
static volatile sig_atomic_t repaint;	/* Ctrl-L read by the watch */
static bool active;		/* curses owns the terminal */
static bool resized;		/* KEY_RESIZE read while busy: owed */
static char *copy_path;		/* the copy key's file, once written */

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

/* While a step runs, every WATCH_MS: a lone Esc or q typed meanwhile
 * stops the child being waited on now, as Ctrl-C does, rather than when
 * the step next draws a frame. The bytes read here are lost to curses,
 * which is what the step does with keys anyway (wizard.c, step_tick);
 * an Esc that starts an escape sequence (an arrow key) comes with the
 * rest of it and is not a stop. */
static void
on_watch(int sig)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned char b[16];
	int saved = errno;
	ssize_t n;

	(void)sig;
	if (busy && poll(&p, 1, 0) == 1 && (p.revents & POLLIN) &&
	    (n = read(STDIN_FILENO, b, sizeof b)) == 1) {
		if (b[0] == 27 || b[0] == 'q' || b[0] == 3) {
			interrupted = 1;
			runcap_abort();
		} else if (b[0] == WK_CTRL('l')) {
			repaint = 1;	/* at the step's next frame */
		}
	}
	errno = saved;
}

static void
watch_keys(bool on)
{
	static struct sigaction old;
	static bool set;
	struct itimerval it = { 0 };
	struct sigaction sa;

	if (on && !set) {
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_watch;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGALRM, &sa, &old) != 0)
			return;
		it.it_interval.tv_usec = WATCH_MS * 1000;
		it.it_value = it.it_interval;
		set = setitimer(ITIMER_REAL, &it, NULL) == 0;
		if (!set)
			sigaction(SIGALRM, &old, NULL);
	} else if (!on && set) {
		setitimer(ITIMER_REAL, &it, NULL);
		/* A tick the timer raised before it stopped may still be
		 * pending (valgrind delivers late): ignoring SIGALRM discards
		 * it, where the old default would end cudawiz of it before
		 * the terminal is restored. */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_IGN;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		sigaction(SIGALRM, &old, NULL);
		set = false;
	}
}

static void
restore(void)
{
	watch_keys(false);
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
	case KEY_DC:		return WK_DELETE;
	case 3:			return WK_INTR;	/* should no signal come */
	case WK_CTRL('l'):
		/* Whatever else wrote to the terminal is painted over at the
		 * next refresh. */
		clearok(curscr, TRUE);
		return WK_REDRAW;
	default:
		break;
	}
	/* The other control characters are themselves (keys.h); wide
	 * characters come as KEY_ codes above 0x7f only for keys unmapped. */
	return ch >= 1 && ch < 0x7f ? ch : WK_NONE;
}

/* A click is WK_CLICK at its cell; the wheel scrolls. */
static int
mouse_key(int *rows, int *cols)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return WK_NONE;
	if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
		*rows = ev.y;
		*cols = ev.x;
		return WK_CLICK;
	}
	if (ev.bstate & BUTTON4_PRESSED)
		return WK_UP;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED)
		return WK_DOWN;
#endif
	return WK_NONE;
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
		if (ch == KEY_MOUSE) {
			ch = mouse_key(rows, cols);
			if (ch != WK_NONE)
				return ch;
			continue;
		}
		ch = map_key(ch);
		if (ch != WK_NONE)
			return ch;
	}
}

/* A key pressed while a step runs, without waiting. */
static int
term_poll(void *arg, int *rows, int *cols)
{
	sigset_t alrm, old;
	int ch;

	(void)arg;
	if (interrupted) {
		interrupted = 0;
		return WK_INTR;
	}
	/* The watch would race curses for the byte curses was told is
	 * there, and curses' read would then wait for the next key. */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old);
	nodelay(stdscr, TRUE);
	ch = getch();
	timeout(POLL_MS);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ch == ERR)
		return WK_NONE;
	if (ch == KEY_RESIZE) {
		/* The step's next frame takes the new size; the loop is
		 * told again once the step is over, should the wizard not
		 * have taken it meanwhile. */
		resized = true;
		getmaxyx(stdscr, *rows, *cols);
		return WK_RESIZE;
	}
	if (ch == KEY_MOUSE)
		return WK_NONE;	/* a click meant for a screen gone by */
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
	watch_keys(on);
}

static double
term_now(void *arg)
{
	(void)arg;
	return mono_ms() / 1000.0;
}

/* The copy key's file, in tmpdir_base(): made new with mkstemps the
 * first time and rewritten after, but only while it is still our regular
 * file (/tmp is everybody's). */
static int
open_copy_file(void)
{
	struct stat st;
	int fd;

	if (copy_path != NULL) {
		fd = open(copy_path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == getuid())
			return fd;
		if (fd >= 0)
			close(fd);
		FREE(&copy_path);
	}
	copy_path = xasprintf("%s/cudawiz-copy-XXXXXX.txt", tmpdir_base());
	/* mkstemps: 0600, O_EXCL. */
	fd = mkstemps(copy_path, 4);
	if (fd < 0)
		FREE(&copy_path);
	return fd;
}

/* Whether the terminal is likely to take OSC 52: not the console, not
 * a dumb one. Terminals that do not know it ignore the sequence. */
static bool
osc52_likely(void)
{
	const char *t = getenv("TERM");

	return t != NULL && strcmp(t, "linux") != 0 && strcmp(t, "dumb") != 0;
}

static char *
term_copy(void *arg, const char *text)
{
	size_t n = strlen(text);
	bool filed = false, sent = false;
	int fd;

	(void)arg;
	fd = open_copy_file();
	if (fd >= 0) {
		filed = write_full(fd, text, n) == 0 &&
		    write_full(fd, "\n", 1) == 0;
		filed = close(fd) == 0 && filed;
	}
	if (osc52_likely() && n <= OSC52_MAX) {
		char *b64 = base64_encode(text, n);

		/* Invisible: the screen curses keeps is not disturbed. */
		sent = printf("\033]52;c;%s\a", b64) > 0 && fflush(stdout) == 0;
		free(b64);
	}
	if (sent && filed)
		return xasprintf(_("sent to the clipboard; also in %s"), copy_path);
	if (filed)
		return xasprintf(_("written to %s"), copy_path);
	if (sent)
		return xstrdup(_("sent to the clipboard"));
	return xstrdup(_("could not copy: no file could be written"));
}

static void
term_show(void *arg, const struct wscreen *s, int key)
{
	(void)arg;
	(void)key;
	if (repaint) {
		repaint = 0;
		clearok(curscr, TRUE);
	}
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

/* Puts $TERMINFO back as it was. */
static void
put_env(const char *name, char *old)
{
	if (old != NULL)
		setenv(name, old, 1);
	else
		unsetenv(name);
	free(old);
}

#ifdef __SANITIZE_ADDRESS__
/* What the first, failed newterm() leaks inside ncurses (its pre-screen,
 * new_prescr: 1.6 KB once, nothing of ours to free it through) is not
 * ours: LeakSanitizer asks the program for such names at exit, and is
 * told not to list what it suppressed on stderr, which the wizard's
 * one-line note shares. tests/valgrind.supp says the same to memcheck. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:new_prescr\n";
}

const char *
__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif

/*
 * newterm() found no description of $TERM (no terminfo database, as in a
 * minimal container or Debian's base system, or an unknown name): newterm
 * again on a built-in one (terminfo.c), the closest when $TERM is not
 * among them, said in one line before the screen starts. $TERMINFO
 * points at it only for this call, and the directory goes at once:
 * ncurses keeps what it read, and the fix commands the wizard runs see
 * the user's environment.
 */
static SCREEN *
newterm_builtin(void)
{
	const char *term = getenv("TERM"), *use;
	char *dir, *old;
	SCREEN *scr;

	if (term == NULL || term[0] == '\0')
		return NULL;
	use = terminfo_builtin_pick(term);
	dir = terminfo_builtin_write(use);
	if (dir == NULL)
		return NULL;
	if (strcmp(use, term) != 0)
		fprintf(stderr, _("%s: no description of the terminal '%s'; "
		    "using the built-in '%s'\n"), PACKAGE, term, use);
	old = getenv("TERMINFO") != NULL ? xstrdup(getenv("TERMINFO")) : NULL;
	setenv("TERMINFO", dir, 1);
	scr = newterm(use, stdout, stdin);
	put_env("TERMINFO", old);
	terminfo_builtin_remove(dir, use);
	return scr;
}

int
wiz_term_run(struct wiz_report *r, const struct wiz_term_opts *o,
    char **farewell)
{
	struct sigaction sa, old[sizeof sigs / sizeof sigs[0]];
	struct wiz_io io = { .next = term_next, .show = term_show,
	    .poll = term_poll, .busy = term_busy, .copy = term_copy,
	    .now = term_now };
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
	if (scr == NULL)
		scr = newterm_builtin();
	*farewell = NULL;
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
	if (o->mouse) {
		/* Presses, not clicks: a click waits out the double-click
		 * interval. */
		mouseinterval(0);
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		    | BUTTON5_PRESSED
#endif
		    , NULL);
	}
	setup_attrs(want_color(o->color));
	getmaxyx(stdscr, rows, cols);
	w = wizard_new(r, utf8);
	wizard_loop(w, &io, rows, cols, utf8);
	*farewell = wizard_farewell(w);
	wizard_free(w);
	restore();
	delscreen(scr);
	die_set_hook(NULL);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &old[i], NULL);
	/* The copy file stays: its path was shown, to be read after. */
	FREE(&copy_path);
	sig = caught;
	return sig;
}
