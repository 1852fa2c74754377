/* The Windows plan builder; see winplan.h.
 *
 * Only a DLL loaded by name (TensorFlow's LoadLibrary of cudart64_*.dll
 * and cudnn64_*.dll) follows PATH; an extension module's static import
 * on Python 3.8+ and torch's own torch\lib never do, so for those the
 * report says what fixes them instead. The directories put first are
 * the ones holding a DLL a framework cannot find, in the order their
 * frameworks were found, then the toolkit asked for with --toolkit; a
 * directory a framework already loads a DLL from through PATH is never
 * taken out. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envplan/winplan.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"
#include "winload/winname.h"

struct wp {
	const struct win_facts		*f;
	const struct matrix		*m;
	const struct winplan_opts	*o;
	struct env_plan			*p;
	struct winplan_report		*rep;
	struct strv			 first;	/* directories to put first */
	struct strv			 keep;	/* directories loaded from now */
	long				 holder_tk;	/* the first toolkit holding a need */
};

static const char *
tk_version(const struct win_toolkit *t)
{
	return t->json_version != NULL ? t->json_version : t->dir_version;
}

/* Directories compared as Windows compares them: without case and
 * without one trailing separator. */
static bool
same_dir(const char *a, const char *b)
{
	char *ka = xstrdup(a), *kb = xstrdup(b);
	size_t na = strlen(ka), nb = strlen(kb);
	bool eq;

	if (na > 3 && (ka[na - 1] == '\\' || ka[na - 1] == '/'))
		ka[na - 1] = '\0';
	if (nb > 3 && (kb[nb - 1] == '\\' || kb[nb - 1] == '/'))
		kb[nb - 1] = '\0';
	eq = winname_eq(ka, kb);
	free(ka);
	free(kb);
	return eq;
}

static bool
has_dir(const struct strv *sv, const char *dir)
{
	for (size_t i = 0; i < sv->n; i++)
		if (same_dir(sv->v[i], dir))
			return true;
	return false;
}

static char *
tk_dir(const struct wp *w, size_t i)
{
	return winname_windows_path(w->f->drive, w->f->toolkits.v[i].dir);
}

static char *
tk_bin(const struct wp *w, size_t i)
{
	char *d = tk_dir(w, i), *b = xasprintf("%s\\bin", d);

	free(d);
	return b;
}

static bool
x64_dll_named(const struct win_dll *d, const char *dll)
{
	return d->path != NULL && d->error == NULL && d->machine == 0x8664 &&
	    winname_eq(winname_base(d->path), dll);
}

/* A directory of the drive holding a 64-bit copy of dll: a toolkit's bin
 * (*tk its index) or a cuDNN directory (*tk -1 unless that is a
 * toolkit's bin). Owned Windows path; NULL: none. */
static char *
holder_dir(const struct wp *w, const char *dll, long *tk)
{
	const struct win_facts *f = w->f;

	*tk = -1;
	for (size_t i = 0; i < f->toolkits.n; i++) {
		if (x64_dll_named(&f->toolkits.v[i].cudart, dll)) {
			*tk = (long)i;
			return tk_bin(w, i);
		}
	}
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct win_cudnn *c = &f->cudnn.v[i];
		bool has = x64_dll_named(&c->dll, dll);

		for (size_t j = 0; !has && j < c->parts.n; j++)
			has = winname_eq(c->parts.v[j], dll);
		if (has) {
			if (c->where == WIN_CUDNN_TOOLKIT && c->index >= 0)
				*tk = c->index;
			return winname_windows_path(f->drive, c->dir);
		}
	}
	return NULL;
}

/* A version as the facts hold it: torch says "12.1", TensorFlow's
 * build_info the DLL suffix ("64_112"). NULL when neither. Owned. */
static char *
suffix_version(const char *v)
{
	if (v == NULL)
		return NULL;
	if (strchr(v, '.') != NULL)
		return xstrdup(v);
	return winname_suffix_version(v);
}

/* The CUDA (cuda true) or cuDNN release the framework was built with:
 * the matrix's build row, else what its build_info says. Owned. */
static char *
built_with(const struct wp *w, const struct win_framework *fw, bool cuda)
{
	const struct matrix_framework *mf = NULL;
	const struct matrix_build *b = NULL;

	if (w->m != NULL && fw->version != NULL)
		mf = matrix_framework(w->m, fw->name, fw->version);
	if (mf != NULL)
		b = matrix_framework_build(mf, NULL);
	if (b != NULL && (cuda ? b->cuda : b->cudnn) != NULL)
		return xstrdup(cuda ? b->cuda : b->cudnn);
	return suffix_version(cuda ? fw->cuda_version : fw->cudnn_version);
}

