/* The text `explain' reads: its arguments joined, or standard input, cut
 * at EXPLAIN_INPUT_MAX (shared by src/cmd_explain.c and the Windows
 * program's src/win/cmd_explain.c). */
#ifndef CUDAWIZ_EXPLAIN_INPUT_H
#define CUDAWIZ_EXPLAIN_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd.h"

struct explain_input {
	char	*text;
	size_t	 len;
	bool	 cut;		/* longer than EXPLAIN_INPUT_MAX */
	bool	 from_stdin;
};

/* Fills in from "-" (standard input) or the arguments. Returns 0, or
 * EXIT_USAGE after saying why (a read error, an empty text). */
int	explain_input_read(const struct cli_opts *opts, struct explain_input *in);
void	explain_input_free(struct explain_input *in);

#endif
