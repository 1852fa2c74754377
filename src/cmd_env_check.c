/* cudawiz env --check FILE: the before/after proof that a script fixes
 * what it says, as text or JSON. The proof itself (the script sourced in
 * its shell, the machine probed on both sides, every need compared, the
 * runtime loaded live) is src/envplan/check.c, which the wizard's Fix
 * page shares; this file picks the format, and present/envcheck.c
 * prints. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "envplan/check.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/envcheck.h"
#include "run/run.h"
#include "util/openreg.h"
#include "util/xalloc.h"

extern char **environ;

/* What the command prints: the proof (envplan/check.h) and the file. */
struct check {
	const char		*file;
	struct env_check	 ec;
};

/* ------------------------------------------------------------ main */

/* The script must be a regular file before anything reads it: reading a
 * FIFO waits for a writer (the format sniffing and the shell that sources
 * it would both hang), and opening a device can have effects of its own. */
static int
check_script_file(const char *file, char **err)
{
	struct stat st;
	int fd, rc = openreg(AT_FDCWD, file, OPENREG_FOLLOW, &fd, &st);

	if (rc != 0) {
		*err = xasprintf("%s: %s", file, openreg_strerror(rc, &st));
		return -1;
	}
	if (close(fd) != 0) {
		/* Only read from; nothing to lose. */
	}
	return 0;
}

int
cmd_env_check(const struct cli_opts *opts)
{
	struct check c;
	enum script_format fmt;
	struct cw_run run;
	bool opened = false;
	char *err = NULL;
	double timeout_s = opts->timeout_ms > 0 ? opts->timeout_ms / 1000.0 :
	    VERIFY_TIMEOUT_DEFAULT_S;
	int rc = EXIT_USAGE;

	memset(&c, 0, sizeof c);
	c.file = opts->check;
	if (check_script_file(c.file, &err) != 0)
		goto fail;
	if (opts->shell != NULL) {
		if (!script_format_parse(opts->shell, &fmt)) {
			fprintf(stderr, _("%s: --shell %s: not a format cudawiz "
			    "writes\n"), PACKAGE, opts->shell);
			return EXIT_USAGE;
		}
	} else if (script_file_format(c.file, &fmt, &err) != 0) {
		goto fail;
	}
	if (run_open(&run, opts->root, opts->matrix_file, environ, &err) != 0)
		goto fail;
	opened = true;
	run_say_note(&run);
	if (env_check_run_in(&run, c.file, fmt, timeout_s, NULL, &c.ec,
	    &err) != 0)
		goto fail;
	if (env_check_print(stdout, c.file, &c.ec, environ, opts->json) != 0)
		goto write_fail;
	rc = c.ec.ok ? EXIT_OK : EXIT_FINDINGS;
	goto out;
write_fail:
	perror(PACKAGE ": writing the report");
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
out:
	free(err);
	env_check_free(&c.ec);
	if (opened)
		run_close(&run);
	return rc;
}
