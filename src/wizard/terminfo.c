/* The built-in terminal descriptions; see terminfo.h.
 *
 * Static ncurses (the portable build) has no compiled-in fallback
 * entries, and a minimal container or Debian's base system may have no
 * terminfo database at all. ncurses reads an entry only from files, so
 * the wanted one is written to a private directory for $TERMINFO; term.c
 * removes it as soon as newterm() has read it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fdio.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wizard/terminfo.h"

/* Generated (terminfo-data.c, by data/bin2c.sh from tic's output). */
#define ENTRY(v)	extern const unsigned char v[]; extern const size_t v##_len;
ENTRY(ti_xterm)
ENTRY(ti_xterm_256color)
ENTRY(ti_screen)
ENTRY(ti_tmux)
ENTRY(ti_linux)
ENTRY(ti_vt100)
#undef ENTRY

static const struct {
	const char		*name;
	const unsigned char	*data;
	const size_t		*len;
} entries[] = {
	{ "xterm", ti_xterm, &ti_xterm_len },
	{ "xterm-256color", ti_xterm_256color, &ti_xterm_256color_len },
	{ "screen", ti_screen, &ti_screen_len },
	{ "tmux", ti_tmux, &ti_tmux_len },
	{ "linux", ti_linux, &ti_linux_len },
	{ "vt100", ti_vt100, &ti_vt100_len },
};
#define NENTRIES	(sizeof entries / sizeof entries[0])

static bool
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool
has_suffix(const char *s, const char *x)
{
	size_t n = strlen(s), m = strlen(x);

	return n >= m && strcmp(s + n - m, x) == 0;
}

const char *
terminfo_builtin_pick(const char *term)
{
	for (size_t i = 0; i < NENTRIES; i++)
		if (strcmp(term, entries[i].name) == 0)
			return entries[i].name;
	/* Colours first: a *-256color terminal is nearly always an
	 * xterm-alike, and 8 colours would make the wizard's pairs clash. */
	if (has_suffix(term, "-256color"))
		return "xterm-256color";
	if (has_prefix(term, "xterm-"))
		return "xterm";
	if (has_prefix(term, "screen.") || has_prefix(term, "tmux.") ||
	    has_prefix(term, "screen-") || has_prefix(term, "tmux-"))
		return "screen";
	return "vt100";
}

char *
terminfo_builtin_write(const char *name)
{
	size_t i = 0;
	char *dir, *sub, *file;
	int fd, err = 0;

	while (i < NENTRIES && strcmp(name, entries[i].name) != 0)
		i++;
	if (i == NENTRIES) {
		errno = ENOENT;
		return NULL;
	}
	dir = xasprintf("%s/cudawiz-terminfo-XXXXXX", tmpdir_base());
	if (mkdtemp(dir) == NULL) {
		err = errno;
		free(dir);
		errno = err;
		return NULL;
	}
	sub = xasprintf("%s/%c", dir, name[0]);
	file = xasprintf("%s/%s", sub, name);
	if (mkdir(sub, 0700) != 0)
		err = errno;
	else if ((fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0)
		err = errno;
	else {
		if (write_full(fd, entries[i].data, *entries[i].len) != 0)
			err = errno;
		if (close(fd) != 0 && err == 0)
			err = errno;
	}
	free(sub);
	free(file);
	if (err != 0) {
		terminfo_builtin_remove(dir, name);
		errno = err;
		return NULL;
	}
	return dir;
}

void
terminfo_builtin_remove(char *dir, const char *name)
{
	char *sub, *file;

	if (dir == NULL)
		return;
	sub = xasprintf("%s/%c", dir, name[0]);
	file = xasprintf("%s/%s", sub, name);
	(void)unlink(file);
	(void)rmdir(sub);
	(void)rmdir(dir);
	free(file);
	free(sub);
	free(dir);
}
