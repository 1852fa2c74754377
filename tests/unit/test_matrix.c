/* The matrix questions against the embedded data, with answers taken from
 * ../shared/compat-facts.md (the research the data was written from), then
 * the round trip through JSON and what NVIDIA's manifests may add, and
 * that the built-in rows mkembedded wrote at build time are the JSON
 * source's, field for field and answer for answer. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *
driver(const struct matrix *m, const char *cuda, enum matrix_os os)
{
	return matrix_cuda_min_driver(m, cuda, os, NULL);
}

static void
test_drivers(const struct matrix *m)
{
	enum matrix_status st = MATRIX_UNCONFIRMED;
	const struct matrix_cuda_release *r;

	is_str(driver(m, "11.8", MATRIX_LINUX), "520.61.05", "CUDA 11.8 needs Linux driver 520.61.05");
	is_str(driver(m, "11.8", MATRIX_WINDOWS), "520.06", "CUDA 11.8 needs Windows driver 520.06");
	is_str(driver(m, "12.4.1", MATRIX_LINUX), "550.54.15", "CUDA 12.4.1 needs 550.54.15");
	is_str(driver(m, "12.4", MATRIX_LINUX), "550.54.14", "CUDA 12.4 (GA) needs 550.54.14");
	is_str(driver(m, "12.0.1", MATRIX_WINDOWS), "528.33", "CUDA 12.0 Update 1 needs Windows 528.33");
	is_str(driver(m, "11.0", MATRIX_LINUX), "450.51.05",
	    "CUDA 11.0 means its GA 11.0.2 (450.51.05), not the RC");
	is_str(driver(m, "11.0.1", MATRIX_LINUX), "450.36.06", "the 11.0.1 RC row itself");
	is_str(driver(m, "9.1", MATRIX_LINUX), "390.46", "CUDA 9.1 takes the current 390.46, not 387.26");
	is_str(driver(m, "10.2", MATRIX_LINUX), "440.33", "CUDA 10.2 needs 440.33");
	r = matrix_cuda_release(m, "10.1.243");
	is_str(r != NULL ? r->version : NULL, "10.1.105",
	    "10.1.243 (an unlisted update) falls back to the 10.1.105 row");
	r = matrix_cuda_release(m, "12.6.9");
	is_str(r != NULL ? r->version : NULL, "12.6.3", "an unknown 12.6 patch takes the newest 12.6 row");
	ok(matrix_cuda_release(m, "12.7") == NULL, "there is no CUDA 12.7");
	ok(matrix_cuda_release(m, "12") == NULL, "a bare major names no one release");
	ok(driver(m, "13.0", MATRIX_WINDOWS) == NULL, "CUDA 13.0 ships no Windows driver");
	is_str(matrix_cuda_min_driver(m, "13.1", MATRIX_LINUX, &st), "590.44.01", "CUDA 13.1 needs 590.44.01");
	is_int(st, MATRIX_CONFIRMED, "  and that is confirmed");
	is_str(matrix_cuda_min_driver(m, "13.2", MATRIX_LINUX, &st), "595.45.04", "CUDA 13.2 needs 595.45.04");
	is_int(st, MATRIX_SECONDARY, "  from a secondary source");
	r = matrix_newest_cuda(m);
	is_str(r != NULL ? r->version : NULL, "13.3.0", "the newest CUDA known is 13.3.0");

	is_str(matrix_minor_compat_floor(m, 12, MATRIX_LINUX, NULL), "525.60.13",
	    "the CUDA 12 minor-compat floor is 525.60.13");
	is_str(matrix_minor_compat_floor(m, 12, MATRIX_WINDOWS, NULL), "527.41",
	    "  and 527.41 on Windows");
	is_str(matrix_minor_compat_floor(m, 11, MATRIX_LINUX, NULL), "450.80.02",
	    "the CUDA 11 floor is 450.80.02");
	is_str(matrix_minor_compat_floor(m, 13, MATRIX_LINUX, NULL), "580", "the CUDA 13 floor is 580");
	ok(matrix_minor_compat_floor(m, 10, MATRIX_LINUX, NULL) == NULL,
	    "CUDA 10 has no minor-version compatibility");
}

static void
test_reach(const struct matrix *m)
{
	struct matrix_driver_reach dr;

	ok(matrix_driver_reach(m, "470.82.01", MATRIX_LINUX, &dr), "driver 470.82.01 parses");
	is_str(dr.release_cuda, "11.4", "driver 470.82.01 runs CUDA up to 11.4");
	is_str(dr.release != NULL ? dr.release->version : NULL, "11.4.4", "  (11.4 Update 4)");
	is_str(dr.compat_cuda, "11.8", "  and 11.8 through minor-version compatibility");
	is_int(dr.basis, MATRIX_BASIS_MINOR_COMPAT, "  which is what reaches furthest");
	is_str(dr.highest, "11.8", "  so the highest is 11.8");

	matrix_driver_reach(m, "535.104.05", MATRIX_LINUX, &dr);
	is_str(dr.release_cuda, "12.2", "driver 535.104.05 runs CUDA 12.2");
	is_str(dr.compat_cuda, "12.9", "  and any 12.x by minor compat");
	matrix_driver_reach(m, "535.86.09", MATRIX_LINUX, &dr);
	is_str(dr.release != NULL ? dr.release->version : NULL, "12.2.1",
	    "driver 535.86.09 meets 12.2 Update 1, not Update 2");
	matrix_driver_reach(m, "450.80.02", MATRIX_LINUX, &dr);
	is_str(dr.release_cuda, "11.0", "driver 450.80.02 runs 11.0 by its own minimum");
	is_str(dr.compat_cuda, "11.8", "  and 11.8 by minor compat");
	matrix_driver_reach(m, "440.33", MATRIX_LINUX, &dr);
	is_str(dr.release_cuda, "10.2", "driver 440.33 runs CUDA 10.2");
	is_int(dr.compat_major, 0, "  with no minor compat before 11");
	is_int(dr.basis, MATRIX_BASIS_RELEASE, "  so the release minimum is the answer");
	matrix_driver_reach(m, "580.65.06", MATRIX_LINUX, &dr);
	is_str(dr.release_cuda, "13.0", "driver 580.65.06 runs CUDA 13.0");
	is_str(dr.compat_cuda, "13.3", "  and 13.3 through the 580 family floor");
	is_int(dr.compat_status, MATRIX_SECONDARY, "  which rests on a secondary row");
	matrix_driver_reach(m, "472.50", MATRIX_WINDOWS, &dr);
	is_str(dr.release_cuda, "11.4", "Windows driver 472.50 runs CUDA 11.4");
	matrix_driver_reach(m, "300.10", MATRIX_LINUX, &dr);
	is_int(dr.basis, MATRIX_BASIS_NONE, "driver 300.10 runs nothing known");
	is_str(dr.highest, "", "  and says so with an empty version");
	ok(!matrix_driver_reach(m, "abc", MATRIX_LINUX, &dr), "\"abc\" is not a driver version");
}

static void
test_cc(const struct matrix *m)
{
	enum matrix_status st = MATRIX_UNCONFIRMED;

	is_int(matrix_cuda_supports_cc(m, "13", "6.1", NULL), MATRIX_NO, "CUDA 13 does not support 6.1");
	is_int(matrix_cuda_supports_cc(m, "12", "6.1", &st), MATRIX_YES, "CUDA 12 supports 6.1");
	is_int(st, MATRIX_CONFIRMED, "  (confirmed)");
	is_int(matrix_cuda_supports_cc(m, "11.8", "3.5", NULL), MATRIX_YES, "CUDA 11.8 supports 3.5");
	is_int(matrix_cuda_supports_cc(m, "12.0", "3.5", NULL), MATRIX_NO, "CUDA 12.0 dropped 3.5");
	is_int(matrix_cuda_supports_cc(m, "12.4.1", "9.0", NULL), MATRIX_YES, "CUDA 12.4.1 supports 9.0");
	is_int(matrix_cuda_supports_cc(m, "11.7", "9.0", NULL), MATRIX_NO, "CUDA 11.7 predates 9.0");
	is_int(matrix_cuda_supports_cc(m, "13.0", "7.5", NULL), MATRIX_YES, "CUDA 13.0 keeps Turing");
	is_int(matrix_cuda_supports_cc(m, "13.0", "sm_70", NULL), MATRIX_NO, "CUDA 13.0 drops sm_70");
	is_int(matrix_cuda_supports_cc(m, "12.8", "12.0", NULL), MATRIX_YES, "CUDA 12.8 builds for RTX 50 (12.0)");
	is_int(matrix_cuda_supports_cc(m, "12.6", "12.0", NULL), MATRIX_NO, "CUDA 12.6 does not");
	is_int(matrix_cuda_supports_cc(m, "12", "10.0", NULL), MATRIX_UNKNOWN,
	    "\"CUDA 12 supports 10.0\" depends on the minor");
	is_int(matrix_cuda_supports_cc(m, "10.2", "3.0", NULL), MATRIX_YES, "CUDA 10.2 supports 3.0");
	is_int(matrix_cuda_supports_cc(m, "11.0", "3.0", NULL), MATRIX_NO, "CUDA 11.0 dropped 3.0");
	is_int(matrix_cuda_supports_cc(m, "12.4", "4.0", NULL), MATRIX_UNKNOWN, "there is no cc 4.0");
	is_int(matrix_cuda_supports_cc(m, "14.0.0", "7.5", NULL), MATRIX_UNKNOWN,
	    "a CUDA the matrix does not know is not guessed at");
	is_str(matrix_architecture(m, "8.6") != NULL ? matrix_architecture(m, "8.6")->name : NULL,
	    "Ampere", "8.6 is Ampere");
}

static void
expect_gpu(const struct matrix *m, const char *name, const char *cc)
{
	const struct matrix_gpu *g = matrix_gpu_by_name(m, name);

	is_str(g != NULL ? g->cc : NULL, cc, "\"%s\" is cc %s", name, cc != NULL ? cc : "(none)");
}

static void
test_gpus(const struct matrix *m)
{
	const struct matrix_gpu *g;

	expect_gpu(m, "NVIDIA H100", "9.0");
	expect_gpu(m, "H100", "9.0");
	expect_gpu(m, "GH100 [H100 SXM5 80GB]", "9.0");
	expect_gpu(m, "NVIDIA H100 80GB HBM3", "9.0");
	expect_gpu(m, "GeForce RTX 3090", "8.6");
	expect_gpu(m, "NVIDIA GeForce RTX 3090", "8.6");
	expect_gpu(m, "nvidia geforce rtx 3090", "8.6");
	expect_gpu(m, "GA102 [GeForce RTX 3090]", "8.6");
	expect_gpu(m, "NVIDIA A100-SXM4-40GB", "8.0");
	expect_gpu(m, "GA100 [A100 PCIe 80GB]", "8.0");
	expect_gpu(m, "NVIDIA A10", "8.6");
	expect_gpu(m, "Tesla T4", "7.5");
	expect_gpu(m, "TU104GL [Tesla T4]", "7.5");
	expect_gpu(m, "Tesla K80", "3.7");
	expect_gpu(m, "NVIDIA GeForce GTX 1080 Ti", "6.1");
	expect_gpu(m, "NVIDIA GeForce RTX 5090", "12.0");
	expect_gpu(m, "NVIDIA B200", "10.0");
	expect_gpu(m, "Tesla V100-SXM2-16GB", "7.0");
	expect_gpu(m, "AMD Radeon RX 7900", NULL);
	g = matrix_gpu_by_name(m, "GA102 [GeForce RTX 3090 Ti]");
	is_str(g != NULL ? g->name : NULL, "GeForce RTX 3090 Ti", "the longest name wins (3090 Ti)");
	is_int(g != NULL ? (long long)g->status : -1, MATRIX_UNCONFIRMED, "  and it is unconfirmed");
	g = matrix_gpu_by_name(m, "NVIDIA A100");
	is_str(g != NULL ? g->name : NULL, "NVIDIA A100", "\"A10\" does not take \"A100\"");
}

static void
test_sonames(const struct matrix *m)
{
	struct matrix_range r = { NULL, NULL };
	const char *lib = NULL;
	const struct matrix_soname *s;

	ok(matrix_soname_cuda(m, "libcudart.so.11.0", &r, &lib, NULL), "libcudart.so.11.0 is known");
	is_str(r.min, "11.0", "libcudart.so.11.0 means CUDA 11.0");
	is_str(r.max, "11.8", "  to 11.8");
	is_str(lib, "cudart", "  of cudart");
	ok(matrix_soname_cuda(m, "libcudart.so.12", &r, NULL, NULL) && strcmp(r.min, "12.0") == 0 &&
	    r.max != NULL && strcmp(r.max, "12") == 0, "libcudart.so.12 means every 12.x");
	ok(matrix_soname_cuda(m, "CUDART64_110.DLL", &r, NULL, NULL) && strcmp(r.max, "11.8") == 0,
	    "cudart64_110.dll is CUDA 11 (any case)");
	ok(matrix_soname_cuda(m, "libcusolver.so.11", &r, NULL, NULL) &&
	    strcmp(r.min, "11.1") == 0 && strcmp(r.max, "12") == 0,
	    "libcusolver.so.11 spans two rows: 11.1 to 12.x");
	ok(matrix_soname_cuda(m, "libcuda.so.1", &r, NULL, NULL) && r.max == NULL,
	    "libcuda.so.1 has no upper bound");
	ok(!matrix_soname_cuda(m, "libfoo.so.1", &r, NULL, NULL), "libfoo.so.1 is not known");
	s = matrix_soname_for(m, "cudart", "11.8");
	is_str(s != NULL ? s->soname : NULL, "libcudart.so.11.0", "cudart at 11.8 is libcudart.so.11.0");
	is_str(s != NULL ? s->windows_dll : NULL, "cudart64_110.dll", "  and cudart64_110.dll");
	s = matrix_soname_for(m, "cudart", "10.1.243");
	is_str(s != NULL ? s->soname : NULL, "libcudart.so.10.1", "cudart at 10.1 is libcudart.so.10.1");
	s = matrix_soname_for(m, "cublas", "12.4");
	is_str(s != NULL ? s->soname : NULL, "libcublas.so.12", "cublas at 12.4 is libcublas.so.12");
	s = matrix_soname_for(m, "cublas", "10.2");
	is_str(s != NULL ? s->soname : NULL, "libcublas.so.10", "cublas at 10.2 is libcublas.so.10");
	s = matrix_soname_for(m, "cufft", "12.2");
	is_str(s != NULL ? s->soname : NULL, "libcufft.so.11", "cufft at 12.2 is libcufft.so.11");
	s = matrix_soname_for(m, "cudart", "13.0");
	is_str(s != NULL ? s->windows_dll : NULL, "cudart64_13.dll", "cudart at 13.0 is cudart64_13.dll");
}

static void
test_cudnn(const struct matrix *m)
{
	enum matrix_status st = MATRIX_CONFIRMED;
	const struct matrix_cudnn_library *lib;
	const char *newest;

	is_int(matrix_cudnn_supports_cuda(m, "8.9.7", "12", NULL), MATRIX_YES, "cuDNN 8.9.7 supports CUDA 12.x");
	is_int(matrix_cudnn_supports_cuda(m, "8.9.7", "12.4", NULL), MATRIX_YES, "  12.4 among them");
	is_int(matrix_cudnn_supports_cuda(m, "8.9.7.29", "11.8", NULL), MATRIX_YES, "cuDNN 8.9.7.29 supports 11.8");
	is_int(matrix_cudnn_supports_cuda(m, "9.0.0", "12.4", NULL), MATRIX_NO, "cuDNN 9.0.0 stops at 12.3");
	is_int(matrix_cudnn_supports_cuda(m, "7.6.5", "10.2", NULL), MATRIX_YES, "cuDNN 7.6.5 supports 10.2");
	is_int(matrix_cudnn_supports_cuda(m, "8.1.1", "11.2", NULL), MATRIX_YES, "cuDNN 8.1.1 supports 11.2");
	is_int(matrix_cudnn_supports_cuda(m, "8.1.0", "11.3", NULL), MATRIX_NO, "cuDNN 8.1.0 predates 11.3");
	is_int(matrix_cudnn_supports_cuda(m, "8.0.5", "10.2", &st), MATRIX_YES, "cuDNN 8.0.5 for 10.2");
	is_int(st, MATRIX_UNCONFIRMED, "  is unconfirmed");
	is_int(matrix_cudnn_supports_cuda(m, "9.17.0", "13.1", NULL), MATRIX_YES, "cuDNN 9.17 supports 13.1");
	is_int(matrix_cudnn_supports_cuda(m, "9.17.0", "11.8", NULL), MATRIX_NO, "cuDNN 9.17 has no CUDA 11");
	is_int(matrix_cudnn_supports_cuda(m, "9.10.2", "12.9", NULL), MATRIX_YES, "cuDNN 9.10.2 supports 12.9");
	is_int(matrix_cudnn_supports_cuda(m, "6.0", "8.0", NULL), MATRIX_UNKNOWN, "cuDNN 6 is not known");
	ok(matrix_cudnn_release(m, "9.1.0.70") != NULL, "cuDNN 9.1.0.70 has a row");
	lib = matrix_cudnn_library(m, 8);
	ok(lib != NULL && lib->sonames.n == 7 && strv_contains(&lib->sonames, "libcudnn_ops_infer.so.8"),
	    "cuDNN 8 is seven libraries, libcudnn_ops_infer.so.8 among them");
	is_str(lib != NULL ? lib->header : NULL, "cudnn_version.h", "  its version is in cudnn_version.h");
	is_str(lib != NULL ? lib->windows_dll : NULL, "cudnn64_8.dll", "  its DLL is cudnn64_8.dll");
	lib = matrix_cudnn_library(m, 7);
	is_str(lib != NULL ? lib->header : NULL, "cudnn.h", "cuDNN 7 keeps its version in cudnn.h");
	lib = matrix_cudnn_library(m, 9);
	ok(lib != NULL && strv_contains(&lib->sonames, "libcudnn_graph.so.9"), "cuDNN 9 has libcudnn_graph.so.9");
	is_int(lib != NULL ? (long long)lib->status : -1, MATRIX_UNCONFIRMED,
	    "  (unconfirmed: cudnn64_9.dll was not seen)");
	newest = matrix_newest_cudnn(m, NULL);
	is_str(newest, "9.17.0", "the newest cuDNN known is 9.17.0");
}

static void
test_frameworks(const struct matrix *m)
{
	const struct matrix_framework *fw;
	const struct matrix_build *b;
	const struct matrix_wheel *w;

	fw = matrix_framework(m, "tensorflow", "2.10.1");
	b = matrix_framework_build(fw, NULL);
	is_str(b != NULL ? b->cuda : NULL, "11.2", "tensorflow 2.10.1 was built with CUDA 11.2");
	is_str(b != NULL ? b->cudnn : NULL, "8.1", "  and cuDNN 8.1");
	ok(b != NULL && strv_contains(&b->sonames, "libcudart.so.11.0"), "  and loads libcudart.so.11.0");
	ok(b != NULL && b->loads == MATRIX_LOADS_DLOPEN, "  with dlopen");
	b = matrix_framework_build(matrix_framework(m, "tensorflow", "2.15.0"), NULL);
	ok(b != NULL && strv_contains(&b->sonames, "libcudnn.so.8"), "tensorflow 2.15 loads libcudnn.so.8");
	is_str(b != NULL ? b->cuda : NULL, "12.2", "  and was built with CUDA 12.2");
	b = matrix_framework_build(matrix_framework(m, "tensorflow", "2.18.0"), NULL);
	ok(b != NULL && strv_contains(&b->sonames, "libcudnn.so.9") &&
	    strcmp(b->cuda, "12.5") == 0, "tensorflow 2.18 is CUDA 12.5 with libcudnn.so.9");
	b = matrix_framework_build(matrix_framework(m, "tensorflow-gpu", "1.15.0"), NULL);
	is_str(b != NULL ? b->cuda : NULL, "10.0", "tensorflow-gpu 1.15.0 is CUDA 10.0");
	b = matrix_framework_build(matrix_framework(m, "Tensorflow_GPU", "2.4.0"), NULL);
	is_str(b != NULL ? b->cuda : NULL, "11.0", "Tensorflow_GPU 2.4.0 (pip spelling rules) is CUDA 11.0");
	ok(matrix_framework(m, "tensorflow", "3.0") == NULL, "tensorflow 3.0 is not known");
	fw = matrix_framework(m, "torch", "2.0.1");
	b = matrix_framework_build(fw, NULL);
	is_str(b != NULL ? b->variant : NULL, "cu117", "plain torch 2.0.1 is the cu117 build");
	is_str(b != NULL ? b->cudnn : NULL, "8.5.0.96", "  with cuDNN 8.5.0.96");
	ok(b != NULL && b->bundles_cuda == MATRIX_BUNDLES_YES, "  which it brings along");
	b = matrix_framework_build(fw, "CU118");
	is_str(b != NULL ? b->cudnn : NULL, "8.7.0.84", "torch 2.0.1+cu118 has cuDNN 8.7.0.84");
	b = matrix_framework_build(matrix_framework(m, "torch", "2.4.1"), "cu124");
	is_str(b != NULL ? b->cuda : NULL, "12.4", "torch 2.4.1+cu124 is CUDA 12.4");
	b = matrix_framework_build(matrix_framework(m, "torch", "2.9.0"), "cu130");
	ok(b != NULL && strv_contains(&b->sonames, "libcudart.so.13") &&
	    !strv_contains(&b->ccs, "7.0"), "torch 2.9+cu130 loads libcudart.so.13 and has no sm_70");
	ok(matrix_framework_build(matrix_framework(m, "torch", "2.2.0"), NULL) == NULL,
	    "torch 2.2 has two builds and no known default");
	b = matrix_framework_build(matrix_framework(m, "jax-cuda12-plugin", "0.6.2"), "cuda12");
	is_str(b != NULL ? b->cuda : NULL, "12.8", "jax-cuda12-plugin 0.6.2 is built with CUDA 12.8");
	b = matrix_framework_build(matrix_framework(m, "cupy-cuda11x", "12.3.0"), NULL);
	ok(b != NULL && strv_contains(&b->sonames, "libcudart.so.11.0"),
	    "cupy-cuda11x 12.3.0 loads libcudart.so.11.0");
	ok(matrix_framework(m, "cupy-cuda13x", "13.5.0") == NULL, "cupy-cuda13x starts at CuPy 13.6");

	w = matrix_wheel(m, "nvidia-cudnn-cu12");
	is_str(w != NULL ? w->lib_dir : NULL, "nvidia/cudnn/lib", "nvidia-cudnn-cu12 installs to nvidia/cudnn/lib");
	is_int(w != NULL ? w->cuda_major : 0, 12, "  for CUDA 12");
	w = matrix_wheel(m, "nvidia-cuda-runtime");
	is_str(w != NULL ? w->lib_dir : NULL, "nvidia/cu13/lib", "CUDA 13 wheels share nvidia/cu13/lib");
	ok(matrix_wheel(m, "NVIDIA_CUBLAS_CU12") != NULL, "wheel names compare as pip compares them");
	ok(matrix_conda_package(m, "cuda-version") != NULL, "conda knows cuda-version");
	ok(matrix_conda_package(m, "cudatoolkit") != NULL, "and cudatoolkit");
}

static void
test_document(const struct matrix *m)
{
	char *json, *json2, *err = NULL;
	struct matrix *m2;

	is_str(matrix_source_name(matrix_source(m)), "embedded", "the compiled-in matrix says so");
	ok(matrix_path(m) == NULL, "  and has no path");
	ok(matrix_date(m) != NULL && strlen(matrix_date(m)) == 10, "it has a date");
	ok(matrix_refresh_days(m) >= 1, "and a refresh window");
	for (int s = 0; s < MATRIX_SEC_COUNT; s++)
		ok(matrix_count(m, (enum matrix_section)s) > 0, "section %s has rows",
		    matrix_section_name((enum matrix_section)s));
	is_str(matrix_section_name(MATRIX_SEC_FRAMEWORKS), "frameworks", "section names are the JSON keys");
	is_str(matrix_status_name(MATRIX_DERIVED), "derived", "status names are the JSON words");

	json = matrix_to_json(m);
	m2 = matrix_parse(json, strlen(json), &err);
	ok(m2 != NULL, "the embedded matrix written as JSON parses again");
	json2 = m2 != NULL ? matrix_to_json(m2) : NULL;
	is_str(json2, json, "  to the same matrix");
	free(json2);
	free(json);
	free(err);
	matrix_free(m2);
}

static void
test_add(void)
{
	struct matrix *m = matrix_embedded();
	size_t nrel = matrix_count(m, MATRIX_SEC_CUDA_RELEASES);
	size_t ncudnn = matrix_count(m, MATRIX_SEC_CUDNN_RELEASES);
	const struct matrix_cuda_release *r;
	const char *const majors[] = { "12", "13" };
	const char *const bad[] = { "12", "x;y" };
	char *err = NULL, *json;
	enum matrix_status st = MATRIX_UNCONFIRMED;
	struct matrix *m2;

	matrix_set_source(m, MATRIX_CACHE, "/tmp/cache/matrix.json");
	is_str(matrix_source_name(matrix_source(m)), "cache", "a matrix can say it came from the cache");
	is_str(matrix_path(m), "/tmp/cache/matrix.json", "  and where");

	is_int(matrix_add_cuda_release(m, "13.4.0", "615.10.01", &err), 0, "a new CUDA 13.4.0 is added");
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), nrel + 1, "  as one more row");
	r = matrix_cuda_release(m, "13.4");
	is_str(r != NULL ? r->label : NULL, "CUDA 13.4.0", "  labelled CUDA 13.4.0");
	is_str(matrix_cuda_min_driver(m, "13.4", MATRIX_LINUX, &st), "615.10.01", "  needing 615.10.01");
	is_int(st, MATRIX_CONFIRMED, "  confirmed, as NVIDIA's own manifest says it");
	ok(r != NULL && r->windows_driver == NULL, "  with no Windows driver claimed");
	is_str(matrix_newest_cuda(m)->version, "13.4.0", "  and it is now the newest");

	is_int(matrix_add_cuda_release(m, "13.2.0", "595.45.05", &err), 0,
	    "a known secondary release is updated");
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), nrel + 1, "  in place");
	is_str(matrix_cuda_min_driver(m, "13.2.0", MATRIX_LINUX, &st), "595.45.05",
	    "  to the manifest's driver");
	is_int(st, MATRIX_CONFIRMED, "  and becomes confirmed");
	r = matrix_cuda_release(m, "13.2.0");
	is_str(r != NULL ? r->label : NULL, "CUDA 13.2", "  keeping its label");

	is_int(matrix_add_cuda_release(m, "11.7.1", "515.65.01", &err), 0,
	    "11.7.1's manifest (bundled driver 515.65.01) is taken");
	is_str(matrix_cuda_min_driver(m, "11.7.1", MATRIX_LINUX, NULL), "515.48.07",
	    "  but the confirmed minimum 515.48.07 stays");
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), nrel + 1, "  and no row is added");

	is_int(matrix_add_cuda_release(m, "11.8; rm -rf ~", "520.61.05", &err), -1,
	    "a version with a command is refused");
	ok(err != NULL && strncmp(err, "version:", 8) == 0, "  naming the version");
	free(err);
	err = NULL;
	is_int(matrix_add_cuda_release(m, "13.5.0", "abc", &err), -1, "a driver \"abc\" is refused");
	ok(err != NULL && strncmp(err, "linux_driver:", 13) == 0, "  naming the driver");
	free(err);
	err = NULL;
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), nrel + 1, "  and nothing was added");

	is_int(matrix_add_cudnn_release(m, "9.20.0", majors, 2, &err), 0, "a new cuDNN 9.20.0 is added");
	is_int(matrix_count(m, MATRIX_SEC_CUDNN_RELEASES), ncudnn + 1, "  as one more row");
	is_int(matrix_cudnn_supports_cuda(m, "9.20.0", "13.0", &st), MATRIX_YES, "  for CUDA 13");
	is_int(st, MATRIX_CONFIRMED, "  confirmed");
	is_int(matrix_cudnn_supports_cuda(m, "9.20.0.48", "12.9", NULL), MATRIX_YES, "  and CUDA 12");
	is_int(matrix_cudnn_supports_cuda(m, "9.20.0", "11.8", NULL), MATRIX_NO, "  not CUDA 11");
	is_str(matrix_newest_cudnn(m, NULL), "9.20.0", "  and is the newest cuDNN");
	is_int(matrix_add_cudnn_release(m, "9.10.0", majors, 2, &err), 0, "a known cuDNN gains a major");
	is_int(matrix_count(m, MATRIX_SEC_CUDNN_RELEASES), ncudnn + 1, "  in place");
	is_int(matrix_cudnn_supports_cuda(m, "9.10.0", "13.0", NULL), MATRIX_YES, "  cuDNN 9.10 now lists 13");
	is_int(matrix_cudnn_supports_cuda(m, "9.10.0", "12.7", NULL), MATRIX_NO,
	    "  but its finer 12.x ranges stay as they were");
	is_int(matrix_add_cudnn_release(m, "9.21.0", bad, 2, &err), -1, "a CUDA variant \"x;y\" is refused");
	ok(err != NULL && strncmp(err, "cuda_variant[1]:", 16) == 0, "  naming which");
	free(err);
	err = NULL;

	json = matrix_to_json(m);
	m2 = matrix_parse(json, strlen(json), &err);
	ok(m2 != NULL, "the merged matrix validates as a document");
	ok(m2 != NULL && matrix_cudnn_supports_cuda(m2, "9.20.0", "13.0", NULL) == MATRIX_YES,
	    "  and keeps what was added");
	free(err);
	free(json);
	matrix_free(m2);
	matrix_free(m);
}

/* ------------------------------------------ the built-in form vs JSON */

