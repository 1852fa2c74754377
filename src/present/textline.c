/* Lines of pieces wrapped at 78 columns; see textline.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/textline.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define WIDTH	78

void
pl_start(struct tline *l, FILE *fp, int indent, int cont)
{
	l->fp = fp;
	l->col = fprintf(fp, "%*s", indent, "");
	l->indent = cont;
	l->bare = true;
}

void
pl_piece(struct tline *l, const char *text)
{
	int w = utf8_width(text);

	if (!l->bare && l->col + 2 + w > WIDTH) {
		fprintf(l->fp, "\n%*s", l->indent, "");
		l->col = l->indent;
	} else if (!l->bare) {
		fputs("  ", l->fp);
		l->col += 2;
	}
	fputs(text, l->fp);
	l->col += w;
	l->bare = false;
}

void
pl_piecef(struct tline *l, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pl_piece(l, buf);
}

void
pl_words(struct tline *l, const char *text)
{
	char *copy = xstrdup(text), *save = NULL;
	bool first = true;

	for (char *w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		int ww = utf8_width(w);

		if (first) {
			pl_piece(l, w);
			first = false;
			continue;
		}
		if (l->col + 1 + ww > WIDTH) {
			fprintf(l->fp, "\n%*s", l->indent, "");
			l->col = l->indent;
		} else {
			fputc(' ', l->fp);
			l->col++;
		}
		fputs(w, l->fp);
		l->col += ww;
	}
	free(copy);
}

void
pl_end(struct tline *l)
{
	fputc('\n', l->fp);
}
