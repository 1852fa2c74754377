/* wizard-render: the wizard's own loop (src/wizard/wizard.h) on a grid
 * screen, fed keys from a file, each screen printed as text. The golden
 * screen tests (tests/cli/wizard-golden.sh) compare its output.
 *
 *   wizard-render --root DIR [--matrix FILE] [--root-as TEXT]
 *       [--size COLSxROWS] [--keys FILE] [--ascii] [--final] [--slots]
 *       [--offline] [--url URL]... [--connect-timeout MS]
 *       [--copy-file FILE] [--stand-in-checks]
 *
 * Keys are words (tests/wizard/NAME.keys): down, up, left, right, pgup,
 * pgdn, home, end, enter, tab, btab, backspace, esc, f1, space, any one
 * character (n, p, q, ?), ctrl-a … (keys.c), resize:COLSxROWS,
 * click:ROW,COL (a mouse click on that cell, both from 0), and
 * text:STRING (each
 * character of STRING typed, one screen printed after the last); '#'
 * starts a comment. A slow step the wizard runs between two frames (the
 * Fix page's check) prints its screen as "=== (worked) ===", and each
 * frame it draws while running (the checks' progress) as
 * "=== (progress) ===". While a step runs, the key file's next word is
 * read only when it is busy:KEY (KEY pressed during the step, read at
 * its next frame: busy:esc, busy:q, busy:ctrl-c) or busy:- (nothing
 * pressed by this frame); other words wait for the step to end. The
 * live checks need --root / (a fixture tree is never run), and so does
 * the Compatibility page's matrix update (u), which fetches from the
 * --url given (as `cudawiz matrix update --url`) into the cache that
 * XDG_CACHE_HOME names; --offline forbids it.
 * The probes read DIR as doctor --root does; nothing else is opened.
 * The locale comes from the environment, and CUDAWIZ_LOCALEDIR names the
 * catalogs as it does for cudawiz, so a page renders in German or
 * Chinese (tests/unit/po-check.sh). The copy key's text goes to the
 * file --copy-file names (appended, one copy a line), and the wizard is
 * told "copied (test)"; without it the wizard has no copy callback. A
 * resize:COLSxROWS read while a step runs (busy:resize:COLSxROWS) is
 * the poll's resize. There is no clock: no "running for N s" line.
 * --stand-in-checks lets the Live verification page run its checks on
 * a fixture tree, so its screens do not depend on this machine's
 * libraries: the runs are planned from the tree's facts (their paths
 * are the tree's) and go to the helper CUDAWIZ_HELPER names, which must
 * be a stand-in (tests/cli/wizard-golden.sh) that loads nothing; it is
 * refused without CUDAWIZ_HELPER, so the real helper never loads a path
 * meant for another tree. */
#include "config.h"

#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "run/run.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/report.h"
#include "wizard/wizard.h"

extern char **environ;

struct render {
	FILE	*keys;
	bool	 final;
	bool	 slots;
	char	 word[512];	/* the word read last */
	bool	 held;		/* pending is read but not used yet (busy:) */
	char	 pending[512];
	const char *typing;	/* text: characters still to type; NULL */
	struct wscreen *last;	/* --final: a copy of the latest screen */
	const char *copy_file;	/* --copy-file; NULL */
	int	 owed_rows, owed_cols;	/* a resize while busy, told again */
};

/* "AsepB", two numbers from min to 100000: a size (80x24, from 1) or a
 * cell (3,5, from 0). */
static bool
parse_pair(const char *s, char sep, long min, int *a, int *b)
{
	char *end;
	long x, y;

	x = strtol(s, &end, 10);
	if (end == s || *end != sep)
		return false;
	y = strtol(end + 1, &end, 10);
	if (*end != '\0' || x < min || y < min || x > 100000 || y > 100000)
		return false;
	*a = (int)x;
	*b = (int)y;
	return true;
}

static bool
parse_size(const char *s, int *cols, int *rows)
{
	return parse_pair(s, 'x', 1, cols, rows);
}

/* click:ROW,COL */
static bool
parse_click(const char *s, int *row, int *col)
{
	return parse_pair(s, ',', 0, row, col);
}

/* The next word of the key file, comments skipped; false at the end. */
static bool
next_word(struct render *rd)
{
	int ch;
	size_t n = 0;

	if (rd->held) {
		rd->held = false;
		memcpy(rd->word, rd->pending, sizeof rd->word);
		return true;
	}
	for (;;) {
		ch = getc(rd->keys);
		if (ch == '#') {
			while (ch != EOF && ch != '\n')
				ch = getc(rd->keys);
		}
		if (ch == EOF)
			return false;
		if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r')
			break;
	}
	while (ch != EOF && ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') {
		if (n + 1 < sizeof rd->word)
			rd->word[n++] = (char)ch;
		ch = getc(rd->keys);
	}
	rd->word[n] = '\0';
	return true;
}

