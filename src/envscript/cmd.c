/* cmd.exe batch files (.cmd), for Windows: PATH edited with the plan's
 * Windows lists (win_path_prepend/remove: the directories of
 * cudart64_*.dll and cudnn64_*.dll), CUDA_HOME and CUDA_PATH as the plan
 * says. The Linux lists mean nothing to cmd.exe and are left out.
 *
 * `call FILE` (or FILE at the prompt, which runs it in the prompt's own
 * process) activates; `call FILE undo` restores what the variables were
 * before the first activation, kept in _CUDAWIZ_<name>_* variables; a
 * second activation keeps them. No setlocal: the changes must outlive
 * the file.
 *
 * PATH is walked one entry at a time with `for /f` and goto, outside any
 * parenthesised block, so each %var% is read when its line runs and
 * delayed expansion (and its '!') is never needed. An entry is dropped
 * when, compared without case and without one trailing '\' or '/', it
 * is a directory the plan prepends or removes; empty entries go.
 * Literal text is written with '%' doubled; every value stands inside
 * "set \"NAME=VALUE\"", where & | < > ^ ( ) are plain characters.
 *
 * Limits (cmd.exe's): a value may not hold '"' (it would end the
 * quoting), and the old PATH's own quotes are dropped from its entries
 * while it is walked ("C:\x" is kept as C:\x, which LoadLibrary can
 * then search; quoted, it never could). cmd.exe has no empty variables:
 * one that was empty comes back unset.
 *
 * --scope user (plan->win_user) also changes HKCU\Environment with
 * reg.exe (user_apply, user_undo below). Its limits (reg.exe's and
 * for /f's): a registry value's leading blanks are lost when it is read,
 * and the console that ran it has the change while others get it only
 * once Windows re-reads the user environment (cmd.exe cannot broadcast
 * WM_SETTINGCHANGE), which the header and the "how to use" lines say. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envscript/common.h"
#include "i18n.h"
#include "util/xalloc.h"

/* s as literal text of a batch line: '%' doubled. */
static void
bat_text(struct strbuf *sb, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '%')
			strbuf_putc(sb, '%');
		strbuf_putc(sb, *s);
	}
}

/* The header, written by the shared emit_header, made safe as rem
 * lines: cmd.exe expands %…% even there (and a stray %~ is an error),
 * and a line ending in '^' would swallow the next one. */
static void
bat_comments(struct strbuf *sb, const char *text)
{
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '%')
			strbuf_putc(sb, '%');
		if (*p == '^' && (p[1] == '\n' || p[1] == '\0'))
			strbuf_putc(sb, '^');
		strbuf_putc(sb, *p);
	}
}

/* The key an entry is compared by: without one trailing '\' or '/'. */
static char *
win_key(const char *s)
{
	size_t n = strlen(s);

	if (n > 1 && (s[n - 1] == '\\' || s[n - 1] == '/'))
		n--;
	return xstrndup(s, n);
}

static int
refuse_quotes(const struct prep *pr, char **err)
{
	const struct env_plan *p = pr->plan;

	for (int l = 0; l < 2; l++) {
		const struct strv *v = l == 0 ? &p->win_path_prepend :
		    &p->win_path_remove;

		for (size_t i = 0; i < v->n; i++) {
			if (strchr(v->v[i], ';') != NULL)
				return unwritable(pr, "PATH (Windows)", v->v[i],
				    _("holds a ';', which separates the entries of "
				    "the list"), err);
			if (strpbrk(v->v[i], "\"\r\n") != NULL)
				return unwritable(pr, "PATH (Windows)", v->v[i],
				    _("holds a quote or a line break, which cmd.exe "
				    "cannot keep inside its quoting"), err);
		}
	}
	for (int i = 0; i < 2; i++) {
		const struct plan_var *v = pr->var[i].v;

		if (v->op == PLAN_VAR_SET && strpbrk(v->value, "\"\r\n") != NULL)
			return unwritable(pr, pr->var[i].name, v->value,
			    _("holds a quote or a line break, which cmd.exe "
			    "cannot keep inside its quoting"), err);
	}
	return 0;
}

static void
set_line(struct strbuf *sb, const char *name, const char *value)
{
	strbuf_printf(sb, "set \"%s=", name);
	bat_text(sb, value);
	strbuf_puts(sb, "\"\n");
}

