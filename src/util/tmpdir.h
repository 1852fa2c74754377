/* Where a program makes its own short-lived files.
 *
 * $XDG_RUNTIME_DIR is the user's own; $TMPDIR and /tmp may be shared, so
 * what goes there is made with mkstemp/mkdtemp (0600/0700, O_EXCL). */
#ifndef CUDAWIZ_TMPDIR_H
#define CUDAWIZ_TMPDIR_H

/* $XDG_RUNTIME_DIR, else $TMPDIR, the first that is absolute and that
 * this user may write in; else "/tmp". Borrowed from the environment. */
const char	*tmpdir_base(void);

#endif
