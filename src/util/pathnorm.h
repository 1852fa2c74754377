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

/* True when path is dir or lies below it, compared as text once both are
 * normalised: "/a/b", "/a//b/" and "/a" are under "/a" and "/a/", "/ab"
 * is not. "/" (and "//") holds only itself: every caller asks whether a
 * file belongs to an install (a toolkit, an environment, a vendor
 * directory), and one rooted at / would claim every file on the system.
 * A relative path is under a relative dir the same way ("a/b" under "a")
 * and never under an absolute one, nor the reverse. False when either is
 * NULL or "". */
bool	path_under(const char *path, const char *dir);

/* A new string: dir and name with one '/' between them, none added when
 * dir already ends with '/': ("/a", "b") and ("/a/", "b") give "/a/b",
 * ("/", "b") and ("", "b") give "/b". name is taken as it is ("/a" and
 * "/b" give "/a//b"); no normalisation, so it is cheap in a loop. */
char	*path_join(const char *dir, const char *name);

/* The part of path after its last '/', inside path: "/a/b" gives "b",
 * "b" gives "b", and "/a/", "/", "//" and "" give "" (unlike basename(1),
 * a trailing slash is not skipped: callers name files, not directories). */
const char	*path_basename(const char *path);

#endif
