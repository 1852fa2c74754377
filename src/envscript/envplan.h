/* An environment plan: what an activation script changes, as plain data.
 *
 * src/envplan/ (the lead's) builds one from options or from doctor's
 * facts; src/envscript/ turns it into a script for one shell. The plan
 * says what the environment must end up as *relative to whatever it is
 * when the script is sourced*: entries to put first, entries to take out,
 * variables to set or unset. Every script applies it to the variables as
 * they are at that moment, so it is right in any shell session, and
 * records what it found, so its way back restores exactly that. */
#ifndef CUDAWIZ_ENVPLAN_H
#define CUDAWIZ_ENVPLAN_H

#include <stdbool.h>

#include "util/strv.h"

/* One path-list variable: PATH or LD_LIBRARY_PATH (PowerShell's PATH is
 * the Windows one; see win_path below). */
struct plan_pathvar {
	/* Directories put first, in this order. An entry already present
	 * elsewhere in the variable is moved, not added twice. */
	struct strv	 prepend;
	/* Entries taken out wherever they are, compared as exact strings
	 * after removing one trailing '/' (other CUDA versions' directories
	 * that would shadow the plan's, a directory the plan replaces). */
	struct strv	 remove;
	/* Take out every entry whose last component is "stubs" (the
	 * toolkit's stub libcuda must never be searched). */
	bool		 drop_stubs;
	/* Take out entries that are not existing directories at the
	 * moment the script runs. */
	bool		 drop_missing;
};

/* A plain variable. */
enum plan_var_op {
	PLAN_VAR_KEEP = 0,	/* leave it alone */
	PLAN_VAR_SET,		/* set it to value */
	PLAN_VAR_UNSET,		/* unset it */
};

struct plan_var {
	enum plan_var_op	 op;
	char			*value;		/* PLAN_VAR_SET */
};

struct env_plan {
	/* A short name for the plan: module name, the deactivate function's
	 * suffix ("cuda-12.4", "torch-env"); only [A-Za-z0-9._-]. */
	char			*name;
	/* Lines for the script's header comment: what it does and why,
	 * one change a line, no newlines inside. */
	struct strv		 notes;
	struct plan_pathvar	 path;
	struct plan_pathvar	 ld_library_path;
	struct plan_var		 cuda_home;
	struct plan_var		 cuda_path;
	/* For PowerShell (Windows and WSL users): directories holding the
	 * cudart64_*.dll / cudnn64_*.dll a framework needs, put first on
	 * the Windows PATH; CUDA_PATH as above. NULL-free strv. */
	struct strv		 win_path_prepend;
	struct strv		 win_path_remove;
	/* `--scope user` (PowerShell and cmd.exe only): the script also
	 * changes the user's own environment in the registry
	 * (HKCU\Environment: Path with the Windows lists, CUDA_PATH and
	 * CUDA_HOME as above), which consoles opened afterwards start with.
	 * Its undo puts back the values found at the first activation,
	 * recorded under HKCU\Software\cudawiz\env\<name>. */
	bool			 win_user;
};

void	env_plan_free(struct env_plan *p);

#endif
