/* verify-run.exe TIMEOUT_MS PROGRAM [ARG...]: runs PROGRAM (the helper)
 * through src/verify/spawn_win.c, as cudawiz will on Windows, and says
 * what happened on one line, then the child's stdout:
 *
 *   exited CODE | crashed 0xCODE NAME | timeout | nostart ERROR
 *   stdout BYTES
 *   <the child's stdout>
 *
 * Built with mingw-w64 by tests/cli/verify-wine.sh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

#include "verify/spawn_win.h"

int
wmain(int argc, wchar_t **wargv)
{
	char **argv = calloc((size_t)argc + 1, sizeof *argv);
	struct winrun res;
	const char *name;
	char *end;
	unsigned long ms;

	/* The arguments as UTF-8, which winrun() takes. */
	for (int i = 0; argv != NULL && i < argc; i++) {
		int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0,
		    NULL, NULL);

		if (n <= 0 || (argv[i] = malloc((size_t)n)) == NULL ||
		    WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n,
		    NULL, NULL) != n) {
			fputs("verify-run: an argument is not Unicode\n", stderr);
			return 2;
		}
	}
	if (argv == NULL)
		return 2;

	if (argc < 3) {
		fputs("usage: verify-run TIMEOUT_MS PROGRAM [ARG...]\n", stderr);
		return 2;
	}
	ms = strtoul(argv[1], &end, 10);
	if (*end != '\0' || ms == 0) {
		fputs("verify-run: TIMEOUT_MS is a positive number\n", stderr);
		return 2;
	}
	if (winrun((const char *const *)argv + 2, ms, 1 << 20, &res) < 0) {
		perror("verify-run");
		return 1;
	}
	switch (res.how) {
	case WINRUN_EXITED:
		printf("exited %lu\n", res.code);
		break;
	case WINRUN_CRASHED:
		name = winrun_status_name(res.code);
		printf("crashed 0x%08lx %s\n", res.code, name != NULL ? name :
		    "unknown");
		break;
	case WINRUN_TIMEOUT:
		printf("timeout\n");
		break;
	case WINRUN_NOSTART:
		printf("nostart %lu\n", res.code);
		break;
	}
	printf("stdout %zu%s\n", res.out_len, res.truncated ? " truncated" : "");
	if (res.out != NULL)
		fwrite(res.out, 1, res.out_len, stdout);
	free(res.out);
	return 0;
}
