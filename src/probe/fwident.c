/* Which GPU frameworks an environment holds, and what each one's own
 * files say about its build: recognised by package name first (no I/O,
 * so an environment without a framework costs nothing), then from the
 * few small files a framework writes about itself (torch/version.py,
 * TensorFlow's build_info.py, paddle/version, CuPy's _wheel.json, ONNX
 * Runtime's build_and_package_info.py), then its version or conda build
 * string, and the matrix last (fwbuild.c). Nothing is run and nothing
 * is imported. PyTorch, TensorFlow and JAX are here; the others are in
 * fwother.c. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "i18n.h"
#include "probe/condabuild.h"
#include "probe/fwint.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

enum fw_kind {
	FWK_TORCH = 0,
	FWK_TF,
	FWK_JAX,
	FWK_CUPY,
	FWK_SPACY,
	FWK_ORT,
	FWK_PADDLE,
	FWK_MXNET,
	FWK_NUMBA,
	FWK_CT2,
	FWK_COUNT
};

/* The packages of one environment that make frameworks: for each kind
 * the package with the best (lowest) rank, and JAX's three parts. */
struct fw_cands {
	const struct py_package	*pkg[FWK_COUNT];
	int			 rank[FWK_COUNT];
	const struct py_package	*jaxlib, *jax_plugin, *jax_pjrt;
	char			 jax_cuda[4];	/* "12" of jax-cuda12-plugin */
};

/* ---------------------------------------------------------- conda */

/* The conda record named name in env; NULL when there is none. */
static const struct py_package *
conda_named(const struct py_env *env, const char *name)
{
	for (size_t i = 0; i < env->packages.n; i++) {
		const struct py_package *q = &env->packages.v[i];
		char n[64];

		if (q->source != PYPKG_CONDA || q->name == NULL)
			continue;
		fw_norm_name(q->name, n, sizeof n);
		if (strcmp(n, name) == 0)
			return q;
	}
	return NULL;
}

/* The conda record that describes p's install: p's own, else the first
 * of names env holds. */
static const struct py_package *
conda_record(const struct py_env *env, const struct py_package *p,
    const char *const *names)
{
	const struct py_package *r = NULL;

	if (p->source == PYPKG_CONDA)
		return p;
	for (; r == NULL && names != NULL && *names != NULL; names++)
		r = conda_named(env, *names);
	return r;
}

/* What one record says: build string first, then depends pins. */
static void
conda_record_build(const struct py_package *r, struct framework_fact *fw)
{
	struct conda_build cb;
	char v[32];

	conda_build_parse(r->build, &cb);
	switch (cb.kind) {
	case CB_CPU:
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("conda build %s is a CPU "
		    "build"), r->build));
		break;
	case CB_GPU:
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("conda build %s is a GPU "
		    "build"), r->build));
		break;
	case CB_CUDA:
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("conda build %s is a "
		    "CUDA build"), r->build));
		fw_set_cuda(fw, cb.cuda, xasprintf(_("conda build string %s"),
		    r->build));
		break;
	case CB_UNKNOWN:
		break;
	}
	if (cb.cudnn[0] != '\0')
		fw_set_cudnn(fw, cb.cudnn, xasprintf(_("conda build string %s"),
		    r->build));
	for (size_t i = 0; i < r->requires.n; i++) {
		const char *d = r->requires.v[i];

		if (conda_dep_floor(d, "cuda-version", v, sizeof v) ||
		    conda_dep_floor(d, "cudatoolkit", v, sizeof v)) {
			fw_set_cuda(fw, v, xasprintf(_("conda-meta depends: %s"),
			    d));
			fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("conda-meta "
			    "depends: %s"), d));
		} else if (conda_dep_floor(d, "cudnn", v, sizeof v)) {
			fw_set_cudnn(fw, v, xasprintf(_("conda-meta depends: "
			    "%s"), d));
		}
	}
}

void
fw_conda_build(const struct py_env *env, const struct py_package *p,
    const char *const *conda_names, struct framework_fact *fw)
{
	/* p's own record, then its companions' ("cupy" holds the files,
	 * "cupy-core" the pins): the first to say a thing wins. */
	if (p->source == PYPKG_CONDA)
		conda_record_build(p, fw);
	for (; conda_names != NULL && *conda_names != NULL; conda_names++) {
		const struct py_package *r = conda_named(env, *conda_names);

		if (r != NULL && r != p)
			conda_record_build(r, fw);
	}
}

