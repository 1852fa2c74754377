/* The second recogniser table (issue 19, point 12): extension builds
 * (PyTorch's CUDA mismatch, nvcc and ptxas too old), out-of-memory in
 * each framework's words, the messages whose cause is printed elsewhere
 * (TensorFlow's "Cannot dlopen some GPU libraries", NCCL), CUDA's
 * "unknown error", CPU-only framework builds, and the loader messages of
 * nvidia-smi and CTranslate2. recognize.c runs it after its own table,
 * so messages those parsers claimed are not read twice. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain/recognize.h"
#include "explain/recognize_int.h"
#include "util/xalloc.h"

/* The end of the window a parser reads after its anchor. */
static size_t
window(const struct scan *s, size_t p)
{
	return p + LOOKAHEAD < s->n ? p + LOOKAHEAD : s->n;
}

/* A version in parentheses at or after p within the window: "(12.1)". */
static char *
version_in_parens(const struct scan *s, size_t p, size_t *endp)
{
	size_t open = rz_find_nocase(s, p, window(s, p), "(");

	if (open == (size_t)-1)
		return NULL;
	return rz_version_at(s, open + 1, endp);
}

/* PyTorch (torch/utils/cpp_extension.py): "The detected CUDA version (X)
 * mismatches the version that was used to compile\nPyTorch (Y)", or "has
 * a minor version mismatch with …". The message spans two lines. */
static void
r_torch_build_cuda(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	struct explain_match m;
	size_t e, py;
	char *found = version_in_parens(s, at + alen - 1, &e), *wanted;

	(void)r;
	if (found == NULL)
		return;
	py = rz_find_nocase(s, e, window(s, e), "pytorch (");
	wanted = py != (size_t)-1 ? rz_version_at(s, py + strlen("pytorch ("), NULL) : NULL;
	if (wanted == NULL) {
		free(found);
		return;
	}
	rz_match_init(&m, EXPLAIN_BUILD_CUDA_MISMATCH);
	m.found = found;
	m.wanted = wanted;
	rz_add_match(s, &m, at);
}

/* "compute_89", "sm_90a" at p: the name (into ccs) and its capability. */
static bool
read_arch(const struct scan *s, size_t p, struct explain_match *m)
{
	size_t e = rz_fwd_while(s, p, is_ident), d;

	if (rz_at_lit(s, p, "compute_"))
		d = p + strlen("compute_");
	else if (rz_at_lit(s, p, "sm_"))
		d = p + strlen("sm_");
	else
		return false;
	m->cc = rz_cc_of_sm(s->t + d, rz_fwd_while(s, d, is_digit) - d);
	if (m->cc == NULL)
		return false;
	strv_push_owned(&m->ccs, rz_take(s, p, e));
	return true;
}

/* nvcc: "nvcc fatal   : Unsupported gpu architecture 'compute_89'". */
static void
r_nvcc_arch(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;

	(void)r;
	rz_match_init(&m, EXPLAIN_TOOLKIT_ARCH);
	if (!read_arch(s, at + alen, &m)) {
		rz_match_free(&m);
		return;
	}
	rz_add_match(s, &m, at);
}

/* nvcc and ptxas: "Value 'sm_90a' is not defined for option
 * 'gpu-architecture'" ('gpu-name' from ptxas): the name is before. */
static void
r_arch_option(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;
	size_t q, name;

	(void)r;
	(void)alen;
	if (at < 3 || s->t[at - 1] != ' ' || s->t[at - 2] != '\'')
		return;
	name = rz_back_while(s, at - 2, is_ident);
	q = name;
	if (q == 0 || s->t[q - 1] != '\'')
		return;
	rz_match_init(&m, EXPLAIN_TOOLKIT_ARCH);
	if (!read_arch(s, name, &m)) {
		rz_match_free(&m);
		return;
	}
	rz_add_match(s, &m, name);
}

/* ptxas: "Unsupported .version 8.4; current version is '8.2'". */
static void
r_ptxas_version(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;
	size_t e, cur;
	char *ptx = rz_version_at(s, at + alen, &e);

	(void)r;
	if (ptx == NULL)
		return;
	rz_match_init(&m, EXPLAIN_PTXAS_VERSION);
	m.found = ptx;
	cur = rz_find_nocase(s, e, rz_line_end(s, e), "current version is ");
	if (cur != (size_t)-1) {
		size_t v = cur + strlen("current version is ");

		v += quote_at(s, v);
		m.wanted = rz_version_at(s, v, NULL);
	}
	rz_add_match(s, &m, at);
}

/* A message whose cause another line or log holds; code names whose. */
static void
r_elsewhere(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;

	(void)r;
	rz_match_init(&m, EXPLAIN_CAUSE_ELSEWHERE);
	m.code = xstrdup(rz_find_nocase(s, at, at + alen, "nccl") != (size_t)-1 ||
	    rz_find_nocase(s, at, at + alen, "unhandled") != (size_t)-1 ?
	    "nccl" : "tensorflow");
	m.reason = rz_take(s, at, at + alen);
	rz_add_match(s, &m, at);
}

/* Out of memory in the words of XLA, TensorFlow, CuPy, llama.cpp and
 * ONNX Runtime (CUDA's own words are in codes.c's table). */