static int
render_next(void *arg, int *rows, int *cols)
{
	struct render *rd = arg;

	if (rd->keys == NULL)
		return WK_EOF;
	/* As term.c does: a resize seen while a step ran is told once
	 * more after it, should the step not have taken it. */
	if (rd->owed_rows > 0) {
		*rows = rd->owed_rows;
		*cols = rd->owed_cols;
		rd->owed_rows = 0;
		strcpy(rd->word, "(resized)");
		return WK_RESIZE;
	}
	if (rd->typing != NULL && *rd->typing != '\0')
		return (unsigned char)*rd->typing++;
	while (next_word(rd)) {
		int key;

		if (strncmp(rd->word, "busy:", 5) == 0)
			continue;	/* meant for a step that did not run */
		if (strncmp(rd->word, "text:", 5) == 0 && rd->word[5] != '\0') {
			rd->typing = rd->word + 5;
			return (unsigned char)*rd->typing++;
		} else if (strncmp(rd->word, "resize:", 7) == 0) {
			if (parse_size(rd->word + 7, cols, rows))
				return WK_RESIZE;
		} else if (strncmp(rd->word, "click:", 6) == 0) {
			if (parse_click(rd->word + 6, rows, cols))
				return WK_CLICK;
		} else if ((key = wkey_from_word(rd->word)) != WK_NONE) {
			return key;
		}
		fprintf(stderr, "wizard-render: unknown key '%s'\n", rd->word);
		exit(2);
	}
	return WK_EOF;
}

/* While a step runs: the next word when it is busy:KEY. */
static int
render_poll(void *arg, int *rows, int *cols)
{
	struct render *rd = arg;
	int key;

	if (rd->keys == NULL || !next_word(rd))
		return WK_NONE;
	if (strncmp(rd->word, "busy:", 5) != 0) {
		memcpy(rd->pending, rd->word, sizeof rd->pending);
		rd->held = true;
		return WK_NONE;
	}
	if (strcmp(rd->word + 5, "-") == 0)
		return WK_NONE;
	if (strncmp(rd->word + 5, "resize:", 7) == 0 &&
	    parse_size(rd->word + 12, cols, rows)) {
		rd->owed_rows = *rows;
		rd->owed_cols = *cols;
		return WK_RESIZE;
	}
	if ((key = wkey_from_word(rd->word + 5)) == WK_NONE) {
		fprintf(stderr, "wizard-render: unknown key '%s'\n", rd->word);
		exit(2);
	}
	return key;
}

/* The copy key: the text appended to --copy-file, for the test to read. */
static char *
render_copy(void *arg, const char *text)
{
	struct render *rd = arg;
	FILE *fp = fopen(rd->copy_file, "a");

	if (fp == NULL || fprintf(fp, "%s\n", text) < 0) {
		perror(rd->copy_file);
		exit(2);
	}
	if (fclose(fp) != 0) {
		perror(rd->copy_file);
		exit(2);
	}
	return xstrdup("copied (test)");
}

static void
print_screen(const struct render *rd, const struct wscreen *s, const char *after)
{
	printf("=== %s (%dx%d) ===\n", after, s->cols, s->rows);
	wscreen_print(s, stdout);
	if (rd->slots) {
		printf("--- slots ---\n");
		wscreen_print_slots(s, stdout);
	}
}