/* The matrix the build embedded, read from its JSON source as a cache or
 * --matrix FILE would be. */
static struct matrix *
parse_source(void)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536], *err = NULL;
	/* make runs in the top build directory, so a relative name is
	 * relative to it, wherever this test runs. */
	char *path = MATRIX_JSON_FILE[0] == '/' ? xstrdup(MATRIX_JSON_FILE) :
	    xasprintf("%s/%s", TOP_BUILDDIR, MATRIX_JSON_FILE);
	FILE *f = fopen(path, "rb");
	struct matrix *m;
	size_t n;

	if (f == NULL) {
		printf("# %s: %s\n", path, strerror(errno));
		free(path);
		return NULL;
	}
	free(path);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	m = matrix_parse(sb.buf != NULL ? sb.buf : "", sb.len, &err);
	if (m == NULL)
		printf("# %s: %s\n", MATRIX_JSON_FILE, err);
	free(err);
	strbuf_free(&sb);
	return m;
}

/* A row's place in its section (-1 for none): two matrices with the same
 * rows answer alike when their answers are the same rows. */
#define ROW_AT(m, sec, r) ((r) == NULL ? -1L : (long)((r) - (m)->sec.v))

struct tally {
	size_t	asked, differ;
};

static void
same(struct tally *t, long a, long b)
{
	t->asked++;
	t->differ += a != b;
}