/* The walk of one PATH value from _cw_old into _cw_new: the plan's
 * directories first, then the entries of _cw_old that are not one of
 * them, nor one the plan removes when drop is true. lp prefixes its
 * labels (the session's walk and the user's each have their own). */
static void
edit_walk(struct strbuf *sb, const struct env_plan *p, const char *lp,
    bool drop)
{
	struct strv keys = STRV_INIT;
	struct strbuf pre = STRBUF_INIT;

	for (int l = 0; l < (drop ? 2 : 1); l++) {
		const struct strv *v = l == 0 ? &p->win_path_prepend :
		    &p->win_path_remove;

		for (size_t i = 0; i < v->n; i++) {
			char *k;

			if (*v->v[i] == '\0')
				continue;
			k = win_key(v->v[i]);
			if (!strv_contains(&keys, k))
				strv_push(&keys, k);
			free(k);
			if (l == 0) {
				if (pre.len > 0)
					strbuf_putc(&pre, ';');
				strbuf_puts(&pre, v->v[i]);
			}
		}
	}
	set_line(sb, "_cw_new", strbuf_str(&pre));
	strbuf_printf(sb, ":%snext\n"
	    "if not defined _cw_old goto %sdone\n"
	    "set \"_cw_old=%%_cw_old:\"=%%\"\n"
	    "if not defined _cw_old goto %sdone\n"
	    "rem for /f skips a line that starts with its eol character, ';'.\n"
	    "if \"%%_cw_old:~0,1%%\"==\";\" (set \"_cw_old=%%_cw_old:~1%%\" & goto "
	    "%snext)\n"
	    "set \"_cw_e=\"\n"
	    "for /f \"tokens=1* delims=;\" %%%%A in (\"%%_cw_old%%\") do "
	    "(set \"_cw_e=%%%%A\" & set \"_cw_old=%%%%B\")\n"
	    "if not defined _cw_e goto %sdone\n"
	    "set \"_cw_k=%%_cw_e%%\"\n"
	    "if \"%%_cw_k:~-1%%\"==\"\\\" (set \"_cw_k=%%_cw_k:~0,-1%%\" & goto "
	    "%skey)\n"
	    "if \"%%_cw_k:~-1%%\"==\"/\" set \"_cw_k=%%_cw_k:~0,-1%%\"\n"
	    ":%skey\n", lp, lp, lp, lp, lp, lp, lp);
	for (size_t i = 0; i < keys.n; i++) {
		strbuf_puts(sb, "if /i \"%_cw_k%\"==\"");
		bat_text(sb, keys.v[i]);
		strbuf_printf(sb, "\" goto %snext\n", lp);
	}
	strbuf_printf(sb, "if defined _cw_new (set \"_cw_new=%%_cw_new%%;%%_cw_e%%\") "
	    "else (set \"_cw_new=%%_cw_e%%\")\n"
	    "goto %snext\n"
	    ":%sdone\n", lp, lp);
	strv_free(&keys);
	strbuf_free(&pre);
}

static void
edit_path(struct strbuf *sb, const struct env_plan *p)
{
	strbuf_puts(sb, "rem PATH: the directories first, then the old "
	    "entries that are not one of them.\n"
	    "set \"_cw_old=%PATH%\"\n");
	edit_walk(sb, p, "cudawiz_", true);
	strbuf_puts(sb, "set \"PATH=%_cw_new%\"\n"
	    "set \"_cw_old=\"\nset \"_cw_new=\"\nset \"_cw_e=\"\nset \"_cw_k=\"\n");
}

/* A value's data read from `reg query KEY /v NAME` into a for variable,
 * never through %...%: cmd.exe would expand a %USERPROFILE% in it (Wine's
 * does; Windows' does not). %3 is the value's name. */
#define REG_FOR(key) "for /f \"tokens=1,2,*\" %%A in ('reg query " key \
	" /v %3 2^>nul') do if /i \"%%A\"==\"%3\" "

/* The key where --scope user records the values it replaced
 * (HKCU\Software\cudawiz\env\<name>) in %_cw_rec%, and whether they are
 * recorded in errorlevel: the apply and the undo both start from it. */
static void
record_lookup(struct strbuf *sb, const struct env_plan *p)
{
	strbuf_printf(sb, "set \"_cw_rec=HKCU\\Software\\cudawiz\\env\\%s\"\n"
	    "reg query \"%%_cw_rec%%\" /v Recorded >nul 2>&1\n", p->name);
}

/* :cudawiz_copy (user_undo's) of each ';'-separated name, from one
 * key to the other: the record made, or the values put back. */
