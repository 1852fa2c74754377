/* The guided mode of the Windows program: the wizard's pages (src/
 * winguide/, pure) printed one at a time on the console, each followed
 * by a prompt read as a line. There is no curses for mingw-w64, and a
 * line-based walk also works piped, which is how tests drive it. Its
 * data comes from the Windows pipeline (win/winrun.h) only: it opens no
 * system file itself.
 *
 * Plain `cudawiz.exe` runs it when stdin and stdout are both consoles;
 * `cudawiz.exe wizard` runs it whatever they are. Quitting (q, end of
 * input) exits 0: the walk is not a report, and doctor's status is one
 * command away. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "cmd.h"
#include "i18n.h"
#include "util/wstr.h"
#include "util/xalloc.h"
#include "win/cmd_verify.h"
#include "win/guide.h"
#include "win/winrun.h"
#include "winguide/guide.h"
#include "wizard/cmd_wizard.h"

/* Replies not understood in a row before giving up when stdin is not a
 * console (a script feeding the wrong thing would loop forever). */
#define BAD_MAX	8
/* Longer replies are cut here; the rest of the line is dropped. */
#define LINE_MAX_LEN	1024

static bool
is_console(DWORD which)
{
	HANDLE h = GetStdHandle(which);
	DWORD mode;

	return h != NULL && h != INVALID_HANDLE_VALUE &&
	    GetConsoleMode(h, &mode) != 0;
}

bool
cmd_wizard_wanted(void)
{
	return is_console(STD_INPUT_HANDLE) && is_console(STD_OUTPUT_HANDLE);
}

/* The console's width; 80 when stdout is not a console. */
static int
console_width(void)
{
	CONSOLE_SCREEN_BUFFER_INFO ci;
	int w;

	if (!GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &ci))
		return 80;
	w = ci.srWindow.Right - ci.srWindow.Left + 1;
	/* The last column wraps on some consoles: keep off it. */
	return w > 40 ? w - 1 : 40;
}

/* One line typed on the console, as UTF-8 in buf (cut at size - 1
 * bytes, never inside a character): the C runtime's stdin reads the
 * console in its ANSI code page, so a file name with an é or a 中 typed
 * on the Fix page would arrive mangled. false at end of input (Ctrl+Z,
 * Ctrl+C) or on an error. */
static bool
console_line(char *buf, size_t size)
{
	HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
	wchar_t w[LINE_MAX_LEN + 2];
	DWORD got = 0;
	size_t n = 0;
	char *s;

	if (!ReadConsoleW(in, w, LINE_MAX_LEN, &got, NULL) || got == 0)
		return false;
	w[got] = L'\0';
	/* A line longer than the read: the rest is dropped. */
	if (wcschr(w, L'\n') == NULL) {
		wchar_t rest[64];
		DWORD more;

		while (ReadConsoleW(in, rest, 63, &more, NULL) && more > 0) {
			rest[more] = L'\0';
			if (wcschr(rest, L'\n') != NULL)
				break;
		}
	}
	if (w[0] == 0x1a)	/* Ctrl+Z, the console's end of input */
		return false;
	if ((s = wstr_utf8(w)) == NULL)
		return false;
	for (size_t i = 0; s[i] != '\0' && i + 1 < size; i++) {
		size_t cl = 1;

		while (((unsigned char)s[i + cl] & 0xc0) == 0x80)
			cl++;
		if (n + cl >= size)
			break;
		memcpy(buf + n, s + i, cl);
		n += cl;
		i += cl - 1;
	}
	buf[n] = '\0';
	free(s);
	return true;
}

bool
guide_read_line(const char *prompt, char *buf, size_t size)
{
	size_t len;

	fputs(prompt, stdout);
	fflush(stdout);
	if (is_console(STD_INPUT_HANDLE)) {
		if (!console_line(buf, size)) {
			putchar('\n');
			return false;
		}
	} else if (fgets(buf, (int)size, stdin) == NULL) {
		putchar('\n');
		return false;
	} else if ((len = strlen(buf)) > 0 && buf[len - 1] != '\n') {
		int c;

		while ((c = getchar()) != EOF && c != '\n')
			;
	}
	len = strlen(buf);
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	/* Piped input does not echo: show what was read, so a transcript
	 * reads as the session did. */
	if (!is_console(STD_INPUT_HANDLE))
		printf("%s\n", buf);
	return true;
}

struct guide {
	struct win_run		 r;
	const struct cli_opts	*opts;
	struct wg_state		 st;
	struct win_verify	 wv;
	char			*verify_text;
	char			*script, *script_error;
	const char		*script_shell;
};

