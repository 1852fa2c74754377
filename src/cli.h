/* The command line: options, the command table, exit codes. */
#ifndef CUDAWIZ_CLI_H
#define CUDAWIZ_CLI_H

#include <stdbool.h>

/* Exit codes (design.md): 0 no error finding, 1 an error finding or the
 * action failed, 2 usage error or cudawiz itself could not run. */
#define EXIT_OK		0
#define EXIT_FINDINGS	1
#define EXIT_USAGE	2

struct cli_opts {
	bool		 json;
	bool		 offline;
	int		 color;		/* -1 automatic, 0 never, 1 always */
	const char	*root;		/* NULL: the host */
	char		**args;		/* after the command word */
	int		 nargs;
};

int	cli_main(int argc, char **argv);

/* Commands. */
int	cmd_doctor(const struct cli_opts *opts);

#endif
