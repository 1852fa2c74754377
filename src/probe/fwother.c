/* CuPy, spaCy, ONNX Runtime, PaddlePaddle, MXNet, Numba and CTranslate2: what each
 * one's own files, package name and version say about its build, and
 * what to ask the loader model about it (see fwident.c). */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "i18n.h"
#include "probe/fwint.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

/* --------------------------------------------------------------- CuPy */

/* cupy/.data/_wheel.json: {"cuda": "11.x", "packaging": "pip", …}. */
static void
cupy_wheel_json(struct fw_run *run, struct framework_fact *fw)
{
	char *path = path_join(fw->dir, ".data/_wheel.json");
	char *text = fw_read_small(run, path);
	json_t *doc, *cuda;
	json_error_t jerr;

	if (text == NULL) {
		free(path);
		return;
	}
	doc = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		facts_note(run->ctx->facts, path, _("not valid JSON: %s"),
		    jerr.text);
	} else if (json_is_object(doc) &&
	    json_is_string(cuda = json_object_get(doc, "cuda"))) {
		const char *s = json_string_value(cuda);
		size_t n = strlen(s);
		char *v = n > 2 && strcmp(s + n - 2, ".x") == 0 ?
		    xstrndup(s, n - 2) : xstrdup(s);

		fw_set_cuda(fw, v, xasprintf("%s: cuda \"%s\"", path, s));
		free(v);
	}
	json_decref(doc);
	free(text);
	free(path);
}

/* conda-forge's CuPy names its CUDA only in its depends pins. */
static const char *const cupy_conda[] = { "cupy-core", "cupy", NULL };

void
fw_ident_cupy(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	char norm[64];
	const struct matrix_framework *row;
	const struct matrix_build *b;
	char *pub, *api, *mod, *site;
	bool exists;

	fw->name = xstrdup("cupy");
	fw->dir = fw_pkg_dir(run, env, p, "cupy", &exists);
	fw_norm_name(p->name, norm, sizeof norm);
	if (strncmp(norm, "cupy-rocm", 9) == 0) {
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("%s is a ROCm build"),
		    p->name));
		return;
	}
	if (strncmp(norm, "cupy-", 5) == 0)
		fw->variant = xstrdup(norm + 5);
	fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("CuPy runs only on a GPU (%s)"),
	    p->name));
	if (exists)
		cupy_wheel_json(run, fw);
	fw_conda_build(env, p, cupy_conda, fw);
	if (strncmp(norm, "cupy-cuda", 9) == 0) {
		const char *d = norm + 9;
		size_t n = strlen(d);

		if (n >= 2 && d[n - 1] == 'x' && fw_all_digits(d, n - 1)) {
			char *v = xstrndup(d, n - 1);

			fw_set_cuda(fw, v, xasprintf(_("the package name %s "
			    "(any CUDA %s.x)"), p->name, v));
			free(v);
		} else {
			char *v = fw_digits_cuda(d, n);

			fw_set_cuda(fw, v, xasprintf(_("the package name %s"),
			    p->name));
			free(v);
		}
	}
	pub = fw_public_version(p->version);
	row = matrix_framework(fw_matrix(run), p->name, pub);
	b = fw_pick_build(row, NULL, NULL);
	fw_from_matrix(fw, row, b, false);
	free(pub);
	if (!exists) {
		/* Its compiled core, by the name without Python's tag. */
		fw_dir_missing(run, f, "_core/core.so");
		return;
	}
	/* cupy_backends is cupy's sibling in site-packages. */
	site = path_dirname(fw->dir);
	api = path_join(site, "cupy_backends/cuda/api");
	free(site);
	mod = fw_find_module(run, api, "runtime");
	if (mod != NULL) {
		strv_push(&f->plan.linked, mod);
		f->plan.dlopener = mod;
	}
	mod = fw_find_module(run, api, "driver");
	if (mod != NULL) {
		strv_push(&f->plan.linked, mod);
		free(mod);
	}
	free(api);
	fw_dlopen_sonames(run, fw, b, &f->plan.dlopen);
}

