/* Fetching with libcurl; see fetch.h.
 *
 * libcurl follows redirects by itself, but it can only limit the protocols
 * of a redirect, not the host; an http start on loopback must stay there.
 * So redirects are followed here, hop by hop, each hop checked by
 * fetch_url_allowed() and by "once https, always https". The protocol
 * options are still set per hop, so libcurl would refuse anything else
 * even if this loop were wrong.
 *
 * libcurl reads the proxy variables itself (https_proxy, all_proxy,
 * no_proxy; only lower-case http_proxy), but not the CA variables that the
 * curl tool honours, so those are read here (conventions.md §9). */
#include "config.h"

/* The calls go through the table below, not through the type-checking
 * macros of curl.h. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "i18n.h"
#include "matrix/fetch.h"
#include "matrix/fetchurl.h"
#include "util/monoclock.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A transfer slower than this many bytes a second for LOW_SPEED_S is a
 * dead link, whatever the total timeout. */
#define LOW_SPEED_BPS 10L
#define LOW_SPEED_S 20L

struct xfer {
	const struct fetch_opts	*o;
	const char		*url;
	struct strbuf		 body;
	bool			 too_big;
	bool			 cancelled;
	char			*etag;
	char			*last_modified;
};

/* libcurl is loaded the first time a download is about to happen, not
 * when cudawiz starts: linking it pulls in some thirty libraries (TLS,
 * Kerberos, LDAP, …) whose loading would cost every command, doctor and
 * why included, a few milliseconds for a library only `matrix update`
 * uses. */
