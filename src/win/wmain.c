/* The Windows program's entry (src/main.c's counterpart; linked with
 * -municode): the arguments arrive as UTF-16 and go on as UTF-8, the
 * encoding every layer of cudawiz reads, so a pasted message or a path
 * with an é survives whatever the ANSI code page is; the console is told
 * that what is written to it is UTF-8 too. */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

#include "cli.h"
#include "util/xalloc.h"
#include "util/wstr.h"

/* The C runtime's entry calls it; no header declares it. */
int	wmain(int argc, wchar_t **wargv);

int
wmain(int argc, wchar_t **wargv)
{
	char **argv = xcalloc((size_t)argc + 1, sizeof *argv);
	int rc;

	setlocale(LC_ALL, "");
	/* Only a console has a code page to set; a pipe takes the bytes. */
	(void)SetConsoleOutputCP(CP_UTF8);
	for (int i = 0; i < argc; i++)
		if ((argv[i] = wstr_utf8(wargv[i])) == NULL)
			argv[i] = xstrdup("");
	rc = cli_main(argc, argv);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return rc;
}
