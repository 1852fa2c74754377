/* How many terminal columns UTF-8 text takes: one per character, two for
 * the East Asian wide and emoji blocks, none for combining marks. Not the
 * locale's wcwidth(): a report and the wizard's test grid must measure
 * the same whatever LC_ALL is. */
#ifndef CUDAWIZ_UTF8WIDTH_H
#define CUDAWIZ_UTF8WIDTH_H

#include <stddef.h>

/* The code point at p (*len bytes); -1 (and *len 1, or the bytes up to
 * the bad one) for bytes that are not UTF-8. p must hold a NUL-ended
 * string. */
long	utf8_decode(const unsigned char *p, size_t *len);
/* 0, 1 or 2 for a decoded character; 1 for an invalid one (shown as '?'). */
int	utf8_cp_width(long cp);
int	utf8_width(const char *s);
int	utf8_width_n(const char *s, size_t n);

#endif