static void
same_str(struct tally *t, const char *a, const char *b)
{
	t->asked++;
	t->differ += (a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0);
}

static void
report(const struct tally *t, const char *what)
{
	ok(t->differ == 0 && t->asked > 0, "%s: %zu questions, %zu answers differ",
	    what, t->asked, t->differ);
}

/* Every release version and its minor ("12.4"), on both systems. */
static void
ask_releases(const struct matrix *e, const struct matrix *j)
{
	struct tally t = { 0, 0 };

	for (size_t i = 0; i < j->cuda_releases.n; i++) {
		const char *v = j->cuda_releases.v[i].version;
		char minor[MATRIX_VERSION_MAX];
		const char *dot = strchr(v, '.');
		enum matrix_status se = MATRIX_CONFIRMED, sj = MATRIX_CONFIRMED;

		dot = dot != NULL ? strchr(dot + 1, '.') : NULL;
		snprintf(minor, sizeof minor, "%.*s", dot != NULL ? (int)(dot - v) : (int)strlen(v), v);
		same(&t, ROW_AT(e, cuda_releases, matrix_cuda_release(e, v)),
		    ROW_AT(j, cuda_releases, matrix_cuda_release(j, v)));
		same(&t, ROW_AT(e, cuda_releases, matrix_cuda_release(e, minor)),
		    ROW_AT(j, cuda_releases, matrix_cuda_release(j, minor)));
		for (int os = MATRIX_LINUX; os <= MATRIX_WINDOWS; os++) {
			same_str(&t, matrix_cuda_min_driver(e, v, (enum matrix_os)os, &se),
			    matrix_cuda_min_driver(j, v, (enum matrix_os)os, &sj));
			same(&t, se, sj);
		}
	}
	same(&t, ROW_AT(e, cuda_releases, matrix_newest_cuda(e)),
	    ROW_AT(j, cuda_releases, matrix_newest_cuda(j)));
	for (unsigned major = 0; major <= 20; major++) {
		same(&t, ROW_AT(e, cuda_majors, matrix_cuda_major(e, major)),
		    ROW_AT(j, cuda_majors, matrix_cuda_major(j, major)));
		for (int os = MATRIX_LINUX; os <= MATRIX_WINDOWS; os++)
			same_str(&t, matrix_minor_compat_floor(e, major, (enum matrix_os)os, NULL),
			    matrix_minor_compat_floor(j, major, (enum matrix_os)os, NULL));
	}
	report(&t, "releases, minimum drivers and majors");
}