static void
copy_each(struct strbuf *sb, const char *names, const char *from,
    const char *to)
{
	struct strv nv = STRV_INIT;

	strv_split(&nv, names, ";");
	for (size_t i = 0; i < nv.n; i++)
		strbuf_printf(sb, "call :cudawiz_copy %s %s %s\n", from, to,
		    nv.v[i]);
	strv_free(&nv);
}

/* --scope user: the same change to HKCU\Environment. The values of
 * before are copied, type and data, to HKCU\Software\cudawiz\env\<name>
 * the first time (its Recorded value names them, an absent one by its
 * name alone); Path is walked as the session's is and written back as
 * REG_EXPAND_SZ with reg.exe, never setx (which cuts it at 1024
 * characters and writes REG_SZ). */
static void
user_apply(struct strbuf *sb, const struct prep *pr, const char *names)
{
	const struct env_plan *p = pr->plan;

	strbuf_puts(sb, "rem Your user environment (HKCU\\Environment), which "
	    "the consoles opened\nrem from now on start with.\n");
	record_lookup(sb, p);
	strbuf_puts(sb, "if not errorlevel 1 goto cudawiz_recorded\n");
	copy_each(sb, names, "HKCU\\Environment", "\"%_cw_rec%\"");
	strbuf_printf(sb, "reg add \"%%_cw_rec%%\" /v Recorded /t REG_SZ /d "
	    "\"%s\" /f >nul\n:cudawiz_recorded\n", names);
	/* The user's Path only gets the plan's directories first: another
	 * toolkit's bin stays, since programs other than this framework may
	 * load from it, and Windows' CUDA DLL names carry their major
	 * (cudart64_110.dll, cudart64_12.dll), so the directories first
	 * win for the names the plan is about. Only this console's PATH
	 * loses them. */
	if (p->win_path_prepend.n > 0) {
		strbuf_puts(sb, "set \"_cw_old=\"\n"
		    "for /f \"tokens=1,2,*\" %%A in ('reg query HKCU\\Environment "
		    "/v Path 2^>nul') do if /i \"%%A\"==\"Path\" set \"_cw_old=%%C\"\n");
		edit_walk(sb, p, "cudawiz_u", false);
		strbuf_puts(sb, "if not defined _cw_new goto cudawiz_unopath\n"
		    "rem reg.exe reads a '\\' before the closing quote as an escaped "
		    "quote.\n"
		    "if \"%_cw_new:~-1%\"==\"\\\" set \"_cw_new=%_cw_new%\\\"\n"
		    "reg add HKCU\\Environment /v Path /t REG_EXPAND_SZ /d "
		    "\"%_cw_new%\" /f >nul\n"
		    "goto cudawiz_upath\n:cudawiz_unopath\n"
		    "reg delete HKCU\\Environment /v Path /f >nul 2>&1\n"
		    ":cudawiz_upath\n"
		    "set \"_cw_old=\"\nset \"_cw_new=\"\nset \"_cw_e=\"\n"
		    "set \"_cw_k=\"\n");
	}
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			size_t n = strlen(vp->v->value);

			strbuf_printf(sb, "set \"_cw_t=REG_SZ\"\n"
			    "for /f \"tokens=1,2,*\" %%%%A in ('reg query "
			    "HKCU\\Environment /v %s 2^>nul') do if /i \"%%%%A\"==\"%s\" "
			    "set \"_cw_t=%%%%B\"\n"
			    "reg add HKCU\\Environment /v %s /t %%_cw_t%% /d \"",
			    vp->name, vp->name, vp->name);
			bat_text(sb, vp->v->value);
			if (n > 0 && vp->v->value[n - 1] == '\\')
				strbuf_putc(sb, '\\');
			strbuf_puts(sb, "\" /f >nul\nset \"_cw_t=\"\n");
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(sb, "reg delete HKCU\\Environment /v %s /f "
			    ">nul 2>&1\n", vp->name);
		}
	}
	strbuf_puts(sb, "set \"_cw_rec=\"\n");
}

/* The undo's part for --scope user, and the copy both use: %1's value
 * %3 (type and data) put in %2, or %3 deleted from %2 when %1 has none. */
