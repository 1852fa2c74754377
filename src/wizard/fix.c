/* The Fix step's model; see fix.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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

static void
set_default_path(struct wfix *fx)
{
	const char *file = script_writer(wfix_format(fx))->file;

	wline_set(&fx->path, file != NULL ? file : "");
}

struct wfix *
wfix_new(const struct wiz_report *r)
{
	struct wfix *fx = xcalloc(1, sizeof *fx);

	fx->r = r;
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
		rc = script_write_file(fx->path.text, fx->text.text, false,
		    &backup, &err);
		if (rc == 0)
			path = xstrdup(fx->path.text);
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

void
wfix_check_request(struct wfix *fx)
{
	if (fx->w_path == NULL || !fx->written) {
		set_msg(fx, WS_WARNING, xstrdup(_("write the script first: the "
		    "check sources the file on disk")));
		return;
	}
	drop_check(fx);
	fx->check_pending = true;
}

bool
wfix_work(struct wfix *fx)
{
	char *err = NULL;

	if (!fx->check_pending)
		return false;
	fx->check_pending = false;
	if (env_check_run(fx->w_path, fx->w_fmt, fx->r->facts->root,
	    fx->r->envp, fx->r->m, fx->r->check_timeout_s, NULL, &fx->check,
	    &err) != 0) {
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