static void
same_reach(struct tally *t, const struct matrix *e, const struct matrix *j,
    const char *driver, enum matrix_os os)
{
	struct matrix_driver_reach re, rj;

	same(t, matrix_driver_reach(e, driver, os, &re), matrix_driver_reach(j, driver, os, &rj));
	same_str(t, re.release_cuda, rj.release_cuda);
	same(t, ROW_AT(e, cuda_releases, re.release), ROW_AT(j, cuda_releases, rj.release));
	same(t, re.release_status, rj.release_status);
	same_str(t, re.compat_cuda, rj.compat_cuda);
	same(t, re.compat_major, rj.compat_major);
	same(t, re.compat_status, rj.compat_status);
	same(t, re.basis, rj.basis);
	same_str(t, re.highest, rj.highest);
}

/* What every driver the data names reaches. */
static void
ask_reach(const struct matrix *e, const struct matrix *j)
{
	struct tally t = { 0, 0 };

	for (size_t i = 0; i < j->cuda_releases.n; i++) {
		const struct matrix_cuda_release *r = &j->cuda_releases.v[i];

		same_reach(&t, e, j, r->linux_driver, MATRIX_LINUX);
		if (r->windows_driver != NULL)
			same_reach(&t, e, j, r->windows_driver, MATRIX_WINDOWS);
	}
	for (size_t i = 0; i < j->cuda_majors.n; i++)
		if (j->cuda_majors.v[i].minor_compat_linux != NULL)
			same_reach(&t, e, j, j->cuda_majors.v[i].minor_compat_linux, MATRIX_LINUX);
	report(&t, "driver reach");
}

