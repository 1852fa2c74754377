/* The guided mode's replies: the prompt naming them, reading one, the
 * help, and a finding's detail (what 'd N' prints). A plain number is
 * always a page, on every page; a finding is 'd N', so the two never
 * mean different things on different pages. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "winguide/guide.h"

/* A whole number 1..max, digits only; 0 otherwise. */
static size_t
number(const char *s, size_t max)
{
	size_t v = 0;

	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (!isdigit((unsigned char)*s))
			return 0;
		v = v * 10 + (size_t)(*s - '0');
		if (v > max)
			return 0;
	}
	return v;
}

enum wg_cmd
wg_parse(const char *line, enum wg_page p, size_t nfindings, size_t *arg)
{
	char buf[64];
	size_t len, i = 0, v;

	while (*line == ' ' || *line == '\t')
		line++;
	len = strlen(line);
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
	    line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	if (len >= sizeof buf)
		return WG_CMD_UNKNOWN;
	for (i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)line[i]);
	buf[len] = '\0';
	*arg = 0;
	if (len == 0 || strcmp(buf, "n") == 0)
		return WG_CMD_NEXT;
	if (strcmp(buf, "p") == 0)
		return WG_CMD_BACK;
	if (strcmp(buf, "r") == 0)
		return WG_CMD_RESCAN;
	if (strcmp(buf, "q") == 0)
		return WG_CMD_QUIT;
	if (strcmp(buf, "?") == 0 || strcmp(buf, "h") == 0)
		return WG_CMD_HELP;
	if (strcmp(buf, "y") == 0 && p == WG_VERIFY)
		return WG_CMD_VERIFY;
	if (strcmp(buf, "w") == 0 && p == WG_FIX)
		return WG_CMD_WRITE;
	if ((v = number(buf, WG_PAGE_COUNT)) > 0) {
		*arg = v - 1;
		return WG_CMD_JUMP;
	}
	if (buf[0] == 'd') {
		const char *s = buf + 1;

		while (*s == ' ')
			s++;
		if ((v = number(s, nfindings)) > 0) {
			*arg = v;
			return WG_CMD_DETAIL;
		}
	}
	return WG_CMD_UNKNOWN;
}

static void
part(struct strbuf *sb, const char *text)
{
	strbuf_printf(sb, "%s%s", sb->len > 0 ? "  " : "", text);
}

char *
wg_prompt(enum wg_page p, const struct wg_in *in)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = wg_finding_count(in);
	char *t;

	if (p == WG_VERIFY && !in->st->verified)
		part(&sb, _("y run the checks"));
	if (p == WG_FIX && in->st->script == NULL)
		part(&sb, _("w write the script"));
	if (n > 0 && (p == WG_SUMMARY || p == WG_DIAGNOSIS ||
	    p == WG_VERIFY || p == WG_FIX)) {
		t = xasprintf(_("d 1-%zu detail"), n);
		part(&sb, t);
		free(t);
	}
	/* The page's own replies on a line of their own: with the others
	 * they would not fit 80 columns. */
	if (sb.len > 0)
		strbuf_putc(&sb, '\n');
	/* TRANSLATORS: the replies the guided mode takes; the letters
	 * are typed as they are and stay untranslated. */
	t = xasprintf(_("Enter/n next  p back  1-%d page  r rescan  q quit  "
	    "? help"), WG_PAGE_COUNT);
	strbuf_puts(&sb, t);
	free(t);
	strbuf_puts(&sb, ": ");
	return strbuf_take(&sb);
}

char *
wg_help(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_printf(&sb, _("Replies (then Enter):\n"
	    "  Enter or n   the next page\n"
	    "  p            the previous page\n"
	    "  1 to %d      that page\n"
	    "  d N          finding N's detail: why, the evidence and the fix\n"
	    "  y            on Live verification: run the live checks\n"
	    "  w            on Fix: write the activation script\n"
	    "  r            look at the machine again and diagnose anew\n"
	    "  q            quit\n"
	    "  ?            this help\n"), WG_PAGE_COUNT);
	return strbuf_take(&sb);
}

static void
lines(struct strbuf *sb, const struct wg_in *in, const char *title,
    const struct strv *sv, bool wrap)
{
	if (sv->n == 0)
		return;
	strbuf_printf(sb, "\n%s\n", title);
	for (size_t i = 0; i < sv->n; i++) {
		if (wrap)
			wg_wrap(sb, in->width, 2, 4, sv->v[i]);
		else
			strbuf_printf(sb, "  %s\n", sv->v[i]);
	}
}

char *
wg_detail(const struct wg_in *in, size_t n)
{
	const struct finding *f = wg_finding(in, n);
	struct strbuf sb = STRBUF_INIT;
	char *t;

	if (f == NULL)
		return NULL;
	t = xasprintf("%zu. %s  %s (%s)", n, words_severity(f->severity),
	    _(finding_title(f->code)), finding_code_name(f->code));
	wg_wrap(&sb, in->width, 0, 4, t);
	free(t);
	if (f->subject != NULL)
		wg_wrap(&sb, in->width, 4, 4, f->subject);
	if (f->detail != NULL && f->detail[0] != '\0') {
		strbuf_putc(&sb, '\n');
		wg_wrap(&sb, in->width, 2, 2, f->detail);
	}
	lines(&sb, in, _("Evidence"), &f->evidence, true);
	/* Commands paste as they are: never wrapped. */
	lines(&sb, in, _("Fix"), &f->fix, false);
	return strbuf_take(&sb);
}
