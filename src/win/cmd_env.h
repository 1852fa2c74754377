/* The Windows env's writing half, for the guided mode's Fix page: the
 * plan for a run's facts rendered and written as `cudawiz env --shell
 * FMT -o PATH --force` would, without probing the machine again. */
#ifndef CUDAWIZ_WIN_CMD_ENV_H
#define CUDAWIZ_WIN_CMD_ENV_H

#include <stdbool.h>

#include "envscript/envscript.h"

struct win_run;

enum win_env_result {
	WIN_ENV_WRITTEN,	/* path written (*backup: the old file, or NULL) */
	WIN_ENV_NOTHING,	/* nothing to write; *why says why, in env's words */
	WIN_ENV_FAILED,		/* *why: the error */
};

/* The plan for r (the toolkit it needs, others kept or not) rendered for
 * fmt and written to path, an existing file replaced (and kept as a
 * backup) only when force is true. *why and *backup are owned. */
enum win_env_result win_env_write(const struct win_run *r,
	    enum script_format fmt, const char *path, bool force,
	    char **backup, char **why);

#endif
