/* What the dispatcher (cli.c) hands the commands: the parsed options,
 * the exit codes, and the commands themselves. The commands and the
 * wizard include this, never cli.h. */
#ifndef CUDAWIZ_CMD_H
#define CUDAWIZ_CMD_H

#include <stdbool.h>
#include <time.h>
#include <stddef.h>

/* Exit codes (design.md): 0 no error finding, 1 an error finding or the
 * action failed, 2 usage error or cudawiz itself could not run. */
#define EXIT_OK		0
#define EXIT_FINDINGS	1
#define EXIT_USAGE	2

struct cli_opts {
	bool		 json;		/* --json, --format json */
	bool		 html;		/* --format html */
	bool		 prometheus;	/* --format prometheus (doctor) */
	bool		 offline;
	int		 color;		/* -1 automatic, 0 never, 1 always */
	const char	*root;		/* NULL: the host */
	const char	*matrix_file;	/* --matrix FILE; NULL: cache or embedded */
	const char	*from;		/* why --from FILE; NULL: a plain program */
	char		**args;		/* after the command word */
	int		 nargs;
	/* Options of `matrix update` only. */
	const char	**urls;		/* --url, in the order given */
	size_t		 nurls;
	long		 connect_timeout_ms;	/* 0: the default */
	long		 timeout_ms;		/* 0: the default */
	/* Options of verify and doctor. */
	bool		 no_verify;		/* doctor --no-verify */
	/* Plain `cudawiz` off a terminal: the report ends with the commands
	 * to run next (a notebook cell has no wizard to lead it on). */
	bool		 next_steps;
	bool		 quick;			/* verify --quick */
	const char	*verify_env;		/* verify --env DIR; NULL */
	/* Options of env. */
	const char	*shell;			/* --shell FORMAT; NULL: from $SHELL */
	const char	*output;		/* -o FILE; NULL: stdout */
	bool		 force;			/* write through a symlink */
	bool		 install_rc;
	const char	*toolkit;
	const char	*cudnn;
	const char	*python_env;
	const char	**add_lib;		/* --add-lib, in order */
	size_t		 nadd_lib;
	bool		 keep_other_cuda;
	bool		 scope_user;		/* --scope user */
	const char	*check;			/* --check FILE */
	/* Options of the fleet commands (and doctor's --baseline). */
	const char	*baseline;		/* --baseline FILE; NULL */
	long		 max_age_s;		/* fleet --max-age; 0: 24 h */
};

/* Commands. The dispatcher has checked the number of words after the
 * command and which options were given before calling one. */
int	cmd_doctor(const struct cli_opts *opts);
int	cmd_matrix(const struct cli_opts *opts);
int	cmd_why(const struct cli_opts *opts);
int	cmd_explain(const struct cli_opts *opts);
int	cmd_verify(const struct cli_opts *opts);
int	cmd_env(const struct cli_opts *opts);
/* env --check FILE (cmd_env_check.c). */
int	cmd_env_check(const struct cli_opts *opts);
/* spec export (cmd_spec.c) and fleet (cmd_fleet.c). */
int	cmd_spec(const struct cli_opts *opts);
int	cmd_fleet(const struct cli_opts *opts);

struct findings;
/* A report's exit status once it is printed (print_rc: the printer's
 * 0 or -1): stdout flushed, a write error said on stderr (EXIT_USAGE),
 * else EXIT_FINDINGS when fs holds an error, EXIT_OK otherwise. */
int	cmd_report_exit(int print_rc, const struct findings *fs);

#endif
