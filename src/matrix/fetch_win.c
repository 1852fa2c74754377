/* Fetching with WinHTTP, the Windows program's back end of fetch.h.
 *
 * winhttp.dll is part of Windows, so nothing is loaded at run time and
 * fetch_global_init has nothing to do. TLS is Windows' own (SChannel):
 * certificates are checked against Windows' certificate store, the one
 * Edge and the system use, not a CA file.
 *
 * WinHTTP would follow redirects itself, https to http included; they are
 * turned off twice (the session's redirect policy NEVER and the request's
 * WINHTTP_DISABLE_REDIRECTS) and followed here hop by hop, each checked by
 * fetchurl.h's rules, as fetch.c does with libcurl.
 *
 * The proxy is the system's (WINHTTP_ACCESS_TYPE_AUTOMATIC_PROXY: the
 * settings of Windows and WPAD, Windows 8.1 and newer; before that the
 * netsh winhttp one), except for a loopback hop, which never goes through
 * one: plain http is allowed there only because it never leaves the
 * machine. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <winhttp.h>

#include "i18n.h"
#include "matrix/fetch.h"
#include "matrix/fetchurl.h"
#include "util/strbuf.h"
#include "util/wstr.h"
#include "util/xalloc.h"

#define CHUNK 16384

int
fetch_global_init(char **err)
{
	*err = NULL;
	return 0;
}

void
fetch_global_cleanup(void)
{
}

/* n wide characters at w as UTF-8, owned; NULL when they cannot be. */
static char *
wn_utf8(const wchar_t *w, size_t n)
{
	wchar_t *t = xmalloc((n + 1) * sizeof *t);
	char *s;

	memcpy(t, w, n * sizeof *t);
	t[n] = L'\0';
	s = wstr_utf8(t);
	free(t);
	return s;
}

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

/* The scheme of a URL WinHTTP does not parse (it knows http and https
 * alone), so that the refusal names it as fetch.c's does. */
static int
scheme_only(const char *url, char **scheme)
{
	size_t n = 0;

	if (!((url[0] >= 'a' && url[0] <= 'z') || (url[0] >= 'A' && url[0] <= 'Z')))
		return -1;
	while (url[n] != '\0' && url[n] != ':') {
		char c = url[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
			return -1;
		n++;
	}
	if (url[n] != ':')
		return -1;
	*scheme = xstrndup(url, n);
	lower(*scheme);
	return 0;
}

/* fetchurl.h's: WinHttpCrackUrl, the parser WinHttpConnect's host comes
 * from. */
int
fetch_url_split(const char *url, char **scheme, char **host)
{
	URL_COMPONENTS uc;
	wchar_t *w = wstr_wide(url);
	int rc = -1;

	*scheme = *host = NULL;
	if (w == NULL)
		return -1;
	memset(&uc, 0, sizeof uc);
	uc.dwStructSize = sizeof uc;
	uc.dwSchemeLength = (DWORD)-1;
	uc.dwHostNameLength = (DWORD)-1;
	if (!WinHttpCrackUrl(w, 0, 0, &uc)) {
		free(w);
		/* Only an http(s) URL is worth a "not valid". */
		if (scheme_only(url, scheme) != 0)
			return -1;
		if (strcmp(*scheme, "http") == 0 || strcmp(*scheme, "https") == 0) {
			FREE(scheme);
			return -1;
		}
		return 0;
	}
	*scheme = wn_utf8(uc.lpszScheme, uc.dwSchemeLength);
	if (*scheme != NULL && uc.dwHostNameLength > 0)
		*host = wn_utf8(uc.lpszHostName, uc.dwHostNameLength);
	if (*scheme != NULL && (uc.dwHostNameLength == 0 || *host != NULL)) {
		lower(*scheme);
		/* An IPv6 literal is checked as fetch.c sees it, in brackets. */
		if (*host != NULL && strchr(*host, ':') != NULL && **host != '[') {
			char *b = xasprintf("[%s]", *host);

			free(*host);
			*host = b;
		}
		rc = 0;
	} else {
		FREE(scheme);
		FREE(host);
	}
	free(w);
	return rc;
}

/* A redirect's Location against the URL it answered (RFC 3986 5.2, the
 * forms servers send: absolute, //host, /path, ?query, relative path). */
static char *
resolve(const char *base, const char *loc)
{
	const char *auth = strstr(base, "://"), *path, *end, *slash;
	char *scheme;

	if (scheme_only(loc, &scheme) == 0) {
		free(scheme);
		return xstrdup(loc);
	}
	if (auth == NULL)
		return xstrdup(loc);
	if (loc[0] == '/' && loc[1] == '/')
		return xasprintf("%.*s:%s", (int)(auth - base), base, loc);
	path = auth + 3 + strcspn(auth + 3, "/?#");
	if (loc[0] == '/')
		return xasprintf("%.*s%s", (int)(path - base), base, loc);
	end = path + strcspn(path, "?#");
	if (loc[0] == '?')
		return xasprintf("%.*s%s", (int)(end - base), base, loc);
	slash = NULL;
	for (const char *p = path; p < end; p++)
		if (*p == '/')
			slash = p;
	if (slash == NULL)
		return xasprintf("%.*s/%s", (int)(path - base), base, loc);
	return xasprintf("%.*s%s", (int)(slash + 1 - base), base, loc);
}

static bool
tls_problem(DWORD code)
{
	switch (code) {
	case ERROR_WINHTTP_SECURE_FAILURE:
	case ERROR_WINHTTP_SECURE_CERT_DATE_INVALID:
	case ERROR_WINHTTP_SECURE_CERT_CN_INVALID:
	case ERROR_WINHTTP_SECURE_INVALID_CA:
	case ERROR_WINHTTP_SECURE_CERT_REV_FAILED:
	case ERROR_WINHTTP_SECURE_CHANNEL_ERROR:
	case ERROR_WINHTTP_SECURE_INVALID_CERT:
	case ERROR_WINHTTP_SECURE_CERT_REVOKED:
	case ERROR_WINHTTP_SECURE_CERT_WRONG_USAGE:
		return true;
	default:
		return false;
	}
}

/* WinHTTP's message for code: its own table is in winhttp.dll, not in
 * the system's. */
static char *
winhttp_message(DWORD code)
{
	wchar_t *w = NULL;
	char *s = NULL;
	size_t n;

	if (FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER |
	    FORMAT_MESSAGE_FROM_HMODULE | FORMAT_MESSAGE_FROM_SYSTEM |
	    FORMAT_MESSAGE_IGNORE_INSERTS, GetModuleHandleW(L"winhttp.dll"),
	    code, 0, (wchar_t *)&w, 0, NULL) != 0 && w != NULL)
		s = wstr_utf8(w);
	if (w != NULL)
		LocalFree(w);
	if (s == NULL)
		return xasprintf(_("WinHTTP error %lu"), (unsigned long)code);
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
	    s[n - 1] == ' ' || s[n - 1] == '.'))
		s[--n] = '\0';
	return s;
}