/* Every architecture against every release, and every GPU. */
static void
ask_gpus(const struct matrix *e, const struct matrix *j)
{
	struct tally t = { 0, 0 };

	for (size_t a = 0; a < j->architectures.n; a++) {
		const char *cc = j->architectures.v[a].cc;

		same(&t, ROW_AT(e, architectures, matrix_architecture(e, cc)),
		    ROW_AT(j, architectures, matrix_architecture(j, cc)));
		for (size_t i = 0; i < j->cuda_releases.n; i++) {
			const char *v = j->cuda_releases.v[i].version;
			enum matrix_status se = MATRIX_CONFIRMED, sj = MATRIX_CONFIRMED;

			same(&t, matrix_cuda_supports_cc(e, v, cc, &se),
			    matrix_cuda_supports_cc(j, v, cc, &sj));
			same(&t, se, sj);
		}
	}
	for (size_t g = 0; g < j->gpus.n; g++) {
		const struct matrix_gpu *gpu = &j->gpus.v[g];

		same(&t, ROW_AT(e, gpus, matrix_gpu_by_name(e, gpu->name)),
		    ROW_AT(j, gpus, matrix_gpu_by_name(j, gpu->name)));
		for (size_t k = 0; k < gpu->pci_ids.n; k++) {
			unsigned id = (unsigned)strtoul(gpu->pci_ids.v[k], NULL, 16);

			same(&t, ROW_AT(e, gpus, matrix_gpu_by_pci(e, id)),
			    ROW_AT(j, gpus, matrix_gpu_by_pci(j, id)));
		}
	}
	report(&t, "architectures and GPUs");
}

