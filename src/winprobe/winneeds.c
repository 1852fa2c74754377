/* Resolves, for each framework of each Python install, every DLL it
 * loads, with the DLL search model (winload/dllsearch.h) set up the way
 * that framework really loads it:
 *
 *  - TensorFlow's cudart/cudnn names from build_info.py are loaded at run
 *    time by LoadLibraryExW(name, NULL, LOAD_WITH_ALTERED_SEARCH_PATH)
 *    (tensorflow/tsl/platform/windows/load_library.cc); for a bare name
 *    that flag changes nothing, so it is the standard order with
 *    python.exe's directory as the application directory, PATH searched.
 *  - A CUDA DLL the framework's .pyd imports statically is loaded with
 *    the .pyd: CPython >= 3.8 passes LOAD_LIBRARY_SEARCH_DEFAULT_DIRS |
 *    LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR (Python/dynload_win.c), which skips
 *    PATH; before 3.8 the standard order.
 *  - torch's bundled DLLs: torch/__init__.py adds torch\lib with
 *    os.add_dll_directory and loads them by the default dirs.
 *
 * The process is python.exe, x64: an x86 copy is passed over (the PE
 * check), as Wine does. A venv's Scripts\python.exe starts its base
 * interpreter (pyvenv.cfg's home), whose directory is then the
 * application directory. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pe/pe.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"
#include "winload/dllsearch.h"
#include "winload/winname.h"
#include "winprobe/winprobe_int.h"

/* The prefixes of the CUDA DLLs worth resolving among a .pyd's imports. */
static const char *const cuda_prefixes[] = {
	"cudart64_", "cudnn64_", "cudnn_", "cublas64_", "cublasLt64_",
	"cufft64_", "curand64_", "cusolver64_", "cusparse64_", "nvrtc64_",
	"nvcuda",
};

/* The .pyd files whose imports are read, under site-packages. */
static const char *const tf_pyds[] = {
	"tensorflow/python/_pywrap_tensorflow_internal.pyd",
};

static unsigned short x64 = 0x8664;

/* The directory of a tree path, as a Windows path. */
static char *
win_dir_of(char drive, const char *tree)
{
	const char *slash = strrchr(tree, '/');
	char *dir = xstrndup(tree, slash != NULL ? (size_t)(slash - tree) : 0);
	char *out = winname_windows_path(drive, dir);

	free(dir);
	return out;
}

static bool
is_cuda_dll(const char *name)
{
	for (size_t i = 0; i < sizeof cuda_prefixes / sizeof cuda_prefixes[0]; i++) {
		size_t n = strlen(cuda_prefixes[i]);

		if (strlen(name) > n && winname_eqn(name, n, cuda_prefixes[i]))
			return true;
	}
	return false;
}

static void
answer_free(struct win_dll_answer *a)
{
	free(a->path);
	memset(a, 0, sizeof *a);
}

void
win_need_free(struct win_need *n)
{
	free(n->dll);
	free(n->importer);
	answer_free(&n->got);
	answer_free(&n->std);
	answer_free(&n->py38);
	strv_free(&n->passed_over);
	strv_free(&n->others);
	strv_free(&n->searched);
	memset(n, 0, sizeof *n);
}

/* Runs one search; fills a, and n's lists when n is given. */
static void
search(const struct dllsearch_env *env, const char *dll,
    struct win_dll_answer *a, struct win_need *n)
{
	struct dll_resolution r;

	memset(a, 0, sizeof *a);
	dllsearch_resolve(env, dll, &r);
	if (r.resolved != NULL)
		a->path = xstrdup(r.resolved);
	a->via = r.via;
	a->error = r.error;
	for (size_t i = 0; i < r.steps.n; i++) {
		const struct dllsearch_step *s = &r.steps.v[i];

		if (s->result == DLLSTEP_FOUND && s->source == DLLSRC_PATH)
			a->path_index = s->index;
		if (n == NULL)
			continue;
		if (s->result == DLLSTEP_SKIPPED && s->path != NULL)
			strv_push(&n->passed_over, s->path);
		if (s->dir == NULL)
			continue;
		if (s->source == DLLSRC_PATH || s->source == DLLSRC_USER_DIR)
			strv_pushf(&n->searched, "%s[%zu] %s",
			    dllsearch_source_name(s->source), s->index, s->dir);
		else
			strv_pushf(&n->searched, "%s %s",
			    dllsearch_source_name(s->source), s->dir);
	}
	if (n != NULL)
		for (size_t i = 0; i < r.other_copies.n; i++)
			strv_push(&n->others, r.other_copies.v[i]);
	dll_resolution_free(&r);
}

static bool
same_answer(const struct win_dll_answer *a, const struct win_dll_answer *b)
{
	if ((a->path == NULL) != (b->path == NULL) || a->error != b->error)
		return false;
	return a->path == NULL || winname_eq(a->path, b->path);
}

/* What one framework's loads share. */
struct load_ctx {
	struct dllsearch_env	 std;	/* the standard order */
	struct dllsearch_env	 py38;	/* an extension module's import */
	bool			 py38_applies;	/* the Python is >= 3.8 (or unknown) */
};

static void
add_need(struct win_framework *fw, const struct load_ctx *c, const char *dll,
    enum win_load_how how, const char *importer, const struct dllsearch_env *own)
{
	struct win_need *n;
	struct win_dll_answer alt;

