/* The files a toolkit and a cuDNN copy say their versions in, as
 * probe_toolkits and probe_cudnn read them through a scratch sysroot:
 * version.json (jansson, then "cuda" "version"), version.txt ("CUDA
 * Version X"), CUDART_VERSION in cuda_runtime_api.h and CUDNN_MAJOR/
 * MINOR/PATCHLEVEL in cudnn_version.h (cf_header_defines), and the nvcc
 * wrapper script on PATH whose exec line leads to a toolkit
 * (wrapped_nvcc). Each source is tried when the ones before it said
 * nothing, so one input can reach all of them.
 *
 * Input: up to five files, cut at "\n---\n" (probefz.h):
 *   0  /usr/local/cuda-12.4/version.json
 *   1  /usr/local/cuda-12.4/version.txt
 *   2  /usr/local/cuda-12.4/include/cuda_runtime_api.h
 *   3  /usr/local/bin/nvcc			(executable; PATH=/usr/local/bin)
 *   4  /usr/local/cuda-12.4/include/cudnn_version.h
 * The fixed tree gives the toolkit lib64/libcudart.so.12, bin/nvcc and
 * lib64/libcudnn.so.9 (empty files: their ELF reads fail with a note),
 * and a second install, /opt/cuda-11.8/bin/nvcc, for a wrapper to name.
 *
 * Beyond "no crash" and the JSON check: a toolkit's version, when known,
 * is a valid version number, and when jansson finds a valid "cuda"
 * "version" in version.json it is that one, from that file; a cuDNN
 * version taken from a header is MAJOR.MINOR.PATCH with the library's
 * major, 9. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probefz.h"
#include "util/version.h"

#define TK	"usr/local/cuda-12.4"

static const char *const files[] = {
	TK "/version.json",
	TK "/version.txt",
	TK "/include/cuda_runtime_api.h",
	"usr/local/bin/nvcc",
	TK "/include/cudnn_version.h",
};

/* Arrays: the context takes char *, and string literals are const. */
static char env0[] = "PATH=/usr/local/bin";
static char *const envp[] = { env0, NULL };

static void
setup(void)
{
	if (!pf_scratch())
		return;
	fz_write(TK "/lib64/libcudart.so.12", NULL, 0);
	fz_write(TK "/lib64/libcudnn.so.9", NULL, 0);
	fz_write(TK "/bin/nvcc", NULL, 0);
	pf_chmod(TK "/bin/nvcc", 0755);
	fz_write("opt/cuda-11.8/bin/nvcc", NULL, 0);
	pf_chmod("opt/cuda-11.8/bin/nvcc", 0755);
	pf_symlink("cuda-12.4", "usr/local/cuda");
}

static void
check_versions(const struct facts *f)
{
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct fact_str *v = &f->toolkits.v[i].version;

		if (fact_known(v) && !version_valid(v->value))
			abort();
	}
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *c = &f->cudnn.v[i];
		unsigned long a, b, p;
		int end = -1;

		if (c->header == NULL || !fact_known(&c->version))
			continue;
		if (sscanf(c->version.value, "%lu.%lu.%lu%n", &a, &b, &p,
		    &end) != 3 || end < 0 ||
		    c->version.value[end] != '\0' || a != 9)
			abort();
	}
}

/* version.json read by jansson on its own: the version the toolkit must
 * have when it names a valid one. */
static void
check_json(const struct facts *f, const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, PF_SEP, PF_SEP_LEN);
	size_t n = sep != NULL ? (size_t)(sep - data) : size;
	const struct toolkit_fact *tk = NULL;
	json_error_t jerr;
	json_t *doc = json_loadb((const char *)data, n, JSON_REJECT_DUPLICATES,
	    &jerr), *v;

	if (doc == NULL)
		return;
	v = json_object_get(json_object_get(doc, "cuda"), "version");
	if (json_is_string(v) && version_valid(json_string_value(v))) {
		for (size_t i = 0; i < f->toolkits.n; i++)
			if (strcmp(f->toolkits.v[i].root, "/" TK) == 0)
				tk = &f->toolkits.v[i];
		if (tk == NULL || !fact_known(&tk->version) ||
		    strcmp(tk->version.value, json_string_value(v)) != 0 ||
		    tk->version.source == NULL ||
		    strcmp(tk->version.source, "/" TK "/version.json") != 0)
			abort();
	}
	json_decref(doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_ctx ctx;

	setup();
	if (pf_place(files, sizeof files / sizeof files[0], data, size) > 3)
		pf_chmod(files[3], 0755);
	ctx = pf_ctx(envp);
	probe_toolkits(&ctx);
	probe_cudnn(&ctx);
	check_versions(ctx.facts);
	check_json(ctx.facts, data, size);
	pf_check_report(ctx.facts);
	facts_free(ctx.facts);
	return 0;
}
