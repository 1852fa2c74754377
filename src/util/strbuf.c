/* Growable strings; see strbuf.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

static void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need < sb->len)
		die("string too long");
	if (need <= sb->cap)
		return;
	if (need < sb->cap * 2)
		need = sb->cap * 2;
	if (need < 64)
		need = 64;
	sb->buf = xreallocarray(sb->buf, need, 1);
	sb->cap = need;
}

void
strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_putc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void
strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("cannot format a message");
	strbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

const char *
strbuf_str(const struct strbuf *sb)
{
	return sb->buf != NULL ? sb->buf : "";
}

char *
strbuf_take(struct strbuf *sb)
{
	char *s = sb->buf != NULL ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void
strbuf_free(struct strbuf *sb)
{
	FREE(&sb->buf);
	sb->len = sb->cap = 0;
}
