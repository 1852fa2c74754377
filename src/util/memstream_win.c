/* See memstream.h: the Windows back end (src/win/win.mk). The stream is
 * a temporary file in %TEMP% opened with FILE_FLAG_DELETE_ON_CLOSE, so
 * the system removes it however the process ends, and
 * FILE_ATTRIBUTE_TEMPORARY, so a report's few hundred kilobytes stay in
 * the cache and never reach the disk. tmpfile() is not used: msvcrt's
 * makes its file in the drive's root, which a user may not write. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

#include "util/memstream.h"

/* Names tried in %TEMP% before giving up: one is taken only when
 * another process made the same name in the same tick. */
#define TMP_TRIES	100

static HANDLE
make_tmp(void)
{
	wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 64];
	DWORD n = GetTempPathW(MAX_PATH + 1, dir);

	if (n == 0 || n > MAX_PATH)
		return INVALID_HANDLE_VALUE;
	for (unsigned i = 0; i < TMP_TRIES; i++) {
		HANDLE h;

		_snwprintf(name, sizeof name / sizeof name[0],
		    L"%lscudawiz-mem-%lu-%lu-%u.tmp", dir,
		    (unsigned long)GetCurrentProcessId(),
		    (unsigned long)GetTickCount(), i);
		name[sizeof name / sizeof name[0] - 1] = L'\0';
		h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL,
		    CREATE_NEW, FILE_ATTRIBUTE_TEMPORARY |
		    FILE_FLAG_DELETE_ON_CLOSE, NULL);
		if (h != INVALID_HANDLE_VALUE ||
		    GetLastError() != ERROR_FILE_EXISTS)
			return h;
	}
	return INVALID_HANDLE_VALUE;
}

FILE *
memstream_open(struct memstream *ms)
{
	HANDLE h = make_tmp();
	int fd;

	ms->buf = NULL;
	ms->len = 0;
	ms->fp = NULL;
	if (h == INVALID_HANDLE_VALUE) {
		errno = EACCES;
		return NULL;
	}
	/* From here the descriptor, then the stream, owns the handle. */
	if ((fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY)) == -1) {
		CloseHandle(h);
		errno = EMFILE;
		return NULL;
	}
	if ((ms->fp = _fdopen(fd, "w+b")) == NULL)
		_close(fd);
	return ms->fp;
}

/* The stream's bytes from its start, into a new buffer. */
static int
read_back(FILE *fp, char **buf, size_t *len)
{
	long long end;
	size_t got;

	if (fflush(fp) != 0 || ferror(fp) != 0 ||
	    (end = _ftelli64(fp)) < 0 || (unsigned long long)end >= SIZE_MAX ||
	    _fseeki64(fp, 0, SEEK_SET) != 0)
		return -1;
	if ((*buf = malloc((size_t)end + 1)) == NULL)
		return -1;
	got = fread(*buf, 1, (size_t)end, fp);
	if (got != (size_t)end) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	(*buf)[got] = '\0';
	*len = got;
	return 0;
}

int
memstream_close(struct memstream *ms)
{
	int rc = read_back(ms->fp, &ms->buf, &ms->len);

	/* Closing deletes the file (FILE_FLAG_DELETE_ON_CLOSE). */
	if (fclose(ms->fp) != 0 && rc == 0) {
		free(ms->buf);
		rc = -1;
	}
	ms->fp = NULL;
	if (rc != 0) {
		ms->buf = NULL;
		ms->len = 0;
		errno = EIO;
	}
	return rc;
}
