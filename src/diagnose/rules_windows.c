/* The Windows rules: each framework's DLLs, resolved by the probe as the
 * framework loads them (winprobe/winneeds.c), and nvcuda.dll's driver
 * against the matrix's Windows minimums. See rules_windows.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/fixcmd.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_windows.h"
#include "diagnose/rules_windows_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"
#include "winload/winname.h"

#define RW_EVIDENCE_MAX	12
#define RW_TOOLKIT_ROOT	"Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v"

/* ----------------------------------------------------------- the facts */

struct rw_ctx {
	const struct win_facts	*wf;
	const struct matrix	*m;
	struct findings		*out;
	const struct win_python	*p;
	const struct win_framework *fw;
	char			*who;	/* "tensorflow 2.10.1" */
	char			*where;	/* "C:\Python310" */
};

static const char *
how_words(const struct win_need *n)
{
	switch (n->how) {
	case WIN_LOAD_BY_NAME:
		return _("LoadLibraryExW by name: the standard search order, "
		    "python.exe's directory first and PATH last");
	case WIN_LOAD_PYD_IMPORT:
		return _("an extension module's import: its own directory, "
		    "python.exe's, the os.add_dll_directory() directories and "
		    "System32, not PATH");
	case WIN_LOAD_TORCH_LIB:
		return _("torch\\lib, added by os.add_dll_directory(), then "
		    "the default directories");
	}
	return "?";
}

static const char *
via_name(const struct win_dll_answer *a)
{
	return dllsearch_source_name(a->via);
}

/* "found at C:\x (path[2])" or "not found (error 126)". Owned. */
static char *
answer_words(const struct win_dll_answer *a)
{
	if (a->path == NULL)
		return xasprintf(_("not found (error %u)"), a->error);
	if (a->via == DLLSRC_PATH)
		return xasprintf(_("found at %s (PATH entry %zu)"), a->path,
		    a->path_index + 1);
	return xasprintf(_("found at %s (%s)"), a->path, via_name(a));
}

static void
search_evidence(struct finding *f, const struct win_need *n)
{
	size_t i;

	for (i = 0; i < n->searched.n && i < RW_EVIDENCE_MAX; i++)
		strv_pushf(&f->evidence, _("searched: %s"), n->searched.v[i]);
	if (n->searched.n > RW_EVIDENCE_MAX)
		strv_pushf(&f->evidence, _("… and %zu more directories searched"),
		    n->searched.n - RW_EVIDENCE_MAX);
	for (i = 0; i < n->passed_over.n; i++)
		strv_pushf(&f->evidence,
		    _("%s: a DLL of another machine (x86), passed over"),
		    n->passed_over.v[i]);
}

/* The CUDA version a toolkit is known by. */
static const char *
tk_version(const struct win_toolkit *t)
{
	return t->json_version != NULL ? t->json_version : t->dir_version;
}

/* A directory of the drive holding an x64 copy of dll the search did not
 * reach: a toolkit's bin or a cuDNN directory. Owned; NULL: none. */
static char *
holder_dir(const struct win_facts *wf, const char *dll)
{
	for (size_t i = 0; i < wf->toolkits.n; i++) {
		const struct win_dll *d = &wf->toolkits.v[i].cudart;

		if (d->path != NULL && d->error == NULL && d->machine == 0x8664 &&
		    winname_eq(winname_base(d->path), dll)) {
			char *w = winname_windows_path(wf->drive, d->path);
			char *dir = winname_dir(w);

			free(w);
			return dir;
		}
	}
	for (size_t i = 0; i < wf->cudnn.n; i++) {
		const struct win_cudnn *c = &wf->cudnn.v[i];
		bool has = c->dll.path != NULL && c->dll.error == NULL &&
		    c->dll.machine == 0x8664 && winname_eq(winname_base(c->dll.path), dll);

		for (size_t j = 0; !has && j < c->parts.n; j++)
			has = winname_eq(c->parts.v[j], dll);
		if (has)
			return winname_windows_path(wf->drive, c->dir);
	}
	return NULL;
}

/* The build of the framework the matrix knows: TensorFlow 2.10's is
 * CUDA 11.2 with cuDNN 8.1. */
