/* The helper's JSON Lines writer: escaping, numbers, one write per line.
 *
 * Strings from vendor libraries (device names, JIT logs, error messages)
 * are arbitrary bytes; the parent reads them with a strict JSON parser,
 * so anything that is not UTF-8 becomes U+FFFD rather than an invalid
 * line. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper/jsonl.h"

static int out_fd = 1;
/* The run's token and a blank, before each record; empty: none. */
static char token[JSONL_TOKEN_MAX + 2];

void
jsonl_set_fd(int fd)
{
	out_fd = fd;
}

bool
jsonl_set_token(const char *tok)
{
	size_t n = strlen(tok);

	if (n == 0 || n > JSONL_TOKEN_MAX ||
	    strspn(tok, "0123456789abcdef") != n)
		return false;
	memcpy(token, tok, n);
	token[n] = ' ';
	token[n + 1] = '\0';
	return true;
}

/* Out of memory in a program this small means the machine is in
 * trouble; say so on stderr and stop with a status the parent reports
 * as an unexpected exit. */
static void
nomem(void)
{
	static const char msg[] = "cudawiz-verify: out of memory\n";

	(void)!write(2, msg, sizeof msg - 1);
	_exit(70);
}

static void
reserve(struct rec *r, size_t more)
{
	size_t cap;
	char *p;

	if (r->cap - r->len > more)
		return;
	cap = r->cap != 0 ? r->cap : 256;
	while (cap - r->len <= more) {
		if (cap > SIZE_MAX / 2)
			nomem();
		cap *= 2;
	}
	p = realloc(r->buf, cap);
	if (p == NULL)
		nomem();
	r->buf = p;
	r->cap = cap;
}

static void
put(struct rec *r, const char *s, size_t n)
{
	reserve(r, n);
	memcpy(r->buf + r->len, s, n);
	r->len += n;
	r->buf[r->len] = '\0';
}

static void
puts_(struct rec *r, const char *s)
{
	put(r, s, strlen(s));
}

/* The length of the valid UTF-8 sequence at S (at most N bytes), or 0:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static size_t
utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void
jsonl_escape(struct rec *r, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	put(r, "\"", 1);
	while (i < n) {
		size_t len;
		char esc[8];

		if (s[i] == '"' || s[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)s[i];
			put(r, esc, 2);
			i++;
			continue;
		}
		/* The parent's parser refuses \u0000 (and with it the
		 * line); a NUL inside a counted string is not text anyway. */
		if (s[i] == 0) {
			put(r, "\\ufffd", 6);
			i++;
			continue;
		}
		if (s[i] < 0x20) {
			snprintf(esc, sizeof esc, "\\u%04x", s[i]);
			put(r, esc, 6);
			i++;
			continue;
		}
		len = utf8_seq(s + i, n - i);
		if (len == 0) {
			put(r, "\\ufffd", 6);
			i++;
			continue;
		}
		put(r, (const char *)s + i, len);
		i += len;
	}
	put(r, "\"", 1);
}

/* The comma and "key": of the next member. */
static void
member(struct rec *r, const char *key)
{
	if (!r->first[r->depth])
		put(r, ",", 1);
	r->first[r->depth] = false;
	if (key != NULL) {
		jsonl_escape(r, key, strlen(key));
		put(r, ":", 1);
	}
}

void
rec_open(struct rec *r, const char *check)
{
	memset(r, 0, sizeof *r);
	puts_(r, token);
	put(r, "{", 1);
	r->first[0] = true;
	rec_str(r, "check", check);
}

void
rec_str(struct rec *r, const char *key, const char *s)
{
	if (s == NULL)
		rec_null(r, key);
	else
		rec_strn(r, key, s, strlen(s));
}

void
rec_strn(struct rec *r, const char *key, const char *s, size_t n)
{
	member(r, key);
	jsonl_escape(r, s, n);
}

void
rec_int(struct rec *r, const char *key, long long v)
{
	char num[32];

	member(r, key);
	snprintf(num, sizeof num, "%lld", v);
	puts_(r, num);
}

void
rec_uint(struct rec *r, const char *key, unsigned long long v)
{
	char num[32];

	/* The parent's jansson rejects an integer beyond int64 and with it
	 * the whole line; as a real it is only rounded. */
	if (v > (unsigned long long)INT64_MAX) {
		member(r, key);
		snprintf(num, sizeof num, "%.17g", (double)v);
		puts_(r, num);
		return;
	}
	member(r, key);
	snprintf(num, sizeof num, "%llu", v);
	puts_(r, num);
}

/* Six significant digits say everything a time or a rate can mean; %g
 * in the C locale (the helper never calls setlocale) is valid JSON,
 * exponent included. */
void
rec_num(struct rec *r, const char *key, double v)
{
	char num[40];

	if (!isfinite(v)) {
		rec_null(r, key);
		return;
	}
	member(r, key);
	snprintf(num, sizeof num, "%.6g", v);
	puts_(r, num);
}

void
rec_bool(struct rec *r, const char *key, bool v)
{
	member(r, key);
	puts_(r, v ? "true" : "false");
}

void
rec_null(struct rec *r, const char *key)
{
	member(r, key);
	puts_(r, "null");
}

static void
nest(struct rec *r, const char *key, char open, char close)
{
	member(r, key);
	put(r, &open, 1);
	if (r->depth + 1 >= JSONL_DEPTH)
		abort();	/* a bug in the helper, not in a library */
	r->depth++;
	r->first[r->depth] = true;
	r->closer[r->depth] = close;
}

void
rec_array(struct rec *r, const char *key)
{
	nest(r, key, '[', ']');
}

void
rec_object(struct rec *r, const char *key)
{
	nest(r, key, '{', '}');
}

void
rec_close(struct rec *r)
{
	if (r->depth == 0)
		abort();
	put(r, &r->closer[r->depth], 1);
	r->depth--;
}

void
rec_emit(struct rec *r)
{
	size_t off = 0;

	while (r->depth > 0)
		rec_close(r);
	put(r, "}\n", 2);
	while (off < r->len) {
		ssize_t n = write(out_fd, r->buf + off, r->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* the parent is gone; nobody to tell */
		off += (size_t)n;
	}
	free(r->buf);
	memset(r, 0, sizeof *r);
}
