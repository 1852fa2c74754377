/* The URL rules of fetch.h, one copy for both back ends (fetch.c with
 * libcurl, fetch_win.c with WinHTTP): which URLs may be fetched, which
 * redirects followed, which validators kept. Each back end splits a URL
 * with its own parser (fetch_url_split), so the host checked is the host
 * it will connect to; what is allowed is decided here alone. */
#ifndef CUDAWIZ_FETCHURL_H
#define CUDAWIZ_FETCHURL_H

#include <stdbool.h>
#include <stddef.h>

/* Longer URLs are not something a manifest or a user would give. */
#define FETCH_URL_MAX 2048
/* An ETag or Last-Modified longer than this is not kept (it goes back out
 * as a request header). */
#define FETCH_VALIDATOR_MAX 256

/* The back end's: url's scheme (lower case) and host, owned (free()).
 * Returns 0, with *host NULL for a scheme that has none, or -1 when url
 * cannot be parsed. */
int	fetch_url_split(const char *url, char **scheme, char **host);

/* url as it may appear in a one-line message: no control characters. */
char	*fetch_printable(const char *url);

/* 1 https, 0 http to loopback, -1 refused with *err set; *loopback says
 * whether the host is this machine. */
int	fetch_url_kind(const char *url, bool *loopback, char **err);

/* Whether the redirect from where (as shown) to next may be followed, given
 * that the hop it answers was https (https) and that the fetch started on
 * loopback (from_loopback). Returns the kind of next (1 https, 0 http), or
 * -1 with *err one line; *loopback as fetch_url_kind's. */
int	fetch_redirect_kind(const char *where, const char *next, bool https,
	    bool from_loopback, bool *loopback, char **err);

/* A header value worth keeping (value, n bytes, trimmed here): printable
 * ASCII, at most FETCH_VALIDATOR_MAX, since it is sent back as a request
 * header. Owned, or NULL. */
char	*fetch_validator(const char *value, size_t n);

struct fetch_result;
struct strbuf;

/* The last response made into res: a 304 to a conditional request is
 * not_modified, a 200 takes the body; the validators and the final URL
 * are taken from the caller (its pointers set to NULL). Any other status
 * is -1 with *err one line naming cur; nothing is taken then. */
int	fetch_answer(long status, bool conditional, struct strbuf *body,
	    char **etag, char **last_modified, char **cur,
	    struct fetch_result *res, char **err);

#endif
