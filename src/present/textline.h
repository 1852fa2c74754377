/* Lines of pieces for the text report's sections that list things
 * (Python environments, live verification): pieces are separated by two
 * spaces, and one that would run past column 78 starts a new line at the
 * continuation indent, so every line stays readable at 80 columns. */
#ifndef CUDAWIZ_TEXTLINE_H
#define CUDAWIZ_TEXTLINE_H

#include <stdbool.h>
#include <stdio.h>

struct tline {
	FILE	*fp;
	int	 col;
	int	 indent;	/* of continuation lines */
	bool	 bare;		/* nothing after the indent yet */
};

/* Starts a line indented by indent; continuations are indented by cont. */
void	pl_start(struct tline *l, FILE *fp, int indent, int cont);
void	pl_piece(struct tline *l, const char *text);
void	pl_piecef(struct tline *l, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Prose as one piece that may break between its words: a reason that
 * names a long path still fits. */
void	pl_words(struct tline *l, const char *text);
void	pl_end(struct tline *l);

#endif