static void
forget_verify(struct guide *g)
{
	if (g->st.verified)
		win_verify_free(&g->wv);
	free(g->verify_text);
	g->verify_text = NULL;
	g->st.verified = false;
	g->st.verify_runs = NULL;
	g->st.verify_findings = NULL;
}

static void
run_verify(struct guide *g)
{
	char *helper = win_verify_helper();

	forget_verify(g);
	if (helper == NULL) {
		printf("%s\n", _("cudawiz-verify.exe cannot be named (this "
		    "program's path is too long); set CUDAWIZ_HELPER"));
		return;
	}
	printf("%s\n", _("Running the live checks..."));
	fflush(stdout);
	win_verify_run(&g->r.facts, helper, true, g->opts->timeout_ms, &g->wv);
	free(helper);
	g->verify_text = win_verify_text(&g->wv);
	g->st.verified = true;
	g->st.verify_runs = g->verify_text;
	g->st.verify_findings = &g->wv.findings;
}

static bool
rescan(struct guide *g)
{
	forget_verify(g);
	win_run_close(&g->r);
	printf("%s\n", _("Looking at the machine again..."));
	if (win_run_open_or_say(&g->r, g->opts->matrix_file, true) != 0)
		return false;
	win_run_diagnose(&g->r);
	return true;
}

static void
show(const struct wg_in *in, enum wg_page p)
{
	char *h = wg_heading(p), *t = wg_page_text(p, in);

	printf("\n%s\n\n%s\n", h, t);
	free(t);
	free(h);
}

static void
set_state(struct guide *g)
{
	g->st.script = g->script;
	g->st.script_error = g->script_error;
	g->st.script_shell = g->script_shell;
}

int
cmd_wizard(const struct cli_opts *opts, bool ascii, bool mouse)
{
	struct guide g = { .opts = opts };
	enum wg_page page = WG_SUMMARY;
	char line[LINE_MAX_LEN];
	bool piped = !is_console(STD_INPUT_HANDLE), ok = true;
	int bad = 0;

	/* Neither means anything to lines of text. */
	(void)ascii;
	(void)mouse;
	if (win_run_open_or_say(&g.r, opts->matrix_file, true) != 0)
		return EXIT_USAGE;
	win_run_diagnose(&g.r);
	for (bool redraw = true;;) {
		struct wg_in in = { &g.r.facts, &g.r.findings, &g.st,
		    console_width() };
		enum wg_cmd cmd;
		size_t arg;
		char *prompt, *t;

		set_state(&g);
		if (redraw)
			show(&in, page);
		redraw = true;
		prompt = wg_prompt(page, &in);
		ok = guide_read_line(prompt, line, sizeof line);
		free(prompt);
		if (!ok)
			break;
		cmd = wg_parse(line, page, wg_finding_count(&in), &arg);
		if (cmd != WG_CMD_UNKNOWN)
			bad = 0;
		switch (cmd) {
		case WG_CMD_NEXT:
			if (page + 1 == WG_PAGE_COUNT)
				goto quit;
			page++;
			break;
		case WG_CMD_BACK:
			if (page > 0)
				page--;
			break;
		case WG_CMD_JUMP:
			page = (enum wg_page)arg;
			break;
		case WG_CMD_RESCAN:
			if (!rescan(&g)) {
				free(g.script);
				free(g.script_error);
				return EXIT_USAGE;
			}
			break;
		case WG_CMD_QUIT:
			goto quit;
		case WG_CMD_HELP:
			t = wg_help();
			printf("\n%s", t);
			free(t);
			redraw = false;
			break;
		case WG_CMD_DETAIL:
			t = wg_detail(&in, arg);
			printf("\n%s\n", t != NULL ? t : "");
			free(t);
			redraw = false;
			break;
		case WG_CMD_VERIFY:
			run_verify(&g);
			break;
		case WG_CMD_WRITE:
			guide_write_script(&g.r, &g.script, &g.script_error,
			    &g.script_shell);
			break;
		case WG_CMD_UNKNOWN:
			printf(_("'%s' is not a reply here; type ? for the "
			    "replies.\n"), line);
			redraw = false;
			if (piped && ++bad >= BAD_MAX) {
				printf("%s\n", _("Too many replies in a row not "
				    "understood; quitting."));
				goto quit;
			}
			break;
		}
	}
quit:
	fflush(stdout);
	forget_verify(&g);
	win_run_close(&g.r);
	free(g.script);
	free(g.script_error);
	return EXIT_OK;
}
