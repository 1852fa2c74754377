/* POSIX shell quoting; see shquote.h. */
#include "config.h"

#include <string.h>

#include "util/shquote.h"

void
shquote(struct strbuf *sb, const char *s)
{
	static const char safe[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	    "@%+=:,./-_";

	if (*s != '\0' && strspn(s, safe) == strlen(s))
		strbuf_puts(sb, s);
	else
		shquote_always(sb, s);
}

void
shquote_always(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_puts(sb, "'\\''");
		else
			strbuf_putc(sb, *s);
	}
	strbuf_putc(sb, '\'');
}

char *
shquote_new(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	shquote(&sb, s);
	return strbuf_take(&sb);
}
