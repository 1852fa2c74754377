/* A growable, always-terminated string. */
#ifndef CUDAWIZ_STRBUF_H
#define CUDAWIZ_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char	*buf;	/* always terminated once anything was added */
	size_t	 len;
	size_t	 cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void	 strbuf_add(struct strbuf *sb, const char *s, size_t n);
void	 strbuf_puts(struct strbuf *sb, const char *s);
void	 strbuf_putc(struct strbuf *sb, char c);
void	 strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Returns the string (never NULL) and leaves sb empty; the caller frees it. */
char	*strbuf_take(struct strbuf *sb);
const char *strbuf_str(const struct strbuf *sb);
void	 strbuf_free(struct strbuf *sb);

#endif