static void
same_soname(struct tally *t, const struct matrix *e, const struct matrix *j,
    const char *name)
{
	struct matrix_range re = { NULL, NULL }, rj = { NULL, NULL };
	const char *le = NULL, *lj = NULL;
	enum matrix_status se = MATRIX_CONFIRMED, sj = MATRIX_CONFIRMED;

	same(t, matrix_soname_cuda(e, name, &re, &le, &se),
	    matrix_soname_cuda(j, name, &rj, &lj, &sj));
	same_str(t, re.min, rj.min);
	same_str(t, re.max, rj.max);
	same_str(t, le, lj);
	same(t, se, sj);
}

/* Every soname and DLL, and each library at the ends of its ranges. */
static void
ask_sonames(const struct matrix *e, const struct matrix *j)
{
	struct tally t = { 0, 0 };

	for (size_t i = 0; i < j->sonames.n; i++) {
		const struct matrix_soname *s = &j->sonames.v[i];

		same_soname(&t, e, j, s->soname);
		if (s->windows_dll != NULL)
			same_soname(&t, e, j, s->windows_dll);
		same(&t, ROW_AT(e, sonames, matrix_soname_for(e, s->library, s->cuda.min)),
		    ROW_AT(j, sonames, matrix_soname_for(j, s->library, s->cuda.min)));
		if (s->cuda.max != NULL)
			same(&t, ROW_AT(e, sonames, matrix_soname_for(e, s->library, s->cuda.max)),
			    ROW_AT(j, sonames, matrix_soname_for(j, s->library, s->cuda.max)));
	}
	report(&t, "sonames and DLLs");
}

