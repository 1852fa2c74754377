/* Shared inside src/winprobe/ only: the probe's context and the file
 * helpers its parts use. */
#ifndef CUDAWIZ_WINPROBE_INT_H
#define CUDAWIZ_WINPROBE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"
#include "winprobe/winfacts.h"
#include "winprobe/winprobe.h"

struct wp {
	const struct sysroot		*sr;
	char *const			*envp;
	const struct winprobe_opts	*opts;
	struct win_facts		*f;
	/* PATH's entries as tree paths resolved without case; NULL for an
	 * entry that names nothing in the tree. */
	struct {
		char	**v;
		size_t	  n, cap;
	} path;
};

/* NAME's value, the name compared without case as Windows does. */
const char	*wp_env(const struct wp *w, const char *name);
/* dir/name (dir "" is the root), resolved without case; NULL: missing. */
char	*wp_find(const struct wp *w, const char *dir, const char *name);
/* The names in dir; false (names empty) when it cannot be listed. */
bool	wp_list(const struct wp *w, const char *dir, struct strv *names);
/* name is PREFIX*SUFFIX without case, with something in the middle. */
bool	wp_glob(const char *name, const char *prefix, const char *suffix);
/* The first WINFACTS_TEXT_CAP bytes of path; NULL with *why set (the
 * caller frees it) when unreadable. */
char	*wp_text(const struct wp *w, const char *path, char **why);
/* Fills d from the PE image at path (present: d->path set). */
void	wp_dll_read(const struct wp *w, const char *path, struct win_dll *d);
/* The quoted value after KEY in text: key '=' or ':' or "] =" then a
 * quoted string ('…' or "…"); NULL when none. For build_info.py,
 * version.py, version.json. */
char	*wp_quoted_after(const char *text, const char *key);
void	win_dll_free(struct win_dll *d);

void	wp_pythons(struct wp *w);

#endif