static void
render_show(void *arg, const struct wscreen *s, int key)
{
	struct render *rd = arg;
	const char *after = key == WK_NONE ? "start" : key == WK_WORKED ?
	    "(worked)" : key == WK_PROGRESS ? "(progress)" : rd->word;

	/* Typing a text: the screen after its last character only. */
	if (rd->typing != NULL && *rd->typing != '\0' && key != WK_WORKED &&
	    key != WK_PROGRESS)
		return;
	if (!rd->final) {
		print_screen(rd, s, after);
		return;
	}
	/* Only the last screen is printed: keep a copy of it. */
	wscreen_free(rd->last);
	rd->last = wscreen_new(s->rows, s->cols, s->utf8);
	memcpy(rd->last->cells, s->cells,
	    (size_t)s->rows * (size_t)s->cols * sizeof *s->cells);
	if (key == WK_NONE || key == WK_WORKED || key == WK_PROGRESS) {
		rd->typing = NULL;	/* it pointed into the word */
		strcpy(rd->word, key == WK_NONE ? "start" : key == WK_WORKED ?
		    "(worked)" : "(progress)");
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "matrix", required_argument, NULL, 'm' },
		{ "root-as", required_argument, NULL, 'R' },
		{ "size", required_argument, NULL, 's' },
		{ "keys", required_argument, NULL, 'k' },
		{ "ascii", no_argument, NULL, 'a' },
		{ "final", no_argument, NULL, 'f' },
		{ "slots", no_argument, NULL, 'S' },
		{ "offline", no_argument, NULL, 'o' },
		{ "url", required_argument, NULL, 'u' },
		{ "connect-timeout", required_argument, NULL, 'c' },
		{ "copy-file", required_argument, NULL, 'C' },
		{ "stand-in-checks", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = NULL, *matrix_file = NULL, *root_as = NULL;
	const char *keys_file = NULL;
	const char **urls = NULL;
	size_t nurls = 0;
	struct render rd = { 0 };
	struct wiz_report_in in = { 0 };
	struct wiz_report r;
	struct wiz_io io = { .next = render_next, .show = render_show,
	    .poll = render_poll, .arg = &rd };
	struct cw_run run;
	struct wizard *w;
	char *err = NULL;
	int c, rows = 24, cols = 80;
	bool utf8 = true, stand_in = false;

	setlocale(LC_ALL, "");
#ifdef ENABLE_NLS
	if (getenv("CUDAWIZ_LOCALEDIR") != NULL) {
		bindtextdomain(PACKAGE, getenv("CUDAWIZ_LOCALEDIR"));
		textdomain(PACKAGE);
	}
#endif
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': root = optarg; break;
		case 'm': matrix_file = optarg; break;
		case 'R': root_as = optarg; break;
		case 's':
			if (!parse_size(optarg, &cols, &rows)) {
				fprintf(stderr, "wizard-render: bad --size '%s'\n", optarg);
				return 2;
			}
			break;
		case 'k': keys_file = optarg; break;
		case 'a': utf8 = false; break;
		case 'f': rd.final = true; break;
		case 'S': rd.slots = true; break;
		case 'o': in.update.offline = true; break;
		case 'u':
			urls = xreallocarray(urls, nurls + 1, sizeof *urls);
			urls[nurls++] = optarg;
			break;
		case 'c': in.update.connect_timeout_ms = atol(optarg); break;
		case 'C': rd.copy_file = optarg; break;
		case 'L': stand_in = true; break;
		default:
			fprintf(stderr, "usage: wizard-render --root DIR [--matrix FILE] "
			    "[--root-as TEXT] [--size COLSxROWS] [--keys FILE] [--ascii] "
			    "[--final] [--slots] [--offline] [--url URL]... "
			    "[--connect-timeout MS] [--copy-file FILE] "
			    "[--stand-in-checks]\n");
			free(urls);
			return 2;
		}
	}
	if (root == NULL) {
		fprintf(stderr, "wizard-render: --root is required\n");
		free(urls);
		return 2;
	}
	if (stand_in && getenv("CUDAWIZ_HELPER") == NULL) {
		fprintf(stderr, "wizard-render: --stand-in-checks needs "
		    "CUDAWIZ_HELPER naming a stand-in helper\n");
		free(urls);
		return 2;
	}
	if (keys_file != NULL && (rd.keys = fopen(keys_file, "r")) == NULL) {
		perror(keys_file);
		free(urls);
		return 2;
	}
	if (run_open(&run, root, matrix_file, environ, &err) != 0) {
		fprintf(stderr, "wizard-render: %s\n", err);
		free(err);
		free(urls);
		if (rd.keys != NULL)
			fclose(rd.keys);
		return 2;
	}
	in.run = &run;
	in.root_label = root_as;
	in.verify_quick = true;
	in.update.matrix_file = matrix_file;
	in.update.urls = urls;
	in.update.nurls = nurls;
	if (rd.copy_file != NULL)
		io.copy = render_copy;
	wiz_report_make(&r, &in);
	/* The probes saw a tree (the screens still say so); only the
	 * checks' gate opens, for the stand-in helper. */
	if (stand_in)
		r.facts->live_allowed = true;
	w = wizard_new(&r, utf8);
	wizard_loop(w, &io, rows, cols, utf8);
	if (rd.final && rd.last != NULL)
		print_screen(&rd, rd.last, rd.word);
	wscreen_free(rd.last);
	wizard_free(w);
	wiz_report_free(&r);
	run_close(&run);
	free(urls);
	if (rd.keys != NULL)
		fclose(rd.keys);
	return fflush(stdout) == 0 ? 0 : 1;
}
