/* Install commands across findings; see installs.h. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "wizard/installs.h"

/* The words of a simple shell command line as the shell reads them
 * ('…' quotes and \ escapes, as shquote writes them), each with where
 * its text starts and ends in the line. False when the line is more
 * than one plain command (an operator, a substitution, a "…" string):
 * those are never taken apart. *n counts the words made either way. */
struct word {
	char	*text;
	size_t	 start, end;
};

static bool
split(const char *line, struct word *w, size_t max, size_t *n)
{
	const char *p = line;

	*n = 0;
	for (;;) {
		struct strbuf sb = STRBUF_INIT;
		const char *s;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return true;
		if (*n == max)
			return false;
		s = p;
		while (*p != '\0' && *p != ' ' && *p != '\t') {
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (q == NULL)
					break;
				strbuf_printf(&sb, "%.*s", (int)(q - p - 1), p + 1);
				p = q + 1;
			} else if (*p == '\\' && p[1] != '\0') {
				strbuf_putc(&sb, p[1]);
				p += 2;
			} else if (strchr(";&|<>`$()\"#*?[]{}~", *p) != NULL &&
			    !(*p == '#' && p != s)) {
				break;
			} else {
				strbuf_putc(&sb, *p++);
			}
		}
		if (*p != '\0' && *p != ' ' && *p != '\t') {
			strbuf_free(&sb);
			return false;
		}
		w[*n] = (struct word){ strbuf_take(&sb), (size_t)(s - line),
		    (size_t)(p - line) };
		(*n)++;
	}
}

static void
words_free(struct word *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i].text);
}

static const char *
base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

static bool
one_of(const char *s, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

static const char *const installers[] = { "pip", "pip3", "conda", "mamba",
    "micromamba", "apt-get", "apt", "dnf", "yum", "zypper", NULL };
static const char *const condas[] = { "conda", "mamba", "micromamba", NULL };
/* Where a conda-like installer is told which environment to change. */
static const char *const env_opts[] = { "-p", "--prefix", "-n", "--name",
    NULL };

/* Is word t "install" after an installer run the plain ways: the
 * program itself, under sudo, or a Python's "-m pip"? */
static bool
install_at(const struct word *w, size_t t)
{
	if (t == 0 || strcmp(w[t].text, "install") != 0 ||
	    !one_of(base(w[t - 1].text), installers))
		return false;
	if (t == 1)
		return true;
	if (t == 2)
		return strcmp(w[0].text, "sudo") == 0;
	return t == 3 && strcmp(w[2].text, "pip") == 0 &&
	    strcmp(w[1].text, "-m") == 0 &&
	    strncmp(base(w[0].text), "python", 6) == 0;
}

char *
winstall_target(const char *line)
{
	struct word w[64];
	size_t n, t;
	char *key = NULL;

	if (!split(line, w, sizeof w / sizeof w[0], &n)) {
		words_free(w, n);
		return NULL;
	}
	for (t = 1; t < n && t <= 3 && !install_at(w, t); t++)
		;
	if (t < n && t <= 3) {
		struct strbuf sb = STRBUF_INIT;

		/* The program as written: the same words quoted the same
		 * way name the same program. */
		strbuf_printf(&sb, "%.*s", (int)w[t - 1].end, line);
		if (one_of(base(w[t - 1].text), condas))
			for (size_t i = t + 1; i + 1 < n; i++)
				if (one_of(w[i].text, env_opts)) {
					strbuf_printf(&sb, " %s %s", w[i].text,
					    w[i + 1].text);
					break;
				}
		key = strbuf_take(&sb);
	}
	words_free(w, n);
	return key;
}

char *
winstall_combined(const struct findings *fs, const char *target)
{
	struct strv lines = STRV_INIT;
	char *out = NULL;

	for (size_t i = 0; i < fs->n; i++) {
		const struct strv *fix = &fs->v[i].fix;

		for (size_t j = 0; j < fix->n; j++) {
			char *k;
			bool same;

			/* Most lines are not installs: no need to split them. */
			if (strstr(fix->v[j], "install") == NULL)
				continue;
			k = winstall_target(fix->v[j]);
			same = k != NULL && strcmp(k, target) == 0;

			free(k);
			if (!same)
				continue;
			if (!strv_contains(&lines, fix->v[j]))
				strv_push(&lines, fix->v[j]);
			break;
		}
	}
	if (lines.n >= 2) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < lines.n; i++)
			strbuf_printf(&sb, "%s%s", i > 0 ? " && " : "",
			    lines.v[i]);
		out = strbuf_take(&sb);
	}
	strv_free(&lines);
	return out;
}