/* What went wrong in words a user can act on: the common failures by
 * name, the rest as WinHTTP says them. */
static char *
failure_words(DWORD code)
{
	char *msg;

	switch (code) {
	case ERROR_WINHTTP_TIMEOUT:
	case WSAETIMEDOUT:	/* Wine's, from its sockets */
		return xstrdup(_("timed out"));
	case ERROR_WINHTTP_CANNOT_CONNECT:
		return xstrdup(_("cannot connect (nothing listens there, or "
		    "a firewall refuses it)"));
	case ERROR_WINHTTP_CONNECTION_ERROR:
		return xstrdup(_("the connection was reset or closed"));
	case ERROR_WINHTTP_NAME_NOT_RESOLVED:
		return xstrdup(_("the host name does not resolve"));
	default:
		break;
	}
	msg = winhttp_message(code);
	if (tls_problem(code)) {
		char *tls = xasprintf(_("TLS failed (%s): the server's "
		    "certificate is not trusted by Windows' certificate store, "
		    "has expired or names another host, or no TLS 1.2 could be "
		    "agreed; a proxy that inspects TLS needs its root "
		    "certificate in that store"), msg);

		free(msg);
		return tls;
	}
	return msg;
}

struct xfer {
	const struct fetch_opts	*o;
	const char		*url;
	ULONGLONG		 deadline;
	struct strbuf		 body;
	bool			 too_big;
	bool			 announced_too_big;
	bool			 cancelled;
	bool			 timed_out;
	DWORD			 code;		/* GetLastError() of what failed */
	long			 status;
	char			*etag;
	char			*last_modified;
	char			*location;
};

static DWORD
left_ms(const struct xfer *x)
{
	ULONGLONG now = GetTickCount64();

	return now >= x->deadline ? 0 : (DWORD)(x->deadline - now);
}

