/* What the format writers share: the plan checked and prepared once, the
 * common header, and one entry point per format. Internal to
 * src/envscript/. */
#ifndef CUDAWIZ_ENVSCRIPT_INT_H
#define CUDAWIZ_ENVSCRIPT_INT_H

#include <stdbool.h>

#include "envscript/envscript.h"
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
	const char		*format;	/* for messages */
	char			*ident;		/* name, [A-Za-z0-9_] only */
	char			*deact;		/* cudawiz_deactivate_<ident> */
	struct pv_prep		 pv[2];		/* PATH, LD_LIBRARY_PATH */
	struct var_prep		 var[2];	/* CUDA_HOME, CUDA_PATH */
};

/* Checks the plan's name and every list entry (no sep in an entry: it
 * could not be one entry of the list) and fills pr. 0 or -1 with *err. */
int	prep_plan(const struct env_plan *p, enum script_format f, char sep,
	    struct prep *pr, char **err);
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

/* The header every script starts with, each line prefixed by cmt:
 * the format marker, the plan's notes, who wrote it, how to use and how
 * to undo it, then the extra lines (NULL-terminated). */
void	emit_header(struct strbuf *sb, const struct prep *pr, const char *cmt,
	    const char *version, const char *use, const char *undo,
	    const char *const *extra);

/* The writers. Each fills out->text (and conda out->deactivate). */
int	render_sh(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_conda(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_direnv(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_fish(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_csh(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_pwsh(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_lmod(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);
int	render_tcl(const struct prep *pr, const char *version,
	    struct script_text *out, char **err);

/* sh.c's pieces that conda.c and direnv.c reuse: the activation (saving
 * the old values unless already saved, then editing) and the body of
 * the way back. */
void	sh_activate(struct strbuf *sb, const struct prep *pr, bool save);
/* sh.c: the list editing that sh and csh scripts share. */
extern const char sh_pathedit_collect[];
void	sh_restore_body(struct strbuf *sb, const struct prep *pr,
	    const char *indent);
/* s quoted for fish (single quotes). */
void	fish_quote(struct strbuf *sb, const char *s);
/* s quoted for PowerShell (single quotes). */
void	ps_quote(struct strbuf *sb, const char *s);
/* s quoted for csh/tcsh on one line; -1 when s holds a newline. */
int	csh_quote(struct strbuf *sb, const char *s);

#endif
