/* The Fix step's model; see fix.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "util/envp.h"
#include "envscript/writer.h"
#include "util/xalloc.h"
#include "wizard/fix.h"

static void
list_add(struct wfix_list *l, char *label, const char *value)
{
	l->values = xreallocarray(l->values, l->labels.n + 1, sizeof *l->values);
	l->values[l->labels.n] = value != NULL ? xstrdup(value) : NULL;
	strv_push_owned(&l->labels, label);
}

static void
list_free(struct wfix_list *l)
{
	for (size_t i = 0; i < l->labels.n; i++)
		free(l->values[i]);
	free(l->values);
	strv_free(&l->labels);
}

static const char *
list_value(const struct wfix *fx, int l)
{
	const struct wfix_list *li = &fx->list[l];

	return li->labels.n > 0 ? li->values[li->chosen] : NULL;
}

/* The login shell's format, from $SHELL in the wizard's environment, as
 * `cudawiz env` picks it; sh when unknown. The list shows the formats in
 * the writers' order, so the format is its entry's index. */
static enum script_format
default_format(char *const *envp)
{
	enum script_format fmt = SCRIPT_SH;

	if (!script_format_parse(script_login_shell(envp), &fmt))
		fmt = SCRIPT_SH;
	return fmt;
}

static void
build_lists(struct wfix *fx)
{
	const struct facts *f = fx->r->facts;
	struct wfix_list *l;

	l = &fx->list[WF_TOOLKIT];
	list_add(l, xstrdup(_("none chosen: the recommended plan")), NULL);
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		list_add(l, xasprintf("%s  %s", fact_known(&t->version) ?
		    t->version.value : "?", t->root), t->root);
	}
	l = &fx->list[WF_CUDNN];
	list_add(l, xstrdup(_("none")), NULL);
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *c = &f->cudnn.v[i];
		bool seen = false;

		for (size_t j = 1; j < l->labels.n; j++)
			seen = seen || strcmp(l->values[j], c->lib_dir) == 0;
		if (seen)
			continue;
		list_add(l, xasprintf("%s  %s", fact_known(&c->version) ?
		    c->version.value : fact_known(&c->lib_version) ?
		    c->lib_version.value : "?", c->lib_dir), c->lib_dir);
	}
	l = &fx->list[WF_PYENV];
	list_add(l, xstrdup(_("the active environments (recommended)")), NULL);
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		list_add(l, xasprintf("%s%s", e->prefix, e->active ?
		    _("  (active)") : ""), e->prefix);
	}
	l = &fx->list[WF_SHELL];
	for (int i = 0; i < SCRIPT_NFORMATS; i++) {
		const struct script_writer *w = script_writer((enum script_format)i);

		list_add(l, xasprintf("%-11s %s", w->name, _(w->what)), w->name);
	}
	l->chosen = (int)default_format(fx->r->envp);
}

enum script_format
wfix_format(const struct wfix *fx)
{
	return (enum script_format)fx->list[WF_SHELL].chosen;
}

/* The current directory, or NULL when it cannot be named (then the
 * default path stays relative). */
static char *
current_dir(void)
{
	size_t n = 256;

	for (int i = 0; i < 8; i++, n *= 2) {
		char *buf = xmalloc(n);

		if (getcwd(buf, n) != NULL)
			return buf;
		free(buf);
		if (errno != ERANGE)
			break;
	}
	return NULL;
}

/* dir/name, with no "./" and no doubled '/'. */
static char *
join_dir(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	if (strncmp(name, "./", 2) == 0)
		name += 2;
	return xasprintf("%s%s%s", dir, n > 0 && dir[n - 1] == '/' ? "" : "/",
	    name);
}

/* The writer's default name in the current directory, absolute: what
 * the page shows is what will be written. */
static void
set_default_path(struct wfix *fx)
{
	const char *file = script_writer(wfix_format(fx))->file;
	char *p;

	if (file == NULL) {
		wline_set(&fx->path, "");
		return;
	}
	p = fx->cwd != NULL ? join_dir(fx->cwd, file) : xstrdup(file);
	wline_set(&fx->path, p);
	free(p);
}