static struct {
	void		*handle;
	CURLcode	(*global_init)(long);
	void		(*global_cleanup)(void);
	CURL		*(*easy_init)(void);
	CURLcode	(*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode	(*easy_perform)(CURL *);
	void		(*easy_cleanup)(CURL *);
	CURLcode	(*easy_getinfo)(CURL *, CURLINFO, ...);
	const char	*(*easy_strerror)(CURLcode);
	void		(*free)(void *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void		(*slist_free_all)(struct curl_slist *);
	CURLU		*(*url)(void);
	void		(*url_cleanup)(CURLU *);
	CURLUcode	(*url_get)(CURLU *, CURLUPart, char **, unsigned int);
	CURLUcode	(*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
} cw_curl;

/* curl.h wraps these two in argument-count macros. */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init	cw_curl.global_init
#define curl_global_cleanup	cw_curl.global_cleanup
#define curl_easy_init		cw_curl.easy_init
#define curl_easy_setopt	cw_curl.easy_setopt
#define curl_easy_perform	cw_curl.easy_perform
#define curl_easy_cleanup	cw_curl.easy_cleanup
#define curl_easy_getinfo	cw_curl.easy_getinfo
#define curl_easy_strerror	cw_curl.easy_strerror
#define curl_free		cw_curl.free
#define curl_slist_append	cw_curl.slist_append
#define curl_slist_free_all	cw_curl.slist_free_all
#define curl_url		cw_curl.url
#define curl_url_cleanup	cw_curl.url_cleanup
#define curl_url_get		cw_curl.url_get
#define curl_url_set		cw_curl.url_set

/* The sonames of libcurl 7 and 8: Debian's OpenSSL and GnuTLS builds. */
static const char *const curl_sonames[] = {
	"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4",
};

static void *
curl_sym(const char *name, char **missing)
{
	void *p = dlsym(cw_curl.handle, name);

	if (p == NULL && *missing == NULL)
		*missing = xstrdup(name);
	return p;
}

static int
curl_load(char **err)
{
	char *missing = NULL, *first_error = NULL;

	if (cw_curl.handle != NULL)
		return 0;
	for (size_t i = 0; i < sizeof curl_sonames / sizeof curl_sonames[0]; i++) {
		cw_curl.handle = dlopen(curl_sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (cw_curl.handle != NULL)
			break;
		if (first_error == NULL)
			first_error = xstrdup(dlerror());
	}
	if (cw_curl.handle == NULL) {
		/* The portable binary meets systems of every family:
		 * the hint names the package on each. */
		*err = xasprintf(_("cannot load libcurl (%s); install it "
		    "(Debian/Ubuntu: apt install libcurl4; RHEL/Fedora: "
		    "dnf install libcurl) and run again"),
		    first_error != NULL ? first_error : "");
		free(first_error);
		return -1;
	}
	free(first_error);
	/* POSIX lets a data pointer from dlsym() become a function pointer;
	 * memcpy keeps -Wpedantic quiet about it. */
#define LOAD(field, name) do {						\
		void *p_ = curl_sym(name, &missing);				\
		memcpy(&cw_curl.field, &p_, sizeof p_);			\
	} while (0)
	LOAD(global_init, "curl_global_init");
	LOAD(global_cleanup, "curl_global_cleanup");
	LOAD(easy_init, "curl_easy_init");
	LOAD(easy_setopt, "curl_easy_setopt");
	LOAD(easy_perform, "curl_easy_perform");
	LOAD(easy_cleanup, "curl_easy_cleanup");
	LOAD(easy_getinfo, "curl_easy_getinfo");
	LOAD(easy_strerror, "curl_easy_strerror");
	LOAD(free, "curl_free");
	LOAD(slist_append, "curl_slist_append");
	LOAD(slist_free_all, "curl_slist_free_all");
	LOAD(url, "curl_url");
	LOAD(url_cleanup, "curl_url_cleanup");
	LOAD(url_get, "curl_url_get");
	LOAD(url_set, "curl_url_set");
#undef LOAD
	if (missing != NULL) {
		*err = xasprintf(_("the libcurl found is too old (no %s): "
		    "cudawiz needs 7.68 or newer"), missing);
		free(missing);
		dlclose(cw_curl.handle);
		memset(&cw_curl, 0, sizeof cw_curl);
		return -1;
	}
	return 0;
}

int
fetch_global_init(char **err)
{
	CURLcode c;

	if (curl_load(err) != 0)
		return FETCH_NO_LIBCURL;
	c = curl_global_init(CURL_GLOBAL_DEFAULT);

	if (c != CURLE_OK) {
		*err = xasprintf(_("cannot initialise libcurl: %s"),
		    curl_easy_strerror(c));
		return -1;
	}
	return 0;
}

void
fetch_global_cleanup(void)
{
	if (cw_curl.handle != NULL)
		curl_global_cleanup();
}

/* fetchurl.h's: libcurl's own parser, so the host checked is the host
 * libcurl will connect to. */
int
fetch_url_split(const char *url, char **scheme, char **host)
{
	CURLU *u = curl_url();
	char *cs = NULL, *ch = NULL;
	int rc = -1;

	*scheme = *host = NULL;
	if (u == NULL)
		return -1;
	/* file: and some other schemes have no host: *host stays NULL. */
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &cs, 0) == CURLUE_OK) {
		if (curl_url_get(u, CURLUPART_HOST, &ch, 0) != CURLUE_OK)
			ch = NULL;
		/* Owned by libcurl's allocator: copied into ours. */
		*scheme = xstrdup(cs);
		*host = ch != NULL ? xstrdup(ch) : NULL;
		rc = 0;
	}
	curl_free(cs);
	curl_free(ch);
	curl_url_cleanup(u);
	return rc;
}

static size_t
on_body(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct xfer *x = data;
	size_t n = size * nmemb;

	/* MAXFILESIZE stops a transfer early only when the size is announced
	 * (or, since libcurl 8.4, while it runs); this catches the rest,
	 * decompressed bytes included. */
	if (n > x->o->max_bytes || x->body.len > x->o->max_bytes - n) {
		x->too_big = true;
		return 0;
	}
	strbuf_add(&x->body, ptr, n);
	return n;
}

/* A header value worth keeping: printable ASCII without CR or LF, since it
 * is sent back as a request header. */
static char *
header_value(const char *line, size_t n, const char *name)
{
	size_t k = strlen(name);

	if (n <= k || strncasecmp(line, name, k) != 0 || line[k] != ':')
		return NULL;
	return fetch_validator(line + k + 1, n - k - 1);
}

static size_t
on_header(char *line, size_t size, size_t nitems, void *data)
{
	struct xfer *x = data;
	size_t n = size * nitems;
	char *v;

	/* A new status line (after a 100 Continue or a proxy's CONNECT
	 * answer) starts a new set of headers. */
	if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) {
		FREE(&x->etag);
		FREE(&x->last_modified);
	} else if ((v = header_value(line, n, "ETag")) != NULL) {
		free(x->etag);
		x->etag = v;
	} else if ((v = header_value(line, n, "Last-Modified")) != NULL) {
		free(x->last_modified);
		x->last_modified = v;
	}
	return n;
}

static int
on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	struct xfer *x = data;

	(void)ultotal;
	(void)ulnow;
	if (x->o->progress(x->o->progress_data, x->url,
	    dlnow > 0 ? (uint64_t)dlnow : 0,
	    dltotal > 0 ? (uint64_t)dltotal : 0) != 0) {
		x->cancelled = true;
		return 1;
	}
	return 0;
}

/* The CA file or directory the curl tool would use (its
 * src/tool_operate.c): CURL_CA_BUNDLE, else SSL_CERT_FILE and
 * SSL_CERT_DIR. NULL means libcurl's built-in default. */
static void
ca_from_env(const char **file, const char **dir)
{
	const char *v;

	*file = *dir = NULL;
	v = getenv("CURL_CA_BUNDLE");
	if (v != NULL && *v != '\0') {
		*file = v;
		return;
	}
	v = getenv("SSL_CERT_FILE");
	if (v != NULL && *v != '\0')
		*file = v;
	v = getenv("SSL_CERT_DIR");
	if (v != NULL && *v != '\0')
		*dir = v;
}

