/* Build-time generator of the built-in matrix: reads a matrix document
 * (data/matrix.json) with cudawiz's own parser and checker and writes it
 * as C source holding the parsed rows (embedded.c), so a run loads the
 * built-in matrix without parsing JSON. A document the parser refuses
 * fails the build here, with the parser's message.
 *
 * It runs on the build machine: a cross build compiles it a second time
 * with CC_FOR_BUILD (src/matrix/matrix.mk), or make MKEMBEDDED=PATH names
 * one built for that machine.
 *
 * Usage: mkembedded FILE.json > embedded.c */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The whole file; NULL with errno set when it cannot be read. */
static char *
read_all(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;
	int saved;

	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	if (ferror(f)) {
		saved = errno;
		fclose(f);
		strbuf_free(&sb);
		errno = saved != 0 ? saved : EIO;
		return NULL;
	}
	fclose(f);
	*len = sb.len;
	return strbuf_take(&sb);
}

int
main(int argc, char **argv)
{
	struct matrix *m;
	char *data, *err;
	size_t len = 0;

	if (argc != 2) {
		fputs("usage: mkembedded FILE.json > embedded.c\n", stderr);
		return 2;
	}
	data = read_all(argv[1], &len);
	if (data == NULL) {
		fprintf(stderr, "mkembedded: cannot read %s: %s\n", argv[1],
		    strerror(errno));
		return 1;
	}
	m = matrix_parse(data, len, &err);
	free(data);
	if (m == NULL) {
		fprintf(stderr, "mkembedded: %s is not a valid matrix, so it "
		    "cannot be built in: %s\n", argv[1], err);
		free(err);
		return 1;
	}
	if (matrix_write_c(m, argv[1], stdout) != 0) {
		fprintf(stderr, "mkembedded: cannot write the C source: %s\n",
		    strerror(errno));
		matrix_free(m);
		return 1;
	}
	matrix_free(m);
	return 0;
}
