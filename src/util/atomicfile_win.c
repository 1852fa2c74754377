/* Whole files put in place by one MoveFileExW; see atomicfile.h. The
 * Windows back end (the Windows program only, src/win/win.mk): rename()
 * there refuses to replace a file. A stream's bytes come here through
 * atomicout.c, as on Linux. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "i18n.h"
#include "util/atomicfile.h"
#include "util/wstr.h"
#include "util/xalloc.h"

/* Names tried for the temporary file before giving up: one is taken
 * only when another run of cudawiz left it or is writing it now. */
#define TMP_TRIES	100

static int
fail(const char *path, DWORD code, char **err)
{
	char *why = wstr_error(code);

	*err = xasprintf(_("cannot write %s: %s"), path, why);
	free(why);
	return -1;
}

/* A new, empty temporary file beside path, opened for writing: its
 * handle (and *tmp, UTF-8, owned), or INVALID_HANDLE_VALUE with *code. */
static HANDLE
make_tmp(const char *path, char **tmp, DWORD *code)
{
	/* Either separator: a path from Windows (the cache's, a user's
	 * C:\...) has backslashes, which path_dirname() does not split. */
	const char *sep = strrchr(path, '\\'), *slash = strrchr(path, '/');
	char *dir;

	if (slash != NULL && (sep == NULL || slash > sep))
		sep = slash;
	dir = sep != NULL ? xstrndup(path, (size_t)(sep - path)) : xstrdup(".");
	for (unsigned i = 0; i < TMP_TRIES; i++) {
		char *name = xasprintf("%s\\.%s.cudawiz-%lu-%u", dir,
		    sep != NULL ? sep + 1 : path,
		    (unsigned long)GetCurrentProcessId(), i);
		wchar_t *w = wstr_wide(name);
		HANDLE h = w != NULL ? CreateFileW(w, GENERIC_WRITE, 0, NULL,
		    CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL) :
		    INVALID_HANDLE_VALUE;

		*code = w != NULL ? GetLastError() : ERROR_INVALID_NAME;
		free(w);
		if (h != INVALID_HANDLE_VALUE) {
			*tmp = name;
			free(dir);
			return h;
		}
		free(name);
		if (*code != ERROR_FILE_EXISTS)
			break;
	}
	free(dir);
	return INVALID_HANDLE_VALUE;
}

static void
remove_file(const char *name)
{
	wchar_t *w = wstr_wide(name);

	if (w != NULL)
		DeleteFileW(w);
	free(w);
}

/* Moves tmp over path, replacing it; tmp is removed when that fails. */
static int
put_in_place(const char *tmp, const char *path, char **err)
{
	wchar_t *wt = wstr_wide(tmp), *wp = wstr_wide(path);
	DWORD code = ERROR_INVALID_NAME;
	int rc = -1;

	if (wt != NULL && wp != NULL) {
		if (MoveFileExW(wt, wp, MOVEFILE_REPLACE_EXISTING |
		    MOVEFILE_WRITE_THROUGH))
			rc = 0;
		else
			code = GetLastError();
	}
	if (rc != 0) {
		remove_file(tmp);
		fail(path, code, err);
	}
	free(wt);
	free(wp);
	return rc;
}

static bool
is_dir(const char *path)
{
	wchar_t *w = wstr_wide(path);
	DWORD a = w != NULL ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;

	free(w);
	return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

int
atomic_write_file(const char *path, const char *data, size_t len,
    char **err)
{
	char *tmp = NULL;
	DWORD code;
	HANDLE h;
	int rc;

	if (is_dir(path)) {
		*err = xasprintf(_("cannot write %s: it is a directory"), path);
		return -1;
	}
	if ((h = make_tmp(path, &tmp, &code)) == INVALID_HANDLE_VALUE)
		return fail(path, code, err);
	while (len > 0) {
		DWORD chunk = len > 0x40000000u ? 0x40000000u : (DWORD)len, got;

		if (!WriteFile(h, data, chunk, &got, NULL) || got == 0)
			break;
		data += got;
		len -= got;
	}
	if (len > 0 || !FlushFileBuffers(h)) {
		code = GetLastError();
		CloseHandle(h);
		remove_file(tmp);
		rc = fail(path, code, err);
		free(tmp);
		return rc;
	}
	CloseHandle(h);
	rc = put_in_place(tmp, path, err);
	free(tmp);
	return rc;
}
