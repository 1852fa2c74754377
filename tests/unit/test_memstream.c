/* util/memstream.h and the atomic_out it carries (util/atomicout.c):
 * the bytes after close, an empty stream, a stream larger than any stdio
 * buffer, a commit replacing a file and an abort leaving it as it was.
 * The Windows back end (memstream_win.c) is checked end to end by
 * tests/cli/windows-html.sh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/tap.h"
#include "util/atomicfile.h"
#include "util/memstream.h"
#include "util/readfile.h"
#include "util/xalloc.h"

#define BIG	(3u << 20)

static void
test_bytes(void)
{
	struct memstream ms;
	FILE *fp = memstream_open(&ms);
	size_t bad = 0;

	ok(fp != NULL, "a stream");
	if (fp == NULL)
		return;
	fputs("cudawiz", fp);
	for (size_t i = 0; i < BIG; i++)
		fputc('a' + (int)(i % 26), fp);
	is_int(memstream_close(&ms), 0, "closed");
	is_int(ms.len, 7 + BIG, "every byte, past any buffer's size");
	ok(ms.buf != NULL && memcmp(ms.buf, "cudawiz", 7) == 0,
	    "the bytes from the start");
	for (size_t i = 0; ms.buf != NULL && i < BIG; i++)
		if (ms.buf[7 + i] != 'a' + (int)(i % 26))
			bad++;
	is_int(bad, 0, "the bytes in order");
	ok(ms.buf != NULL && ms.buf[ms.len] == '\0', "NUL-terminated");
	ok(ms.fp == NULL, "the stream is gone");
	free(ms.buf);
}

static void
test_empty(void)
{
	struct memstream ms;

	if (memstream_open(&ms) == NULL) {
		ok(0, "an empty stream");
		return;
	}
	is_int(memstream_close(&ms), 0, "an empty stream closes");
	ok(ms.buf != NULL && ms.len == 0 && ms.buf[0] == '\0',
	    "... as an empty string");
	free(ms.buf);
}

/* path's bytes are want's. */
static int
holds(const char *path, const char *want)
{
	char *data = NULL, *why = NULL;
	size_t len = 0;
	int same = readfile_capped(path, 1024, &data, &len, &why) == 0 &&
	    len == strlen(want) && memcmp(data, want, len) == 0;

	free(data);
	free(why);
	return same;
}

static void
test_atomic_out(void)
{
	char dir[] = "/tmp/cudawiz-memstream.XXXXXX";
	struct atomic_out ao;
	char *path, *err = NULL;
	FILE *fp;

	if (mkdtemp(dir) == NULL) {
		ok(0, "a temporary directory");
		return;
	}
	path = xasprintf("%s/report", dir);
	fp = atomic_out_open(&ao, path);
	ok(fp != NULL, "atomic_out_open");
	if (fp != NULL) {
		fputs("first\n", fp);
		is_int(atomic_out_commit(&ao, &err), 0, "commit");
	}
	ok(holds(path, "first\n"), "the file holds the stream's bytes");
	fp = atomic_out_open(&ao, path);
	if (fp != NULL) {
		fputs("second\n", fp);
		atomic_out_abort(&ao);
	}
	ok(holds(path, "first\n"), "abort leaves the file as it was");
	ok(ao.ms.fp == NULL && ao.path == NULL, "abort forgets the stream");
	free(err);
	unlink(path);
	rmdir(dir);
	free(path);
}

int
main(void)
{
	test_bytes();
	test_empty();
	test_atomic_out();
	return done_testing();
}
