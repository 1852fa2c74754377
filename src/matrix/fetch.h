/* One small document over HTTPS with libcurl, safely.
 *
 * HTTPS only; plain http only to a loopback address (the tests' server).
 * Redirects are followed by hand, at most FETCH_MAX_REDIRS, and each hop is
 * checked by the same rule, so https can never lead to http and an http
 * start on loopback can never leave loopback. The body is capped, the
 * transfer timed out, and every failure is one line naming the URL.
 *
 * This module is the only one that links libcurl; it lives outside
 * libcudawiz-core.a (tests/unit/core-walls.sh). */
#ifndef CUDAWIZ_FETCH_H
#define CUDAWIZ_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FETCH_CONNECT_TIMEOUT_MS	5000L
#define FETCH_TIMEOUT_MS		30000L
#define FETCH_MAX_BYTES			((size_t)5 * 1000 * 1000)
#define FETCH_MAX_REDIRS		3

/* Called while a transfer runs, as data arrives and about once a second
 * when none does. now and total are body bytes; total is 0 until the
 * server says. Returning nonzero cancels the fetch. */
typedef int (*fetch_progress_fn)(void *data, const char *url, uint64_t now,
    uint64_t total);

struct fetch_opts {
	long			 connect_timeout_ms;
	long			 timeout_ms;	/* the whole fetch, redirects included */
	size_t			 max_bytes;
	const char		*if_none_match;	/* an ETag, or NULL */
	const char		*if_modified_since;	/* a Last-Modified, or NULL */
	fetch_progress_fn	 progress;
	void			*progress_data;
};

struct fetch_result {
	long	 status;	/* HTTP status of the last response */
	bool	 not_modified;	/* 304 to a conditional request */
	char	*body;		/* NUL-terminated; len does not count it */
	size_t	 len;
	char	*etag;		/* NULL when the server sent none */
	char	*last_modified;
	char	*url;		/* where the body came from, after redirects */
};

/* Sets the defaults above. */
void	fetch_opts_init(struct fetch_opts *o);

/* libcurl's global state: once before the first fetch, once at the end.
 * fetch_global_init returns 0, FETCH_NO_LIBCURL when libcurl could not be
 * dlopen()ed (something to install: *err says what), or -1 when it
 * loaded but would not start. */
#define FETCH_NO_LIBCURL	(-2)
int	fetch_global_init(char **err);
void	fetch_global_cleanup(void);

/* Whether url may be fetched at all: https, or http to a loopback host.
 * On refusal returns false with *err set. */
bool	fetch_url_allowed(const char *url, char **err);

/* GETs url. Returns 0 with *res filled for a 200, or for a 304 when a
 * condition was sent (res->not_modified, no body); otherwise -1 with *err
 * one line: the URL, then what went wrong (curl's message, the HTTP
 * status). */
int	fetch(const char *url, const struct fetch_opts *o,
	    struct fetch_result *res, char **err);
void	fetch_result_free(struct fetch_result *res);

#endif