/* -------------------------------------------------------------- spaCy */

void
fw_ident_spacy(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, const struct fw_found *cupy,
    struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	bool exists;

	fw->name = xstrdup("spacy");
	fw->dir = fw_pkg_dir(run, env, p,
	    pkg_name_eq(p->name, "thinc") ? "thinc" : "spacy", &exists);
	if (cupy == NULL) {
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("no CuPy package in this "
		    "environment: %s runs on the CPU"), p->name));
		return;
	}
	fw->gpu_through = xstrdup("cupy");
	if (cupy->fact.gpu == FW_GPU_YES)
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s is installed: %s "
		    "runs its GPU work on CuPy"), cupy->fact.package, p->name));
	else
		fw_set_gpu(fw, cupy->fact.gpu, xasprintf(_("it would run on "
		    "CuPy, and %s is not a CUDA build"), cupy->fact.package));
	if (cupy->fact.cuda != NULL)
		fw_set_cuda(fw, cupy->fact.cuda, xasprintf(_("CuPy (%s): %s"),
		    cupy->fact.package, cupy->fact.cuda_source));
	fw->variant = cupy->fact.variant != NULL ? xstrdup(cupy->fact.variant) :
	    NULL;
	f->plan.needs_of = "cupy";
}


/* -------------------------------------------------------- ONNX Runtime */

/* conda-forge's build strings end in "_cuda" or "_cpu". */
static const char *const ort_conda[] = { "onnxruntime", NULL };

void
fw_ident_ort(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	static const char *const infos[] = {
		"capi/build_and_package_info.py", "capi/version_info.py",
	};
	struct framework_fact *fw = &f->fact;
	char norm[64];
	const struct matrix_framework *row;
	char *pub;
	bool exists;
	off_t biggest = -1;

	fw->name = xstrdup("onnxruntime");
	fw->dir = fw_pkg_dir(run, env, p, "onnxruntime", &exists);
	fw_norm_name(p->name, norm, sizeof norm);
	if (!exists)
		fw_dir_missing(run, f, NULL);
	if (exists) {
		for (size_t i = 0; i < sizeof infos / sizeof *infos; i++) {
			char *path = path_join(fw->dir, infos[i]);
			char *text = fw_read_small(run, path), *v = NULL;

			if (text != NULL) {
				if (fw_py_value(text, "cuda_version", &v) ==
				    PYVAL_STR)
					fw_set_cuda(fw, v, xstrdup(path));
				FREE(&v);
				if (fw_py_value(text, "cudnn_version", &v) ==
				    PYVAL_STR)
					fw_set_cudnn(fw, v, xstrdup(path));
				FREE(&v);
			}
			free(text);
			free(path);
		}
		if (fw_add_linked(run, &f->plan, fw->dir,
		    "capi/libonnxruntime_providers_cuda.so", &biggest)) {
			fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s/capi holds "
			    "libonnxruntime_providers_cuda.so"), fw->dir));
			fw_cuda_from_needed(run, fw, f->plan.archs);
		}
	}
	fw_conda_build(env, p, ort_conda, fw);
	if (strstr(norm, "-gpu") != NULL) {
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s is the CUDA build"),
		    p->name));
		if (biggest < 0 && fw->dir != NULL)
			f->plan.own = path_join(fw->dir,
			    "capi/libonnxruntime_providers_cuda.so");
	} else {
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("%s is the CPU build "
		    "(the CUDA one is onnxruntime-gpu)"), p->name));
	}
	if (fw->gpu != FW_GPU_YES)
		return;
	pub = fw_public_version(p->version);
	row = matrix_framework(fw_matrix(run), "onnxruntime", pub);
	fw_from_matrix(fw, row, fw_pick_build(row, NULL, fw->cuda), true);
	free(pub);
}

/* -------------------------------------------------------- PaddlePaddle */

