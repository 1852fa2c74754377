/* See fetchurl.h. */
#include "config.h"

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "matrix/fetch.h"
#include "matrix/fetchurl.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void
fetch_opts_init(struct fetch_opts *o)
{
	memset(o, 0, sizeof *o);
	o->connect_timeout_ms = FETCH_CONNECT_TIMEOUT_MS;
	o->timeout_ms = FETCH_TIMEOUT_MS;
	o->max_bytes = FETCH_MAX_BYTES;
}

void
fetch_result_free(struct fetch_result *res)
{
	FREE(&res->body);
	FREE(&res->etag);
	FREE(&res->last_modified);
	FREE(&res->url);
	res->len = 0;
}

char *
fetch_printable(const char *s)
{
	char *out = xstrndup(s, FETCH_URL_MAX);

	for (char *p = out; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out;
}

static bool
is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;
	char buf[INET6_ADDRSTRLEN + 2];
	size_t n;

	if (strcasecmp(host, "localhost") == 0)
		return true;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	n = strlen(host);
	if (n < 3 || n - 2 >= sizeof buf || host[0] != '[' || host[n - 1] != ']')
		return false;
	memcpy(buf, host + 1, n - 2);
	buf[n - 2] = '\0';
	return inet_pton(AF_INET6, buf, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
}

int
fetch_url_kind(const char *url, bool *loopback, char **err)
{
	char *scheme, *host, *shown = fetch_printable(url);
	int kind = -1;

	*loopback = false;
	if (strlen(url) > FETCH_URL_MAX) {
		*err = xasprintf(_("%.80s…: the URL is longer than %d characters"),
		    shown, FETCH_URL_MAX);
	} else if (fetch_url_split(url, &scheme, &host) != 0) {
		*err = xasprintf(_("%s: not a valid URL"), shown);
	} else {
		if (host == NULL && (strcmp(scheme, "https") == 0 ||
		    strcmp(scheme, "http") == 0))
			*err = xasprintf(_("%s: not a valid URL"), shown);
		else if (strcmp(scheme, "https") == 0)
			kind = 1;
		else if (strcmp(scheme, "http") == 0 && is_loopback(host))
			kind = 0;
		else if (strcmp(scheme, "http") == 0)
			*err = xasprintf(_("%s: refusing plain http to %s; only "
			    "https is fetched (http only from a loopback address)"),
			    shown, host);
		else
			*err = xasprintf(_("%s: refusing the %s scheme; only "
			    "https is fetched"), shown, scheme);
		*loopback = kind >= 0 && is_loopback(host);
		free(scheme);
		free(host);
	}
	free(shown);
	return kind;
}

bool
fetch_url_allowed(const char *url, char **err)
{
	bool loopback;

	*err = NULL;
	return fetch_url_kind(url, &loopback, err) >= 0;
}

int
fetch_redirect_kind(const char *where, const char *next, bool https,
    bool from_loopback, bool *loopback, char **err)
{
	char *why = NULL, *to;
	int kind = fetch_url_kind(next, loopback, &why);

	if (kind == 0 && https) {
		to = fetch_printable(next);
		*err = xasprintf(_("%s: refusing the redirect from https "
		    "to plain http (%s)"), where, to);
		free(to);
		return -1;
	}
	if (kind < 0) {
		*err = xasprintf(_("%s: redirect refused: %s"), where, why);
		free(why);
		return -1;
	}
	/* SECURITY.md: a loopback source can never lead elsewhere, whatever
	 * the scheme of the hop (an https hop to another host is otherwise
	 * fine). */
	if (from_loopback && !*loopback) {
		to = fetch_printable(next);
		*err = xasprintf(_("%s: refusing the redirect from a "
		    "loopback address to another host (%s): a source on "
		    "this machine stays on this machine"), where, to);
		free(to);
		return -1;
	}
	return kind;
}

char *
fetch_validator(const char *v, size_t n)
{
	while (n > 0 && (*v == ' ' || *v == '\t'))
		v++, n--;
	while (n > 0 && (v[n - 1] == '\r' || v[n - 1] == '\n' ||
	    v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (n == 0 || n > FETCH_VALIDATOR_MAX)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || (unsigned char)v[i] > 0x7e)
			return NULL;
	return xstrndup(v, n);
}

int
fetch_answer(long status, bool conditional, struct strbuf *body,
    char **etag, char **last_modified, char **cur, struct fetch_result *res,
    char **err)
{
	res->status = status;
	if (status == 304 && conditional) {
		res->not_modified = true;
	} else if (status != 200) {
		char *where = fetch_printable(*cur);

		if (status == 304)
			*err = xasprintf(_("%s: HTTP status 304 to a request "
			    "that had no condition"), where);
		else
			*err = xasprintf(_("%s: the server answered HTTP status "
			    "%ld"), where, status);
		free(where);
		return -1;
	} else {
		res->len = body->len;
		res->body = strbuf_take(body);
	}
	res->etag = *etag;
	res->last_modified = *last_modified;
	*etag = *last_modified = NULL;
	res->url = *cur;
	*cur = NULL;
	return 0;
}
