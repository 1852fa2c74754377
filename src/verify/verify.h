/* Live verification: runs the helper (docs/VERIFY.md) once for the driver,
 * once per CUDA runtime and once per cuDNN the probes found, each in its
 * own process with a controlled environment and a timeout, and records
 * what it said in facts->verify. Nothing here decides what is wrong:
 * diagnose's rules_verify.c does. Nothing here prints. */
#ifndef CUDAWIZ_VERIFY_H
#define CUDAWIZ_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "facts/facts.h"

#define VERIFY_TIMEOUT_DEFAULT_S	30.0

struct verify_opts {
	const char	*helper;	/* NULL: verify_helper_path() */
	double		 timeout_s;	/* per helper run; <= 0: the default */
	bool		 quick;		/* small sizes, no bandwidth or FMA */
	char *const	*envp;		/* the user's environment */
	/* verify --env: an environment (or any directory tree) whose
	 * libraries may be loaded although it is not the active one; the
	 * ownership rule still applies (verify_env_check). NULL: none. */
	const char	*env;
	/* Called before each run starts (for progress); NULL for none. */
	void		(*progress)(void *arg, const struct verify_run *run,
			    size_t index, size_t total);
	void		*progress_arg;
	/* Asked before each run, after progress, with progress_arg; true
	 * stops there: the runs not started are dropped and the facts say
	 * cancelled (a wizard's Esc). NULL: never. */
	bool		(*cancel)(void *arg);
};

/* Plans the runs from facts and runs them. Under --root (facts->
 * live_allowed false) nothing runs: the state says why. */
void	verify_all(struct facts *facts, const struct verify_opts *o);

/* Whether verify --env PATH may be loaded: its real path (new) when it
 * is a directory in a tree only root and the invoking user can write;
 * NULL with *why set otherwise. */
char	*verify_env_check(const char *path, char *const *envp, char **why);

/* The helper: $CUDAWIZ_HELPER, else cudawiz-verify beside the running
 * binary (a build tree), else the installed one under pkglibexecdir.
 * NULL with *why set when none is executable. */
char	*verify_helper_path(char *const *envp, char **why);

/* One run: starts helper with run->argv (argv[0] excluded) and env,
 * reads its records into run, kills it after timeout_s. Fills the
 * outcome fields; never fails. */
void	verify_exec(struct verify_run *run, const char *helper,
	    char *const *env, double timeout_s);

/* One line of output into a record; false when it is not one. */
bool	verify_parse_line(const char *line, size_t len,
	    struct verify_record *out);

#endif