struct wfix *
wfix_new(const struct wiz_report *r)
{
	struct wfix *fx = xcalloc(1, sizeof *fx);

	fx->r = r;
	fx->cwd = current_dir();
	build_lists(fx);
	set_default_path(fx);
	wfix_render(fx);
	return fx;
}

static void
drop_render(struct wfix *fx)
{
	if (fx->rendered) {
		env_plan_free(&fx->plan);
		plan_report_free(&fx->rep);
		script_text_free(&fx->text);
	}
	free(fx->render_err);
	fx->render_err = NULL;
	fx->rendered = false;
	fx->previewed = false;
	fx->written = false;
}

static void
drop_check(struct wfix *fx)
{
	if (fx->checked)
		env_check_free(&fx->check);
	fx->checked = false;
	fx->check_stopped = false;
	free(fx->check_err);
	fx->check_err = NULL;
	fx->check_pending = false;
}

static void
drop_written(struct wfix *fx)
{
	free(fx->w_path);
	free(fx->w_backup);
	free(fx->w_deactivate);
	free(fx->w_undo);
	free(fx->w_name);
	fx->w_path = fx->w_backup = fx->w_deactivate = fx->w_undo = NULL;
	fx->w_name = NULL;
}

static void
set_msg(struct wfix *fx, enum wslot slot, char *msg)
{
	free(fx->msg);
	fx->msg = msg;
	fx->msg_slot = slot;
}

void
wfix_free(struct wfix *fx)
{
	if (fx == NULL)
		return;
	drop_render(fx);
	drop_check(fx);
	drop_written(fx);
	for (int i = 0; i < WF_LISTS; i++)
		list_free(&fx->list[i]);
	wline_free(&fx->path);
	free(fx->path_before);
	free(fx->msg);
	free(fx->cwd);
	free(fx->for_text);
	strv_free(&fx->for_fix);
	free(fx->rc_msg);
	free(fx);
}

void
wfix_choose(struct wfix *fx, int l, int i)
{
	struct wfix_list *li = &fx->list[l];

	if (i < 0 || (size_t)i >= li->labels.n || i == li->chosen)
		return;
	li->chosen = i;
	if (l == WF_SHELL && !fx->path_typed)
		set_default_path(fx);
	drop_render(fx);
	wfix_render(fx);
}

void
wfix_path_changed(struct wfix *fx)
{
	fx->written = false;
}

bool
wfix_render(struct wfix *fx)
{
	struct plan_opts po = { 0 };
	char *err = NULL;

	if (fx->rendered || fx->render_err != NULL)
		return fx->rendered;
	po.toolkit = list_value(fx, WF_TOOLKIT);
	po.cudnn = list_value(fx, WF_CUDNN);
	po.python_env = list_value(fx, WF_PYENV);
	if (plan_build(fx->r->facts, &po, &fx->plan, &fx->rep, &err) != 0) {
		fx->render_err = err;
		return false;
	}
	if (script_render(&fx->plan, wfix_format(fx), VERSION, &fx->text,
	    &err) != 0) {
		env_plan_free(&fx->plan);
		plan_report_free(&fx->rep);
		fx->render_err = err;
		return false;
	}
	fx->rendered = true;
	return true;
}

/* The conda environment a conda script goes into: the one chosen, else
 * the active one, as `cudawiz env --shell conda` picks it. */
static const char *
conda_prefix(const struct wfix *fx)
{
	const struct env_var *v = &fx->r->facts->env.var[ENV_CONDA_PREFIX];
	const char *p = list_value(fx, WF_PYENV);

	if (p == NULL && v->set)
		p = v->value;
	return p != NULL && *p != '\0' ? p : NULL;
}