static void
user_undo(struct strbuf *sb, const struct env_plan *p, const char *names)
{
	strbuf_puts(sb, ":cudawiz_uundo\n");
	record_lookup(sb, p);
	strbuf_puts(sb, "if errorlevel 1 goto cudawiz_uend\n");
	copy_each(sb, names, "\"%_cw_rec%\"", "HKCU\\Environment");
	strbuf_puts(sb, "reg delete \"%_cw_rec%\" /f >nul\n"
	    ":cudawiz_uend\nset \"_cw_rec=\"\ngoto :eof\n\n"
	    ":cudawiz_copy\nset \"_cw_t=\"\nset \"_cw_v=\"\nset \"_cw_bs=\"\n"
	    REG_FOR("%1") "set \"_cw_t=%%B\"\n"
	    "if not defined _cw_t goto cudawiz_copydel\n"
	    REG_FOR("%1") "set \"_cw_v=%%C\"\n"
	    "rem reg.exe reads a '\\' before the closing quote as an escaped "
	    "quote.\n"
	    "if defined _cw_v if \"%_cw_v:~-1%\"==\"\\\" set \"_cw_bs=\\\"\n"
	    REG_FOR("%1") "reg add %2 /v %3 /t %%B /d \"%%C%_cw_bs%\" /f >nul\n"
	    "set \"_cw_t=\"\nset \"_cw_v=\"\nset \"_cw_bs=\"\ngoto :eof\n"
	    ":cudawiz_copydel\nreg delete %2 /v %3 /f >nul 2>&1\ngoto :eof\n");
}

static int
render_cmd(const struct prep *pr, const char *version,
    struct script_text *out, char **err)
{
	struct strbuf sb = STRBUF_INIT, head = STRBUF_INIT;
	const struct env_plan *p = pr->plan;
	const char *id = pr->ident;
	bool win = p->win_path_prepend.n > 0 || p->win_path_remove.n > 0;
	const char *names[3] = { "PATH", "CUDA_HOME", "CUDA_PATH" };
	bool used[3] = { win, pr->var[0].v->op != PLAN_VAR_KEEP,
	    pr->var[1].v->op != PLAN_VAR_KEEP };
	static const char *const extra[] = {
		"For cmd.exe on Windows: PATH with the Windows directories, and",
		"CUDA_HOME and CUDA_PATH. Doing it again changes nothing more;",
		"the undo restores the variables as they were before the first",
		"time (cmd.exe has no empty variables: an empty one comes back",
		"unset). The old PATH's entries lose their quotes.",
		NULL
	};
	static const char *const extra_user[] = {
		"Scope user: it also changes your user environment in the",
		"registry (HKCU\\Environment: Path, kept as REG_EXPAND_SZ, and",
		"CUDA_PATH) with reg.exe; this console gets the change at once.",
		"Consoles get it once Windows re-reads your user environment:",
		"sign out and in (a cmd.exe script cannot announce the change;",
		"the PowerShell script does), then open a new console. The undo",
		"puts back the registry values of before the first time (recorded",
		"under HKCU\\Software\\cudawiz\\env\\NAME), from any console.",
		"Your Path only gets the directories put first: other toolkits'",
		"stay in it for the programs that use them (only this console's",
		"PATH loses them).",
		NULL
	};
	/* Both lists end with NULL: room for every line and one NULL. */
	const char *all[sizeof extra / sizeof extra[0] +
	    sizeof extra_user / sizeof extra_user[0]];
	struct strbuf unames = STRBUF_INIT;
	bool win_user = p->win_user;
	size_t na = 0;
	char *undo;

