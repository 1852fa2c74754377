/* Path strings compared as text, without touching the filesystem.
 *
 * diagnose may not look at the disk, yet it must see that "/usr/local/cuda/"
 * and "/usr/local/cuda" (or "/usr//local/./cuda") name the same place. This
 * normal form only rewrites what can never change the meaning: repeated
 * slashes, "." components and trailing slashes. ".." is kept, since it
 * depends on the symlinks before it. */
#ifndef CUDAWIZ_PATHNORM_H
#define CUDAWIZ_PATHNORM_H

#include <stdbool.h>

/* A new string: "/a//b/./c/" gives "/a/b/c", "//" gives "/", "" stays "",
 * and a relative path stays relative ("./x/" gives "x", "." gives "."). */
char	*path_normalise(const char *path);

/* A new string: the directory part of path, as dirname(1) gives it for
 * the common cases ("/a/b" gives "/a", "/a" gives "/", "a" gives "."). */
char	*path_dirname(const char *path);

/* True when a and b name the same path once normalised (textually: no
 * symlink is followed); false when either is NULL. */
bool	path_same(const char *a, const char *b);

#endif
