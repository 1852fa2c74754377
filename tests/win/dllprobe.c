/* dllprobe.exe: what Windows' loader (here Wine's) does with one
 * LoadLibraryExW, for the DLL-search differential test
 * (tests/cli/dllsearch-wine.sh). Built with mingw-w64, run under Wine.
 *
 *   dllprobe [--default-dirs] [--flags N] [--add DIR]... [--cwd DIR] NAME
 *
 * --default-dirs calls SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_
 * DEFAULT_DIRS) first, as Python 3.8+ does; --add calls AddDllDirectory
 * (os.add_dll_directory); --flags are LoadLibraryExW's dwFlags; --cwd
 * changes the current directory before the load. Prints what the model
 * needs to be given the same inputs, "cwd DIR" and "path PATH" (the
 * process's PATH: Wine puts WINEPATH before the system's own entries),
 * then the result: "found FILE" (GetModuleFileNameW of the module
 * loaded) or "error N" (GetLastError()). Exits 0 either way; 2 on bad
 * usage. */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static void
put_utf8(const wchar_t *w)
{
	static char buf[4 * 32768];
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, sizeof buf, NULL,
	    NULL);

	fputs(n > 0 ? buf : "?", stdout);
}

int
wmain(int argc, wchar_t **argv)
{
	DWORD flags = 0;
	const wchar_t *name = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (wcscmp(argv[i], L"--default-dirs") == 0) {
			if (!SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)) {
				printf("setup-error %lu\n", GetLastError());
				return 0;
			}
		} else if (wcscmp(argv[i], L"--flags") == 0 && i + 1 < argc) {
			flags = (DWORD)wcstoul(argv[++i], NULL, 0);
		} else if (wcscmp(argv[i], L"--add") == 0 && i + 1 < argc) {
			if (AddDllDirectory(argv[++i]) == NULL) {
				printf("setup-error %lu\n", GetLastError());
				return 0;
			}
		} else if (wcscmp(argv[i], L"--cwd") == 0 && i + 1 < argc) {
			if (!SetCurrentDirectoryW(argv[++i])) {
				printf("setup-error %lu\n", GetLastError());
				return 0;
			}
		} else if (name == NULL && argv[i][0] != L'-') {
			name = argv[i];
		} else {
			fputs("usage: dllprobe [--default-dirs] [--flags N] "
			    "[--add DIR]... [--cwd DIR] NAME\n", stderr);
			return 2;
		}
	}
	if (name == NULL)
		return 2;
	{
		static wchar_t buf[32768];
		DWORD n = GetCurrentDirectoryW(32768, buf);

		fputs("cwd ", stdout);
		put_utf8(n > 0 && n < 32768 ? buf : L"?");
		fputc('\n', stdout);
		n = GetEnvironmentVariableW(L"PATH", buf, 32768);
		fputs("path ", stdout);
		put_utf8(n > 0 && n < 32768 ? buf : L"");
		fputc('\n', stdout);
	}
	{
		HMODULE h = LoadLibraryExW(name, NULL, flags);
		wchar_t path[MAX_PATH];

		if (h == NULL) {
			printf("error %lu\n", GetLastError());
			return 0;
		}
		if (GetModuleFileNameW(h, path, MAX_PATH) == 0) {
			printf("error-name %lu\n", GetLastError());
			return 0;
		}
		fputs("found ", stdout);
		put_utf8(path);
		fputc('\n', stdout);
	}
	return 0;
}
