/* Where the matrix cache lies (cache.h), in the Windows program:
 * %LOCALAPPDATA%\cudawiz, Windows' place for a user's cached data that
 * does not roam. matrix update (over WinHTTP, matrix/fetch_win.c) writes
 * matrix.json there, and every command reads it, as on Linux. */
#include "config.h"

#include <stdlib.h>
#include <windows.h>

#include "i18n.h"
#include "matrix/cache.h"
#include "util/xalloc.h"

char *
cache_dir(char **err)
{
	wchar_t w[MAX_PATH + 1];
	DWORD n = GetEnvironmentVariableW(L"LOCALAPPDATA", w, MAX_PATH + 1);
	int len;
	char *s, *dir;

	*err = NULL;
	if (n == 0 || n > MAX_PATH || w[0] == L'\0' || w[1] != L':') {
		*err = xstrdup(_("no cache directory: LOCALAPPDATA is not set "
		    "to an absolute path"));
		return NULL;
	}
	len = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	if (len <= 0) {
		*err = xstrdup(_("no cache directory: LOCALAPPDATA cannot be "
		    "read as UTF-8"));
		return NULL;
	}
	s = xmalloc((size_t)len);
	if (WideCharToMultiByte(CP_UTF8, 0, w, -1, s, len, NULL, NULL) != len) {
		free(s);
		*err = xstrdup(_("no cache directory: LOCALAPPDATA cannot be "
		    "read as UTF-8"));
		return NULL;
	}
	dir = xasprintf("%s\\%s", s, PACKAGE);
	free(s);
	return dir;
}

char *
cache_matrix_path(char **err)
{
	char *dir = cache_dir(err), *path;

	if (dir == NULL)
		return NULL;
	path = xasprintf("%s\\matrix.json", dir);
	free(dir);
	return path;
}
