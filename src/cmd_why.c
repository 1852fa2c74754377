/* Placeholder until the command lands. */
#include "config.h"

#include <stdio.h>

#include "cli.h"

int
cmd_why(const struct cli_opts *opts)
{
	(void)opts;
	fputs("cudawiz why: not implemented yet\n", stderr);
	return EXIT_USAGE;
}
