/* The matrix questions against the embedded data, with answers taken from
 * ../shared/compat-facts.md (the research the data was written from), then
 * the round trip through JSON and what NVIDIA's manifests may add. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "matrix/matrix.h"

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
	return done_testing();
}