void
wfix_write(struct wfix *fx)
{
	enum script_format fmt = wfix_format(fx);
	char *path = NULL, *backup = NULL, *deact = NULL, *err = NULL;
	int rc;

	if (!wfix_render(fx)) {
		set_msg(fx, WS_ERROR, xstrdup(fx->render_err));
		return;
	}
	if (script_into_conda(fmt)) {
		const char *prefix = conda_prefix(fx);

		if (prefix == NULL) {
			set_msg(fx, WS_ERROR, xstrdup(_("a conda script goes into a "
			    "conda environment: choose one under Python environment")));
			return;
		}
		rc = script_write_conda(prefix, &fx->plan, &fx->text, false,
		    &path, &deact, &err);
	} else if (fx->path.text == NULL || fx->path.text[0] == '\0') {
		set_msg(fx, WS_ERROR, xstrdup(_("no output file: type one under "
		    "Output file")));
		return;
	} else {
		char *p = wfix_path(fx);

		rc = script_write_file(p, fx->text.text, false, &backup, &err);
		if (rc == 0)
			path = p;
		else
			free(p);
	}
	if (rc != 0) {
		/* Nothing new is on disk: keep what was written before. */
		set_msg(fx, WS_ERROR, err);
		return;
	}
	drop_written(fx);
	drop_check(fx);
	fx->w_path = path;
	fx->w_backup = backup;
	fx->w_deactivate = deact;
	fx->w_fmt = fmt;
	fx->w_undo = script_deactivate_name(&fx->plan);
	fx->w_name = xstrdup(fx->plan.name != NULL ? fx->plan.name : "");
	fx->written = true;
	if (backup != NULL)
		set_msg(fx, WS_OK, xasprintf(_("wrote %s; the file that was there "
		    "is kept as %s"), path, backup));
	else
		set_msg(fx, WS_OK, xasprintf(_("wrote %s"), path));
}

bool
wfix_check_possible(const struct wfix *fx)
{
	return fx->r->root == NULL;
}

void
wfix_check_request(struct wfix *fx)
{
	if (fx->w_path == NULL || !fx->written) {
		set_msg(fx, WS_WARNING, xstrdup(_("write the script first: the "
		    "check sources the file on disk")));
		return;
	}
	if (!wfix_check_possible(fx)) {
		set_msg(fx, WS_WARNING, xstrdup(_("not checked: under --root the "
		    "script is for another tree, and sourcing it here would test "
		    "this machine's directories instead")));
		return;
	}
	drop_check(fx);
	fx->check_pending = true;
}

/* Between the proof's steps: a frame (the elapsed time), and whether
 * Esc, q or Ctrl-C asked it to stop. */
static bool
check_stop(void *arg)
{
	struct wfix *fx = arg;

	return fx->tick != NULL && fx->tick(fx->tick_arg, true);
}

bool
wfix_work(struct wfix *fx)
{
	struct env_check_stop st = { check_stop, fx };
	char *err = NULL;
	int rc;

	if (!fx->check_pending)
		return false;
	fx->check_pending = false;
	fx->check_running = true;
	rc = env_check_run_stop(fx->w_path, fx->w_fmt, fx->r->facts->root,
	    fx->r->envp, fx->r->m, fx->r->check_timeout_s, NULL, &st,
	    &fx->check, &err);
	fx->check_running = false;
	if (rc != 0) {
		fx->check_stopped = fx->check.stopped;
		env_check_free(&fx->check);
		fx->check_err = err;
		return true;
	}
	fx->checked = true;
	return true;
}

bool
wfix_unsaved(const struct wfix *fx)
{
	return fx->previewed && !fx->written;
}


char *
wfix_path(const struct wfix *fx)
{
	const char *t = fx->path.text != NULL ? fx->path.text : "";
	const char *home = envp_get(fx->r->envp, "HOME");

	/* "~" as a shell reads it, from the wizard's environment; a HOME
	 * that is not absolute would land the file anywhere. */
	if (t[0] == '~' && (t[1] == '\0' || t[1] == '/') && home != NULL &&
	    home[0] == '/')
		return t[1] == '\0' ? xstrdup(home) : join_dir(home, t + 2);
	if (t[0] != '/' && fx->cwd != NULL)
		return join_dir(fx->cwd, t);
	return xstrdup(t);
}