/* A response header as UTF-8, owned; NULL when absent. */
static char *
query_header(HINTERNET req, DWORD what)
{
	DWORD size = 0;
	wchar_t *w;
	char *s;

	if (WinHttpQueryHeaders(req, what, WINHTTP_HEADER_NAME_BY_INDEX,
	    WINHTTP_NO_OUTPUT_BUFFER, &size, WINHTTP_NO_HEADER_INDEX) ||
	    GetLastError() != ERROR_INSUFFICIENT_BUFFER || size == 0)
		return NULL;
	w = xmalloc(size + sizeof *w);
	if (!WinHttpQueryHeaders(req, what, WINHTTP_HEADER_NAME_BY_INDEX, w,
	    &size, WINHTTP_NO_HEADER_INDEX)) {
		free(w);
		return NULL;
	}
	w[size / sizeof *w] = L'\0';
	s = wstr_utf8(w);
	free(w);
	return s;
}

static char *
query_validator(HINTERNET req, DWORD what)
{
	char *raw = query_header(req, what), *v;

	if (raw == NULL)
		return NULL;
	v = fetch_validator(raw, strlen(raw));
	free(raw);
	return v;
}

/* The body, within the cap and the time left; false with x's flags or
 * x->code set. */
static bool
read_body(HINTERNET req, struct xfer *x)
{
	char *raw = query_header(req, WINHTTP_QUERY_CONTENT_LENGTH);
	unsigned long long total = 0;
	char buf[CHUNK];
	DWORD got;

	if (raw != NULL) {
		char *end;

		total = strtoull(raw, &end, 10);
		if (end == raw || *end != '\0')
			total = 0;
		free(raw);
	}
	if (total > x->o->max_bytes) {
		x->announced_too_big = true;
		return false;
	}
	for (;;) {
		if (left_ms(x) == 0) {
			x->timed_out = true;
			return false;
		}
		if (!WinHttpReadData(req, buf, sizeof buf, &got)) {
			x->code = GetLastError();
			return false;
		}
		if (got == 0)
			return true;
		if (got > x->o->max_bytes || x->body.len > x->o->max_bytes - got) {
			x->too_big = true;
			return false;
		}
		strbuf_add(&x->body, buf, got);
		if (x->o->progress != NULL && x->o->progress(x->o->progress_data,
		    x->url, x->body.len, total) != 0) {
			x->cancelled = true;
			return false;
		}
	}
}

/* Sets up req for one hop: no redirects of its own, the time left, no
 * proxy for loopback. */
static bool
set_request(HINTERNET req, const struct xfer *x, bool loopback)
{
	/* 0 would be no timeout at all. */
	DWORD left = left_ms(x) > 0 ? left_ms(x) : 1;
	DWORD connect = (DWORD)x->o->connect_timeout_ms < left ?
	    (DWORD)x->o->connect_timeout_ms : left;
	DWORD nofollow = WINHTTP_DISABLE_REDIRECTS;
	WINHTTP_PROXY_INFO none = { WINHTTP_ACCESS_TYPE_NO_PROXY, NULL, NULL };

	/* The receive timeout covers each read; the headers have one of
	 * their own (90 s by default), set to the time left as well. */
	if (!WinHttpSetTimeouts(req, (int)connect, (int)connect, (int)left,
	    (int)left) ||
	    !WinHttpSetOption(req, WINHTTP_OPTION_RECEIVE_RESPONSE_TIMEOUT,
	    &left, sizeof left) ||
	    !WinHttpSetOption(req, WINHTTP_OPTION_DISABLE_FEATURE, &nofollow,
	    sizeof nofollow))
		return false;
	if (loopback && !WinHttpSetOption(req, WINHTTP_OPTION_PROXY, &none,
	    sizeof none))
		return false;
	return true;
}

