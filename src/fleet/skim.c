/* Checking JSON without building it; see skim.h. The grammar is RFC
 * 8259's, as strict as jansson's without flags: no NUL escape, no lone
 * surrogate, no control byte in a string, UTF-8 only, nesting at most
 * SKIM_DEPTH deep. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fleet/skim.h"

/* jansson's own limit is 2048; a document deeper than this is left to
 * it. */
#define SKIM_DEPTH	512
/* Longer numbers may overflow jansson's integer or double: left to it. */
#define SKIM_NUMBER	15

struct skim {
	const unsigned char	*p, *end;
};

static void
ws(struct skim *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
	    *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int
hex4(const unsigned char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = p[i];

		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return -1;
		*v = *v << 4 | c;
	}
	return 0;
}

/* One UTF-8 sequence of two to four bytes at p (its first byte >= 0x80):
 * its length, or 0 when it is not valid (overlong, a surrogate, past
 * U+10FFFF, cut). */
static size_t
utf8(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], n, min, v;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, v = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, v = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, v = c & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return n;
}

/* A string at s->p (the opening quote). *plain: it has no escape. */
static int
string(struct skim *s, bool *plain)
{
	*plain = true;
	s->p++;
	while (s->p < s->end) {
		unsigned c = *s->p, v, w;
		size_t n;

		if (c == '"') {
			s->p++;
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c >= 0x80) {
			if ((n = utf8(s->p, s->end)) == 0)
				return -1;
			s->p += n;
			continue;
		}
		if (c != '\\') {
			s->p++;
			continue;
		}
		*plain = false;
		if (s->end - s->p < 2)
			return -1;
		c = s->p[1];
		if (c != 'u') {
			if (strchr("\"\\/bfnrt", (int)c) == NULL || c == '\0')
				return -1;
			s->p += 2;
			continue;
		}
		if (s->end - s->p < 6 || hex4(s->p + 2, &v) != 0 || v == 0)
			return -1;
		s->p += 6;
		if (v >= 0xdc00 && v <= 0xdfff)
			return -1;
		if (v >= 0xd800 && v <= 0xdbff) {
			if (s->end - s->p < 6 || s->p[0] != '\\' ||
			    s->p[1] != 'u' || hex4(s->p + 2, &w) != 0 ||
			    w < 0xdc00 || w > 0xdfff)
				return -1;
			s->p += 6;
		}
	}
	return -1;
}

static size_t
digits(struct skim *s)
{
	const unsigned char *at = s->p;

	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return (size_t)(s->p - at);
}

static int
number(struct skim *s)
{
	const unsigned char *at = s->p;

	if (*s->p == '-')
		s->p++;
	if (s->p < s->end && *s->p == '0')
		s->p++;
	else if (digits(s) == 0)
		return -1;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		if (digits(s) == 0)
			return -1;
	}
	if (s->p < s->end && (*s->p | 0x20) == 'e') {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (digits(s) == 0)
			return -1;
	}
	/* "01" is not a number: after "0" a digit may not follow. */
	if (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		return -1;
	return (size_t)(s->p - at) > SKIM_NUMBER ? -1 : 0;
}

static int
word(struct skim *s, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n) != 0)
		return -1;
	s->p += n;
	return 0;
}

static int value(struct skim *s, int depth);

/* An object or an array at s->p (its opening bracket). */
static int
container(struct skim *s, int depth)
{
	bool obj = *s->p == '{', plain;
	unsigned char close = obj ? '}' : ']';

	if (depth >= SKIM_DEPTH)
		return -1;
	s->p++;
	ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		return 0;
	}
	for (;;) {
		if (obj) {
			if (s->p >= s->end || *s->p != '"' ||
			    string(s, &plain) != 0)
				return -1;
			ws(s);
			if (s->p >= s->end || *s->p++ != ':')
				return -1;
		}
		if (value(s, depth + 1) != 0)
			return -1;
		ws(s);
		if (s->p >= s->end)
			return -1;
		if (*s->p == close) {
			s->p++;
			return 0;
		}
		if (*s->p++ != ',')
			return -1;
		ws(s);
	}
}

static int
value(struct skim *s, int depth)
{
	bool plain;

	ws(s);
	if (s->p >= s->end)
		return -1;
	switch (*s->p) {
	case '{':
	case '[':
		return container(s, depth);
	case '"':
		return string(s, &plain);
	case 't':
		return word(s, "true");
	case 'f':
		return word(s, "false");
	case 'n':
		return word(s, "null");
	default:
		return (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) ?
		    number(s) : -1;
	}
}

int
skim_object(const char *data, size_t len, const char *const *want,
    struct skim_span *spans)
{
	struct skim s = { (const unsigned char *)data,
	    (const unsigned char *)data + len };
	/* Top-level keys seen, to refuse a repeated one; a report has a
	 * dozen. */
	const unsigned char *seen[64];
	size_t nseen = 0, nwant = 0;

	while (want[nwant] != NULL)
		spans[nwant++].at = NULL;
	ws(&s);
	if (s.p >= s.end || *s.p != '{')
		return -1;
	s.p++;
	ws(&s);
	if (s.p < s.end && *s.p == '}') {
		s.p++;
		goto tail;
	}
	for (;;) {
		const unsigned char *key = s.p + 1, *at;
		size_t klen;
		bool plain;

		if (s.p >= s.end || *s.p != '"' || string(&s, &plain) != 0 ||
		    !plain)
			return -1;
		klen = (size_t)(s.p - 1 - key);
		for (size_t i = 0; i < nseen; i++)
			if (memcmp(seen[i], key, klen + 1) == 0)
				return -1;
		if (nseen == sizeof seen / sizeof seen[0])
			return -1;
		seen[nseen++] = key;
		ws(&s);
		if (s.p >= s.end || *s.p++ != ':')
			return -1;
		ws(&s);
		at = s.p;
		if (value(&s, 1) != 0)
			return -1;
		for (size_t i = 0; i < nwant; i++)
			if (strlen(want[i]) == klen &&
			    memcmp(want[i], key, klen) == 0) {
				spans[i].at = (const char *)at;
				spans[i].len = (size_t)(s.p - at);
			}
		ws(&s);
		if (s.p >= s.end)
			return -1;
		if (*s.p == '}') {
			s.p++;
			break;
		}
		if (*s.p++ != ',')
			return -1;
		ws(&s);
	}
tail:
	ws(&s);
	return s.p == s.end ? 0 : -1;
}
