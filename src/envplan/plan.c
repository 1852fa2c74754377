/* The plan builder; see plan.h.
 *
 * Directories the plan puts first are ordered by how specific they are:
 * a framework's own copies (a wheel's lib/, an environment's lib/) before
 * the user's extra directories, before a chosen cuDNN, before the chosen
 * toolkit, so the general never shadows the particular. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envplan/plan.h"
#include "i18n.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

struct build {
	const struct facts	*f;
	const struct plan_opts	*o;
	struct env_plan		*p;
	struct plan_report	*rep;
	struct strv		 first;		/* framework dirs, in order */
	struct strv		 then;		/* the toolkit's */
};

void
plan_report_free(struct plan_report *r)
{
	strv_free(&r->unfixable);
	strv_free(&r->targets);
}

static bool
has_path(const struct strv *sv, const char *dir)
{
	for (size_t i = 0; i < sv->n; i++)
		if (path_same(sv->v[i], dir))
			return true;
	return false;
}

static void
push_dir(struct strv *sv, const char *dir)
{
	if (!has_path(sv, dir))
		strv_push(sv, dir);
}

/* Removes an entry, as the user wrote it, from the variable. */
static void
remove_entry(struct plan_pathvar *pv, const char *entry)
{
	push_dir(&pv->remove, entry);
}

/* The entries of a path variable that name dir (however written). */
static void
remove_dir(struct plan_pathvar *pv, const struct path_var *cur, const char *dir)
{
	for (size_t i = 0; i < cur->entries.n; i++) {
		const struct path_entry *e = &cur->entries.v[i];

		if (!e->empty && path_same(e->value, dir))
			remove_entry(pv, e->value);
	}
}

/* ---------------------------------------------------------- toolkit */

/* "12.4" matches 12.4 and 12.4.1, "12" any 12.x; the newest wins. */
static const struct toolkit_fact *
find_toolkit(const struct facts *f, const char *want)
{
	const struct toolkit_fact *best = NULL;
	size_t n = strlen(want);

	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];
		const char *v = t->version.value;
		bool match = path_same(t->root, want);

		for (size_t j = 0; j < t->aliases.n && !match; j++)
			match = path_same(t->aliases.v[j], want);
		if (!match && fact_known(&t->version) && strncmp(v, want, n) == 0 &&
		    (v[n] == '\0' || v[n] == '.'))
			match = true;
		if (!match)
			continue;
		if (best == NULL || (fact_known(&t->version) &&
		    fact_known(&best->version) &&
		    version_cmp_str(v, best->version.value) > 0))
			best = t;
	}
	return best;
}

static bool
toolkit_owns(const struct toolkit_fact *t, const char *entry)
{
	if (path_under(entry, t->root))
		return true;
	for (size_t j = 0; j < t->aliases.n; j++)
		if (path_under(entry, t->aliases.v[j]))
			return true;
	return false;
}

/* Entries of PATH and LD_LIBRARY_PATH inside another toolkit than keep
 * (its own root or a link to it, /usr/local/cuda pointing elsewhere). */
static void
remove_other_toolkits(struct build *b, const struct toolkit_fact *keep)
{
	const struct env_facts *env = &b->f->env;

	for (size_t i = 0; i < b->f->toolkits.n; i++) {
		const struct toolkit_fact *t = &b->f->toolkits.v[i];
		const struct path_var *vars[2] = { &env->path, &env->ld_library_path };
		struct plan_pathvar *pvs[2] = { &b->p->path, &b->p->ld_library_path };

		if (t == keep || t->layout == TOOLKIT_LAYOUT_PIP)
			continue;
		for (int v = 0; v < 2; v++) {
			for (size_t k = 0; k < vars[v]->entries.n; k++) {
				const struct path_entry *e = &vars[v]->entries.v[k];

				/* An alias of the kept toolkit is not another. */
				if (e->empty || toolkit_owns(keep, e->value) ||
				    !toolkit_owns(t, e->value))
					continue;
				remove_entry(pvs[v], e->value);
				strv_pushf(&b->p->notes, _("take %s out of %s: it is "
				    "CUDA %s's, not the chosen one's"), e->value,
				    vars[v]->name, fact_known(&t->version) ?
				    t->version.value : "?");
			}
		}
	}
}