static const struct matrix_build *
fw_build(const struct rw_ctx *c)
{
	const struct matrix_framework *mf;

	if (c->m == NULL || c->fw->version == NULL)
		return NULL;
	mf = matrix_framework(c->m, c->fw->name, c->fw->version);
	return mf != NULL ? matrix_framework_build(mf, NULL) : NULL;
}

/* The CUDA version a framework runs: torch's version.py says it
 * ("12.1"); TensorFlow's build_info says "64_112", which the matrix's
 * build row says as "11.2". NULL: unknown or a CPU build. Owned. */
static char *
fw_cuda(const struct rw_ctx *c)
{
	const struct matrix_build *b;
	const char *v = c->fw->cuda_version;

	if (v == NULL)
		return NULL;
	if (strchr(v, '.') != NULL)
		return xstrdup(v);
	b = fw_build(c);
	if (b != NULL && b->cuda != NULL)
		return xstrdup(b->cuda);
	return winname_suffix_version(v);
}

/* ------------------------------------------------------- not found */

/* The installed toolkit of cuda's major (any 11.x ships cudart64_110.dll
 * and takes cuDNN 8 for 11.x), as a Windows path to its bin; NULL: none.
 * Owned. */
static char *
toolkit_bin_of_major(const struct win_facts *wf, const char *cuda)
{
	size_t maj = strcspn(cuda, ".");

	for (size_t i = 0; i < wf->toolkits.n; i++) {
		const struct win_toolkit *t = &wf->toolkits.v[i];
		const char *v = tk_version(t);

		if (v != NULL && strncmp(v, cuda, maj) == 0 &&
		    (v[maj] == '.' || v[maj] == '\0')) {
			char *root = winname_windows_path(wf->drive, t->dir);
			char *bin = xasprintf("%s\\bin", root);

			free(root);
			return bin;
		}
	}
	return NULL;
}

/* TensorFlow's cudart64_*.dll or cudnn64_*.dll on no directory of this
 * drive. For cuDNN beside an installed toolkit of the right CUDA, only
 * cuDNN is to install: NVIDIA's Windows guide for the cuDNN 8 zip copies
 * its bin\cudnn*.dll into the toolkit's bin, which then goes first on
 * PATH; telling to install the toolkit again would be wrong. */
static void
fix_tensorflow(struct rw_ctx *c, struct finding *f, const char *dll)
{
	const struct matrix_build *b = fw_build(c);
	struct fix_want want = {
		.channel = "pip", .package = "tensorflow[and-cuda]", .min = "2.15",
	};

	/* The matrix's build row, else what build_info says (no cuDNN
	 * minor then: "64_8" is cuDNN 8). */
	char *cuda = b != NULL && b->cuda != NULL ? xstrdup(b->cuda) :
	    c->fw->cuda_version != NULL ? winname_suffix_version(c->fw->cuda_version) : NULL;
	char *cudnn = b != NULL && b->cudnn != NULL ? xstrdup(b->cudnn) :
	    c->fw->cudnn_version != NULL ? winname_suffix_version(c->fw->cudnn_version) : NULL;
	char *have = cuda != NULL && cudnn != NULL && rw_iprefix(dll, "cudnn") ?
	    toolkit_bin_of_major(c->wf, cuda) : NULL;

	if (have != NULL) {
		rw_comment_owned(f, xasprintf(_("install cuDNN %s for CUDA %s: "
		    "copy the bin\\cudnn*.dll files of its Windows zip "
		    "(https://developer.nvidia.com/rdp/cudnn-archive) into %s, as "
		    "NVIDIA's installation guide for Windows says, then put that "
		    "directory first on PATH:"), cudnn, cuda, have));
		rw_fix_path_first(f, have);
	} else if (cuda != NULL) {
		char *bin = xasprintf("%c:\\" RW_TOOLKIT_ROOT "%s\\bin",
		    c->wf->drive != 0 ? c->wf->drive : 'C', cuda);

		rw_comment_owned(f, cudnn != NULL ?
		    xasprintf(_("install the CUDA %s toolkit and cuDNN %s for it "
		    "(https://developer.nvidia.com/cuda-toolkit-archive, "
		    "https://developer.nvidia.com/rdp/cudnn-archive), then put "
		    "its bin directory on PATH:"), cuda, cudnn) :
		    xasprintf(_("install the CUDA %s toolkit "
		    "(https://developer.nvidia.com/cuda-toolkit-archive), then "
		    "put its bin directory on PATH:"), cuda));
		rw_fix_path_first(f, bin);
		free(bin);
	}
	free(have);
	free(cuda);
	free(cudnn);
	lr_fix_comment(f, _("TensorFlow 2.10 was the last release with GPU "
	    "support on native Windows: no later TensorFlow uses the GPU there, "
	    "so upgrading TensorFlow does not help."));
	if (fixcmd_published(c->m, &want) == MATRIX_YES) {
		lr_fix_comment(f, _("or run TensorFlow in WSL2 (Ubuntu on this "
		    "Windows), where current releases use the GPU:"));
		fixcmd_install(c->m, f, NULL, &want, 1);
	}
}