/* One GET of url; true when a response came (any status), with x filled. */
static bool
hop(HINTERNET session, const char *url, bool https, bool loopback,
    const wchar_t *conditions, struct xfer *x)
{
	URL_COMPONENTS uc;
	wchar_t *w = wstr_wide(url), *host = NULL;
	HINTERNET conn = NULL, req = NULL;
	DWORD status = 0, size = sizeof status;
	bool ok = false;

	x->code = ERROR_WINHTTP_INVALID_URL;
	if (w == NULL)
		return false;
	memset(&uc, 0, sizeof uc);
	uc.dwStructSize = sizeof uc;
	uc.dwHostNameLength = (DWORD)-1;
	uc.dwUrlPathLength = (DWORD)-1;
	uc.dwExtraInfoLength = (DWORD)-1;
	if (!WinHttpCrackUrl(w, 0, 0, &uc) || uc.dwHostNameLength == 0)
		goto out;
	host = xmalloc((uc.dwHostNameLength + 1) * sizeof *host);
	memcpy(host, uc.lpszHostName, uc.dwHostNameLength * sizeof *host);
	host[uc.dwHostNameLength] = L'\0';
	/* The path runs on into the query (lpszExtraInfo): both are sent. */
	if ((conn = WinHttpConnect(session, host, uc.nPort, 0)) == NULL ||
	    (req = WinHttpOpenRequest(conn, L"GET",
	    uc.dwUrlPathLength + uc.dwExtraInfoLength > 0 ? uc.lpszUrlPath : L"/",
	    NULL, WINHTTP_NO_REFERER, WINHTTP_DEFAULT_ACCEPT_TYPES,
	    https ? WINHTTP_FLAG_SECURE : 0)) == NULL ||
	    !set_request(req, x, loopback) ||
	    !WinHttpSendRequest(req, conditions != NULL ? conditions :
	    WINHTTP_NO_ADDITIONAL_HEADERS, conditions != NULL ? (DWORD)-1L : 0,
	    WINHTTP_NO_REQUEST_DATA, 0, 0, 0) ||
	    !WinHttpReceiveResponse(req, NULL) ||
	    !WinHttpQueryHeaders(req, WINHTTP_QUERY_STATUS_CODE |
	    WINHTTP_QUERY_FLAG_NUMBER, WINHTTP_HEADER_NAME_BY_INDEX, &status,
	    &size, WINHTTP_NO_HEADER_INDEX)) {
		x->code = GetLastError();
		goto out;
	}
	x->code = 0;
	x->status = (long)status;
	x->etag = query_validator(req, WINHTTP_QUERY_ETAG);
	x->last_modified = query_validator(req, WINHTTP_QUERY_LAST_MODIFIED);
	if (status >= 300 && status <= 399 && status != 304) {
		char *loc = query_header(req, WINHTTP_QUERY_LOCATION);

		if (loc != NULL) {
			x->location = resolve(url, loc);
			free(loc);
		}
		ok = true;
	} else if (status == 200) {
		ok = read_body(req, x);
	} else {
		ok = true;
	}
out:
	if (req != NULL)
		WinHttpCloseHandle(req);
	if (conn != NULL)
		WinHttpCloseHandle(conn);
	free(host);
	free(w);
	return ok;
}

/* The one line for a failed hop. */
static char *
hop_error(const struct xfer *x, const char *where)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_printf(&sb, "%s: ", where);
	if (x->too_big) {
		strbuf_printf(&sb, _("the answer is larger than %zu bytes; "
		    "refusing it"), x->o->max_bytes);
	} else if (x->announced_too_big) {
		strbuf_printf(&sb, _("the server announced more than %zu "
		    "bytes; refusing it"), x->o->max_bytes);
	} else if (x->cancelled) {
		strbuf_puts(&sb, _("cancelled"));
	} else if (x->timed_out) {
		strbuf_printf(&sb, _("timed out after %ld ms"), x->o->timeout_ms);
	} else {
		char *words = failure_words(x->code);

		strbuf_puts(&sb, words);
		free(words);
	}
	if (x->status > 0)
		strbuf_printf(&sb, _(" (HTTP status %ld)"), x->status);
	return strbuf_take(&sb);
}

/* The request's conditions as WinHttpSendRequest takes them; NULL for
 * none. */
static wchar_t *
conditions(const struct fetch_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	wchar_t *w;

	if (o->if_none_match != NULL && *o->if_none_match != '\0')
		strbuf_printf(&sb, "If-None-Match: %s\r\n", o->if_none_match);
	if (o->if_modified_since != NULL && *o->if_modified_since != '\0')
		strbuf_printf(&sb, "If-Modified-Since: %s\r\n",
		    o->if_modified_since);
	if (sb.len == 0) {
		strbuf_free(&sb);
		return NULL;
	}
	w = wstr_wide(sb.buf);
	strbuf_free(&sb);
	return w;
}

