/* See wstr.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "i18n.h"
#include "util/wstr.h"
#include "util/xalloc.h"

char *
wstr_utf8(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, NULL,
	    0, NULL, NULL);
	char *s;

	if (n <= 0)
		return NULL;
	s = xmalloc((size_t)n);
	if (WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, s, n,
	    NULL, NULL) != n) {
		free(s);
		return NULL;
	}
	return s;
}

wchar_t *
wstr_wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1,
	    NULL, 0);
	wchar_t *w;

	if (n <= 0)
		return NULL;
	w = xcalloc((size_t)n, sizeof *w);
	if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w,
	    n) != n) {
		free(w);
		return NULL;
	}
	return w;
}

char *
wstr_error(unsigned long code)
{
	wchar_t *w = NULL;
	char *s;
	size_t n;

	if (FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER |
	    FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
	    (DWORD)code, 0, (wchar_t *)&w, 0, NULL) == 0 || w == NULL ||
	    (s = wstr_utf8(w)) == NULL) {
		if (w != NULL)
			LocalFree(w);
		return xasprintf(_("error %lu"), code);
	}
	LocalFree(w);
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
	    s[n - 1] == ' ' || s[n - 1] == '.'))
		s[--n] = '\0';
	return s;
}