/* The format a file name's extension says, as the check reads one
 * (script_format_parse: .bash and .zsh are sh, .tcsh is csh, .lua lmod),
 * or the writers' own default names' extensions (.ps1); false: none. */
static bool
ext_format(const char *path, enum script_format *out)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	if (dot == NULL || dot == base)
		return false;
	if (script_format_parse(dot + 1, out))
		return true;
	for (int i = 0; i < SCRIPT_NFORMATS; i++) {
		const char *f = script_writer((enum script_format)i)->file;
		const char *fd = f != NULL ? strrchr(f, '.') : NULL;

		if (fd != NULL && strcmp(fd, dot) == 0) {
			*out = (enum script_format)i;
			return true;
		}
	}
	return false;
}

char *
wfix_path_warning(const struct wfix *fx)
{
	enum script_format fmt = wfix_format(fx), named;

	if (script_into_conda(fmt) || fx->path.text == NULL ||
	    !ext_format(fx->path.text, &named) || named == fmt)
		return NULL;
	return xasprintf(_("the name says %s, but the script is for %s: "
	    "choose %s under Shell format, or rename it"),
	    script_format_name(named), script_format_name(fmt),
	    script_format_name(named));
}

/* Writes, then asks for the proof where it can run. */
static void
write_then_check(struct wfix *fx)
{
	wfix_write(fx);
	if (!fx->written)
		return;
	if (!wfix_check_possible(fx)) {
		char *m = xasprintf(_("%s; not checked (--root: see above)"),
		    fx->msg);

		set_msg(fx, WS_WARNING, m);
		return;
	}
	wfix_check_request(fx);
	if (fx->check_pending) {
		fx->mode = WFM_RESULT;
		fx->result_scroll = fx->result_h = 0;
	}
}

void
wfix_write_and_check(struct wfix *fx)
{
	char *p;

	if (script_into_conda(wfix_format(fx)) || fx->path.text == NULL ||
	    fx->path.text[0] == '\0') {
		write_then_check(fx);
		return;
	}
	/* A file this wizard did not write is the user's: ask first (the
	 * writer keeps it as .bak either way). */
	p = wfix_path(fx);
	if (script_target_exists(p) &&
	    (fx->w_path == NULL || strcmp(fx->w_path, p) != 0)) {
		fx->mode = WFM_CONFIRM;
		free(p);
		return;
	}
	free(p);
	write_then_check(fx);
}

void
wfix_confirm(struct wfix *fx, bool yes)
{
	fx->mode = WFM_FORM;
	if (yes)
		write_then_check(fx);
	else
		set_msg(fx, WS_NORMAL, xstrdup(_("not written: type another name "
		    "under Output file")));
}

void
wfix_install_rc(struct wfix *fx)
{
	const char *home = envp_get(fx->r->envp, "HOME");
	char *rc, *backup = NULL, *err = NULL;
	bool changed = false;

	free(fx->rc_msg);
	fx->rc_slot = WS_ERROR;
	if (fx->w_path == NULL || script_into_conda(fx->w_fmt)) {
		fx->rc_msg = xstrdup(_("write a script on the Fix page first: "
		    "conda activates its own"));
		return;
	}
	if (home == NULL || home[0] != '/') {
		fx->rc_msg = xstrdup(_("HOME is not an absolute path, so there is "
		    "no rc file to edit"));
		return;
	}
	rc = script_rc_file(fx->w_fmt, home, script_login_shell(fx->r->envp));
	if (rc == NULL) {
		fx->rc_msg = xasprintf(_("--install-rc works for sh, fish and csh "
		    "scripts; source a %s file by hand"),
		    script_format_name(fx->w_fmt));
		return;
	}
	if (script_install_rc(rc, fx->w_path, fx->w_fmt, &changed, &backup,
	    &err) != 0) {
		fx->rc_msg = err;
	} else {
		fx->rc_slot = WS_OK;
		fx->rc_msg = changed ? xasprintf(_("added a line sourcing it to "
		    "%s"), rc) : xasprintf(_("%s already sources it"), rc);
	}
	free(backup);
	free(rc);
}