/* The options that stay the same for every hop. */
static CURLcode
set_common(CURL *h, struct xfer *x, struct curl_slist *hdrs, char *errbuf)
{
	const struct fetch_opts *o = x->o;
	const char *cafile, *cadir;
	CURLcode c;

	ca_from_env(&cafile, &cadir);
	if ((c = curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L)) != CURLE_OK ||
	    /* Followed by hand (see the top); the limit stays in libcurl
	     * too, like the protocols. */
	    (c = curl_easy_setopt(h, CURLOPT_MAXREDIRS,
	    (long)FETCH_MAX_REDIRS)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
	    o->connect_timeout_ms)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT,
	    LOW_SPEED_BPS)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
	    LOW_SPEED_S)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)o->max_bytes)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_SSLVERSION,
	    (long)CURL_SSLVERSION_TLSv1_2)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_USERAGENT,
	    PACKAGE "/" VERSION)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_WRITEDATA, x)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_HEADERDATA, x)) != CURLE_OK)
		return c;
	/* Compressed answers are welcome where libcurl can decode them; the
	 * cap in on_body counts what they decode to. */
	c = curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	if (c != CURLE_OK && c != CURLE_NOT_BUILT_IN)
		return c;
	if (hdrs != NULL &&
	    (c = curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs)) != CURLE_OK)
		return c;
	if (cafile != NULL &&
	    (c = curl_easy_setopt(h, CURLOPT_CAINFO, cafile)) != CURLE_OK)
		return c;
	if (cadir != NULL &&
	    (c = curl_easy_setopt(h, CURLOPT_CAPATH, cadir)) != CURLE_OK)
		return c;
	if (o->progress != NULL &&
	    ((c = curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION,
	    on_progress)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_XFERINFODATA, x)) != CURLE_OK))
		return c;
	return CURLE_OK;
}

/* The options of one hop: its URL, what it may speak, the time left. */
static CURLcode
set_hop(CURL *h, const char *url, bool https, bool loopback, long left_ms)
{
	const char *protos = https ? "https" : "http,https";
	CURLcode c;

	if ((c = curl_easy_setopt(h, CURLOPT_URL, url)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, left_ms)) != CURLE_OK)
		return c;
#if LIBCURL_VERSION_NUM >= 0x075500	/* 7.85.0: the _STR options */
	if ((c = curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, protos)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR,
	    "https")) != CURLE_OK)
		return c;
#else
	(void)protos;
	if ((c = curl_easy_setopt(h, CURLOPT_PROTOCOLS, https ? CURLPROTO_HTTPS :
	    CURLPROTO_HTTP | CURLPROTO_HTTPS)) != CURLE_OK ||
	    (c = curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS,
	    CURLPROTO_HTTPS)) != CURLE_OK)
		return c;
#endif
	/* A loopback URL is a server on this machine: a proxy from the
	 * environment must not carry it off (and plain http is allowed only
	 * because it never leaves the machine). Elsewhere libcurl's own
	 * handling of the proxy variables applies (NULL). */
	return curl_easy_setopt(h, CURLOPT_PROXY, loopback ? "" : NULL);
}

static bool
tls_problem(CURLcode c)
{
	return c == CURLE_PEER_FAILED_VERIFICATION || c == CURLE_SSL_CACERT_BADFILE ||
	    c == CURLE_SSL_CONNECT_ERROR || c == CURLE_SSL_CERTPROBLEM ||
	    c == CURLE_SSL_ISSUER_ERROR;
}

/* The one line for a failed perform. */
static char *
perform_error(CURLcode c, const struct xfer *x, const char *errbuf,
    long status, const char *where)
{
	const char *cafile, *cadir;
	struct strbuf sb = STRBUF_INIT;

	strbuf_printf(&sb, "%s: ", where);
	if (x->too_big)
		strbuf_printf(&sb, _("the answer is larger than %zu bytes; "
		    "refusing it"), x->o->max_bytes);
	else if (x->cancelled)
		strbuf_puts(&sb, _("cancelled"));
	else if (c == CURLE_FILESIZE_EXCEEDED)
		strbuf_printf(&sb, _("the server announced more than %zu "
		    "bytes; refusing it"), x->o->max_bytes);
	else
		strbuf_puts(&sb, errbuf[0] != '\0' ? errbuf : curl_easy_strerror(c));
	if (status > 0)
		strbuf_printf(&sb, _(" (HTTP status %ld)"), status);
	if (tls_problem(c)) {
		ca_from_env(&cafile, &cadir);
		if (cafile != NULL || cadir != NULL)
			strbuf_printf(&sb, _(" (CA certificates from %s)"),
			    cafile != NULL ? cafile : cadir);
		else
			strbuf_puts(&sb, _(" (CA certificates: libcurl's "
			    "default; CURL_CA_BUNDLE or SSL_CERT_FILE "
			    "name others)"));
	}
	return strbuf_take(&sb);
}

