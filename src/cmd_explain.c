/* Placeholder until the command lands. */
#include "config.h"

#include <stdio.h>

#include "cli.h"

int
cmd_explain(const struct cli_opts *opts)
{
	(void)opts;
	fputs("cudawiz explain: not implemented yet\n", stderr);
	return EXIT_USAGE;
}