/* Every cuDNN release against every CUDA minor, and the libraries. */
static void
ask_cudnn(const struct matrix *e, const struct matrix *j)
{
	struct tally t = { 0, 0 };
	enum matrix_status se = MATRIX_CONFIRMED, sj = MATRIX_CONFIRMED;

	for (size_t i = 0; i < j->cudnn_releases.n; i++) {
		const char *v = j->cudnn_releases.v[i].versions.min;

		same(&t, ROW_AT(e, cudnn_releases, matrix_cudnn_release(e, v)),
		    ROW_AT(j, cudnn_releases, matrix_cudnn_release(j, v)));
		for (size_t k = 0; k < j->cuda_releases.n; k++) {
			const char *cuda = j->cuda_releases.v[k].version;

			same(&t, matrix_cudnn_supports_cuda(e, v, cuda, &se),
			    matrix_cudnn_supports_cuda(j, v, cuda, &sj));
			same(&t, se, sj);
		}
	}
	for (unsigned major = 0; major <= 12; major++)
		same(&t, ROW_AT(e, cudnn_libraries, matrix_cudnn_library(e, major)),
		    ROW_AT(j, cudnn_libraries, matrix_cudnn_library(j, major)));
	same_str(&t, matrix_newest_cudnn(e, &se), matrix_newest_cudnn(j, &sj));
	same(&t, se, sj);
	report(&t, "cuDNN releases and libraries");
}