static void
r_oom(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;

	(void)r;
	(void)alen;
	if (s->claimed[at])
		return;
	rz_match_init(&m, EXPLAIN_OUT_OF_MEMORY);
	rz_add_match(s, &m, at);
}

/* "CUDA unknown error", "CUDA error: unknown error": cudaErrorUnknown,
 * whose own words are too common to look for alone. */
static void
r_unknown(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	(void)alen;
	(void)r;
	rz_add_cuda_error_number(s, 999, at);
}

/* "CUDA error: initialization error": cudaErrorInitializationError (3). */
static void
r_init_error(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	(void)alen;
	(void)r;
	rz_add_cuda_error_number(s, 3, at);
}

/* NVRM: "API mismatch: the client has the version X, but\nNVRM: this
 * kernel module has the version Y." (the client is the userspace side). */
static void
r_nvrm_client(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;
	size_t end, p;

	(void)r;
	rz_match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	m.wanted = rz_version_at(s, at + alen, &end);
	p = rz_find_nocase(s, end, window(s, end), "kernel module has the version ");
	if (p != (size_t)-1)
		m.found = rz_version_at(s, p + strlen("kernel module has the version "),
		    NULL);
	rz_add_match(s, &m, at);
}

static bool
is_dll(const char *name)
{
	size_t l = strlen(name);

	return l > 4 && strcasecmp(name + l - 4, ".dll") == 0;
}

/* cuDNN and CTranslate2 on Windows: "Could not load library X.dll. Error
 * code 126", "Could not locate X.dll. Please make sure it is in your
 * library path!". The Linux wordings quote glibc's, read there. */
static void
r_dll_named(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = at + alen, end = rz_fwd_while(s, p, is_name);
	struct explain_match m;

	(void)r;
	while (end > p && s->t[end - 1] == '.')
		end--;
	if (end == p || s->claimed[at])
		return;
	rz_match_init(&m, EXPLAIN_DLL_NOT_FOUND);
	rz_set_library(&m, s, p, end);
	if (!is_dll(m.soname)) {
		rz_match_free(&m);
		return;
	}
	rz_add_match(s, &m, at);
}

/* CTranslate2: "Library libcublas.so.12 is not found or cannot be loaded". */
static void
r_ct2_library(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;
	size_t start = rz_back_while(s, at, is_name);

	(void)alen;
	(void)r;
	if (start == at || s->claimed[start])
		return;
	rz_match_init(&m, EXPLAIN_CANNOT_OPEN);
	rz_set_library(&m, s, start, at);
	if (is_dll(m.soname))
		m.kind = EXPLAIN_DLL_NOT_FOUND;
	m.reason = xstrdup("is not found or cannot be loaded");
	rz_add_match(s, &m, start);
}

static const struct recogniser more[] = {
	{ "the detected cuda version (", true, r_torch_build_cuda, 0 },
	{ "unsupported gpu architecture '", true, r_nvcc_arch, 0 },
	{ "is not defined for option 'gpu-", false, r_arch_option, 0 },
	{ "unsupported .version ", true, r_ptxas_version, 0 },
	{ "cannot dlopen some gpu libraries", true, r_elsewhere, 0 },
	{ "unhandled cuda error", true, r_elsewhere, 0 },
	{ "unhandled system error", true, r_elsewhere, 0 },
	{ "ncclunhandledcudaerror", true, r_elsewhere, 0 },
	{ "ncclsystemerror", true, r_elsewhere, 0 },
	{ "ncclremoteerror", true, r_elsewhere, 0 },
	{ "resource_exhausted: out of memory", true, r_oom, 0 },
	{ "out of memory while trying to allocate", true, r_oom, 0 },
	{ "oom when allocating tensor", true, r_oom, 0 },
	{ "outofmemoryerror: out of memory allocating", true, r_oom, 0 },
	{ "cudamalloc failed: out of memory", true, r_oom, 0 },
	{ "failed to allocate memory for requested buffer of size", true, r_oom, 0 },
	{ "cuda unknown error", true, r_unknown, 0 },
	{ "cuda error: unknown error", true, r_unknown, 0 },
	{ "initialize cuda: unknown error", true, r_unknown, 0 },
	{ "cuda error: initialization error", true, r_init_error, 0 },
	{ "initialize cuda: initialization error", true, r_init_error, 0 },
	{ "couldn't communicate with the nvidia driver", true, rz_simple,
	    EXPLAIN_NO_DRIVER },
	{ "couldn't find libnvidia-ml.so library", true, rz_simple,
	    EXPLAIN_NO_DRIVER },
	{ "cuda driver initialization failed", true, rz_simple, EXPLAIN_NO_DRIVER },
	{ "torch not compiled with cuda enabled", true, rz_simple,
	    EXPLAIN_CPU_ONLY_BUILD },
	{ "a cuda-enabled jaxlib is not installed", true, rz_simple,
	    EXPLAIN_CPU_ONLY_BUILD },
	{ " is not found or cannot be loaded", false, r_ct2_library, 0 },
	{ "api mismatch: the client has the version ", true, r_nvrm_client, 0 },
	{ "could not load library ", true, r_dll_named, 0 },
	{ "could not locate ", true, r_dll_named, 0 },
};

void
rz_run_more(struct scan *s)
{
	for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
		rz_run_recogniser(s, &more[i]);
}