/* ------------------------------------------------------------ PyTorch */

static const char *const torch_conda[] = { "pytorch", "pytorch-gpu", NULL };

/* The variant "cu121" of a CUDA 12.1 conda build, as wheels name it. */
static void
torch_conda_variant(struct framework_fact *fw)
{
	struct version pv;

	if (fw->variant != NULL || fw->cuda == NULL ||
	    fw->gpu != FW_GPU_YES)
		return;
	if (version_parse(fw->cuda, &pv) && pv.nparts >= 2)
		fw->variant = xasprintf("cu%u%u", pv.part[0], pv.part[1]);
}

/* Every name torch has kept its CUDA code under: libtorch_cuda.so (1.9
 * on), its 1.9–1.12 halves, libc10_cuda.so, and 1.0–1.4's caffe2. */
static const char *const torch_cuda_libs[] = {
	"libtorch_cuda.so", "libtorch_cuda_cu.so", "libtorch_cuda_cpp.so",
	"libc10_cuda.so", "libcaffe2_gpu.so", "libcaffe2_nvrtc.so",
};
#define TORCH_CUDA_LIBS	(sizeof torch_cuda_libs / sizeof *torch_cuda_libs)

static void
ident_torch(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	const struct matrix_framework *row;
	const struct matrix_build *b;
	char *path, *text, *v = NULL, *pub;
	bool exists;
	const char *plus;

	fw->name = xstrdup("pytorch");
	fw->dir = fw_pkg_dir(run, env, p, "torch", &exists);
	plus = p->version != NULL ? strchr(p->version, '+') : NULL;
	if (plus != NULL && plus[1] != '\0')
		fw->variant = xstrdup(plus + 1);
	if (exists) {
		path = path_join(fw->dir, "version.py");
		text = fw_read_small(run, path);
		if (text != NULL) {
			switch (fw_py_value(text, "cuda", &v)) {
			case PYVAL_STR:
				if (version_valid(v)) {
					fw_set_gpu(fw, FW_GPU_YES, xasprintf(
					    "%s: cuda = '%s'", path, v));
					fw_set_cuda(fw, v, xstrdup(path));
				}
				break;
			case PYVAL_NONE: {
				char *hip = NULL;

				if (fw_py_value(text, "hip", &hip) == PYVAL_STR)
					fw_set_gpu(fw, FW_GPU_NO,
					    xasprintf(_("%s: cuda = None, "
					    "hip = '%s' (a ROCm build)"), path,
					    hip));
				else
					fw_set_gpu(fw, FW_GPU_NO, xasprintf(
					    "%s: cuda = None", path));
				free(hip);
				break;
			}
			default:
				break;
			}
			free(v);
		}
		free(text);
		free(path);
	}
	if (fw->variant != NULL && strcmp(fw->variant, "cpu") == 0)
		fw_set_gpu(fw, FW_GPU_NO,
		    xasprintf(_("the version %s is a CPU build"), p->version));
	if (fw->variant != NULL && strncmp(fw->variant, "cu", 2) == 0) {
		char *c = fw_digits_cuda(fw->variant + 2,
		    strlen(fw->variant + 2));

		if (c != NULL) {
			fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("the version "
			    "%s is a CUDA %s build"), p->version, c));
			fw_set_cuda(fw, c, xasprintf(_("the version %s"),
			    p->version));
		}
		free(c);
	}
	if (conda_record(env, p, torch_conda) != NULL) {
		fw_conda_build(env, p, torch_conda, fw);
		if (fw->gpu == FW_GPU_NO && fw->variant == NULL)
			fw->variant = xstrdup("cpu");
		torch_conda_variant(fw);
	}

	/* Its CUDA libraries, whatever the metadata claims. */
	if (exists) {
		char *lib = path_join(fw->dir, "lib");
		off_t biggest = -1;
		bool any = false;

		for (size_t i = 0; i < TORCH_CUDA_LIBS; i++)
			any |= fw_add_linked(run, &f->plan, lib,
			    torch_cuda_libs[i], &biggest);
		if (any)
			fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s holds %s"),
			    lib, strrchr(f->plan.archs, '/') + 1));
		else if (sysroot_is_dir(run->ctx->sr, lib))
			fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("%s holds no "
			    "CUDA library (libtorch_cuda.so)"), lib));
		if (fw->gpu == FW_GPU_YES && !any)
			f->plan.own = path_join(lib, "libtorch_cuda.so");
		free(lib);
	} else if (fw->gpu == FW_GPU_YES) {
		fw_dir_missing(run, f, "lib/libtorch_cuda.so");
	} else {
		fw_dir_missing(run, f, NULL);
	}

	if (fw->gpu == FW_GPU_YES && f->plan.linked.n > 0)
		fw_cuda_from_needed(run, fw, f->plan.linked.v[0]);

	pub = fw_public_version(p->version);
	row = matrix_framework(fw_matrix(run), "torch", pub);
	b = fw->gpu == FW_GPU_NO ? NULL :
	    fw_pick_build(row, fw->variant, fw->cuda);
	if (b != NULL && (fw->variant == NULL ||
	    strncmp(fw->variant, "cu", 2) == 0))
		fw_from_matrix(fw, row, b, true);
	free(pub);
}

