/* Activation scripts: an environment plan (envplan.h) as text for one
 * shell or module system, and the careful file writing around it.
 *
 * Every script applies the plan to the variables as they are when it is
 * sourced, can be sourced twice with the effect of once, never leaves an
 * empty component, quotes every path for its language so nothing in a
 * path is ever executed, and has a way back to the environment exactly as
 * it was before the first activation (unset stays unset, empty stays
 * empty). The first lines of each carry `<comment> cudawiz-format: NAME`
 * so `cudawiz env --check FILE` can tell which shell a file is for.
 * What each format can and cannot do is said at the top of its writer. */
#ifndef CUDAWIZ_ENVSCRIPT_H
#define CUDAWIZ_ENVSCRIPT_H

#include <stdbool.h>

#include "envscript/envplan.h"

/* One per row of formats.def, in its order. */
enum script_format {
#define SCRIPT_FORMAT(e, row) e,
#include "envscript/formats.def"
#undef SCRIPT_FORMAT
	SCRIPT_NFORMATS
};

/* "sh", "fish", "csh", "powershell", "conda", "lmod", "tcl", "direnv". */
const char	*script_format_name(enum script_format f);
/* A shell's or format's name (sh bash zsh dash ksh mksh fish csh tcsh
 * powershell pwsh conda lmod lua tcl modules direnv envrc, or one of
 * the names above); false for anything else. */
bool		 script_format_parse(const char *shell, enum script_format *out);

struct script_text {
	char	*text;
	char	*deactivate;	/* conda's deactivate.d script; else NULL */
};

/* Renders the plan. 0, or -1 with *err (malloc'd) when the plan cannot
 * be written safely for that format (a path the format cannot hold: a
 * ':' in a ':'-separated list entry, a newline where the language has no
 * way to write one); nothing is half-written. */
int	script_render(const struct env_plan *p, enum script_format f,
	    const char *version, struct script_text *out, char **err);
void	script_text_free(struct script_text *t);

/* The name of the way back the sh, fish, csh and PowerShell scripts
 * define: "cudawiz_deactivate_" + the plan's name with every byte
 * outside [A-Za-z0-9_] replaced by '_'. Malloc'd. */
char	*script_deactivate_name(const struct env_plan *p);
/* The command that sources the script at path in its own shell, to
 * print for a person to paste: ". './a b.sh'" (sh; PowerShell with its
 * quoting), "source ./x.fish" (fish), "source './x'\!'y.csh'" (csh and
 * tcsh, '!' outside the quotes), each in that shell's own quoting;
 * "direnv allow ./.envrc" for direnv (sh quoting). A
 * relative path gets a leading "./": `.` in dash, zsh, ksh and bash
 * --posix looks a bare name up on PATH, and a name starting with '-'
 * would be read as an option (tcsh's `source` and PowerShell's `.` take
 * no "--", so "./" is the one form every shell reads as a file). NULL
 * for the formats that are not sourced by hand (conda, lmod, tcl).
 * Malloc'd. */
char	*script_source_cmd(enum script_format f, const char *path);
/* What was written, for the lines that tell a person how to use it. */
struct script_use {
	const char	*path;		/* the script (conda: activate.d's) */
	const char	*deactivate;	/* conda's deactivate.d script */
	const char	*undo;		/* script_deactivate_name() */
};

/* "activate:  …" and "undo:      …" (conda: "and DEACTIVATE" first) for
 * a script of format f written as u says, each line ending in a newline:
 * the words `cudawiz env -o` prints and the wizard's Done page shows, so
 * both say the same. Malloc'd. */
char	*script_use_lines(enum script_format f, const struct script_use *u);
/* The rc file --install-rc edits for a format f script, for the user's
 * own shell (script_login_shell) under home; NULL for a format no rc
 * file sources. Malloc'd. */
char	*script_rc_file(enum script_format f, const char *home,
	    const char *shell);
/* A format f script goes into a conda environment (activate.d and
 * deactivate.d, script_write_conda), not into one file. */
bool	 script_into_conda(enum script_format f);
/* A format f script can also change the user's Windows environment
 * (env_plan.win_user, `env --scope user`): powershell and cmd. */
bool	 script_user_scope(enum script_format f);

/* The user's shell by name, from $SHELL in envp ("bash", "fish" …);
 * "sh" when it is not set. For the default format and the rc file. */
const char *script_login_shell(char *const *envp);

/* Writes text to path atomically (a temporary file in the same
 * directory, fsync, rename, fsync of the directory). An existing file is
 * kept first as PATH.bak, or PATH.bak.1, .2 … (never replacing a backup);
 * *backup gets that path, else NULL. A symlink at path is refused unless
 * force, and with force the file it points to is replaced (so a dotfile
 * manager's links keep working) and backed up. 0, or -1 with *err naming
 * the path and the system's reason; on failure nothing new is left
 * behind (no temporary file, no backup). */
int	script_write_file(const char *path, const char *text, bool force,
	    char **backup, char **err);
/* Whether something (a file, a link, anything) is at path now: a writer
 * asks the user before script_write_file replaces it. */
bool	script_target_exists(const char *path);

/* Writes PREFIX/etc/conda/activate.d/cudawiz-NAME.sh and
 * deactivate.d/cudawiz-NAME.sh (creating the directories) by the rules
 * of script_write_file; *act and *deact get their paths. */
int	script_write_conda(const char *prefix, const struct env_plan *p,
	    const struct script_text *t, bool force, char **act, char **deact,
	    char **err);

/* Adds one marked line sourcing script (an absolute path) to the rc file
 * unless that line is already there (*changed false). The rc file is
 * backed up first (*backup), written atomically, created with its
 * directory when missing; an rc file that is a symlink is written
 * through. sh, fish and csh only. */
int	script_install_rc(const char *rc, const char *script,
	    enum script_format fmt, bool *changed, char **backup, char **err);

#endif
