/* The reports of `cudawiz env` (present/envcmd.h); the script's own text
 * is envscript/'s and the "how to use" lines are the writers'. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>

#include "i18n.h"
#include "present/envcmd.h"
#include "present/json.h"

static json_t *
pathvar_json(const struct plan_pathvar *pv)
{
	json_t *o = json_object();

	json_object_set_new(o, "prepend", jstrv(&pv->prepend));
	json_object_set_new(o, "remove", jstrv(&pv->remove));
	json_object_set_new(o, "drop_stubs", json_boolean(pv->drop_stubs));
	json_object_set_new(o, "drop_missing", json_boolean(pv->drop_missing));
	return o;
}

static json_t *
var_json(const struct plan_var *v)
{
	json_t *o = json_object();
	static const char *const ops[] = { "keep", "set", "unset" };

	json_object_set_new(o, "op", json_string(ops[v->op]));
	json_object_set_new(o, "value", jstr(v->value));
	return o;
}

static json_t *
plan_json(const struct env_plan *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jstr(p->name));
	json_object_set_new(o, "notes", jstrv(&p->notes));
	json_object_set_new(o, "path", pathvar_json(&p->path));
	json_object_set_new(o, "ld_library_path", pathvar_json(&p->ld_library_path));
	json_object_set_new(o, "cuda_home", var_json(&p->cuda_home));
	json_object_set_new(o, "cuda_path", var_json(&p->cuda_path));
	json_object_set_new(o, "win_path_prepend", jstrv(&p->win_path_prepend));
	json_object_set_new(o, "win_path_remove", jstrv(&p->win_path_remove));
	json_object_set_new(o, "scope", json_string(p->win_user ? "user" :
	    "session"));
	return o;
}

int
env_print_json(FILE *fp, enum script_format fmt, const struct env_plan *p,
    const struct plan_report *rep, const struct script_text *t,
    const struct env_written_view *w)
{
	json_t *doc = json_object(), *wr = json_null();
	int rc;

	if (w->path != NULL) {
		wr = json_object();
		json_object_set_new(wr, "path", jstr(w->path));
		json_object_set_new(wr, "backup", jstr(w->backup));
		json_object_set_new(wr, "deactivate", jstr(w->deactivate));
		json_object_set_new(wr, "rc", jstr(w->rc));
		json_object_set_new(wr, "rc_changed", json_boolean(w->rc_changed));
	}
	json_object_set_new(doc, "schema", json_string("cudawiz/env/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "format", json_string(script_format_name(fmt)));
	json_object_set_new(doc, "plan", plan_json(p));
	json_object_set_new(doc, "targets", jstrv(&rep->targets));
	json_object_set_new(doc, "unfixable", jstrv(&rep->unfixable));
	json_object_set_new(doc, "script", jstr(t->text));
	json_object_set_new(doc, "deactivate", jstr(t->deactivate));
	json_object_set_new(doc, "written", wr);
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc == 0 ? 0 : -1;
}

void
env_print_scope(FILE *fp, enum script_format fmt, const struct env_plan *p)
{
	/* The writers leave the user part out of a plan that changes
	 * nothing of Windows'. */
	if (!p->win_user || (p->win_path_prepend.n == 0 &&
	    p->win_path_remove.n == 0 && p->cuda_path.op == PLAN_VAR_KEEP &&
	    p->cuda_home.op == PLAN_VAR_KEEP))
		return;
	fprintf(fp, _("scope:     this console at once, and your user environment "
	    "(HKCU\\Environment: Path as REG_EXPAND_SZ, CUDA_PATH); the undo "
	    "restores both as they were before the first activation\n"));
	if (fmt == SCRIPT_CMD)
		fprintf(fp, _("           other consoles get it once Windows re-reads "
		    "your user environment: sign out and in (cmd.exe cannot announce "
		    "the change), then open a new console\n"));
	else
		fprintf(fp, _("           consoles you open from now on get it (the "
		    "script announces the change to Windows); a console open now "
		    "keeps its old PATH\n"));
}

void
env_print_unfixable(FILE *fp, const struct plan_report *rep)
{
	for (size_t i = 0; i < rep->unfixable.n; i++)
		fprintf(fp, _("%s: not fixed by this script: %s\n"), PACKAGE,
		    rep->unfixable.v[i]);
}