static void
say_install(struct wp *w, const struct win_framework *fw, const char *who,
    const char *dll)
{
	char *cuda = NULL, *cudnn = NULL;

	if (strlen(dll) > 9 && winname_eqn(dll, 9, "cudart64_"))
		cuda = built_with(w, fw, true);
	else if (strlen(dll) > 8 && winname_eqn(dll, 8, "cudnn64_"))
		cudnn = built_with(w, fw, false);
	if (cuda != NULL)
		strv_pushf(&w->rep->unfixable, _("%s loads %s, which no directory "
		    "on this drive holds: install the CUDA %s toolkit it was built "
		    "with (https://developer.nvidia.com/cuda-toolkit-archive), "
		    "then run 'cudawiz env' again"), who, dll, cuda);
	else if (cudnn != NULL)
		strv_pushf(&w->rep->unfixable, _("%s loads %s, which no directory "
		    "on this drive holds: install cuDNN %s, the release it was "
		    "built with (https://developer.nvidia.com/rdp/cudnn-archive), "
		    "then run 'cudawiz env' again"), who, dll, cudnn);
	else
		strv_pushf(&w->rep->unfixable, _("%s loads %s, which no directory "
		    "on this drive holds: install what provides it, then run "
		    "'cudawiz env' again"), who, dll);
	free(cuda);
	free(cudnn);
}

/* An extension module's import on Python 3.8+: PATH is not searched. */
static void
say_py38(struct wp *w, const struct win_python *py,
    const struct win_framework *fw, const struct win_need *n, const char *who)
{
	char *dir = NULL;
	long tk;

	if (n->has_std && n->std.path != NULL)
		dir = winname_dir(n->std.path);
	else
		dir = holder_dir(w, n->dll, &tk);
	if (dir != NULL)
		strv_pushf(&w->rep->unfixable, _("%s: %s imports %s, and Python "
		    "%s never searches PATH for an extension module's DLLs (since "
		    "3.8), so no PATH change fixes it; before the first import of "
		    "%s, run: import os; os.add_dll_directory(r\"%s\")"), who,
		    n->importer != NULL ? n->importer : fw->name, n->dll,
		    py->version != NULL ? py->version : "3.8+", fw->name, dir);
	else
		strv_pushf(&w->rep->unfixable, _("%s: %s imports %s, which no "
		    "directory on this drive holds, and Python %s never searches "
		    "PATH for an extension module's DLLs (since 3.8): install what "
		    "provides it, then add its directory with os.add_dll_directory() "
		    "before the first import of %s"), who,
		    n->importer != NULL ? n->importer : fw->name, n->dll,
		    py->version != NULL ? py->version : "3.8+", fw->name);
	free(dir);
}

static void
plan_need(struct wp *w, const struct win_python *py,
    const struct win_framework *fw, const struct win_need *n, const char *who)
{
	char *dir;
	long tk;

	if (n->got.path != NULL) {
		if (n->got.via == DLLSRC_PATH) {
			dir = winname_dir(n->got.path);
			if (!has_dir(&w->keep, dir))
				strv_push(&w->keep, dir);
			free(dir);
		}
		return;
	}
	if (n->how == WIN_LOAD_PYD_IMPORT) {
		say_py38(w, py, fw, n, who);
		return;
	}
	if (n->how == WIN_LOAD_TORCH_LIB) {
		strv_pushf(&w->rep->unfixable, _("%s: %s is missing from its own "
		    "torch\\lib directory, which PATH does not change: reinstall "
		    "%s"), who, n->dll, fw->name);
		return;
	}
	dir = holder_dir(w, n->dll, &tk);
	if (dir == NULL) {
		say_install(w, fw, who, n->dll);
		return;
	}
	if (tk >= 0 && w->holder_tk < 0)
		w->holder_tk = tk;
	if (!has_dir(&w->first, dir))
		strv_push(&w->first, dir);
	strv_pushf(&w->p->notes, _("put %s first on PATH: it holds %s, which %s "
	    "loads"), dir, n->dll, who);
	free(dir);
}

static bool
version_word(const char *s)
{
	return *s >= '0' && *s <= '9' && s[strspn(s, "0123456789.")] == '\0';
}

/* --toolkit: a version ("11" is the newest 11.x) or a directory. */
static long
find_toolkit(const struct wp *w, const char *want, char **err)
{
	const struct win_facts *f = w->f;
	struct strbuf have = STRBUF_INIT;
	long best = -1;

	for (size_t i = 0; i < f->toolkits.n; i++) {
		const char *v = tk_version(&f->toolkits.v[i]);
		char *d = tk_dir(w, i);
		bool hit;

		if (version_word(want))
			hit = v != NULL && (strcmp(v, want) == 0 ||
			    (strncmp(v, want, strlen(want)) == 0 &&
			    v[strlen(want)] == '.'));
		else
			hit = same_dir(d, want) ||
			    same_dir(f->toolkits.v[i].dir, want);
		if (hit && (best < 0 || (v != NULL &&
		    tk_version(&f->toolkits.v[best]) != NULL &&
		    version_cmp_str(v, tk_version(&f->toolkits.v[best])) > 0)))
			best = (long)i;
		strbuf_printf(&have, "%s%s (%s)", have.len > 0 ? ", " : "",
		    v != NULL ? v : "?", d);
		free(d);
	}
	if (best < 0)
		*err = xasprintf(_("--toolkit %s: no CUDA toolkit installed here "
		    "matches it; found: %s"), want, have.len > 0 ?
		    strbuf_str(&have) : _("none"));
	strbuf_free(&have);
	return best;
}

