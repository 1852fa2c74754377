/* How many terminal columns UTF-8 text takes: one per character, two for
 * the East Asian wide and emoji blocks, none for combining marks. Not the
 * locale's wcwidth(): a report and the wizard's test grid must measure
 * the same whatever LC_ALL is. */
#ifndef CUDAWIZ_UTF8WIDTH_H
#define CUDAWIZ_UTF8WIDTH_H

#include <stdbool.h>
#include <stddef.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence at p, reading at
 * most n bytes, its code point in *cp when cp is not NULL; 0 when the
 * bytes there are not one: a byte that cannot lead, a missing
 * continuation byte, an overlong form, a surrogate, a value past
 * U+10FFFF, or a sequence cut short by n. ASCII (NUL included) is 1.
 * Bytes are read in order and no further than the first one that cannot
 * continue the sequence, so a NUL-ended string may pass SIZE_MAX as n. */
size_t	utf8_seq(const unsigned char *p, size_t n, long *cp);
/* The code point at p (*len bytes); -1 (and *len 1, or the bytes up to
 * the bad one) for bytes that are not UTF-8. p must hold a NUL-ended
 * string. */
long	utf8_decode(const unsigned char *p, size_t *len);
/* The UTF-8 bytes of code point cp in out (1 to 4 of them); 0 for a
 * value that has none (negative, a surrogate, past U+10FFFF). */
size_t	utf8_encode(long cp, char out[4]);
/* A copy of s (at most max bytes of it, cut at a character's start)
 * with each byte that is not UTF-8 replaced by U+FFFD: a string read
 * from a file, made fit for JSON. Newly allocated. */
char	*utf8_mend(const char *s, size_t max);
/* The start of the character before byte i of s (0 at the start);
 * never inside a character of well-formed text. */
size_t	utf8_prev(const char *s, size_t i);
/* 0, 1 or 2 for a decoded character; 1 for an invalid one (shown as '?'). */
int	utf8_cp_width(long cp);
int	utf8_width(const char *s);
int	utf8_width_n(const char *s, size_t n);
/* True when s (len bytes) holds no C0 control character and no DEL: a
 * name read from a file that may be shown as it is. Bytes >= 0x80 pass
 * (names may be UTF-8; the presenters mend invalid sequences). */
bool	text_is_clean(const char *s, size_t len);

#endif
