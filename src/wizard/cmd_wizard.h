/* `cudawiz` with no command on a terminal: the wizard. */
#ifndef CUDAWIZ_CMD_WIZARD_H
#define CUDAWIZ_CMD_WIZARD_H

#include <stdbool.h>

#include "cmd.h"

/* Whether the wizard can run here: stdin and stdout are terminals and
 * TERM names one that is not "dumb". */
bool	cmd_wizard_wanted(void);
/* Probes once, then runs the wizard (ascii: --ascii, no UTF-8 boxes or
 * ticks; mouse: clicks, unless --no-mouse), then prints what the wizard
 * leaves to the user (the script written, what is left to run); exit
 * codes as doctor's. */
int	cmd_wizard(const struct cli_opts *opts, bool ascii, bool mouse);

#endif