/* --------------------------------------------------------- TensorFlow */

/* conda's TensorFlow: "tensorflow" (a meta package on conda-forge),
 * "tensorflow-base" holds the files, defaults' "tensorflow-gpu". */
static const char *const tf_conda[] = {
	"tensorflow-base", "tensorflow", "tensorflow-gpu", NULL,
};

/* A string in build_info.py: "key" in the dict of 2.4 on, or
 * "key_number" as older ones wrote it. */
static bool
tf_value(const char *text, const char *key, char **out)
{
	char *old;

	if (fw_py_value(text, key, out) == PYVAL_STR)
		return true;
	FREE(out);
	old = xasprintf("%s_number", key);
	if (fw_py_value(text, old, out) != PYVAL_STR)
		FREE(out);
	free(old);
	return *out != NULL;
}

static void
ident_tf(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	char norm[64];
	const struct matrix_framework *row;
	const struct matrix_build *b;
	char *path, *text, *v = NULL, *pub;
	bool exists, cpu_pkg;

	fw->name = xstrdup("tensorflow");
	fw->dir = fw_pkg_dir(run, env, p, "tensorflow", &exists);
	fw_norm_name(p->name, norm, sizeof norm);
	cpu_pkg = strstr(norm, "-cpu") != NULL;
	if (exists) {
		path = path_join(fw->dir, "python/platform/build_info.py");
		text = fw_read_small(run, path);
		if (text != NULL) {
			enum pyval is = fw_py_value(text, "is_cuda_build", &v);

			FREE(&v);
			if (is == PYVAL_TRUE)
				fw_set_gpu(fw, FW_GPU_YES, xasprintf(
				    "%s: is_cuda_build True", path));
			else if (is == PYVAL_FALSE)
				fw_set_gpu(fw, FW_GPU_NO, xasprintf(
				    "%s: is_cuda_build False", path));
			if (tf_value(text, "cuda_version", &v))
				fw_set_cuda(fw, v, xstrdup(path));
			FREE(&v);
			if (tf_value(text, "cudnn_version", &v))
				fw_set_cudnn(fw, v, xstrdup(path));
			FREE(&v);
		}
		free(text);
		free(path);
	}
	if (cpu_pkg)
		fw_set_gpu(fw, FW_GPU_NO,
		    xasprintf(_("%s is the CPU-only package"), p->name));
	fw_conda_build(env, p, tf_conda, fw);
	if (strstr(norm, "-gpu") != NULL)
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s is the GPU package"),
		    p->name));
	/* Until 1.15 the GPU build was tensorflow-gpu only; from 2.0 the
	 * plain package carries it on Linux. */
	if (p->version != NULL && version_major_str(p->version) >= 2)
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s %s includes GPU "
		    "support on Linux"), p->name, p->version));
	else if (p->version != NULL && version_major_str(p->version) == 1)
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("%s %s: before 2.0 GPU "
		    "support came only as tensorflow-gpu"), p->name,
		    p->version));

	pub = fw_public_version(p->version);
	row = matrix_framework(fw_matrix(run), p->name, pub);
	if (row == NULL)
		row = matrix_framework(fw_matrix(run), "tensorflow", pub);
	b = fw->gpu == FW_GPU_NO ? NULL : fw_pick_build(row, NULL, NULL);
	fw_from_matrix(fw, row, b, true);
	free(pub);
	if (!exists)
		fw_dir_missing(run, f, "libtensorflow_framework.so.2");
	if (fw->gpu == FW_GPU_NO || !exists)
		return;

	/* TensorFlow links no CUDA library: its stream executor
	 * dlopen()s each by name from libtensorflow_framework. */
	{
		static const char *const files[] = {
			"libtensorflow_framework.so.2",
			"libtensorflow_framework.so.1",
			"libtensorflow_framework.so",
			"python/_pywrap_tensorflow_internal.so",
			"libtensorflow_cc.so.2",
		};
		off_t biggest = -1;

		for (size_t i = 0; i < sizeof files / sizeof *files; i++)
			if (fw_add_linked(run, &f->plan, fw->dir, files[i],
			    &biggest) && f->plan.dlopener == NULL)
				f->plan.dlopener = path_join(fw->dir, files[i]);
	}
	fw_dlopen_sonames(run, fw, b, &f->plan.dlopen);
}

