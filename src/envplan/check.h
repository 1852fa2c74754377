/* The before/after proof of an activation script, as data: the script
 * sourced in its shell (source.h), the machine probed in the environment
 * before and in the one the script leaves, every need compared
 * (compare.h), the findings that went away or appeared, and each CUDA
 * runtime the script's environment resolves loaded live by the helper.
 * `cudawiz env --check` prints it (cmd_env_check.c); the wizard's Fix
 * page shows it. This is the env layer: it reads the system (and runs a
 * shell and the helper) so that its callers do not. Never prints. */
#ifndef CUDAWIZ_ENVPLAN_CHECK_H
#define CUDAWIZ_ENVPLAN_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/finding.h"
#include "envplan/compare.h"
#include "envplan/source.h"
#include "envscript/envscript.h"
#include "facts/facts.h"
#include "verify/verify.h"

struct matrix;
struct sysroot;

/* One side of the proof. */
struct env_check_side {
	struct sysroot	*sr;
	struct facts	*facts;
	struct findings	 findings;
};

/* A runtime loaded live on both sides. */
struct env_check_live {
	char			*soname;
	struct verify_run	 before, after;
};

struct env_check {
	enum script_format	 fmt;
	struct sourced		 src;		/* src.envp: the "after" environment */
	struct env_check_side	 before, after;
	struct check_rows	 rows;
	struct {
		struct env_check_live	*v;
		size_t			 n, cap;
	} live;
	char			*live_why;	/* why nothing ran live; NULL */
	/* Problem codes (warnings and errors) only before, only after. */
	struct strv		 gone, new;
	bool			 ok;		/* check_rows_ok() */
	bool			 stopped;	/* the caller's stop() said so */
};

/* Asked between the proof's steps (and after a child that failed, which
 * a Ctrl-C's runcap_abort() kills): true stops the proof there, and the
 * run returns -1 with out->stopped set. */
struct env_check_stop {
	bool	(*stop)(void *arg);
	void	*arg;
};

/* Runs the proof for file (format fmt) on the machine under root (NULL or
 * "/": the host) from the environment envp, with the matrix m; each child
 * (the shell, the helper) is bounded by timeout_s. helper NULL: the one
 * verify_helper_path() finds. 0, or -1 with *err (malloc'd: the script
 * could not be sourced, the root cannot be opened); *out is to be freed
 * with env_check_free either way. */
int	env_check_run(const char *file, enum script_format fmt,
	    const char *root, char *const *envp, const struct matrix *m,
	    double timeout_s, const char *helper, struct env_check *out,
	    char **err);
/* env_check_run that asks st (NULL: never stops) between its steps. */
int	env_check_run_stop(const char *file, enum script_format fmt,
	    const char *root, char *const *envp, const struct matrix *m,
	    double timeout_s, const char *helper,
	    const struct env_check_stop *st, struct env_check *out,
	    char **err);
/* The same within an opened run (src/run/: its tree, matrix and
 * environment, which is the "before" side). */
struct cw_run;
int	env_check_run_in(struct cw_run *run, const char *file,
	    enum script_format fmt, double timeout_s, const char *helper,
	    struct env_check *out, char **err);
void	env_check_free(struct env_check *c);

/* "FIXED", "STILL BROKEN", "BROKEN BY THE SCRIPT" … translated. */
const char	*env_check_verdict_words(enum need_verdict v);
/* What a live run proved, in a few words (malloc'd). */
char		*env_check_live_words(const struct verify_run *r);

#endif