static HINTERNET
open_session(void)
{
	DWORD never = WINHTTP_OPTION_REDIRECT_POLICY_NEVER;
	DWORD tls = WINHTTP_FLAG_SECURE_PROTOCOL_TLS1_2 |
	    WINHTTP_FLAG_SECURE_PROTOCOL_TLS1_3;
	HINTERNET s = WinHttpOpen(L"" PACKAGE "/" VERSION,
	    WINHTTP_ACCESS_TYPE_AUTOMATIC_PROXY, WINHTTP_NO_PROXY_NAME,
	    WINHTTP_NO_PROXY_BYPASS, 0);

	/* Before Windows 8.1 there is no automatic proxy: the default is
	 * the proxy netsh winhttp set (or none). */
	if (s == NULL && GetLastError() == ERROR_INVALID_PARAMETER)
		s = WinHttpOpen(L"" PACKAGE "/" VERSION,
		    WINHTTP_ACCESS_TYPE_DEFAULT_PROXY, WINHTTP_NO_PROXY_NAME,
		    WINHTTP_NO_PROXY_BYPASS, 0);
	if (s == NULL)
		return NULL;
	if (!WinHttpSetOption(s, WINHTTP_OPTION_REDIRECT_POLICY, &never,
	    sizeof never)) {
		WinHttpCloseHandle(s);
		return NULL;
	}
	/* TLS 1.3 is known from Windows 11 on; older ones refuse the flag
	 * and get TLS 1.2 alone, fetch.c's minimum. */
	if (!WinHttpSetOption(s, WINHTTP_OPTION_SECURE_PROTOCOLS, &tls,
	    sizeof tls)) {
		tls = WINHTTP_FLAG_SECURE_PROTOCOL_TLS1_2;
		if (!WinHttpSetOption(s, WINHTTP_OPTION_SECURE_PROTOCOLS, &tls,
		    sizeof tls)) {
			WinHttpCloseHandle(s);
			return NULL;
		}
	}
	return s;
}

static void
xfer_reset(struct xfer *x)
{
	strbuf_free(&x->body);
	FREE(&x->etag);
	FREE(&x->last_modified);
	FREE(&x->location);
	x->status = 0;
	x->code = 0;
}

int
fetch(const char *url, const struct fetch_opts *o, struct fetch_result *res,
    char **err)
{
	struct xfer x;
	HINTERNET session;
	wchar_t *conds;
	char *cur, *shown;
	bool https, loopback, from_loopback;
	int kind, hops = 0, rc = -1;

	memset(res, 0, sizeof *res);
	*err = NULL;
	kind = fetch_url_kind(url, &loopback, err);
	if (kind < 0)
		return -1;
	https = kind == 1;
	from_loopback = loopback;
	shown = fetch_printable(url);
	if ((session = open_session()) == NULL) {
		char *why = failure_words(GetLastError());

		*err = xasprintf(_("%s: cannot start WinHTTP: %s"), shown, why);
		free(why);
		free(shown);
		return -1;
	}
	conds = conditions(o);
	memset(&x, 0, sizeof x);
	x.o = o;
	x.deadline = GetTickCount64() + (ULONGLONG)o->timeout_ms;
	cur = xstrdup(url);
	x.url = cur;
	for (;;) {
		char *at = fetch_printable(cur);
		char *where = strcmp(cur, url) == 0 ? xstrdup(shown) :
		    xasprintf(_("%s (redirected from %s)"), at, shown);

		free(at);
		xfer_reset(&x);
		if (left_ms(&x) == 0) {
			*err = xasprintf(_("%s: timed out after %ld ms"), where,
			    o->timeout_ms);
			free(where);
			goto out;
		}
		if (!hop(session, cur, https, loopback, conds, &x)) {
			/* WinHTTP's own timeout is the time left, so it is
			 * the total's. */
			if ((x.code == ERROR_WINHTTP_TIMEOUT ||
			    x.code == WSAETIMEDOUT) && left_ms(&x) < 1000)
				x.timed_out = true;
			*err = hop_error(&x, where);
			free(where);
			goto out;
		}
		if (x.status < 300 || x.status > 399 || x.status == 304) {
			free(where);
			break;
		}
		if (x.location == NULL) {
			*err = xasprintf(_("%s: HTTP status %ld without a "
			    "Location to follow"), where, x.status);
			free(where);
			goto out;
		}
		if (++hops > FETCH_MAX_REDIRS) {
			*err = xasprintf(_("%s: more than %d redirects"), where,
			    FETCH_MAX_REDIRS);
			free(where);
			goto out;
		}
		kind = fetch_redirect_kind(where, x.location, https,
		    from_loopback, &loopback, err);
		free(where);
		if (kind < 0)
			goto out;
		https = kind == 1;
		free(cur);
		cur = x.location;
		x.location = NULL;
		x.url = cur;
	}
	if (fetch_answer(x.status, conds != NULL, &x.body, &x.etag,
	    &x.last_modified, &cur, res, err) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		res->status = x.status;
	xfer_reset(&x);
	free(cur);
	free(shown);
	free(conds);
	WinHttpCloseHandle(session);
	return rc;
}