/* "cuda-11.2": only the characters a plan's name may hold. */
static char *
plan_name(const struct wp *w, long tk)
{
	const char *v = tk >= 0 ? tk_version(&w->f->toolkits.v[tk]) : NULL;
	char *s;

	if (v == NULL)
		return xstrdup(tk >= 0 ? "cuda" : "cudawiz");
	s = xasprintf("cuda-%s", v);
	for (char *c = s; *c != '\0'; c++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789._-", *c) == NULL)
			*c = '-';
	return s;
}

static void
plan_toolkit(struct wp *w, long tk)
{
	const struct win_facts *f = w->f;
	char *bin = tk_bin(w, (size_t)tk), *dir = tk_dir(w, (size_t)tk);
	const char *v = tk_version(&f->toolkits.v[tk]);

	if (!has_dir(&w->first, bin)) {
		strv_push(&w->first, bin);
		strv_pushf(&w->p->notes, _("put %s first on PATH: the bin "
		    "directory of CUDA %s"), bin, v != NULL ? v : "?");
	}
	if (f->cuda_path_toolkit != tk) {
		w->p->cuda_path.op = PLAN_VAR_SET;
		w->p->cuda_path.value = xstrdup(dir);
		strv_pushf(&w->p->notes, _("set CUDA_PATH to %s (CUDA %s)"), dir,
		    v != NULL ? v : "?");
	}
	for (size_t i = 0; !w->o->keep_other_cuda && i < f->toolkits.n; i++) {
		char *other;

		if ((long)i == tk)
			continue;
		other = tk_bin(w, i);
		if (!has_dir(&w->first, other) && !has_dir(&w->keep, other) &&
		    !has_dir(&w->p->win_path_remove, other)) {
			strv_push(&w->p->win_path_remove, other);
			strv_pushf(&w->p->notes, _("take %s out of PATH: another "
			    "CUDA toolkit's (%s), which could be found first"), other,
			    tk_version(&f->toolkits.v[i]) != NULL ?
			    tk_version(&f->toolkits.v[i]) : "?");
		}
		free(other);
	}
	free(bin);
	free(dir);
}

int
winplan_build(const struct win_facts *f, const struct matrix *m,
    const struct winplan_opts *o, struct env_plan *out,
    struct winplan_report *rep, char **err)
{
	struct wp w = { .f = f, .m = m, .o = o, .p = out, .rep = rep,
	    .holder_tk = -1 };
	long tk = -1;

	memset(out, 0, sizeof *out);
	memset(rep, 0, sizeof *rep);
	if (o->toolkit != NULL && (tk = find_toolkit(&w, o->toolkit, err)) < 0)
		return -1;
	for (size_t i = 0; i < f->pythons.n; i++) {
		const struct win_python *py = &f->pythons.v[i];
		char *where = winname_windows_path(f->drive, py->dir);

		for (size_t j = 0; j < py->frameworks.n; j++) {
			const struct win_framework *fw = &py->frameworks.v[j];
			char *who = fw->version != NULL ? xasprintf("%s %s",
			    fw->name, fw->version) : xstrdup(fw->name);

			if (fw->needs.n > 0)
				strv_pushf(&rep->targets, "%s (%s)", who, where);
			for (size_t k = 0; k < fw->needs.n; k++)
				plan_need(&w, py, fw, &fw->needs.v[k], who);
			free(who);
		}
		free(where);
	}
	if (tk < 0)
		tk = w.holder_tk;
	/* The directories holding what is missing first, then the
	 * toolkit's bin (already among them when it is one). */
	for (size_t i = 0; i < w.first.n; i++)
		strv_push(&out->win_path_prepend, w.first.v[i]);
	if (tk >= 0) {
		plan_toolkit(&w, tk);
		for (size_t i = out->win_path_prepend.n; i < w.first.n; i++)
			strv_push(&out->win_path_prepend, w.first.v[i]);
	}
	out->name = plan_name(&w, tk);
	rep->nothing = out->win_path_prepend.n == 0 &&
	    out->win_path_remove.n == 0 && out->cuda_path.op == PLAN_VAR_KEEP;
	strv_free(&w.first);
	strv_free(&w.keep);
	return 0;
}

void
winplan_report_free(struct winplan_report *r)
{
	strv_free(&r->unfixable);
	strv_free(&r->targets);
}
