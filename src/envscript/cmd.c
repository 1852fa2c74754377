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
 * one that was empty comes back unset. */
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

static void
edit_path(struct strbuf *sb, const struct env_plan *p)
{
	struct strv keys = STRV_INIT;
	struct strbuf pre = STRBUF_INIT;

	for (int l = 0; l < 2; l++) {
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
	strbuf_puts(sb, "rem PATH: the directories first, then the old "
	    "entries that are not one of them.\n"
	    "set \"_cw_old=%PATH%\"\n");
	set_line(sb, "_cw_new", strbuf_str(&pre));
	strbuf_puts(sb, ":cudawiz_next\n"
	    "if not defined _cw_old goto cudawiz_done\n"
	    "set \"_cw_old=%_cw_old:\"=%\"\n"
	    "if not defined _cw_old goto cudawiz_done\n"
	    "rem for /f skips a line that starts with its eol character, ';'.\n"
	    "if \"%_cw_old:~0,1%\"==\";\" (set \"_cw_old=%_cw_old:~1%\" & goto "
	    "cudawiz_next)\n"
	    "set \"_cw_e=\"\n"
	    "for /f \"tokens=1* delims=;\" %%A in (\"%_cw_old%\") do "
	    "(set \"_cw_e=%%A\" & set \"_cw_old=%%B\")\n"
	    "if not defined _cw_e goto cudawiz_done\n"
	    "set \"_cw_k=%_cw_e%\"\n"
	    "if \"%_cw_k:~-1%\"==\"\\\" (set \"_cw_k=%_cw_k:~0,-1%\" & goto "
	    "cudawiz_key)\n"
	    "if \"%_cw_k:~-1%\"==\"/\" set \"_cw_k=%_cw_k:~0,-1%\"\n"
	    ":cudawiz_key\n");
	for (size_t i = 0; i < keys.n; i++) {
		strbuf_puts(sb, "if /i \"%_cw_k%\"==\"");
		bat_text(sb, keys.v[i]);
		strbuf_puts(sb, "\" goto cudawiz_next\n");
	}
	strbuf_puts(sb, "if defined _cw_new (set \"_cw_new=%_cw_new%;%_cw_e%\") "
	    "else (set \"_cw_new=%_cw_e%\")\n"
	    "goto cudawiz_next\n"
	    ":cudawiz_done\n"
	    "set \"PATH=%_cw_new%\"\n"
	    "set \"_cw_old=\"\nset \"_cw_new=\"\nset \"_cw_e=\"\nset \"_cw_k=\"\n");
	strv_free(&keys);
	strbuf_free(&pre);
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
	char *undo;

	if (refuse_quotes(pr, err) != 0)
		return -1;
	undo = xstrdup("call FILE undo");
	emit_header(&head, pr, version, "call FILE   (or FILE at the prompt)",
	    undo, extra);
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
	strbuf_puts(&sb, "goto :eof\n\n:cudawiz_undo\n");
	strbuf_printf(&sb, "if not defined _CUDAWIZ_%s_SAVED goto :eof\n", id);
	for (int i = 0; i < 3; i++)
		if (used[i])
			strbuf_printf(&sb, "set \"%s=%%_CUDAWIZ_%s_%s%%\"\n"
			    "set \"_CUDAWIZ_%s_%s=\"\n", names[i], id, names[i],
			    id, names[i]);
	strbuf_printf(&sb, "set \"_CUDAWIZ_%s_SAVED=\"\ngoto :eof\n", id);
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
	.suffixes = suffixes,
	.head = "@echo off",
	.run = { .progs = run_progs, .want = "cmd.exe", .argv0 = "cmd.exe",
	    .args = run_args },
};