static int
plan_toolkit(struct build *b, char **err)
{
	const struct toolkit_fact *t = find_toolkit(b->f, b->o->toolkit);
	struct strbuf have = STRBUF_INIT;
	char *bin;

	if (t == NULL) {
		for (size_t i = 0; i < b->f->toolkits.n; i++)
			strbuf_printf(&have, "%s%s (%s)", i > 0 ? ", " : "",
			    fact_known(&b->f->toolkits.v[i].version) ?
			    b->f->toolkits.v[i].version.value : "?",
			    b->f->toolkits.v[i].root);
		*err = xasprintf(_("no CUDA toolkit matches '%s'; found: %s"),
		    b->o->toolkit, have.len > 0 ? strbuf_str(&have) : _("none"));
		strbuf_free(&have);
		return -1;
	}
	b->p->cuda_home.op = PLAN_VAR_SET;
	b->p->cuda_home.value = xstrdup(t->root);
	b->p->cuda_path.op = PLAN_VAR_SET;
	b->p->cuda_path.value = xstrdup(t->root);
	if (t->nvcc != NULL) {
		bin = path_dirname(t->nvcc);
		push_dir(&b->p->path.prepend, bin);
		free(bin);
	}
	for (size_t i = 0; i < t->cudart.n; i++)
		push_dir(&b->then, t->cudart.v[i].dir);
	strv_pushf(&b->p->notes, _("use CUDA %s at %s: CUDA_HOME, CUDA_PATH, its "
	    "bin/ first on PATH, its libraries first on LD_LIBRARY_PATH"),
	    fact_known(&t->version) ? t->version.value : "?", t->root);
	free(b->p->name);
	b->p->name = xasprintf("cuda-%s", fact_known(&t->version) ?
	    t->version.value : "toolkit");
	if (!b->o->keep_other_cuda)
		remove_other_toolkits(b, t);
	return 0;
}

/* ------------------------------------------------------------ cuDNN */

/* Which cuDNN the chosen directory holds, when the probe looked at it. */
static void
cudnn_note(struct build *b)
{
	for (size_t i = 0; i < b->f->cudnn.n; i++) {
		const struct cudnn_fact *c = &b->f->cudnn.v[i];
		const struct fact_str *v = fact_known(&c->version) ? &c->version :
		    &c->lib_version;

		if (!path_same(c->lib_dir, b->o->cudnn) || !fact_known(v))
			continue;
		strv_pushf(&b->p->notes, _("put cuDNN %s (%s) in %s on "
		    "LD_LIBRARY_PATH"), v->value, c->soname != NULL ? c->soname :
		    "libcudnn", b->o->cudnn);
		return;
	}
	strv_pushf(&b->p->notes, _("put the cuDNN in %s on LD_LIBRARY_PATH"),
	    b->o->cudnn);
}

/* ------------------------------------------------------- frameworks */

static const struct lib_copy *
usable_copy(const struct fw_need *n)
{
	const struct lib_copy *any = NULL;

	for (size_t i = 0; n->lib != NULL && i < n->lib->copies.n; i++) {
		const struct lib_copy *c = &n->lib->copies.v[i];
		char *dir;
		bool expected;

		if (!c->loadable || c->stub)
			continue;
		dir = path_dirname(c->path);
		expected = n->expected_dir != NULL && path_same(dir, n->expected_dir);
		free(dir);
		if (expected)
			return c;
		if (any == NULL)
			any = c;
	}
	/* A copy elsewhere is only taken when the framework did not say
	 * where its own must be. */
	return n->expected_dir == NULL ? any : NULL;
}

