/* The cached matrix: $XDG_CACHE_HOME/cudawiz/matrix.json and, beside it,
 * matrix.json.etag with the validators (ETag, Last-Modified) of each URL it
 * was built from and when the network was last asked.
 *
 * Both files are only ever replaced whole (a temporary file in the same
 * directory, fsync, rename), and the matrix only after the new document
 * validates, so a failed update leaves the old cache byte-identical. No
 * network here: this module is part of libcudawiz-core.a. */
#ifndef CUDAWIZ_CACHE_H
#define CUDAWIZ_CACHE_H

#include <stddef.h>
#include <time.h>

struct matrix;

/* Local matrix files (cache, --matrix FILE) larger than this are refused;
 * the fetch cap is smaller, merges add a little. */
#define CACHE_READ_MAX	((size_t)16 * 1000 * 1000)

struct cache_validator {
	char	*url;
	char	*etag;		/* NULL when the server sent none */
	char	*last_modified;	/* likewise */
};

struct cache_meta {
	time_t			 checked;	/* last update that reached the network; 0 never */
	struct cache_validator	*v;
	size_t			 n, cap;
};

/* $XDG_CACHE_HOME/cudawiz when XDG_CACHE_HOME is absolute, else
 * $HOME/.cache/cudawiz; NULL with *err when neither is usable
 * (cachedir.c). The Windows program's is %LOCALAPPDATA%\cudawiz
 * (cachedir_win.c). */
char	*cache_dir(char **err);
/* cache_dir() + "/matrix.json" ("\matrix.json" on Windows). */
char	*cache_matrix_path(char **err);
/* The sidecar of a matrix file: path + ".etag". */
char	*cache_meta_path(const char *matrix_path);

/* Reads a whole file of at most max bytes, NUL-terminated. Returns 0, 1
 * when the file does not exist, or -1 with *err naming the path. */
int	cache_read_file(const char *path, size_t max, char **data, size_t *len,
	    char **err);

/* Loads and validates the cached matrix at path. Returns 0 with *m set
 * (source "cache"), 0 with *m NULL when there is no cache, or -1 with
 * *err when it cannot be read or does not validate. */
int	cache_load(const char *path, struct matrix **m, char **err);

/* The sidecar of the matrix at path; a missing sidecar is an empty one and
 * lines that do not parse are dropped (they only cost a full download). */
int	cache_meta_load(const char *path, struct cache_meta *meta, char **err);
const struct cache_validator *cache_meta_find(const struct cache_meta *meta,
	    const char *url);
/* Records url's validators, replacing earlier ones; NULL values are none.
 * Values that could not go back out as a header are dropped. */
void	cache_meta_set(struct cache_meta *meta, const char *url,
	    const char *etag, const char *last_modified);
void	cache_meta_free(struct cache_meta *meta);

/* Validates doc with matrix_parse(), then replaces the matrix at path and
 * its sidecar. Returns 0; -1 with *err when nothing was replaced (the old
 * cache is byte-identical); 1 with *err when the matrix was replaced but
 * its sidecar could not be (the old sidecar is removed, so stale
 * validators are never sent). */
int	cache_store(const char *path, const char *doc, size_t len,
	    const struct cache_meta *meta, char **err);
/* Replaces only the sidecar (an update that found nothing new). */
int	cache_store_meta(const char *path, const struct cache_meta *meta,
	    char **err);

#endif
