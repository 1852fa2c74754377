/* The commands the Windows program does not have yet: each says so and
 * exits 2 (cudawiz itself could not run them), never a report made of
 * nothing. They read the Linux machine's state (/proc, /sys, ELF files,
 * the NVIDIA kernel module, a shell's rc files); their Windows back ends
 * are not written (issue 23). doctor, verify, env and spec have their
 * own (src/win/cmd_doctor.c, src/win/cmd_verify.c, src/win/cmd_env.c,
 * src/win/cmd_spec.c); fleet is the shared one. */
#include "config.h"

#include <stdio.h>

#include "cmd.h"
#include "i18n.h"
#include "wizard/cmd_wizard.h"

static int
unavailable(const char *what)
{
	fprintf(stderr, _("%s: %s is not available on Windows yet; this build "
	    "has 'doctor', 'verify', 'env', 'explain', 'why NAME.dll' and 'matrix "
	    "show|path' (see '%s --help')\n"), PACKAGE, what, PACKAGE);
	return EXIT_USAGE;
}

/* Plain `cudawiz' runs doctor, not the wizard (there is no curses). */
bool
cmd_wizard_wanted(void)
{
	return false;
}

int
cmd_wizard(const struct cli_opts *opts, bool ascii, bool mouse)
{
	(void)opts;
	(void)ascii;
	(void)mouse;
	return unavailable(_("the wizard"));
}