static char *
fw_words(const struct framework_fact *fw, const struct py_env *e)
{
	return xasprintf("%s %s (%s)", fw->package != NULL ? fw->package : fw->name,
	    fw->version != NULL ? fw->version : "?", e->prefix);
}

static void
plan_need(struct build *b, const struct py_env *e,
    const struct framework_fact *fw, const struct fw_need *n)
{
	const struct lib_fact *lib = n->lib;
	const struct path_var *llp = &b->f->env.ld_library_path;
	char *who = fw_words(fw, e);

	if (lib != NULL && lib->resolved != NULL) {
		char *dir;
		const struct lib_copy *own = NULL;

		if (n->shadowed_via != STEP_LD_LIBRARY_PATH)
			goto out;
		dir = path_dirname(lib->resolved);
		remove_dir(&b->p->ld_library_path, llp, dir);
		strv_pushf(&b->p->notes, _("take %s out of LD_LIBRARY_PATH: its "
		    "%s shadows the one %s expects"), dir, n->soname, who);
		for (size_t i = 0; i < lib->copies.n && n->expected_dir != NULL; i++) {
			char *cd = path_dirname(lib->copies.v[i].path);

			if (path_same(cd, n->expected_dir))
				own = &lib->copies.v[i];
			free(cd);
		}
		/* Its own copy must then be reached by a later step; when
		 * none would, the plan puts it first. */
		if (own != NULL && own->reached_via == STEP_NONE)
			push_dir(&b->first, n->expected_dir);
		free(dir);
		goto out;
	}
	{
		const struct lib_copy *c = usable_copy(n);
		char *dir;

		if (c == NULL) {
			strv_pushf(&b->rep->unfixable, _("%s for %s: no copy on "
			    "this machine; it must be installed"), n->soname, who);
			goto out;
		}
		dir = path_dirname(c->path);
		if (!has_path(&b->first, dir))
			strv_pushf(&b->p->notes, _("put %s first on LD_LIBRARY_PATH: "
			    "it holds %s, which %s needs"), dir, n->soname, who);
		push_dir(&b->first, dir);
		free(dir);
	}
out:
	free(who);
}

static bool
has_gpu_framework(const struct py_env *e)
{
	for (size_t i = 0; i < e->frameworks.n; i++)
		if (e->frameworks.v[i].gpu != FW_GPU_NO)
			return true;
	return false;
}

static void
plan_env(struct build *b, const struct py_env *e)
{
	strv_push(&b->rep->targets, e->prefix);
	for (size_t i = 0; i < e->frameworks.n; i++) {
		const struct framework_fact *fw = &e->frameworks.v[i];

		if (fw->gpu == FW_GPU_NO || fw->gpu_through != NULL)
			continue;
		for (size_t j = 0; j < fw->needs.n; j++)
			if (!fw->needs.v[j].optional)
				plan_need(b, e, fw, &fw->needs.v[j]);
	}
}

static int
plan_envs(struct build *b, char **err)
{
	const struct facts *f = b->f;
	bool any = false;

	if (b->o->python_env != NULL) {
		for (size_t i = 0; i < f->python_envs.n; i++) {
			if (!path_same(f->python_envs.v[i].prefix, b->o->python_env))
				continue;
			plan_env(b, &f->python_envs.v[i]);
			free(b->p->name);
			b->p->name = xasprintf("env-%s", f->python_envs.v[i].name != NULL ?
			    f->python_envs.v[i].name : "python");
			return 0;
		}
		*err = xasprintf(_("no Python environment at '%s' (doctor lists "
		    "the ones it found)"), b->o->python_env);
		return -1;
	}
	/* The active environments first; when none has a GPU framework,
	 * every environment that has one. */
	for (size_t i = 0; i < f->python_envs.n; i++)
		if (f->python_envs.v[i].active && has_gpu_framework(&f->python_envs.v[i])) {
			plan_env(b, &f->python_envs.v[i]);
			any = true;
		}
	for (size_t i = 0; i < f->python_envs.n && !any; i++)
		if (has_gpu_framework(&f->python_envs.v[i]))
			plan_env(b, &f->python_envs.v[i]);
	return 0;
}