	if (fw->needs.n >= WINFACTS_NEEDS_MAX)
		return;
	n = VEC_PUSH(&fw->needs);
	memset(n, 0, sizeof *n);
	n->dll = xstrdup(dll);
	n->how = how;
	if (importer != NULL)
		n->importer = xstrdup(importer);
	switch (how) {
	case WIN_LOAD_BY_NAME:
		search(&c->std, dll, &n->got, n);
		search(&c->py38, dll, &alt, NULL);
		if (!same_answer(&alt, &n->got)) {
			n->has_py38 = true;
			n->py38 = alt;
		} else
			answer_free(&alt);
		break;
	case WIN_LOAD_PYD_IMPORT: {
		const struct dllsearch_env *e = c->py38_applies ? own : &c->std;

		search(e, dll, &n->got, n);
		if (!c->py38_applies)
			break;
		search(&c->std, dll, &alt, NULL);
		if (!same_answer(&alt, &n->got)) {
			n->has_std = true;
			n->std = alt;
		} else
			answer_free(&alt);
		break;
	}
	case WIN_LOAD_TORCH_LIB:
		search(own, dll, &n->got, n);
		break;
	}
}

/* The CUDA DLLs the .pyd at tree path pyd imports (either directory). */
static void
pyd_needs(struct wp *w, struct win_framework *fw, const struct load_ctx *c,
    const char *pyd)
{
	struct peobj pe;
	char *err = NULL, *wpyd, *wdir;
	struct dllsearch_env own = c->py38;

	if (pe_read(w->sr, pyd, PE_HEADERS, &pe, &err) != 0) {
		free(err);	/* a damaged .pyd is its own failure, not a DLL's */
		pe_free(&pe);
		return;
	}
	wpyd = winname_windows_path(w->f->drive, pyd);
	wdir = win_dir_of(w->f->drive, pyd);
	own.dll_load_dir = wdir;
	for (int d = 0; d < 2; d++) {
		const struct strv *v = d == 0 ? &pe.imports : &pe.delay_imports;

		for (size_t i = 0; i < v->n; i++)
			if (is_cuda_dll(v->v[i]))
				add_need(fw, c, v->v[i], WIN_LOAD_PYD_IMPORT, wpyd, &own);
	}
	free(wpyd);
	free(wdir);
	pe_free(&pe);
}

static void
framework_needs(struct wp *w, const struct win_python *p,
    struct win_framework *fw, struct load_ctx *c)
{
	char *tree, *wdir;

	if (winname_eq(fw->name, "tensorflow")) {
		/* An extension module's view: TensorFlow's .pyd directory. */
		tree = wp_find(w, p->site_packages, "tensorflow/python");
		wdir = tree != NULL ? winname_windows_path(w->f->drive, tree) : NULL;
		c->py38.dll_load_dir = wdir;
		for (size_t i = 0; i < fw->wants.n; i++)
			add_need(fw, c, fw->wants.v[i], WIN_LOAD_BY_NAME, NULL, NULL);
		for (size_t i = 0; i < sizeof tf_pyds / sizeof tf_pyds[0]; i++) {
			char *pyd = wp_find(w, p->site_packages, tf_pyds[i]);

			if (pyd != NULL)
				pyd_needs(w, fw, c, pyd);
			free(pyd);
		}
		c->py38.dll_load_dir = NULL;
		free(tree);
		free(wdir);
	} else if (winname_eq(fw->name, "torch") && fw->bundled.n > 0) {
		struct dllsearch_env own = c->py38;
		struct strv dirs = STRV_INIT;

		tree = wp_find(w, p->site_packages, "torch/lib");
		if (tree == NULL)
			return;
		wdir = winname_windows_path(w->f->drive, tree);
		strv_push(&dirs, wdir);
		own.flags = DLLSEARCH_F_DEFAULT_DIRS;
		own.user_dirs = &dirs;
		for (size_t i = 0; i < fw->bundled.n; i++)
			if (is_cuda_dll(fw->bundled.v[i]))
				add_need(fw, c, fw->bundled.v[i],
				    WIN_LOAD_TORCH_LIB, NULL, &own);
		strv_free(&dirs);
		free(tree);
		free(wdir);
	}
}

/* The directory of the interpreter the process runs: a venv's base. */
static char *
app_dir_of(const struct wp *w, const struct win_python *p)
{
	if (p->kind == WIN_PY_VENV && p->home != NULL &&
	    strlen(p->home) > 2 && p->home[1] == ':')
		return xstrdup(p->home);
	return win_dir_of(w->f->drive, p->exe);
}

void
wp_needs(struct wp *w)
{
	for (size_t i = 0; i < w->f->pythons.n; i++) {
		struct win_python *p = &w->f->pythons.v[i];
		struct load_ctx c;
		char *app;

		if (p->frameworks.n == 0 || p->site_packages == NULL || p->exe == NULL)
			continue;
		memset(&c, 0, sizeof c);
		app = app_dir_of(w, p);
		c.std.sr = w->sr;
		c.std.drive = w->f->drive;
		c.std.app_dir = app;
		c.std.path = wp_env(w, "PATH");
		c.std.image_check = dllsearch_check_pe;
		c.std.image_arg = &x64;
		c.py38 = c.std;
		c.py38.flags = DLLSEARCH_F_PYTHON38;
		c.py38_applies = p->version == NULL ||
		    version_cmp_str(p->version, "3.8") >= 0;
		for (size_t j = 0; j < p->frameworks.n; j++)
			framework_needs(w, p, &p->frameworks.v[j], &c);
		free(app);
	}
}

const char *
win_load_how_name(enum win_load_how h)
{
	static const char *const names[] = { "by_name", "pyd_import", "torch_lib" };

	return (size_t)h < sizeof names / sizeof names[0] ? names[h] : "?";
}