	if (refuse_quotes(pr, err) != 0)
		return -1;
	if (p->win_path_prepend.n > 0)	/* the user's Path is only added to */
		strbuf_puts(&unames, "Path");
	for (int i = 1; i >= 0; i--)
		if (pr->var[i].v->op != PLAN_VAR_KEEP)
			strbuf_printf(&unames, "%s%s", unames.len > 0 ? ";" : "",
			    pr->var[i].name);
	/* A plan that changes nothing of Windows' has no user part. */
	if (unames.len == 0)
		win_user = false;
	for (size_t i = 0; extra[i] != NULL; i++)
		all[na++] = extra[i];
	for (size_t i = 0; win_user && extra_user[i] != NULL; i++)
		all[na++] = extra_user[i];
	all[na] = NULL;
	undo = xstrdup("call FILE undo");
	emit_header(&head, pr, version, "call FILE   (or FILE at the prompt)",
	    undo, all);
	free(undo);
	strbuf_puts(&sb, "@echo off\n");
	bat_comments(&sb, strbuf_str(&head));
	strbuf_free(&head);
	strbuf_puts(&sb, "if /i \"%~1\"==\"undo\" goto cudawiz_undo\n"
	    "rem Keep the values of before the first activation for the way "
	    "back.\n");
	strbuf_printf(&sb, "if defined _CUDAWIZ_%s_SAVED goto cudawiz_edit\n"
	    "set \"_CUDAWIZ_%s_SAVED=1\"\n", id, id);
	/* Only what the plan changes: the way back must not undo what the
	 * user changed in the other variables meanwhile. */
	for (int i = 0; i < 3; i++)
		if (used[i])
			strbuf_printf(&sb, "set \"_CUDAWIZ_%s_%s=%%%s%%\"\n", id,
			    names[i], names[i]);
	strbuf_puts(&sb, ":cudawiz_edit\n");
	if (win)
		edit_path(&sb, p);
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET)
			set_line(&sb, vp->name, vp->v->value);
		else if (vp->v->op == PLAN_VAR_UNSET)
			strbuf_printf(&sb, "set \"%s=\"\n", vp->name);
	}
	if (win_user)
		user_apply(&sb, pr, strbuf_str(&unames));
	strbuf_puts(&sb, "goto :eof\n\n:cudawiz_undo\n");
	strbuf_printf(&sb, "if not defined _CUDAWIZ_%s_SAVED goto %s\n", id,
	    win_user ? "cudawiz_uundo" : ":eof");
	for (int i = 0; i < 3; i++)
		if (used[i])
			strbuf_printf(&sb, "set \"%s=%%_CUDAWIZ_%s_%s%%\"\n"
			    "set \"_CUDAWIZ_%s_%s=\"\n", names[i], id, names[i],
			    id, names[i]);
	strbuf_printf(&sb, "set \"_CUDAWIZ_%s_SAVED=\"\n", id);
	if (win_user)
		user_undo(&sb, p, strbuf_str(&unames));
	else
		strbuf_puts(&sb, "goto :eof\n");
	strbuf_free(&unames);
	/* cmd.exe's goto and call :label misread a file of bare LFs (a
	 * label across its 512-byte read blocks is missed): CRLF. */
	{
		struct strbuf crlf = STRBUF_INIT;

		for (const char *c = strbuf_str(&sb); *c != '\0'; c++) {
			if (*c == '\n')
				strbuf_putc(&crlf, '\r');
			strbuf_putc(&crlf, *c);
		}
		strbuf_free(&sb);
		out->text = strbuf_take(&crlf);
	}
	return 0;
}

/* A word of a cmd.exe command line: quoted when it holds a blank or a
 * character cmd.exe gives a meaning; a '"' cannot be quoted. */
static int
quote_word(struct strbuf *sb, const char *s)
{
	if (strpbrk(s, "\"\r\n%") != NULL)
		return -1;
	strbuf_putc(sb, '"');
	strbuf_puts(sb, s);
	strbuf_putc(sb, '"');
	return 0;
}

static void
use_call(struct strbuf *sb, const struct script_writer *w,
    const struct script_use *u)
{
	struct strbuf q = STRBUF_INIT;

	(void)w;
	if (quote_word(&q, u->path) != 0) {
		strbuf_free(&q);
		strbuf_puts(&q, u->path);
	}
	strbuf_printf(sb, _("activate:  call %s\nundo:      call %s undo\n"),
	    strbuf_str(&q), strbuf_str(&q));
	strbuf_free(&q);
}

static const char *const aliases[] = { "bat", "cmd.exe", NULL };
static const char *const suffixes[] = { ".cmd", ".bat", NULL };
/* env --check sources a file in a child and reads `env -0`: cmd.exe has
 * neither on Linux, where it is never found, and says so. */
static const char *const run_progs[] = { "cmd.exe", NULL };
static const char *const run_args[] = { "/d", "/c", "exit 97", NULL };

const struct script_writer script_cmd = {
	.name = "cmd",
	.aliases = aliases,
	.comment = "rem",
	.render = render_cmd,
	.source_verb = "call ",
	.quote = quote_word,
	.use = use_call,
	.what = N_("cmd.exe batch file (Windows PATH, CUDA_PATH)"),
	.file = "./cudawiz-env.cmd",
	.user_scope = true,
	.suffixes = suffixes,
	.head = "@echo off",
	.run = { .progs = run_progs, .want = "cmd.exe", .argv0 = "cmd.exe",
	    .args = run_args },
};
