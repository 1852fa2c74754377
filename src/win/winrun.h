/* One run of the Windows pipeline (the Windows program only; src/run/
 * run.h is Linux's): the matrix chosen as on Linux (--matrix FILE, else
 * the embedded one: the cache is Linux's), the Windows probe over the
 * system drive and this process's environment (here.h), and the Windows
 * rules, findings sorted. doctor, env, spec and the guided mode all go
 * through it, so they see the same matrix, facts and findings; verify
 * adds its runs' own findings (rules_windows_verify). Prints nothing. */
#ifndef CUDAWIZ_WIN_WINRUN_H
#define CUDAWIZ_WIN_WINRUN_H

#include <stdbool.h>

#include "diagnose/finding.h"
#include "winprobe/winfacts.h"

struct matrix;

struct win_run {
	struct matrix		*m;		/* owned */
	struct win_facts	 facts;		/* after win_run_open */
	struct findings		 findings;	/* after win_run_diagnose, sorted */
};

/* Chooses the matrix (matrix_file NULL: the embedded one) and probes,
 * the registry's adapters and Python installs read when registry is
 * true. -1 with *err (the caller frees) and nothing to close. */
int	win_run_open(struct win_run *r, const char *matrix_file,
	    bool registry, char **err);
/* win_run_open(), or -1 after saying why on stderr. */
int	win_run_open_or_say(struct win_run *r, const char *matrix_file,
	    bool registry);
/* The Windows rules over the facts, into r->findings (emptied first). */
void	win_run_diagnose(struct win_run *r);
/* The machine probed once more over the environment envp (the registry
 * read as r's was) and diagnosed with r's matrix: *f and *fs (sorted)
 * are filled for the caller to free. -1 with *err as win_run_open. */
int	win_run_probe_env(const struct win_run *r, bool registry,
	    char *const *envp, struct win_facts *f, struct findings *fs,
	    char **err);
void	win_run_close(struct win_run *r);

#endif