static void
rule_not_found(struct rw_ctx *c, const struct win_need *n)
{
	struct finding *f;
	char *holder;
	char *got = answer_words(&n->got);

	/* The Python >= 3.8 case: the standard order finds it on PATH. */
	if (n->how == WIN_LOAD_PYD_IMPORT && n->has_std && n->std.path != NULL &&
	    n->std.via == DLLSRC_PATH) {
		char *dir = winname_dir(n->std.path);
		char *std = answer_words(&n->std);

		f = finding_add(c->out, FINDING_SONAME_NOT_FOUND,
		    _("%s imports %s. Python %s loads an extension module's "
		    "imports from its own directory, python.exe's, the "
		    "os.add_dll_directory() directories and System32, never from "
		    "PATH (since Python 3.8); %s is found only through PATH, so "
		    "the import fails with \"DLL load failed\"."),
		    n->importer != NULL ? n->importer : c->who, n->dll,
		    c->p->version != NULL ? c->p->version : "3.8+", n->dll);
		subj_who_needs(f, c->who, c->where, n->dll);
		strv_pushf(&f->evidence, _("extension-module search (Python >= 3.8): %s"), got);
		strv_pushf(&f->evidence, _("standard search order (PATH searched): %s"), std);
		search_evidence(f, n);
		rw_fix_add_dll_directory(f, c->fw->name, dir);
		free(std);
		free(dir);
		free(got);
		return;
	}
	f = finding_add(c->out, FINDING_SONAME_NOT_FOUND,
	    _("%s loads %s (%s); no directory of that search holds a 64-bit "
	    "copy, so the load fails with error %u and the framework runs "
	    "without the GPU or stops."),
	    c->who, n->dll, how_words(n), n->got.error);
	subj_who_needs(f, c->who, c->where, n->dll);
	strv_pushf(&f->evidence, _("the search: %s"), got);
	search_evidence(f, n);
	for (size_t i = 0; i < c->wf->toolkits.n; i++) {
		const struct win_toolkit *t = &c->wf->toolkits.v[i];
		char *dir = winname_windows_path(c->wf->drive, t->dir);

		strv_pushf(&f->evidence, _("CUDA %s at %s: its runtime is %s"),
		    tk_version(t) != NULL ? tk_version(t) : "?", dir,
		    t->cudart.path != NULL ? winname_base(t->cudart.path) : _("missing"));
		free(dir);
	}
	for (size_t i = 0; i < c->wf->cudavars.n; i++)
		strv_pushf(&f->evidence, "%s=%s", c->wf->cudavars.v[i].name,
		    c->wf->cudavars.v[i].value);
	holder = holder_dir(c->wf, n->dll);
	if (holder != NULL) {
		lr_fix_comment(f, _("the DLL is on this drive, in a directory the "
		    "search does not reach:"));
		strv_pushf(&f->evidence, _("%s holds %s"), holder, n->dll);
		if (n->how == WIN_LOAD_PYD_IMPORT)
			rw_fix_add_dll_directory(f, c->fw->name, holder);
		else
			rw_fix_path_first(f, holder);
	} else if (winname_eq(c->fw->name, "tensorflow") &&
	    (rw_iprefix(n->dll, "cudart64_") || rw_iprefix(n->dll, "cudnn64_"))) {
		fix_tensorflow(c, f, n->dll);
	} else {
		lr_fix_comment(f, _("no directory on this drive holds it: install "
		    "what provides it, then put that directory on PATH"));
	}
	free(holder);
	free(got);
}

