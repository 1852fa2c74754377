/* The refresh of the cached matrix: fetch every source, check it, merge
 * NVIDIA's manifests into a copy of the data, validate the result and only
 * then replace the cache. `cudawiz matrix update` and the wizard's
 * Compatibility page both run it; each presents the outcome its own way.
 *
 * An update is all or nothing: any failure (a cancel too) leaves the cache
 * byte-identical. It links with fetch.c (libcudawiz-fetch.a), never with
 * the core, which must stay free of the network. */
#ifndef CUDAWIZ_MATRIX_UPDATE_H
#define CUDAWIZ_MATRIX_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix/redistrib.h"
#include "util/strv.h"

struct matrix;

/* What a fetched body turned out to be. */
enum matrix_update_kind {
	MATRIX_UPDATE_KIND_NONE = 0,	/* 304: not fetched again */
	MATRIX_UPDATE_KIND_MATRIX,
	MATRIX_UPDATE_KIND_MANIFEST,
	MATRIX_UPDATE_KIND_LISTING,
};

struct matrix_update_source {
	char			*url;
	bool			 from_listing;	/* may not be a listing itself */
	long			 status;	/* 200, 304; 0 not fetched */
	enum matrix_update_kind	 kind;
	char			*etag;
	char			*last_modified;
	struct redistrib	 manifest;	/* KIND_MANIFEST */
	char			*found;		/* KIND_LISTING: the manifest it named */
	int			 applied;	/* redistrib_apply's answer */
};

enum matrix_update_result {
	MATRIX_UPDATE_UPDATED,		/* the cache was replaced */
	MATRIX_UPDATE_UP_TO_DATE,	/* nothing new; the check was recorded */
	MATRIX_UPDATE_FAILED,		/* err; the cache is unchanged */
	MATRIX_UPDATE_CANCELLED,	/* the progress callback said stop */
	MATRIX_UPDATE_REFUSED,		/* nothing tried (--offline, --root,
					 * no cache directory); err */
	MATRIX_UPDATE_BAD_BASE,		/* the matrix to build on (--matrix
					 * FILE) is unusable; err */
	MATRIX_UPDATE_NO_LIBCURL,	/* libcurl cannot be loaded: something
					 * to install, not a failed download;
					 * err names the packages */
};

/* Called before each source is fetched (now and total 0) and while it
 * downloads (fetch.h's progress: body bytes, total 0 until known). index
 * counts from 0; count grows when a listing names a manifest. Nonzero
 * cancels the update. */
typedef int (*matrix_update_progress_fn)(void *arg, const char *url,
    size_t index, size_t count, uint64_t now, uint64_t total);

struct matrix_update_opts {
	const char *const	*urls;		/* none: the defaults */
	size_t			 nurls;
	const char		*matrix_file;	/* --matrix FILE, the base; NULL */
	bool			 offline;
	const char		*root;		/* --root; NULL or "/": the host */
	long			 connect_timeout_ms;	/* 0: fetch's default */
	long			 timeout_ms;		/* 0: fetch's default */
	matrix_update_progress_fn progress;	/* NULL: none */
	void			*progress_arg;
};

/* The outcome, all owned; matrix_update_free releases it. */
struct matrix_update {
	enum matrix_update_result result;
	char			*path;		/* the cache file; NULL if refused early */
	struct {
		struct matrix_update_source *v;
		size_t		 n, cap;
	} src;
	struct strv		 notes;		/* one line each, for stderr */
	/* UPDATED (source "cache", its path set) and UP_TO_DATE: the data
	 * the update ended with. */
	struct matrix		*m;
	char			*err;		/* FAILED … BAD_BASE: one line */
};

/* Runs an update; u is filled in every case. Returns u->result. */
enum matrix_update_result matrix_update_run(const struct matrix_update_opts *o,
	    struct matrix_update *u);
void	matrix_update_free(struct matrix_update *u);

#endif
