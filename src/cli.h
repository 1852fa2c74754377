/* The command line: the option and command tables, parsing, dispatch.
 * Only main() calls it; what the commands see is in cmd.h. */
#ifndef CUDAWIZ_CLI_H
#define CUDAWIZ_CLI_H

/* Parses argv, checks it against the tables and runs the command;
 * returns the exit status (cmd.h). */
int	cli_main(int argc, char **argv);

#endif
