/* Text for a terminal from names cudawiz did not choose. A directory,
 * library or variable can be named with escape sequences that retitle the
 * window, move the cursor or rewrite what was printed above; a report
 * that echoes names must not become their way to the terminal. */
#ifndef CUDAWIZ_SAFEOUT_H
#define CUDAWIZ_SAFEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

/* Bytes of a sequence held back until its end arrives (an escape
 * sequence or a UTF-8 character split across two writes). */
#define SAFEOUT_PENDING	32

struct safeout {
	bool	colour;		/* colour changes pass (else shown too) */
	char	pending[SAFEOUT_PENDING];
	size_t	npending;
};

/* Appends to out what the terminal may be shown of in[0..n): newline,
 * tab, printable UTF-8 and, when st->colour, colour changes (ESC [
 * digits;… m, what style.c writes) pass; other control bytes, C1 controls, bidirectional
 * overrides and bytes that are not UTF-8 become visible escapes
 * ("\x1b", "\u202e"). A sequence cut at the end of in is kept in st for
 * the next call; safeout_finish() escapes whatever is left. */
void	safeout_filter(struct safeout *st, const char *in, size_t n,
	    struct strbuf *out);
void	safeout_finish(struct safeout *st, struct strbuf *out);

/* Replaces *fp (stdout or stderr) with a stream that filters through
 * safeout_filter into the original one; colour: whether the command
 * colours what it writes there. Returns 0, or -1 (errno set) when the
 * stream cannot be made and *fp is left as it was. */
int	safeout_wrap(FILE **fp, bool colour);

#endif
