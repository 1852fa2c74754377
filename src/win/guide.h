/* The guided mode's console parts (src/win/guide.c, guide_fix.c): the
 * pages themselves are src/winguide/'s. */
#ifndef CUDAWIZ_WIN_GUIDE_H
#define CUDAWIZ_WIN_GUIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd.h"

/* Prints prompt, reads one line into buf (without its newline; a longer
 * line is cut and the rest dropped). false at the end of input. */
bool	guide_read_line(const char *prompt, char *buf, size_t size);
/* The Fix page's w: asks for the shell and the file, then has cmd_env
 * write the script. Written: *script (owned) and *shell ("powershell"
 * or "cmd"); refused or failed: *error (owned), what env said. Either
 * replaces what was there. */
void	guide_write_script(const struct cli_opts *opts, char **script,
	    char **error, const char **shell);

#endif