void
fw_ident_paddle(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	static const char *const cores[] = {
		"base/libpaddle.so", "fluid/libpaddle.so", "fluid/core_avx.so",
		"fluid/core_noavx.so",
	};
	struct framework_fact *fw = &f->fact;
	const char *post = p->version != NULL ? strstr(p->version, ".post") :
	    NULL;
	bool exists, gpu_pkg = pkg_name_eq(p->name, "paddlepaddle-gpu");

	fw->name = xstrdup("paddlepaddle");
	fw->dir = fw_pkg_dir(run, env, p, "paddle", &exists);
	if (exists) {
		char *path = path_join(fw->dir, "version/__init__.py");
		char *text = fw_read_small(run, path), *v = NULL;

		if (text != NULL) {
			if (fw_py_value(text, "cuda_version", &v) ==
			    PYVAL_STR) {
				if (strcmp(v, "False") == 0)
					fw_set_gpu(fw, FW_GPU_NO, xasprintf(
					    "%s: cuda_version = 'False'",
					    path));
				else if (version_valid(v))
					fw_set_gpu(fw, FW_GPU_YES, xasprintf(
					    "%s: cuda_version = '%s'", path,
					    v));
				fw_set_cuda(fw, v, xstrdup(path));
			}
			FREE(&v);
			if (fw_py_value(text, "cudnn_version", &v) == PYVAL_STR)
				fw_set_cudnn(fw, v, xstrdup(path));
			FREE(&v);
		}
		free(text);
		free(path);
	}
	if (post != NULL) {
		size_t n = strspn(post + 5, "0123456789");
		char *c = fw_digits_cuda(post + 5, n);

		fw->variant = xstrndup(post + 1, n + 4);
		/* post97, post107: CUDA 9/10 with cuDNN 7, not 9.7 or 10.7. */
		if (c != NULL && matrix_cuda_release(fw_matrix(run), c) != NULL)
			fw_set_cuda(fw, c, xasprintf(_("the version %s"),
			    p->version));
		free(c);
	}
	if (gpu_pkg)
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s is the GPU package"),
		    p->name));
	else
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("%s is the CPU package "
		    "(the CUDA one is paddlepaddle-gpu)"), p->name));
	if (!exists)
		fw_dir_missing(run, f, cores[0]);
	if (fw->gpu != FW_GPU_YES || !exists)
		return;
	/* Paddle dlopen()s the CUDA libraries from its core module. */
	for (size_t i = 0; i < sizeof cores / sizeof *cores; i++) {
		off_t biggest = -1;

		if (fw_add_linked(run, &f->plan, fw->dir, cores[i], &biggest)) {
			f->plan.dlopener = path_join(fw->dir, cores[i]);
			break;
		}
	}
	if (f->plan.dlopener == NULL)
		f->plan.own = path_join(fw->dir, cores[0]);
	fw_dlopen_sonames(run, fw, NULL, &f->plan.dlopen);
}

/* -------------------------------------------------------------- MXNet */

void
fw_ident_mxnet(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	char norm[64];
	bool exists;
	off_t biggest = -1;

	fw->name = xstrdup("mxnet");
	fw->dir = fw_pkg_dir(run, env, p, "mxnet", &exists);
	fw_norm_name(p->name, norm, sizeof norm);
	if (strncmp(norm, "mxnet-cu", 8) == 0) {
		const char *d = norm + 8;
		char *c = fw_digits_cuda(d, strspn(d, "0123456789"));

		fw->variant = xstrdup(norm + 6);
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s is a CUDA build"),
		    p->name));
		fw_set_cuda(fw, c, xasprintf(_("the package name %s"),
		    p->name));
		free(c);
	} else {
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("%s is a CPU build (CUDA "
		    "builds are mxnet-cuXXX)"), p->name));
		return;
	}
	if (!exists)
		fw_dir_missing(run, f, "libmxnet.so");
	else if (!fw_add_linked(run, &f->plan, fw->dir, "libmxnet.so",
	    &biggest))
		f->plan.own = path_join(fw->dir, "libmxnet.so");
}

