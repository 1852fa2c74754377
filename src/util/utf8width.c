/* See utf8width.h. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/utf8width.h"

size_t
utf8_seq(const unsigned char *p, size_t n, long *cp)
{
	size_t len;
	long c;

	if (n == 0)
		return 0;
	if (p[0] < 0x80) {
		len = 1;
		c = p[0];
	} else if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else {
		return 0;	/* a continuation byte, 0xc0, 0xc1 or 0xf5 up */
	}
	for (size_t i = 1; i < len; i++) {
		if (i >= n || (p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past Unicode are not text. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	if (cp != NULL)
		*cp = c;
	return len;
}

/* Decodes one UTF-8 character at p; *len gets its length. Returns the
 * code point, or -1 for bytes that are not UTF-8, with *len the bytes
 * the lead claims up to the first that cannot continue it (each such run
 * shows as one '?'). */
long
utf8_decode(const unsigned char *p, size_t *len)
{
	size_t want, i;
	long cp;

	*len = utf8_seq(p, SIZE_MAX, &cp);
	if (*len > 0)
		return cp;
	want = (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 :
	    (p[0] & 0xf8) == 0xf0 ? 4 : 1;
	for (i = 1; i < want && (p[i] & 0xc0) == 0x80; i++)
		;
	*len = i;
	return -1;
}

static bool
is_combining(long cp)
{
	return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
	    (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f) || cp == 0x200b || cp == 0x200d;
}

static bool
is_wide(long cp)
{
	return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

/* Columns a decoded character takes: 0, 1 or 2; invalid and control
 * characters take one (they show as '?'). */
int
utf8_cp_width(long cp)
{
	if (cp < 0)
		return 1;
	if (is_combining(cp))
		return 0;
	return is_wide(cp) ? 2 : 1;
}

int
utf8_width_n(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;
	int w = 0;

	while (at < n && p[at] != '\0') {
		size_t len;
		long cp = utf8_decode(p + at, &len);

		w += utf8_cp_width(cp);
		at += len;
	}
	return w;
}

int
utf8_width(const char *s)
{
	return utf8_width_n(s, strlen(s));
}

bool
text_is_clean(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

size_t
utf8_encode(long cp, char out[4])
{
	if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t
utf8_prev(const char *s, size_t i)
{
	if (i == 0)
		return 0;
	do
		i--;
	while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80);
	return i;
}

char *
utf8_mend(const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = utf8_seq(p, SIZE_MAX, NULL);
		const char *add = n == 0 ? "\xef\xbf\xbd" : (const char *)p;
		size_t len = n == 0 ? 3 : n;

		if (sb.len + len > max)
			break;
		strbuf_add(&sb, add, len);
		p += n == 0 ? 1 : n;
	}
	return strbuf_take(&sb);
}
