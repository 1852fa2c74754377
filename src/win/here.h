/* This Windows machine as the probes want it (the Windows program only):
 * its environment as "NAME=value" UTF-8 strings and its system drive.
 * doctor and verify run the Windows probe over them. */
#ifndef CUDAWIZ_WIN_HERE_H
#define CUDAWIZ_WIN_HERE_H

#include <stdbool.h>

#include "util/strv.h"

struct win_facts;

/* Appends this process's environment, UTF-8, to out; the per-drive
 * current directories ("=C:=C:\x") left out. */
void	here_environment(struct strv *out);
/* The Windows probe over the system drive with this process's
 * environment, the registry's adapters and Python installs read too when
 * registry is true; f is filled (and freed by the caller) when 0 is
 * returned; -1 with *err (the caller frees) when the drive cannot be
 * opened. */
int	here_probe(struct win_facts *f, bool registry, char **err);
/* The same over the environment envp ("NAME=value", NULL-terminated;
 * NULL: this process's): what a program started with it would find
 * (env --check's "after" side). */
int	here_probe_env(struct win_facts *f, bool registry, char *const *envp,
	    char **err);

#endif
