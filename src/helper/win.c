/* The helper's Windows layer (win.h): loading a DLL, finding its
 * functions and its file, a monotonic clock, and keeping the records'
 * pipe away from what the DLL writes or starts. */
#include "config.h"

#include <fcntl.h>
#include <io.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <shellapi.h>

#include "helper/jsonl.h"
#include "helper/win.h"

/* UTF-8 to a malloc'ed UTF-16 string; NULL when S is not UTF-8. */
static wchar_t *
widen(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1,
	    NULL, 0);
	wchar_t *w;

	if (n <= 0)
		return NULL;
	if ((w = malloc((size_t)n * sizeof *w)) == NULL)
		abort();
	if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w,
	    n) != n) {
		free(w);
		return NULL;
	}
	return w;
}

/* W as UTF-8 into BUF (N bytes); false when it does not fit. */
static bool
narrow(const wchar_t *w, char *buf, size_t n)
{
	int len = n > (size_t)INT_MAX ? INT_MAX : (int)n;

	return WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, len, NULL,
	    NULL) > 0;
}

void
win_utf8_argv(int *argc, char ***argv)
{
	int n;
	wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
	char **u;

	if (w == NULL)
		return;
	/* Kept for the process's life, as main()'s own are. */
	if ((u = calloc((size_t)n + 1, sizeof *u)) == NULL)
		abort();
	for (int i = 0; i < n; i++) {
		int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, NULL, 0,
		    NULL, NULL);

		if (len <= 0 || (u[i] = malloc((size_t)len)) == NULL ||
		    WideCharToMultiByte(CP_UTF8, 0, w[i], -1, u[i], len, NULL,
		    NULL) != len) {
			LocalFree(w);
			return;
		}
	}
	LocalFree(w);
	*argc = n;
	*argv = u;
}

/* "C:\…", "C:/…", "\\server\…": a path LOAD_WITH_ALTERED_SEARCH_PATH
 * may take (it is undefined for relative ones). */
static bool
absolute(const wchar_t *p)
{
	if (((p[0] >= L'A' && p[0] <= L'Z') || (p[0] >= L'a' &&
	    p[0] <= L'z')) && p[1] == L':' && (p[2] == L'\\' || p[2] == L'/'))
		return true;
	return (p[0] == L'\\' || p[0] == L'/') &&
	    (p[1] == L'\\' || p[1] == L'/');
}

/* ERR gets "LIB: error CODE: the system's words for it". */
static void
say_error(char *err, size_t errlen, const char *lib, DWORD code)
{
	wchar_t *msg = NULL;
	char text[512] = "";

	if (FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER |
	    FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
	    code, 0, (LPWSTR)&msg, 0, NULL) > 0 && msg != NULL) {
		if (!narrow(msg, text, sizeof text))
			text[0] = '\0';
		LocalFree(msg);
	}
	/* The system's message ends in a line break. */
	for (size_t n = strlen(text); n > 0 && (text[n - 1] == '\n' ||
	    text[n - 1] == '\r' || text[n - 1] == ' '); n--)
		text[n - 1] = '\0';
	snprintf(err, errlen, "%s: error %lu%s%s", lib, (unsigned long)code,
	    text[0] != '\0' ? ": " : "", text);
}

void *
win_dlopen(const char *lib, char *err, size_t errlen)
{
	wchar_t *w = widen(lib);
	DWORD flags = 0;
	HMODULE h;

	if (w == NULL) {
		say_error(err, errlen, lib, ERROR_NO_UNICODE_TRANSLATION);
		return NULL;
	}
	if (absolute(w)) {
		/* The flag wants backslashes. */
		for (wchar_t *p = w; *p != L'\0'; p++)
			if (*p == L'/')
				*p = L'\\';
		flags = LOAD_WITH_ALTERED_SEARCH_PATH;
	}
	h = LoadLibraryExW(w, NULL, flags);
	if (h == NULL)
		say_error(err, errlen, lib, GetLastError());
	free(w);
	return (void *)h;
}

void *
win_dlsym(void *h, const char *name)
{
	FARPROC f = GetProcAddress((HMODULE)h, name);
	void *p;

	/* Windows' function and data pointers share a representation; the
	 * copy says so without a cast ISO C frowns on. */
	memcpy(&p, &f, sizeof p);
	return p;
}

bool
win_dlpath(void *h, char *buf, size_t n)
{
	wchar_t path[32768];
	DWORD len = GetModuleFileNameW((HMODULE)h, path,
	    sizeof path / sizeof *path);

	if (len == 0 || len >= sizeof path / sizeof *path)
		return false;
	return narrow(path, buf, n);
}

const char *
win_system_dll(const char *name)
{
	static char path[MAX_PATH * 3 + 64];
	wchar_t dir[MAX_PATH + 1];
	char udir[MAX_PATH * 3 + 1];
	UINT len = GetSystemDirectoryW(dir, MAX_PATH + 1);

	if (len == 0 || len > MAX_PATH || !narrow(dir, udir, sizeof udir))
		return name;
	snprintf(path, sizeof path, "%s\\%s", udir, name);
	return path;
}

double
win_now_ms(void)
{
	static LARGE_INTEGER freq;
	LARGE_INTEGER now;

	/* Never fails on XP and later, says Microsoft. */
	if (freq.QuadPart == 0)
		QueryPerformanceFrequency(&freq);
	QueryPerformanceCounter(&now);
	return (double)now.QuadPart * 1e3 / (double)freq.QuadPart;
}

void
win_quiet_errors(void)
{
	/* Inherited by what the library starts, too. */
	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX |
	    SEM_NOOPENFILEERRORBOX);
}

void
win_unsetenv(const char *name)
{
	char *eq = malloc(strlen(name) + 2);

	if (eq == NULL)
		abort();
	/* "NAME=" removes it from the CRT's copy (and, in msvcrt, from the
	 * process's); SetEnvironmentVariable makes sure of the latter, which
	 * a DLL with a CRT of its own reads. */
	strcpy(eq, name);
	strcat(eq, "=");
	(void)_putenv(eq);
	free(eq);
	SetEnvironmentVariableA(name, NULL);
}

/* Not the Linux helper's random descriptor above 64: a CRT descriptor is
 * an index into one CRT's table, and a vendor DLL that links a CRT of its
 * own (most do) has another table, where it cannot reach this one. What
 * keeps the pipe from a program the DLL starts is that the copy is not
 * inheritable and the inheritable original is closed. */
void
win_private_stdout(void)
{
	HANDLE self = GetCurrentProcess(), copy;
	HANDLE out = (HANDLE)_get_osfhandle(1);
	int fd = -1;

	fflush(stdout);
	if (out != INVALID_HANDLE_VALUE && DuplicateHandle(self, out, self,
	    &copy, 0, FALSE, DUPLICATE_SAME_ACCESS)) {
		fd = _open_osfhandle((intptr_t)copy, _O_WRONLY | _O_BINARY);
		if (fd < 0)
			CloseHandle(copy);
	}
	if (fd < 0)
		fd = _dup(1);
	/* Records end in \n, not the text mode's \r\n. */
	if (fd >= 0)
		_setmode(fd, _O_BINARY);
	jsonl_set_fd(fd);
	if (_dup2(2, 1) < 0) {
		int null = _open("NUL", _O_WRONLY);

		if (null >= 0 && null != 1) {
			_dup2(null, 1);
			_close(null);
		}
	}
	SetStdHandle(STD_OUTPUT_HANDLE, (HANDLE)_get_osfhandle(1));
}