/* ---------------------------------------------------------- hygiene */

static void
hygiene_notes(struct build *b, const struct path_var *pv)
{
	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];
		const char *last;

		if (e->empty) {
			strv_pushf(&b->p->notes, _("drop the empty entries of %s "
			    "(they mean the current directory)"), pv->name);
			break;
		}
		last = strrchr(e->value, '/');
		if (last != NULL && strcmp(last + 1, "stubs") == 0)
			strv_pushf(&b->p->notes, _("take %s out of %s: the "
			    "toolkit's stub libraries must never be loaded"),
			    e->value, pv->name);
		else if (e->exists == 0)
			strv_pushf(&b->p->notes, _("take %s out of %s: it does "
			    "not exist"), e->value, pv->name);
	}
}

static void
home_hygiene(struct build *b, struct plan_var *pv, enum env_var_id id)
{
	const struct env_var *v = &b->f->env.var[id];

	if (pv->op != PLAN_VAR_KEEP || !v->set || v->exists != 0)
		return;
	pv->op = PLAN_VAR_UNSET;
	strv_pushf(&b->p->notes, _("unset %s: %s does not exist"), v->name,
	    v->value != NULL ? v->value : "");
}

int
plan_build(const struct facts *f, const struct plan_opts *o,
    struct env_plan *out, struct plan_report *rep, char **err)
{
	struct build b = { f, o, out, rep, STRV_INIT, STRV_INIT };
	int rc = 0;

	memset(out, 0, sizeof *out);
	memset(rep, 0, sizeof *rep);
	*err = NULL;
	out->name = xstrdup("cuda");
	out->path.drop_stubs = out->ld_library_path.drop_stubs = true;
	out->path.drop_missing = out->ld_library_path.drop_missing = true;
	if (o->toolkit != NULL && plan_toolkit(&b, err) != 0) {
		rc = -1;
		goto out;
	}
	if (o->cudnn != NULL)
		cudnn_note(&b);
	for (size_t i = 0; i < o->add_lib.n; i++) {
		strv_pushf(&out->notes, _("put %s on LD_LIBRARY_PATH"), o->add_lib.v[i]);
	}
	if (plan_envs(&b, err) != 0) {
		rc = -1;
		goto out;
	}
	/* The frameworks' own directories first, then --add-lib in the
	 * user's order, the cuDNN, and the toolkit last. */
	for (size_t i = 0; i < b.first.n; i++)
		push_dir(&out->ld_library_path.prepend, b.first.v[i]);
	for (size_t i = 0; i < o->add_lib.n; i++)
		push_dir(&out->ld_library_path.prepend, o->add_lib.v[i]);
	if (o->cudnn != NULL)
		push_dir(&out->ld_library_path.prepend, o->cudnn);
	for (size_t i = 0; i < b.then.n; i++)
		push_dir(&out->ld_library_path.prepend, b.then.v[i]);
	/* A directory put first is never also taken out. */
	for (size_t i = 0; i < out->ld_library_path.remove.n;) {
		if (has_path(&out->ld_library_path.prepend,
		    out->ld_library_path.remove.v[i])) {
			free(out->ld_library_path.remove.v[i]);
			memmove(&out->ld_library_path.remove.v[i],
			    &out->ld_library_path.remove.v[i + 1],
			    (out->ld_library_path.remove.n - i - 1) * sizeof (char *));
			out->ld_library_path.remove.n--;
		} else
			i++;
	}
	hygiene_notes(&b, &f->env.ld_library_path);
	hygiene_notes(&b, &f->env.path);
	home_hygiene(&b, &out->cuda_home, ENV_CUDA_HOME);
	home_hygiene(&b, &out->cuda_path, ENV_CUDA_PATH);
out:
	strv_free(&b.first);
	strv_free(&b.then);
	return rc;
}
