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
struct win_run;

/* The Fix page's w: asks for the shell and the file, then writes the
 * plan for r's facts as env would (win/cmd_env.h). Written: *script
 * (owned) and *shell ("powershell" or "cmd"); nothing to write or
 * failed: *error (owned), in env's words. Either replaces what was
 * there. */
void	guide_write_script(const struct win_run *r, char **script,
	    char **error, const char **shell);

#endif