static struct curl_slist *
conditions(const struct fetch_opts *o, bool *sent, char **err,
    const char *shown)
{
	struct curl_slist *hdrs = NULL, *next;
	const char *v[2] = { o->if_none_match, o->if_modified_since };
	const char *name[2] = { "If-None-Match", "If-Modified-Since" };

	*sent = false;
	for (int i = 0; i < 2; i++) {
		char *line;

		if (v[i] == NULL || *v[i] == '\0')
			continue;
		line = xasprintf("%s: %s", name[i], v[i]);
		next = curl_slist_append(hdrs, line);
		free(line);
		if (next == NULL) {
			curl_slist_free_all(hdrs);
			*err = xasprintf(_("%s: out of memory in libcurl"), shown);
			return NULL;
		}
		hdrs = next;
		*sent = true;
	}
	return hdrs;
}

int
fetch(const char *url, const struct fetch_opts *o, struct fetch_result *res,
    char **err)
{
	char errbuf[CURL_ERROR_SIZE];
	struct xfer x;
	struct curl_slist *hdrs;
	CURL *h;
	char *cur, *shown;
	long deadline, status = 0;
	bool conditional, https, loopback, from_loopback;
	int kind, hops = 0, rc = -1;
	CURLcode c;

	memset(res, 0, sizeof *res);
	*err = NULL;
	kind = fetch_url_kind(url, &loopback, err);
	if (kind < 0)
		return -1;
	https = kind == 1;
	from_loopback = loopback;
	shown = fetch_printable(url);
	hdrs = conditions(o, &conditional, err, shown);
	if (*err != NULL) {
		free(shown);
		return -1;
	}
	h = curl_easy_init();
	if (h == NULL) {
		*err = xasprintf(_("%s: cannot start a libcurl handle"), shown);
		curl_slist_free_all(hdrs);
		free(shown);
		return -1;
	}
	memset(&x, 0, sizeof x);
	x.o = o;
	errbuf[0] = '\0';
	cur = xstrdup(url);
	x.url = cur;
	c = set_common(h, &x, hdrs, errbuf);
	if (c != CURLE_OK) {
		*err = xasprintf(_("%s: cannot set up libcurl: %s"), shown,
		    curl_easy_strerror(c));
		goto out;
	}
	deadline = (long)mono_ms() + o->timeout_ms;
	for (;;) {
		char *hop = fetch_printable(cur);
		char *where = strcmp(cur, url) == 0 ? xstrdup(shown) :
		    xasprintf(_("%s (redirected from %s)"), hop, shown);
		const char *next;
		long left = deadline - (long)mono_ms();

		free(hop);
		if (left <= 0) {
			*err = xasprintf(_("%s: timed out after %ld ms"), where,
			    o->timeout_ms);
			free(where);
			goto out;
		}
		strbuf_free(&x.body);
		FREE(&x.etag);
		FREE(&x.last_modified);
		errbuf[0] = '\0';
		status = 0;
		c = set_hop(h, cur, https, loopback, left);
		if (c != CURLE_OK) {
			*err = xasprintf(_("%s: cannot set up libcurl: %s"),
			    where, curl_easy_strerror(c));
			free(where);
			goto out;
		}
		c = curl_easy_perform(h);
		if (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK)
			status = 0;
		if (c != CURLE_OK) {
			*err = perform_error(c, &x, errbuf, status, where);
			free(where);
			goto out;
		}
		if (status < 300 || status > 399 || status == 304) {
			free(where);
			break;
		}
		next = NULL;
		if (curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &next) != CURLE_OK ||
		    next == NULL) {
			*err = xasprintf(_("%s: HTTP status %ld without a "
			    "Location to follow"), where, status);
			free(where);
			goto out;
		}
		if (++hops > FETCH_MAX_REDIRS) {
			*err = xasprintf(_("%s: more than %d redirects"), where,
			    FETCH_MAX_REDIRS);
			free(where);
			goto out;
		}
		kind = fetch_redirect_kind(where, next, https, from_loopback,
		    &loopback, err);
		if (kind < 0) {
			free(where);
			goto out;
		}
		free(where);
		https = kind == 1;
		free(cur);
		cur = xstrdup(next);
		x.url = cur;
	}
	if (fetch_answer(status, conditional, &x.body, &x.etag,
	    &x.last_modified, &cur, res, err) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		res->status = status;
	strbuf_free(&x.body);
	free(x.etag);
	free(x.last_modified);
	free(cur);
	free(shown);
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	return rc;
}