/* Every framework at both ends of its versions with each build, every
 * wheel and every conda package. */
static void
ask_packages(const struct matrix *e, const struct matrix *j)
{
	struct tally t = { 0, 0 };

	for (size_t i = 0; i < j->frameworks.n; i++) {
		const struct matrix_framework *fw = &j->frameworks.v[i];
		const char *ends[] = { fw->versions.min, fw->versions.max };

		for (size_t k = 0; k < 2; k++) {
			const struct matrix_framework *fe, *fj;

			if (ends[k] == NULL)
				continue;
			fe = matrix_framework(e, fw->name, ends[k]);
			fj = matrix_framework(j, fw->name, ends[k]);
			same(&t, ROW_AT(e, frameworks, fe), ROW_AT(j, frameworks, fj));
			if (fe == NULL || fj == NULL)
				continue;
			same(&t, ROW_AT(fe, builds, matrix_framework_build(fe, NULL)),
			    ROW_AT(fj, builds, matrix_framework_build(fj, NULL)));
			for (size_t b = 0; b < fj->builds.n; b++)
				if (fj->builds.v[b].variant != NULL)
					same(&t, ROW_AT(fe, builds,
					    matrix_framework_build(fe, fj->builds.v[b].variant)),
					    ROW_AT(fj, builds,
					    matrix_framework_build(fj, fj->builds.v[b].variant)));
		}
	}
	for (size_t i = 0; i < j->wheels.n; i++)
		same(&t, ROW_AT(e, wheels, matrix_wheel(e, j->wheels.v[i].package)),
		    ROW_AT(j, wheels, matrix_wheel(j, j->wheels.v[i].package)));
	for (size_t i = 0; i < j->conda_packages.n; i++)
		same(&t, ROW_AT(e, conda_packages, matrix_conda_package(e, j->conda_packages.v[i].name)),
		    ROW_AT(j, conda_packages, matrix_conda_package(j, j->conda_packages.v[i].name)));
	report(&t, "frameworks, builds, wheels and conda packages");
}

/* jansson allocations that always fail: loading the built-in matrix must
 * not need any. */
static void *
no_malloc(size_t size)
{
	(void)size;
	return NULL;
}

static void
test_builtin_is_source(void)
{
	struct matrix *j = parse_source(), *e, *e2;
	json_malloc_t jm;
	json_free_t jf;
	char *je, *ee, *err = NULL;

	ok(j != NULL, "the matrix source %s parses", MATRIX_JSON_FILE);
	if (j == NULL)
		return;
	json_get_alloc_funcs(&jm, &jf);
	json_set_alloc_funcs(no_malloc, jf);
	e = matrix_embedded();
	json_set_alloc_funcs(jm, jf);
	ok(e != NULL, "the built-in matrix loads with jansson unable to allocate: no JSON is parsed");
	is_str(matrix_source_name(matrix_source(e)), "embedded", "  it says it is built in");
	ok(matrix_path(e) == NULL, "  with no path");
	is_str(matrix_date(e), matrix_date(j), "  its date is the source's");
	is_int(matrix_refresh_days(e), matrix_refresh_days(j), "  and so is its refresh window");
	for (int s = 0; s < MATRIX_SEC_COUNT; s++)
		is_int(matrix_count(e, (enum matrix_section)s),
		    matrix_count(j, (enum matrix_section)s), "  section %s has the source's %zu rows",
		    matrix_section_name((enum matrix_section)s),
		    matrix_count(j, (enum matrix_section)s));
	/* Written out by the one table that drives parsing, every field of
	 * every row takes part, in order. */
	je = matrix_to_json(j);
	ee = matrix_to_json(e);
	ok(strcmp(je, ee) == 0, "built in and parsed, the matrix is the same document byte for byte (%zu bytes)",
	    strlen(je));
	free(ee);
	ask_releases(e, j);
	ask_reach(e, j);
	ask_gpus(e, j);
	ask_sonames(e, j);
	ask_cudnn(e, j);
	ask_packages(e, j);

	/* A change copies the shared rows: the next load is as built. */
	ok(matrix_add_cuda_release(e, "13.2.0", "595.45.05", &err) == 0 &&
	    matrix_add_cudnn_release(e, "9.30.0", (const char *const[]){ "13" }, 1, &err) == 0,
	    "a loaded built-in matrix can be changed");
	free(err);
	e2 = matrix_embedded();
	ee = matrix_to_json(e2);
	ok(strcmp(je, ee) == 0, "  and the next one loaded is still the source");
	free(ee);
	ee = matrix_to_json(e);
	ok(strcmp(je, ee) != 0, "  while the changed one has changed");
	free(ee);
	free(je);
	matrix_free(e2);
	matrix_free(e);
	matrix_free(j);
}

int
main(void)
{
	struct matrix *m = matrix_embedded();

	test_drivers(m);
	test_reach(m);
	test_cc(m);
	test_gpus(m);
	test_sonames(m);
	test_cudnn(m);
	test_frameworks(m);
	test_document(m);
	matrix_free(m);
	test_add();
	test_builtin_is_source();
	return done_testing();
}
