/* Quoting for POSIX shells, used where cudawiz prints a command to paste. */
#ifndef CUDAWIZ_SHQUOTE_H
#define CUDAWIZ_SHQUOTE_H

#include "util/strbuf.h"

/* Appends s quoted so that sh, bash, zsh and dash read it back unchanged:
 * bare when it holds only safe characters, otherwise in single quotes
 * with each ' written as '\''. */
void	shquote(struct strbuf *sb, const char *s);
/* The same, always in single quotes (a script's values: one form, so a
 * reader never wonders why one path is quoted and the next is not). */
void	shquote_always(struct strbuf *sb, const char *s);
/* shquote(s) as a new string (the caller frees it): for a fix line. */
char	*shquote_new(const char *s);

#endif
