/* One script format as a row of the writers' table: its names, its
 * writer, and what the rest of cudawiz needs to know of it (the rc file,
 * the words that say how to use a written script, where the wizard
 * writes it, how `env --check` recognises and sources it), so no switch
 * on the format is written anywhere else.
 *
 * Each writer's file defines its row; formats.def lists the rows in
 * order and envscript.c reads them. The rows point only at their own
 * file's functions and at the shared helpers (common.h), never back at
 * the dispatcher, so the folder is a tree: envscript.c and write.c ->
 * the writers -> common.c, use.c. */
#ifndef CUDAWIZ_ENVSCRIPT_WRITER_H
#define CUDAWIZ_ENVSCRIPT_WRITER_H

#include <stdbool.h>

#include "envscript/envscript.h"
#include "util/strbuf.h"

struct prep;		/* common.h: the plan as the writers need it */
struct script_writer;

/* A module system, for env --check: its init file for bash is
 * $HOME_VAR/init/bash, else the first readable one of inits. */
struct script_modsys {
	const char		*name;		/* "Lmod", for messages */
	const char		*home_var;	/* "LMOD_PKG" */
	const char *const	*inits;		/* NULL-terminated */
};

/* How env --check sources a file of this format in a child. */
struct script_run {
	/* The programs looked for on PATH (then /usr/bin, /bin), the
	 * first found runs it; NULL-terminated. NULL: the user's POSIX
	 * shell ($SHELL when it is one, else sh). */
	const char *const		*progs;
	const char			*want;	/* named when none is found */
	/* argv[0]; NULL: the path of the shell found. */
	const char			*argv0;
	/* The rest of argv, NULL-terminated. The last is the command: it
	 * reads the file from $CW_FILE (a modulefile: $CW_INIT, $CW_DIR,
	 * $CW_NAME), exits 97 when sourcing fails and prints $CW_MARK on a
	 * line of its own before `env -0`. */
	const char *const		*args;
	const struct script_modsys	*modsys;	/* a modulefile */
};

struct script_writer {
	/* --shell's name, the JSON "format", the "cudawiz-format:" line. */
	const char	*name;
	/* The other names --shell takes for it; NULL-terminated. */
	const char *const *aliases;
	/* What starts a comment line in the format: "#", "--". */
	const char	*comment;
	/* Renders the prepared plan: out->text (conda out->deactivate too).
	 * 0, or -1 with *err when the format cannot hold the plan. */
	int		(*render)(const struct prep *pr, const char *version,
			    struct script_text *out, char **err);

	/* A file of it sourced by hand: the words before its path (". ",
	 * "source ", "direnv allow "), and the path as one word in the
	 * shell's quoting, quoted even where it needs none (-1 when that
	 * shell cannot quote it: csh, a newline). NULL, NULL: the format
	 * is not sourced by hand (conda, the module systems). */
	const char	*source_verb;
	int		(*quote)(struct strbuf *sb, const char *s);
	/* The rc file that sources it for the user's shell (a name
	 * script_login_shell gives); NULL: --install-rc does not work for
	 * it. Malloc'd. */
	char		*(*rc_file)(const char *home, const char *shell);
	/* The lines saying how to use and undo what was written
	 * (script_use_lines), each ending in a newline. */
	void		(*use)(struct strbuf *sb, const struct script_writer *w,
			    const struct script_use *u);
	/* A modulefile's module name is its file name less this (".lua");
	 * NULL: the whole file name. */
	const char	*module_ext;
	/* It goes into a conda environment, not into one file. */
	bool		 into_conda;
	/* It can also change the user's environment in the Windows registry
	 * (env_plan.win_user): PowerShell and cmd.exe. */
	bool		 user_scope;

	/* The wizard's list of formats: a few words (N_()) and the output
	 * file it proposes (NULL for into_conda). */
	const char	*what;
	const char	*file;

	/* A file without a "cudawiz-format:" line is taken for this format
	 * when its name ends in one of suffixes (NULL-terminated), is
	 * file_name, or its text starts with head; names are looked at
	 * before heads, and a guess_last row only when no other fits. */
	const char *const *suffixes;
	const char	*file_name;
	const char	*head;
	bool		 guess_last;

	struct script_run run;
};

/* The rows, defined in the writers' files. */
#define SCRIPT_FORMAT(e, row) extern const struct script_writer row;
#include "envscript/formats.def"
#undef SCRIPT_FORMAT

/* f's row; sh's for a value that is no format. */
const struct script_writer *script_writer(enum script_format f);

#endif