/* Only other CUDA runtimes here: the framework was built for another. */
static void
rule_mismatch(struct rw_ctx *c, const struct win_need *n)
{
	struct finding *f;
	struct strbuf have = STRBUF_INIT;
	char *cuda;

	if (!rw_iprefix(n->dll, "cudart64_") || c->wf->toolkits.n == 0)
		return;
	for (size_t i = 0; i < c->wf->toolkits.n; i++) {
		const struct win_toolkit *t = &c->wf->toolkits.v[i];

		if (t->cudart.path == NULL)
			continue;
		if (winname_eq(winname_base(t->cudart.path), n->dll))
			return;	/* one here has it: a search problem, not a version one */
		strbuf_printf(&have, "%s%s (CUDA %s)", strbuf_str(&have)[0] != '\0' ?
		    ", " : "", winname_base(t->cudart.path),
		    tk_version(t) != NULL ? tk_version(t) : "?");
	}
	if (strbuf_str(&have)[0] == '\0') {
		strbuf_free(&have);
		return;
	}
	cuda = fw_cuda(c);
	f = finding_add(c->out, FINDING_FRAMEWORK_CUDA_MISMATCH,
	    _("%s was built with CUDA %s and loads %s; the toolkits here "
	    "provide only %s, which it does not load."),
	    c->who, cuda != NULL ? cuda : "?", n->dll, strbuf_str(&have));
	subj_who_needs(f, c->who, c->where, n->dll);
	rw_comment_owned(f, xasprintf(_("install the CUDA runtime it was built "
	    "with: see the fix for %s"), "SONAME_NOT_FOUND"));
	free(cuda);
	strbuf_free(&have);
}

/* ------------------------------------------------------------ shadowed */

/* Whether path is in dir (a Windows path), compared without case. */
static bool
in_dir(const char *path, const char *dir)
{
	char *d = winname_dir(path);
	bool eq = winname_eq(d, dir);

	free(d);
	return eq;
}

static void
rule_shadowed(struct rw_ctx *c, const struct win_need *n)
{
	struct finding *f;
	char *dir;
	const struct win_toolkit *t = NULL;
	char *tbin = NULL;

	if (n->got.path == NULL)
		return;
	dir = winname_dir(n->got.path);
	if (n->passed_over.n > 0) {
		f = finding_add(c->out, FINDING_LIB_SHADOWED,
		    _("%s loads %s from %s, but earlier in the search %s holds an "
		    "x86 copy, which a 64-bit python.exe cannot load. Wine passes "
		    "it over and goes on; Windows may stop there with error 193 "
		    "(\"is not a valid Win32 application\")."),
		    c->who, n->dll, n->got.path, n->passed_over.v[0]);
		subj_who_needs(f, c->who, c->where, n->dll);
		for (size_t i = 0; i < n->passed_over.n; i++)
			strv_pushf(&f->evidence, _("%s: x86, ahead of the 64-bit copy"),
			    n->passed_over.v[i]);
		strv_pushf(&f->evidence, _("loaded: %s"), n->got.path);
		rw_fix_path_first(f, dir);
		free(dir);
		return;
	}
	if (c->wf->cuda_path_toolkit >= 0 &&
	    (size_t)c->wf->cuda_path_toolkit < c->wf->toolkits.n) {
		char *w;

		t = &c->wf->toolkits.v[c->wf->cuda_path_toolkit];
		w = winname_windows_path(c->wf->drive, t->dir);
		tbin = xasprintf("%s\\bin", w);
		free(w);
	}
	for (size_t i = 0; tbin != NULL && i < n->others.n; i++) {
		if (!in_dir(n->others.v[i], tbin) || winname_eq(dir, tbin))
			continue;
		f = finding_add(c->out, FINDING_LIB_SHADOWED,
		    _("%s loads %s from %s, found first by the search; CUDA_PATH "
		    "names the toolkit whose copy is %s."),
		    c->who, n->dll, n->got.path, n->others.v[i]);
		subj_who_needs(f, c->who, c->where, n->dll);
		{
			char *g = answer_words(&n->got);

			strv_pushf(&f->evidence, _("the search: %s"), g);
			free(g);
		}
		strv_pushf(&f->evidence, _("the CUDA_PATH toolkit's copy: %s"),
		    n->others.v[i]);
		rw_fix_path_first(f, tbin);
		break;
	}
	free(tbin);
	free(dir);
}

