/* The user's home directory, for the files cudawiz writes under it (the
 * rc files of env --install-rc; the matrix cache reads the same rule). */
#ifndef CUDAWIZ_HOMEDIR_H
#define CUDAWIZ_HOMEDIR_H

/* $HOME when it is an absolute path; NULL when it is unset, empty or
 * relative: a relative HOME would put the files under whatever the
 * current directory is, so callers refuse instead of guessing. */
const char	*home_dir(void);

#endif
