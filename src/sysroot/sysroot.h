/* The sysroot layer: every file the probes touch goes through here.
 *
 * A sysroot is either the host ("/") or a directory standing in for it
 * (--root DIR, CUDAWIZ_ROOT). Paths given to these functions are always
 * paths as seen inside the root. Under a directory root, symlinks are
 * resolved inside it: an absolute target starts again at the root, and ".."
 * never climbs above it, the way chroot(2) would see the tree. Relative
 * paths are taken from the root's "/" (on the host, from the working
 * directory). Each component is held by a file descriptor from the one
 * before it, so a tree changed while it is read (a directory swapped for
 * a link) cannot lead outside the root either.
 *
 * Functions return 0 or an errno value, plus the two codes below; use
 * sysroot_strerror() to turn one into words. They never print. */
#ifndef CUDAWIZ_SYSROOT_H
#define CUDAWIZ_SYSROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "util/strv.h"

/* The path exists but is not a regular file (a FIFO, a device, a directory). */
#define SYSROOT_ENOTREG	(-1)
/* The file is larger than the caller's limit. */
#define SYSROOT_ETOOBIG	(-2)
/* The name was replaced between the check and the open. */
#define SYSROOT_ECHANGED	(-3)

struct sysroot;

/* dir NULL, "" or "/" gives the host. On failure returns NULL and sets
 * *err to a message the caller frees. */
struct sysroot	*sysroot_new(const char *dir, char **err);
#ifdef _WIN32
/* The Windows back end's system drive (GetSystemDirectoryW's), upper
 * case; 'C' when it cannot be told. */
char		 sysroot_system_drive(void);
#endif
void		 sysroot_free(struct sysroot *sr);

bool		 sysroot_is_host(const struct sysroot *sr);
/* "/" for the host, else the root directory as given (absolute). */
const char	*sysroot_dir(const struct sysroot *sr);

/* Canonical path inside the root, every symlink followed; all components
 * must exist. */
int	sysroot_realpath(const struct sysroot *sr, const char *path, char **out);
int	sysroot_stat(const struct sysroot *sr, const char *path, struct stat *st);
int	sysroot_lstat(const struct sysroot *sr, const char *path, struct stat *st);
/* The raw link target, as stored. */
int	sysroot_readlink(const struct sysroot *sr, const char *path, char **target);
/* Reads a whole regular file of at most cap bytes; *data is terminated
 * with a NUL not counted in *len. FIFOs and devices are refused without
 * being opened. */
int	sysroot_read_file(const struct sysroot *sr, const char *path, size_t cap,
	    char **data, size_t *len);
/* The last cap bytes of a regular file (all of it when smaller), from
 * its first whole line when the start was cut; terminated like
 * sysroot_read_file's. For logs, whose newest lines are at the end. */
int	sysroot_read_tail(const struct sysroot *sr, const char *path, size_t cap,
	    char **data, size_t *len);
/* The first cap bytes of a regular file (all of it when smaller),
 * terminated like sysroot_read_file's: for one-line files (hostname,
 * machine-id) whose rest, if any, is not worth refusing the file for. */
int	sysroot_read_head(const struct sysroot *sr, const char *path, size_t cap,
	    char **data, size_t *len);
/* Opens a regular file read-only; the caller closes *fd. */
int	sysroot_open_file(const struct sysroot *sr, const char *path, int *fd);
/* The names in a directory, sorted, without "." and "..". After
 * sysroot_keep_listings(), each directory is read once and the same
 * answer given for the rest of the run: for commands that only read. */
void	sysroot_keep_listings(struct sysroot *sr);
int	sysroot_list_dir(const struct sysroot *sr, const char *path,
	    struct strv *names);

bool	sysroot_is_dir(const struct sysroot *sr, const char *path);
bool	sysroot_exists(const struct sysroot *sr, const char *path);

const char *sysroot_strerror(int err);

/* For the unit tests only: when set, called under a directory root each
 * time a walk has checked a component, with the path walked so far
 * ("/usr/lib"), so that a test can change the tree between the check of
 * a name and its use. */
extern void (*sysroot_walk_hook)(const char *walked);

#endif