/* ---------------------------------------------------------- the driver */

static void
driver_check(struct rw_ctx *c, const char *who, const char *where,
    const char *cuda)
{
	const char *drv = c->wf->driver.version;
	const char *min, *floor;
	enum matrix_status st, fst = MATRIX_CONFIRMED;
	struct finding *f;

	if (c->m == NULL || drv == NULL || cuda == NULL)
		return;
	min = matrix_cuda_min_driver(c->m, cuda, MATRIX_WINDOWS, &st);
	if (min == NULL || version_cmp_str(drv, min) >= 0)
		return;
	/* Minor-version compatibility: a driver at the major's floor runs
	 * its newer minors (all but PTX JIT), as the Linux rule says. */
	floor = matrix_minor_compat_floor(c->m, version_major_str(cuda),
	    MATRIX_WINDOWS, &fst);
	if (floor != NULL && version_cmp_str(drv, floor) >= 0)
		return;
	f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
	    _("%s uses CUDA %s, which needs NVIDIA driver %s or newer on "
	    "Windows; nvcuda.dll here is driver %s. CUDA calls fail with "
	    "cudaErrorInsufficientDriver (35): \"CUDA driver version is "
	    "insufficient for CUDA runtime version\"."),
	    who, cuda, min, drv);
	subj_in(f, who, where);
	strv_pushf(&f->evidence, _("nvcuda.dll: driver %s (file version %s)"),
	    drv, c->wf->driver.nvcuda.file_version != NULL ?
	    c->wf->driver.nvcuda.file_version : "?");
	strv_pushf(&f->evidence, _("CUDA %s needs driver >= %s on Windows (matrix: %s)"),
	    cuda, min, matrix_status_name(st));
	if (floor != NULL)
		strv_pushf(&f->evidence,
		    _("any CUDA %u runtime needs at least %s on Windows, even with "
		    "minor-version compatibility (matrix: %s)"),
		    version_major_str(cuda), floor, matrix_status_name(fst));
	rw_comment_owned(f, xasprintf(_("install NVIDIA's Windows driver %s or newer "
	    "for this GPU: https://www.nvidia.com/Download/index.aspx"), min));
}

/* --------------------------------------------------------------- rules */

void
rules_windows(const struct win_facts *wf, const struct matrix *m,
    struct findings *out)
{
	struct rw_ctx c = { .wf = wf, .m = m, .out = out };

	rules_windows_gpus(wf, out);

	for (size_t i = 0; i < wf->toolkits.n; i++) {
		const struct win_toolkit *t = &wf->toolkits.v[i];
		char *dir = winname_windows_path(wf->drive, t->dir);
		char *who = xasprintf("CUDA %s", tk_version(t) != NULL ?
		    tk_version(t) : "?");

		driver_check(&c, who, dir, tk_version(t));
		free(who);
		free(dir);
	}
	for (size_t i = 0; i < wf->pythons.n; i++) {
		c.p = &wf->pythons.v[i];
		c.where = winname_windows_path(wf->drive, c.p->dir);
		for (size_t j = 0; j < c.p->frameworks.n; j++) {
			char *cuda;

			c.fw = &c.p->frameworks.v[j];
			c.who = c.fw->version != NULL ?
			    xasprintf("%s %s", c.fw->name, c.fw->version) :
			    xstrdup(c.fw->name);
			for (size_t k = 0; k < c.fw->needs.n; k++) {
				const struct win_need *n = &c.fw->needs.v[k];

				if (n->got.path == NULL) {
					rule_not_found(&c, n);
					rule_mismatch(&c, n);
				} else {
					rule_shadowed(&c, n);
				}
			}
			cuda = fw_cuda(&c);
			driver_check(&c, c.who, c.where, cuda);
			free(cuda);
			free(c.who);
		}
		free(c.where);
	}
}
