/* The Fix step's model: what the user chose (toolkit, cuDNN, Python
 * environment, shell format, output path), the script those choices
 * render to, and what writing and checking it did. The Fix page edits
 * it, the Done page reads it, the wizard asks it whether quitting loses
 * a previewed script and runs its slow step (the check) between frames.
 *
 * Rendering is pure (plan_build, script_render); writing goes through
 * src/envscript/ and the check through src/envplan/check.h, the env
 * layer, so the wizard itself still opens no system file. */
#ifndef CUDAWIZ_WIZARD_FIX_H
#define CUDAWIZ_WIZARD_FIX_H

#include <stdbool.h>

#include "envplan/check.h"
#include "envplan/plan.h"
#include "envscript/envscript.h"
#include "wizard/lineedit.h"
#include "wizard/report.h"
#include "wizard/screen.h"

/* The page's fields, top to bottom: four lists, the path, three actions. */
enum wfix_field {
	WF_TOOLKIT = 0,
	WF_CUDNN,
	WF_PYENV,
	WF_SHELL,
	WF_OUTPUT,
	WF_PREVIEW,
	WF_WRITE,
	WF_CHECK,
	WF_COUNT
};
#define WF_LISTS	4	/* fields before WF_OUTPUT are lists */

enum wfix_mode {
	WFM_FORM = 0,	/* moving between fields */
	WFM_PICK,	/* a list is open */
	WFM_EDIT,	/* the path is being typed */
	WFM_PREVIEW,	/* the script, scrolled */
	WFM_RESULT,	/* the check's rows, scrolled */
	WFM_CONFIRM,	/* "replace FILE? y/n" before writing over a file */
};

/* One list's entries: the value given to the plan (NULL: none chosen)
 * and what the list shows. */
struct wfix_list {
	struct strv	 labels;
	char		**values;	/* labels.n entries; owned; may be NULL */
	int		 chosen;
};

struct wfix {
	const struct wiz_report	*r;
	struct wfix_list	 list[WF_LISTS];
	struct wline_edit	 path;
	bool			 path_typed;	/* kept when the format changes */
	char			*path_before;	/* Esc restores it; owned */

	enum wfix_field		 field;
	enum wfix_mode		 mode;
	int			 pick;		/* the cursor in an open list */
	int			 preview_scroll, result_scroll;
	int			 preview_h, result_h;	/* columns scrolled left */

	/* The directory a default path goes into (absolute; the real
	 * one under --root too: the user's file is written here). */
	char			*cwd;

	/* The finding the page was prefilled for (wfix_prefill): its
	 * subject or title, and when no activation script can fix it,
	 * its install lines. Copies: a rescan replaces the findings. */
	char			*for_text;
	bool			 for_unscriptable;
	struct strv		 for_fix;

	/* The script for the current choices, rendered when first needed. */
	bool			 rendered;
	struct env_plan		 plan;
	struct plan_report	 rep;
	struct script_text	 text;
	char			*render_err;	/* why there is no script */
	bool			 previewed;	/* shown since it last changed */
	bool			 written;	/* these choices are on disk */

	/* The last file written, for the check and the Done page. */
	char			*w_path;
	char			*w_backup;
	char			*w_deactivate;	/* conda */
	enum script_format	 w_fmt;
	char			*w_undo;	/* the deactivate function */
	char			*w_name;	/* the plan's name (modules) */

	char			*msg;		/* what the last action did */
	enum wslot		 msg_slot;

	bool			 check_pending;	/* run it after the next frame */
	bool			 checked;
	bool			 check_running;	/* inside wfix_work */
	bool			 check_stopped;	/* the user stopped it */
	struct env_check	 check;
	char			*check_err;

	/* The rc file --install-rc edited from the Done page (i), and
	 * what it did. */
	char			*rc_msg;
	enum wslot		 rc_slot;

	/* Set by the wizard: draws a frame while the check runs and says
	 * whether the user asked to stop (Esc, q, Ctrl-C). */
	bool			(*tick)(void *arg, bool draw);
	void			*tick_arg;
};

struct wfix	*wfix_new(const struct wiz_report *r);
void		 wfix_free(struct wfix *fx);

enum script_format wfix_format(const struct wfix *fx);
/* Picks entry i of list l; a new format renames an untyped path. */
void		 wfix_choose(struct wfix *fx, int l, int i);
/* The path was edited (or restored): the script is to be written anew. */
void		 wfix_path_changed(struct wfix *fx);
/* Renders the script for the current choices if not done yet; false
 * when there is none (render_err says why). */
bool		 wfix_render(struct wfix *fx);
/* Writes it; the result (or the error) is in msg. */
void		 wfix_write(struct wfix *fx);
/* Enter on "Write and check": writes the script and, where the proof
 * can run, asks for it; over a file not written by this wizard it first
 * asks (mode WFM_CONFIRM, then wfix_confirm). */
void		 wfix_write_and_check(struct wfix *fx);
/* The answer to "replace FILE?": y writes (and checks), n does not. */
void		 wfix_confirm(struct wfix *fx, bool yes);
/* The output path as written: "~" and "~/" at its start expanded to
 * $HOME, a relative path made absolute (newly allocated). */
char		*wfix_path(const struct wfix *fx);
/* Why the path's name does not fit the shell format (a .fish name for
 * an sh script), newly allocated; NULL when it fits. */
char		*wfix_path_warning(const struct wfix *fx);
/* Under --root the proof cannot run: the script is for another tree. */
bool		 wfix_check_possible(const struct wfix *fx);
/* Whether an activation script can fix a finding with this code (it
 * sets variables; it cannot install a driver or a package). */
bool		 wfix_scriptable(enum finding_code code);
/* The Done page's i: adds the line sourcing the written script to the
 * shell's rc file, as `cudawiz env -o FILE --install-rc` does; the
 * outcome is in rc_msg. */
void		 wfix_install_rc(struct wfix *fx);
/* Asks for the check of the file last written: it runs in wfix_work,
 * after the screen says it is running. */
void		 wfix_check_request(struct wfix *fx);
/* Runs a requested slow step; false when there was none. */
bool		 wfix_work(struct wfix *fx);
/* A script was shown and these choices are not written. */
bool		 wfix_unsaved(const struct wfix *fx);
/* "activate: …" and "undo: …" for the file last written, as `cudawiz
 * env -o` prints them (newly allocated lines; NULL when none written). */
char		*wfix_howto(const struct wfix *fx);
/* The command that activates the file last written, as one line to
 * paste (". '/abs/cudawiz-env.sh'"); NULL when none, or not sourced
 * by hand (conda, modules). Newly allocated. */
char		*wfix_activate_line(const struct wfix *fx);
/* Sets the choices (toolkit, cuDNN, environment, shell) that fix
 * finding f, from its facts, and puts the focus where one more key
 * writes and checks the script. */
void		 wfix_prefill(struct wfix *fx, const struct finding *f);
/* What to print after the wizard ends (wizard_farewell): the file
 * written, activate and undo, install commands left; NULL: nothing. */
char		*wfix_farewell(const struct wfix *fx);

#endif