/* ---------------------------------------------------------------- JAX */

/* A conda jaxlib built for CUDA ("cuda120py312h…"): its facts into fw
 * and its variant ("cuda12"), as the plugin's name would give them. */
static bool
jax_conda_cuda(const struct py_env *env, const struct py_package *jaxlib,
    struct framework_fact *fw)
{
	static const char *const names[] = { "jaxlib", NULL };

	if (conda_record(env, jaxlib, names) == NULL)
		return false;
	fw_conda_build(env, jaxlib, names, fw);
	if (fw->gpu != FW_GPU_YES)
		return false;
	if (fw->cuda != NULL)
		fw->variant = xasprintf("cuda%.*s", (int)strcspn(fw->cuda, "."),
		    fw->cuda);
	return true;
}

static void
ident_jax(struct fw_run *run, const struct py_env *env,
    const struct fw_cands *c, struct fw_found *f)
{
	struct framework_fact *fw = &f->fact;
	const struct py_package *main = c->jax_plugin != NULL ? c->jax_plugin :
	    c->jax_pjrt != NULL ? c->jax_pjrt : c->jaxlib;
	const struct matrix_framework *row;
	const struct matrix_build *b = NULL;
	const char *ver = c->jaxlib != NULL ? c->jaxlib->version :
	    main->version;
	const char *plus = ver != NULL ? strchr(ver, '+') : NULL;
	char *pub, *plugdir = NULL;
	bool exists;

	fw->name = xstrdup("jax");
	free(fw->package);
	fw->package = xstrdup(main->name);
	free(fw->version);
	fw->version = ver != NULL ? xstrdup(ver) : NULL;
	if (c->jax_cuda[0] != '\0') {
		char *sub = xasprintf("jax_plugins/xla_cuda%s", c->jax_cuda);

		fw->variant = xasprintf("cuda%s", c->jax_cuda);
		fw_set_gpu(fw, FW_GPU_YES, xasprintf(_("%s is installed"),
		    main->name));
		fw_set_cuda(fw, c->jax_cuda, xasprintf(_("the package name %s"),
		    main->name));
		plugdir = fw_pkg_dir(run, env,
		    c->jax_pjrt != NULL ? c->jax_pjrt : main, sub, &exists);
		free(sub);
		if (!exists) {
			/* Old plugins kept the PJRT library in their own
			 * directory. */
			char *sub2 = xasprintf("jax_cuda%s_plugin",
			    c->jax_cuda);

			free(plugdir);
			plugdir = fw_pkg_dir(run, env, main, sub2, &exists);
			free(sub2);
		}
		fw->dir = xstrdup(plugdir);
	} else if (plus != NULL && strncmp(plus + 1, "cuda", 4) == 0) {
		/* "0.4.7+cuda11.cudnn86": CUDA 11, cuDNN 8.6. */
		const char *cd = strstr(plus, "cudnn");
		size_t n = strspn(plus + 5, "0123456789");
		char *cu = xstrndup(plus + 5, n);

		fw->variant = xstrdup(plus + 1);
		fw_set_gpu(fw, FW_GPU_YES,
		    xasprintf(_("the version %s is a CUDA build"), ver));
		fw_set_cuda(fw, cu, xasprintf(_("the version %s"), ver));
		free(cu);
		if (cd != NULL && (n = strspn(cd + 5, "0123456789")) >= 2) {
			char *dn = fw_digits_cuda(cd + 5, n);

			fw_set_cudnn(fw, dn, xasprintf(_("the version %s"),
			    ver));
			free(dn);
		}
		plugdir = fw_pkg_dir(run, env, c->jaxlib, "jaxlib", &exists);
		fw->dir = xstrdup(plugdir);
	} else if (c->jaxlib != NULL && jax_conda_cuda(env, c->jaxlib, fw)) {
		/* conda-forge's CUDA jaxlib holds the CUDA code itself. */
		plugdir = fw_pkg_dir(run, env, c->jaxlib, "jaxlib", &exists);
		fw->dir = xstrdup(plugdir);
	} else {
		fw_set_gpu(fw, FW_GPU_NO, xasprintf(_("jaxlib %s without a "
		    "jax-cuda plugin runs on the CPU"),
		    ver != NULL ? ver : ""));
		fw->dir = fw_pkg_dir(run, env, c->jaxlib, "jaxlib", &exists);
		return;
	}

	pub = fw_public_version(ver);
	row = matrix_framework(fw_matrix(run), "jax", pub);
	if (row != NULL && fw->variant != NULL)
		b = matrix_framework_build(row, fw->variant);
	fw_from_matrix(fw, row, b, true);
	free(pub);
	if (exists) {
		off_t biggest = -1;
		const char *file = c->jax_cuda[0] != '\0' ?
		    "xla_cuda_plugin.so" : "xla_extension.so";

		if (fw_add_linked(run, &f->plan, plugdir, file, &biggest))
			f->plan.dlopener = path_join(plugdir, file);
		else if (c->jax_cuda[0] != '\0')
			f->plan.own = path_join(plugdir, file);
	} else {
		fw_dir_missing(run, f,
		    c->jax_cuda[0] != '\0' ? "xla_cuda_plugin.so" : NULL);
	}
	fw_dlopen_sonames(run, fw, b, &f->plan.dlopen);
	free(plugdir);
}

