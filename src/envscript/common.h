/* What the format writers share: the plan checked and prepared once and
 * the common header (common.c), the lines that say how to use a written
 * script (use.c). Internal to src/envscript/; it calls nothing in the
 * dispatcher (envscript.c) or in any writer. */
#ifndef CUDAWIZ_ENVSCRIPT_COMMON_H
#define CUDAWIZ_ENVSCRIPT_COMMON_H

#include <stdbool.h>

#include "envscript/envscript.h"
#include "envscript/writer.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/strv.h"

/* One path-list variable as the writers need it. */
struct pv_prep {
	const char	*name;		/* "PATH", "LD_LIBRARY_PATH" */
	bool		 touched;	/* the plan changes it at all */
	struct strv	 prepend;	/* non-empty, one per key, in order */
	/* Entries to take out of the old value that are not prepended,
	 * as the plan wrote them; one per key. */
	struct strv	 remove;
	/* The keys (one trailing '/' removed) of every entry to take out
	 * of the old value: the prepended ones (they move) and the removed
	 * ones; unique. */
	struct strv	 keys;
	bool		 stubs;
	bool		 missing;
};

/* A plain variable. */
struct var_prep {
	const char		*name;		/* "CUDA_HOME", "CUDA_PATH" */
	const struct plan_var	*v;
};

/* The plan prepared for a writer whose lists are separated by sep. */
struct prep {
	const struct env_plan	*plan;
	const struct script_writer *w;		/* the format's row */
	const char		*format;	/* w->name, for messages */
	char			*ident;		/* name, [A-Za-z0-9_] only */
	char			*deact;		/* cudawiz_deactivate_<ident> */
	struct pv_prep		 pv[2];		/* PATH, LD_LIBRARY_PATH */
	struct var_prep		 var[2];	/* CUDA_HOME, CUDA_PATH */
};

/* Checks the plan's name and every list entry (no sep in an entry: it
 * could not be one entry of the list) and fills pr. 0 or -1 with *err. */
int	prep_plan(const struct env_plan *p, const struct script_writer *w,
	    char sep, struct prep *pr, char **err);
void	prep_free(struct prep *pr);
/* s without one trailing '/'; malloc'd. */
char	*path_key(const char *s);
/* -1 with *err when a directory to prepend or a value to set holds a
 * newline: the module systems write their shell code with the value
 * inside quotes that a newline breaks out of. */
int	refuse_newlines(const struct prep *pr, char **err);
/* -1 with *err saying that the format cannot hold this value. */
int	unwritable(const struct prep *pr, const char *what, const char *value,
	    const char *why, char **err);

/* The header every script starts with, each line a comment of the
 * format (pr->w->comment): the format marker, the plan's notes, who wrote
 * it, how to use and how to undo it, then the extra lines
 * (NULL-terminated). */
void	emit_header(struct strbuf *sb, const struct prep *pr,
	    const char *version, const char *use, const char *undo,
	    const char *const *extra);

/* w->source_verb and path as one word of w's shell ("./" before a
 * relative path, quoted by w->quote unless no shell gives any of its
 * characters a meaning). */
void	source_word(struct strbuf *sb, const struct script_writer *w,
	    const char *path);
/* The use lines (writer.h) of a script sourced by hand (sh, fish, csh,
 * PowerShell): "activate:  SOURCE-COMMAND", "undo:      FUNCTION". */
void	use_source(struct strbuf *sb, const struct script_writer *w,
	    const struct script_use *u);
/* ... of a modulefile: "module use DIR && module load NAME", "module
 * unload NAME". */
void	use_module(struct strbuf *sb, const struct script_writer *w,
	    const struct script_use *u);
/* env --check's argv after argv[0] for a modulefile (writer.h): the
 * module system's init file, then `module use` and `module load`. */
extern const char *const module_run_args[];

#endif
