/* verify-run.exe TIMEOUT_MS PROGRAM [ARG...] [-- PROGRAM [ARG...]]...:
 * runs each PROGRAM (the helper) in turn through src/verify/spawn_win.c,
 * as cudawiz will on Windows, and says what happened to each:
 *
 *   exited CODE | crashed 0xCODE NAME | timeout | nostart ERROR
 *   stdout BYTES
 *   <the child's stdout>
 *
 * One process for several runs shows that a run that crashed or hung
 * leaves the runner going.
 *
 * verify-run.exe --quote ARG...: the command line winrun_cmdline() makes
 * of "prog" ARG..., split again by CommandLineToArgvW; prints "same" or
 * where the two differ. Built with mingw-w64 by
 * tests/cli/verify-wine.sh. */
#include "config.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <shellapi.h>

#include "verify/spawn_win.h"

/* Runs ARGV and says what happened. */
static void
run(const char *const *argv, unsigned long ms)
{
	struct winrun res;
	const char *name;

	if (winrun(argv, ms, 1 << 20, &res) < 0) {
		perror("verify-run");
		exit(1);
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
	fflush(stdout);
	free(res.out);
}

/* The quoting's round trip through CommandLineToArgvW. */
static int
quote_check(int argc, char **argv)
{
	const char **in = calloc((size_t)argc + 2, sizeof *in);
	wchar_t *cmd, **back;
	int n;

	if (in == NULL)
		return 2;
	in[0] = "C:\\some dir\\prog.exe";
	for (int i = 0; i < argc; i++)
		in[i + 1] = argv[i];
	if ((cmd = winrun_cmdline(in)) == NULL) {
		puts("no command line");
		return 1;
	}
	if ((back = CommandLineToArgvW(cmd, &n)) == NULL) {
		puts("CommandLineToArgvW failed");
		return 1;
	}
	if (n != argc + 1) {
		printf("differs: %d arguments back for %d\n", n, argc + 1);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char u[4096];

		if (WideCharToMultiByte(CP_UTF8, 0, back[i], -1, u, sizeof u,
		    NULL, NULL) <= 0 || strcmp(u, in[i]) != 0) {
			printf("differs at %d: [%s] came back as [%s]\n", i,
			    in[i], u);
			return 1;
		}
	}
	puts("same");
	LocalFree(back);
	free(cmd);
	free(in);
	return 0;
}

int wmain(int argc, wchar_t **wargv);

int
wmain(int argc, wchar_t **wargv)
{
	char **argv = calloc((size_t)argc + 1, sizeof *argv);
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
	/* The child's stdout as it came, \n and all. */
	_setmode(1, _O_BINARY);

	if (argc >= 2 && strcmp(argv[1], "--quote") == 0)
		return quote_check(argc - 2, argv + 2);
	if (argc < 3) {
		fputs("usage: verify-run TIMEOUT_MS PROGRAM [ARG...]\n", stderr);
		return 2;
	}
	ms = strtoul(argv[1], &end, 10);
	if (*end != '\0' || ms == 0) {
		fputs("verify-run: TIMEOUT_MS is a positive number\n", stderr);
		return 2;
	}
	for (int first = 2; first < argc;) {
		int last = first;

		while (last < argc && strcmp(argv[last], "--") != 0)
			last++;
		argv[last] = NULL;	/* argv[argc] is NULL already */
		if (last == first) {
			fputs("verify-run: an empty command\n", stderr);
			return 2;
		}
		run((const char *const *)argv + first, ms);
		first = last + 1;
	}
	return 0;
}
