/* fetch.c against the loopback server (tests/lib/httpd.py), started by
 * tests/cli/matrix-fetch-api.sh, which passes its URL and the name and
 * size of a file it serves. Without arguments only the URL rules run. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/tap.h"
#include "matrix/fetch.h"
#include "util/xalloc.h"

struct allowed {
	const char	*url;
	bool		 ok;
};

static const struct allowed urls[] = {
	{ "https://developer.download.nvidia.com/compute/cuda/redist/", true },
	{ "HTTPS://example.com/x.json", true },
	{ "http://127.0.0.1:8080/matrix.json", true },
	{ "http://127.200.3.4/", true },
	{ "http://localhost:1/", true },
	{ "http://LocalHost/", true },
	{ "http://[::1]:8080/", true },
	{ "http://example.com/matrix.json", false },
	{ "http://10.0.0.1/", false },
	{ "http://128.0.0.1/", false },
	{ "http://127.0.0.1.example.com/", false },
	{ "http://localhost.example.com/", false },
	{ "http://[::2]/", false },
	{ "http://[::ffff:10.0.0.1]/", false },
	{ "ftp://127.0.0.1/x", false },
	{ "file:///etc/passwd", false },
	{ "gopher://localhost/", false },
	{ "not a url", false },
	{ "", false },
};

static void
test_allowed(void)
{
	for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
		char *err = NULL;
		bool got = fetch_url_allowed(urls[i].url, &err);

		ok(got == urls[i].ok && (got || err != NULL), "%s '%s'",
		    urls[i].ok ? "allowed" : "refused", urls[i].url);
		if (err != NULL && strchr(err, '\n') != NULL)
			ok(0, "  the error is one line: %s", err);
		free(err);
	}
}

struct seen {
	int		calls;
	uint64_t	last;
	int		cancel_after;	/* calls; 0 never */
};

static int
on_progress(void *data, const char *url, uint64_t now, uint64_t total)
{
	struct seen *s = data;

	(void)url;
	(void)total;
	s->calls++;
	s->last = now;
	return s->cancel_after > 0 && s->calls >= s->cancel_after;
}

static bool
contains(const char *s, const char *part)
{
	return s != NULL && strstr(s, part) != NULL;
}

static void
test_server(const char *base, const char *name, size_t size)
{
	struct fetch_opts o;
	struct fetch_result r;
	struct seen seen = { 0 };
	char *url, *err, *etag = NULL, *lastmod = NULL;
	time_t t0;

	fetch_opts_init(&o);
	o.progress = on_progress;
	o.progress_data = &seen;
	url = xasprintf("%s/%s", base, name);
	ok(fetch(url, &o, &r, &err) == 0, "GET %s", url);
	is_int(r.status, 200, "status 200");
	is_int(r.len, size, "the whole body");
	ok(r.etag != NULL && r.last_modified != NULL, "ETag and Last-Modified kept");
	ok(seen.calls > 0, "the progress callback was called");
	is_int(seen.last, size, "it saw every byte");
	etag = r.etag ? xstrdup(r.etag) : NULL;
	lastmod = r.last_modified ? xstrdup(r.last_modified) : NULL;
	fetch_result_free(&r);

	fetch_opts_init(&o);
	o.if_none_match = etag;
	ok(fetch(url, &o, &r, &err) == 0 && r.not_modified && r.body == NULL,
	    "If-None-Match with its ETag: 304, no body");
	is_int(r.status, 304, "status 304");
	is_str(r.etag, etag, "the 304 repeats the ETag");
	fetch_result_free(&r);
	o.if_none_match = "\"something-else\"";
	ok(fetch(url, &o, &r, &err) == 0 && !r.not_modified && r.len == size,
	    "another ETag: the whole body");
	fetch_result_free(&r);
	o.if_none_match = NULL;
	o.if_modified_since = lastmod;
	ok(fetch(url, &o, &r, &err) == 0 && r.not_modified,
	    "If-Modified-Since with its Last-Modified: 304");
	fetch_result_free(&r);

	fetch_opts_init(&o);
	seen.calls = 0;
	seen.cancel_after = 1;
	o.progress = on_progress;
	o.progress_data = &seen;
	ok(fetch(url, &o, &r, &err) == -1 && contains(err, "cancelled"),
	    "a progress callback that returns nonzero cancels");
	ok(contains(err, url), "the error names the URL");
	free(err);

	fetch_opts_init(&o);
	o.max_bytes = 10;
	ok(fetch(url, &o, &r, &err) == -1 && contains(err, "10 bytes"),
	    "a body over the cap is refused");
	free(err);
	free(url);

	url = xasprintf("%s/big-stream", base);
	fetch_opts_init(&o);
	ok(fetch(url, &o, &r, &err) == -1 && contains(err, "larger than"),
	    "50 MB without Content-Length stops at the cap");
	free(err);
	free(url);

	url = xasprintf("%s/hang", base);
	fetch_opts_init(&o);
	o.timeout_ms = 700;
	t0 = time(NULL);
	ok(fetch(url, &o, &r, &err) == -1 && err != NULL,
	    "a server that never answers times out");
	ok(time(NULL) - t0 < 5, "within the timeout");
	if (err != NULL)
		printf("#   %s\n", err);
	free(err);
	free(url);

	url = xasprintf("%s/chain/3/%s", base, name);
	fetch_opts_init(&o);
	ok(fetch(url, &o, &r, &err) == 0 && r.len == size, "3 redirects are followed");
	ok(contains(r.url, "/chain/0/"), "the result names where it came from");
	fetch_result_free(&r);
	free(url);
	url = xasprintf("%s/chain/4/%s", base, name);
	ok(fetch(url, &o, &r, &err) == -1 && contains(err, "more than 3 redirects"),
	    "a fourth is not");
	free(err);
	free(url);

	url = xasprintf("%s/to?url=http://example.com/matrix.json", base);
	ok(fetch(url, &o, &r, &err) == -1 && contains(err, "redirect refused") &&
	    contains(err, "example.com"),
	    "a redirect from loopback http to another host is refused");
	free(err);
	free(url);

	url = xasprintf("%s/404", base);
	ok(fetch(url, &o, &r, &err) == -1 && contains(err, "HTTP status 404"),
	    "404 is an error with its status");
	free(err);
	free(url);

	free(etag);
	free(lastmod);
}

int
main(int argc, char **argv)
{
	char *err;

	if (fetch_global_init(&err) != 0) {
		ok(0, "libcurl starts: %s", err);
		return done_testing();
	}
	test_allowed();
	if (argc == 4)
		test_server(argv[1], argv[2], strtoul(argv[3], NULL, 10));
	fetch_global_cleanup();
	return done_testing();
}