/* ------------------------------------------------------------ the list */

/* The kind and rank of a package name (normalised), or -1. Lower ranks
 * win when an environment holds several packages of one kind. */
static int
classify(const char *n, int *rank)
{
	static const struct { const char *name; int kind, rank; } exact[] = {
		{ "torch", FWK_TORCH, 0 }, { "pytorch", FWK_TORCH, 1 },
		{ "tensorflow-gpu", FWK_TF, 0 }, { "tensorflow", FWK_TF, 1 },
		{ "tf-nightly-gpu", FWK_TF, 2 }, { "tf-nightly", FWK_TF, 3 },
		{ "tensorflow-cpu", FWK_TF, 4 },
		{ "tf-nightly-cpu", FWK_TF, 5 },
		{ "tensorflow-base", FWK_TF, 6 },
		{ "cupy", FWK_CUPY, 1 },
		{ "spacy", FWK_SPACY, 0 }, { "thinc", FWK_SPACY, 1 },
		{ "onnxruntime-gpu", FWK_ORT, 0 },
		{ "ort-nightly-gpu", FWK_ORT, 1 },
		{ "onnxruntime", FWK_ORT, 2 }, { "ort-nightly", FWK_ORT, 3 },
		{ "paddlepaddle-gpu", FWK_PADDLE, 0 },
		{ "paddlepaddle", FWK_PADDLE, 1 },
		{ "mxnet", FWK_MXNET, 1 }, { "mxnet-mkl", FWK_MXNET, 2 },
		{ "mxnet-native", FWK_MXNET, 2 },
		{ "numba-cuda", FWK_NUMBA, 0 }, { "numba", FWK_NUMBA, 1 },
		{ "ctranslate2", FWK_CT2, 0 },
	};

	for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
		if (strcmp(n, exact[i].name) == 0) {
			*rank = exact[i].rank;
			return exact[i].kind;
		}
	if (strncmp(n, "cupy-", 5) == 0 && strcmp(n, "cupy-wheel") != 0) {
		*rank = strncmp(n, "cupy-cuda", 9) == 0 ? 0 : 2;
		return FWK_CUPY;
	}
	if (strncmp(n, "mxnet-cu", 8) == 0 && isdigit((unsigned char)n[8])) {
		*rank = 0;
		return FWK_MXNET;
	}
	return -1;
}

/* "jax-cuda12-plugin" / "jax-cuda12-pjrt": the CUDA major into c. */
static bool
jax_part(const char *n, const char *suffix, struct fw_cands *c)
{
	size_t d, sl = strlen(suffix);

	if (strncmp(n, "jax-cuda", 8) != 0)
		return false;
	d = strspn(n + 8, "0123456789");
	if (d == 0 || d >= sizeof c->jax_cuda || n[8 + d] != '-' ||
	    strcmp(n + 9 + d, suffix) != 0 || sl == 0)
		return false;
	memcpy(c->jax_cuda, n + 8, d);
	c->jax_cuda[d] = '\0';
	return true;
}

