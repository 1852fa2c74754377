/* The Fix page's activation script: the guided mode asks which shell
 * and which file, then has env's writing half (win/cmd_env.h) write the
 * plan for the facts the pages show, as `cudawiz env --shell S -o FILE`
 * would, without probing the machine again. A plan that changes nothing
 * is said in env's words, never taken for a script written. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envscript/envscript.h"
#include "i18n.h"
#include "util/xalloc.h"
#include "win/cmd_env.h"
#include "win/guide.h"

void
guide_write_script(const struct win_run *r, char **script, char **error,
    const char **shell)
{
	char line[1024], *file, *q, *backup = NULL, *why = NULL;
	bool ps;

	if (!guide_read_line(_("Which shell? 1 PowerShell, 2 cmd.exe [1]: "),
	    line, sizeof line))
		return;
	if (line[0] != '\0' && strcmp(line, "1") != 0 && strcmp(line, "2") != 0) {
		printf(_("'%s' is neither 1 nor 2; nothing was written.\n"), line);
		return;
	}
	ps = strcmp(line, "2") != 0;
	q = xasprintf(_("Write it to which file? [%s]: "), ps ?
	    "cudawiz-env.ps1" : "cudawiz-env.cmd");
	if (!guide_read_line(q, line, sizeof line)) {
		free(q);
		return;
	}
	free(q);
	file = xstrdup(line[0] != '\0' ? line : ps ? "cudawiz-env.ps1" :
	    "cudawiz-env.cmd");
	if (script_target_exists(file)) {
		q = xasprintf(_("%s exists; replace it? [y/N]: "), file);
		if (!guide_read_line(q, line, sizeof line) ||
		    (strcmp(line, "y") != 0 && strcmp(line, "Y") != 0)) {
			free(q);
			printf(_("%s was left as it was.\n"), file);
			free(file);
			return;
		}
		free(q);
	}
	free(*script);
	free(*error);
	*script = NULL;
	*error = NULL;
	if (win_env_write(r, ps ? SCRIPT_POWERSHELL : SCRIPT_CMD, file, true,
	    &backup, &why) == WIN_ENV_WRITTEN) {
		*script = file;
		*shell = ps ? "powershell" : "cmd";
	} else {
		*error = why;
		why = NULL;
		free(file);
	}
	free(backup);
	free(why);
}