/* -------------------------------------------------------------- Numba */

/* Numba's CUDA target uses the toolkit it finds when it runs: these
 * packages are what it finds in the environment itself. */
static const char *const numba_cuda_pkgs[] = {
	"cudatoolkit", "cuda-nvcc", "nvidia-cuda-nvcc-cu12",
	"nvidia-cuda-nvcc-cu11", "nvidia-cuda-nvcc", "nvidia-cuda-runtime-cu12",
	"nvidia-cuda-runtime-cu11", "nvidia-cuda-runtime",
};
#define NUMBA_CUDA_PKGS	(sizeof numba_cuda_pkgs / sizeof *numba_cuda_pkgs)

void
fw_ident_numba(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	bool exists;

	fw->name = xstrdup("numba");
	if (pkg_name_eq(p->name, "numba-cuda")) {
		fw->dir = fw_pkg_dir(run, env, p, "numba_cuda", &exists);
		fw_set_gpu(fw, FW_GPU_YES,
		    xasprintf(_("%s is Numba's CUDA target"), p->name));
	} else {
		fw->dir = fw_pkg_dir(run, env, p, "numba", &exists);
	}
	for (size_t i = 0; i < NUMBA_CUDA_PKGS; i++) {
		const struct py_package *t = py_env_package(env,
		    numba_cuda_pkgs[i]);
		struct version v;

		if (t == NULL)
			continue;
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("numba.cuda uses %s %s "
		    "from this environment"), t->name,
		    t->version != NULL ? t->version : ""));
		if (t->version != NULL && version_parse(t->version, &v) &&
		    v.nparts >= 2) {
			char *c = xasprintf("%u.%u", v.part[0], v.part[1]);

			fw_set_cuda(fw, c, xasprintf("%s %s", t->name,
			    t->version));
			free(c);
		}
		break;
	}
	if (fw->gpu == FW_GPU_UNKNOWN) {
		fw->gpu_why = xstrdup(_("numba.cuda uses whatever CUDA "
		    "toolkit it finds when it runs (CUDA_HOME, the system)"));
		return;
	}
	/* It drives the GPU through the driver API alone. */
	strv_push(&f->plan.dlopen, "libcuda.so.1");
}

/* --------------------------------------------------------- CTranslate2 */

/* CTranslate2 (faster-whisper's engine): its Linux wheels are CUDA
 * builds that dlopen() cuBLAS and cuDNN from libctranslate2 (which
 * auditwheel puts in ctranslate2.libs/ under a hashed name), so the
 * CUDA and cuDNN majors are the release's, from the matrix. */
void
fw_ident_ct2(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	const struct matrix_framework *row;
	const struct matrix_build *b;
	struct strv names = STRV_INIT;
	char *pub, *libs;
	bool exists;

	fw->name = xstrdup("ctranslate2");
	fw->dir = fw_pkg_dir(run, env, p, "ctranslate2", &exists);
	if (!exists) {
		fw_dir_missing(run, f, NULL);
		return;
	}
	fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s wheels for Linux are CUDA "
	    "builds"), p->name));
	libs = path_join(fw->dir, "../ctranslate2.libs");
	if (sysroot_list_dir(run->ctx->sr, libs, &names) == 0)
		for (size_t i = 0; i < names.n && f->plan.dlopener == NULL; i++)
			if (strncmp(names.v[i], "libctranslate2", 14) == 0) {
				off_t biggest = -1;

				if (fw_add_linked(run, &f->plan, libs,
				    names.v[i], &biggest))
					f->plan.dlopener = path_join(libs,
					    names.v[i]);
			}
	strv_free(&names);
	free(libs);
	pub = fw_public_version(p->version);
	row = matrix_framework(fw_matrix(run), "ctranslate2", pub);
	b = fw_pick_build(row, NULL, NULL);
	fw_from_matrix(fw, row, b, true);
	fw_dlopen_sonames(run, fw, b, &f->plan.dlopen);
	free(pub);
}