static void
collect(const struct py_env *env, struct fw_cands *c)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < env->packages.n; i++) {
		const struct py_package *p = &env->packages.v[i];
		char n[64];
		int kind, rank;

		if (p->name == NULL)
			continue;
		fw_norm_name(p->name, n, sizeof n);
		if (n[0] == '\0')
			continue;
		if (strcmp(n, "jaxlib") == 0) {
			if (c->jaxlib == NULL)
				c->jaxlib = p;
			continue;
		}
		if (c->jax_plugin == NULL && jax_part(n, "plugin", c)) {
			c->jax_plugin = p;
			continue;
		}
		if (c->jax_pjrt == NULL && jax_part(n, "pjrt", c)) {
			c->jax_pjrt = p;
			continue;
		}
		kind = classify(n, &rank);
		if (kind < 0)
			continue;
		if (c->pkg[kind] == NULL || rank < c->rank[kind]) {
			c->pkg[kind] = p;
			c->rank[kind] = rank;
		}
	}
}

static struct fw_found *
new_found(struct fw_found_list *out, const struct py_package *p)
{
	struct fw_found *f = VEC_PUSH(out);

	f->fact.package = xstrdup(p->name);
	f->fact.version = p->version != NULL ? xstrdup(p->version) : NULL;
	return f;
}

void
fw_identify(struct fw_run *run, const struct py_env *env,
    struct fw_found_list *out)
{
	struct fw_cands c;
	const struct fw_found *cupy = NULL;

	collect(env, &c);
	if (c.pkg[FWK_TORCH] != NULL)
		ident_torch(run, env, c.pkg[FWK_TORCH],
		    new_found(out, c.pkg[FWK_TORCH]));
	if (c.pkg[FWK_TF] != NULL)
		ident_tf(run, env, c.pkg[FWK_TF],
		    new_found(out, c.pkg[FWK_TF]));
	if (c.jaxlib != NULL || c.jax_plugin != NULL || c.jax_pjrt != NULL)
		ident_jax(run, env, &c, new_found(out,
		    c.jaxlib != NULL ? c.jaxlib :
		    c.jax_plugin != NULL ? c.jax_plugin : c.jax_pjrt));
	if (c.pkg[FWK_CUPY] != NULL) {
		fw_ident_cupy(run, env, c.pkg[FWK_CUPY],
		    new_found(out, c.pkg[FWK_CUPY]));
		cupy = &out->v[out->n - 1];
	}
	if (c.pkg[FWK_SPACY] != NULL) {
		size_t ci = cupy != NULL ? (size_t)(cupy - out->v) : 0;
		struct fw_found *f = new_found(out, c.pkg[FWK_SPACY]);

		/* new_found may have moved the list. */
		fw_ident_spacy(run, env, c.pkg[FWK_SPACY],
		    cupy != NULL ? &out->v[ci] : NULL, f);
	}
	if (c.pkg[FWK_ORT] != NULL)
		fw_ident_ort(run, env, c.pkg[FWK_ORT],
		    new_found(out, c.pkg[FWK_ORT]));
	if (c.pkg[FWK_PADDLE] != NULL)
		fw_ident_paddle(run, env, c.pkg[FWK_PADDLE],
		    new_found(out, c.pkg[FWK_PADDLE]));
	if (c.pkg[FWK_MXNET] != NULL)
		fw_ident_mxnet(run, env, c.pkg[FWK_MXNET],
		    new_found(out, c.pkg[FWK_MXNET]));
	if (c.pkg[FWK_NUMBA] != NULL)
		fw_ident_numba(run, env, c.pkg[FWK_NUMBA],
		    new_found(out, c.pkg[FWK_NUMBA]));
	if (c.pkg[FWK_CT2] != NULL)
		fw_ident_ct2(run, env, c.pkg[FWK_CT2],
		    new_found(out, c.pkg[FWK_CT2]));
}

void
fw_plan_free(struct fw_plan *p)
{
	strv_free(&p->linked);
	free(p->own);
	free(p->dlopener);
	strv_free(&p->dlopen);
	free(p->archs);
	memset(p, 0, sizeof *p);
}
