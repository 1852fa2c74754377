/* The commands the Windows program does not have yet: each says so and
 * exits 2 (cudawiz itself could not run them), never a report made of
 * nothing. They read the Linux machine's state (/proc, /sys, ELF files,
 * the NVIDIA kernel module, a shell's rc files); their Windows back ends
 * are not written (issue 23). doctor and verify have their own (src/win/cmd_doctor.c,
 * src/win/cmd_verify.c), and so has the wizard: the guided mode
 * (src/win/guide.c). */
#include "config.h"

#include <stdio.h>

#include "cmd.h"
#include "i18n.h"

static int
unavailable(const char *what)
{
	fprintf(stderr, _("%s: %s is not available on Windows yet; this build "
	    "has 'doctor', 'verify', 'explain', 'why NAME.dll' and 'matrix "
	    "show|path' (see '%s --help')\n"), PACKAGE, what, PACKAGE);
	return EXIT_USAGE;
}

int
cmd_env(const struct cli_opts *opts)
{
	return unavailable(opts->check != NULL ? "'env --check'" : "'env'");
}

int
cmd_env_check(const struct cli_opts *opts)
{
	(void)opts;
	return unavailable("'env --check'");
}

int
cmd_spec(const struct cli_opts *opts)
{
	(void)opts;
	return unavailable("'spec'");
}

int
cmd_fleet(const struct cli_opts *opts)
{
	(void)opts;
	return unavailable("'fleet'");
}
