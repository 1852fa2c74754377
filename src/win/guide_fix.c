/* The Fix page's activation script: the guided mode asks which shell
 * and which file, then calls cmd_env() as `cudawiz env --shell S -o FILE`
 * would run, so the script is env's own. What env says on stderr is kept
 * (through a temporary file standing in for fd 2) so that a refusal is
 * shown on the page with its reason, not lost above it. */
#include "config.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "cmd.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/wstr.h"
#include "util/xalloc.h"
#include "win/guide.h"

/* What env said is a line or two; more is cut. */
#define SAID_CAP	4096

/* Whether path exists, and its last write time (0 when it does not). */
static bool
file_stamp(const char *path, unsigned long long *written)
{
	wchar_t *w = wstr_wide(path);
	WIN32_FILE_ATTRIBUTE_DATA a;
	bool ok = w != NULL && GetFileAttributesExW(w, GetFileExInfoStandard, &a);

	free(w);
	*written = ok ? ((unsigned long long)a.ftLastWriteTime.dwHighDateTime << 32) |
	    a.ftLastWriteTime.dwLowDateTime : 0;
	return ok;
}

static bool
file_exists(const char *path)
{
	unsigned long long t;

	return file_stamp(path, &t);
}

/* A temporary file for stderr, deleted when closed; NULL when none. */
static FILE *
temp_file(void)
{
	wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];
	DWORD n = GetTempPathW(MAX_PATH, dir);

	if (n == 0 || n > MAX_PATH || GetTempFileNameW(dir, L"cwz", 0, name) == 0)
		return NULL;
	return _wfopen(name, L"w+bD");
}

/* cmd_env(o) with stderr kept in *said (owned; "" when it said nothing).
 * Where stderr cannot be caught it goes to the console as it is. */
static int
env_said(const struct cli_opts *o, char **said)
{
	FILE *tf = temp_file();
	int saved = -1, rc;
	char buf[SAID_CAP];
	size_t n = 0;

	fflush(stdout);
	fflush(stderr);
	if (tf != NULL && (saved = _dup(2)) >= 0 &&
	    _dup2(_fileno(tf), 2) != 0) {
		_close(saved);
		saved = -1;
	}
	rc = cmd_env(o);
	fflush(stderr);
	if (saved >= 0) {
		_dup2(saved, 2);
		_close(saved);
		rewind(tf);
		n = fread(buf, 1, sizeof buf - 1, tf);
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	if (tf != NULL)
		fclose(tf);
	*said = xstrdup(buf);
	return rc;
}

void
guide_write_script(const struct cli_opts *opts, char **script, char **error,
    const char **shell)
{
	struct cli_opts o = { .color = opts->color, .offline = true,
	    .matrix_file = opts->matrix_file };
	char line[1024], *file, *said = NULL, *q;
	unsigned long long before, after;
	bool ps;
	int rc;

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
	if (file_exists(file)) {
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
	o.shell = ps ? "powershell" : "cmd";
	o.output = file;
	(void)file_stamp(file, &before);
	rc = env_said(&o, &said);
	free(*script);
	free(*error);
	*script = NULL;
	*error = NULL;
	/* env exits 0 without writing when nothing needs changing: only a
	 * file that is new, or newer, was written. */
	if (rc == EXIT_OK && (!file_stamp(file, &after) || after == before)) {
		*error = said[0] != '\0' ? said : xstrdup(_("'env' wrote no "
		    "file"));
		if (*error != said)
			free(said);
		free(file);
		return;
	}
	if (rc == EXIT_OK) {
		*script = file;
		*shell = o.shell;
		free(said);
		return;
	}
	if (said[0] != '\0')
		*error = said;
	else {
		/* TRANSLATORS: the activation script was not written; the
		 * exit status of the env command that should have. */
		*error = xasprintf(_("'env' ended with exit status %d"), rc);
		free(said);
	}
	free(file);
}
