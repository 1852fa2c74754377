/* The compatibility matrix: matrix_parse() validates a whole document
 * (data/SCHEMA.md), which may come from the network (`matrix update`) or
 * --matrix FILE; the questions then read only what it accepted.
 *
 * The input is a document, then optionally a NUL byte and query strings,
 * one a line: the fuzzer picks the versions, names and ids the questions
 * are asked with (a document never holds a NUL, so nothing is lost). With
 * no NUL, a fixed set of questions is asked.
 *
 * Oracles: a failed parse says why; a document accepted is written back
 * with matrix_to_json(), which must parse again, write back the same text
 * (a fixed point) and answer every question the same way; adding a CUDA or
 * cuDNN release that the validator took keeps the document valid. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/strv.h"

/* Each answer, as text, so two matrices can be compared. */
static void
put(struct strbuf *sb, const char *what, const char *s)
{
	strbuf_printf(sb, "%s=%s\n", what, s != NULL ? s : "(null)");
}

static void
put_range(struct strbuf *sb, const char *what, const struct matrix_range *r)
{
	strbuf_printf(sb, "%s=%s..%s\n", what, r->min != NULL ? r->min : "-",
	    r->max != NULL ? r->max : "-");
}

/* Every question with q (a version, a name, a cc…) and r (a second one). */
static void
ask(const struct matrix *m, const char *q, const char *r, struct strbuf *sb)
{
	const struct matrix_cuda_release *rel;
	const struct matrix_cudnn_release *dnn;
	const struct matrix_framework *fw;
	const struct matrix_build *b;
	const struct matrix_soname *so;
	const struct matrix_architecture *arch;
	const struct matrix_gpu *gpu;
	struct matrix_driver_reach dr;
	struct matrix_range range;
	enum matrix_status st = MATRIX_CONFIRMED;
	const char *lib = NULL;
	unsigned long n = strtoul(q, NULL, 0);

	rel = matrix_cuda_release(m, q);
	put(sb, "release", rel != NULL ? rel->version : NULL);
	put(sb, "min_driver", matrix_cuda_min_driver(m, q, MATRIX_LINUX, &st));
	put(sb, "min_driver_win", matrix_cuda_min_driver(m, q, MATRIX_WINDOWS,
	    NULL));
	if (matrix_driver_reach(m, q, MATRIX_LINUX, &dr))
		strbuf_printf(sb, "reach=%s/%s/%s/%u/%d\n", dr.release_cuda,
		    dr.compat_cuda, dr.highest, dr.compat_major, (int)dr.basis);
	if (matrix_driver_reach(m, q, MATRIX_WINDOWS, &dr))
		strbuf_printf(sb, "reach_win=%s/%s\n", dr.release_cuda,
		    dr.highest);
	if (matrix_soname_cuda(m, q, &range, &lib, &st)) {
		put_range(sb, "soname_cuda", &range);
		put(sb, "library", lib);
		if (!matrix_range_contains(&range, range.min))
			abort();	/* a range holds its own minimum */
	}
	so = matrix_soname_for(m, q, r);
	put(sb, "soname_for", so != NULL ? so->soname : NULL);
	arch = matrix_architecture(m, q);
	put(sb, "arch", arch != NULL ? arch->name : NULL);
	strbuf_printf(sb, "supports_cc=%d\n",
	    (int)matrix_cuda_supports_cc(m, q, r, &st));
	strbuf_printf(sb, "supports_cc2=%d\n",
	    (int)matrix_cuda_supports_cc(m, r, q, NULL));
	gpu = matrix_gpu_by_name(m, q);
	put(sb, "gpu", gpu != NULL ? gpu->name : NULL);
	gpu = matrix_gpu_by_pci(m, (unsigned)n);
	put(sb, "gpu_pci", gpu != NULL ? gpu->name : NULL);
	dnn = matrix_cudnn_release(m, q);
	if (dnn != NULL)
		put_range(sb, "cudnn", &dnn->versions);
	strbuf_printf(sb, "cudnn_cuda=%d\n",
	    (int)matrix_cudnn_supports_cuda(m, q, r, &st));
	fw = matrix_framework(m, q, r);
	if (fw != NULL) {
		put(sb, "framework", fw->name);
		b = matrix_framework_build(fw, NULL);
		put(sb, "build", b != NULL ? b->cuda : NULL);
		b = matrix_framework_build(fw, r);
		put(sb, "build_variant", b != NULL ? b->cuda : NULL);
	}
	put(sb, "wheel", matrix_wheel(m, q) != NULL ? q : NULL);
	put(sb, "conda", matrix_conda_package(m, q) != NULL ? q : NULL);
	/* The catalogue: q as a package on each channel, r as the bounds and
	 * the index. */
	{
		static const char *const channels[] = { "pip", "conda-forge", "apt" };
		const struct matrix_published *p;

		for (size_t i = 0; i < sizeof channels / sizeof channels[0]; i++) {
			strbuf_printf(sb, "published_%s=%d/%d/%d\n", channels[i],
			    (int)matrix_published_has(m, channels[i], q, NULL, NULL, NULL),
			    (int)matrix_published_has(m, channels[i], q, NULL, r, r),
			    (int)matrix_published_has(m, channels[i], q, r, NULL, r));
			p = matrix_published_find(m, channels[i], q, NULL);
			put(sb, "published_find", p != NULL ? p->source : NULL);
			/* A row found answers yes to "any version". */
			if (p != NULL && matrix_published_has(m, channels[i], q, NULL,
			    NULL, NULL) != MATRIX_YES)
				abort();
		}
		p = matrix_published_find_cuda(m, "pip", q, r, (unsigned)(n % 1000));
		put(sb, "published_cuda", p != NULL ? p->package : NULL);
	}
	if (n <= 100) {
		const struct matrix_cuda_major *maj;
		const struct matrix_cudnn_library *cl;

		maj = matrix_cuda_major(m, (unsigned)n);
		put(sb, "major", maj != NULL ? maj->lowest_cc : NULL);
		put(sb, "floor", matrix_minor_compat_floor(m, (unsigned)n,
		    MATRIX_LINUX, &st));
		cl = matrix_cudnn_library(m, (unsigned)n);
		put(sb, "cudnn_lib", cl != NULL ? cl->header : NULL);
	}
}

static void
ask_all(const struct matrix *m, const struct strv *qs, struct strbuf *sb)
{
	const struct matrix_cuda_release *rel;
	enum matrix_status st;

	for (int s = 0; s < MATRIX_SEC_COUNT; s++)
		strbuf_printf(sb, "%s=%zu\n",
		    matrix_section_name((enum matrix_section)s),
		    matrix_count(m, (enum matrix_section)s));
	/* Not the count of ignored keys: the written-back copy has none. */
	for (size_t i = 0; i < matrix_published_count(m); i++) {
		const struct matrix_published *p = matrix_published_at(m, i);

		strbuf_printf(sb, "row=%s/%s/%u/%s/%zu/%zu\n", p->channel, p->package,
		    p->cuda_major, p->index_url != NULL ? p->index_url : "-",
		    p->versions.n, p->distros.n);
	}
	put(sb, "date", matrix_date(m));
	strbuf_printf(sb, "refresh=%u\n", matrix_refresh_days(m));
	rel = matrix_newest_cuda(m);
	put(sb, "newest", rel != NULL ? rel->version : NULL);
	put(sb, "newest_cudnn", matrix_newest_cudnn(m, &st));
	/* The newest release's own version and driver, which the data holds
	 * for sure. */
	if (rel != NULL) {
		ask(m, rel->version, rel->linux_driver, sb);
		ask(m, rel->linux_driver, rel->version, sb);
	}
	for (size_t i = 0; i < qs->n; i++)
		ask(m, qs->v[i], qs->v[(i + 1) % qs->n], sb);
}

/* The document written back must parse, write back the same text and
 * answer the same; returns it written back (the caller frees it). */
static char *
roundtrip(const struct matrix *m, const struct strv *qs)
{
	struct strbuf a = { 0 }, b = { 0 };
	struct matrix *m2;
	char *json, *json2, *err = NULL;

	json = matrix_to_json(m);
	if (json == NULL)
		abort();
	m2 = matrix_parse(json, strlen(json), &err);
	if (m2 == NULL) {
		fprintf(stderr, "fz_matrix: the written-back document does not "
		    "parse: %s\n", err);
		abort();
	}
	json2 = matrix_to_json(m2);
	if (json2 == NULL || strcmp(json, json2) != 0) {
		fprintf(stderr, "fz_matrix: writing back is not a fixed point\n");
		abort();
	}
	ask_all(m, qs, &a);
	ask_all(m2, qs, &b);
	if (strcmp(strbuf_str(&a), strbuf_str(&b)) != 0) {
		fprintf(stderr, "fz_matrix: answers differ after the round "
		    "trip:\n%s---\n%s", strbuf_str(&a), strbuf_str(&b));
		abort();
	}
	strbuf_free(&a);
	strbuf_free(&b);
	free(json2);
	matrix_free(m2);
	return json;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed[] = { "12.4.1", "11.8", "12", "8.6",
	    "535.104.05", "libcudart.so.11.0", "cudart64_12.dll", "cudart",
	    "NVIDIA GeForce RTX 3090", "0x2204", "8.9.7", "tensorflow",
	    "nvidia-cudnn-cu12", "cudatoolkit", "cu121", "9", "" };
	const char *nul = memchr(data, '\0', size);
	size_t doclen = nul != NULL ? (size_t)(nul - (const char *)data) : size;
	struct strv qs = { 0 };
	struct matrix *m;
	char *err = NULL, *json;

	if (nul != NULL) {
		char *q = fz_cstring((const uint8_t *)nul + 1,
		    size - doclen - 1);

		strv_split(&qs, q, "\n");
		free(q);
	} else {
		for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
			strv_push(&qs, fixed[i]);
	}

	m = matrix_parse((const char *)data, doclen, &err);
	if (m == NULL) {
		if (err == NULL || *err == '\0')
			abort();
		free(err);
		strv_free(&qs);
		return 0;
	}
	json = roundtrip(m, &qs);
	free(json);

	/* What redistrib_apply() does with a manifest's values: a release
	 * the validator takes leaves a document that still validates. */
	if (qs.n >= 2) {
		const char *majors[] = { qs.v[0], qs.v[1] };

		if (matrix_add_cuda_release(m, qs.v[0], qs.v[1], &err) == 0)
			free(roundtrip(m, &qs));
		else
			free(err);
		if (matrix_add_cudnn_release(m, qs.v[1], majors, 2, &err) == 0)
			free(roundtrip(m, &qs));
		else
			free(err);
	}
	matrix_free(m);
	strv_free(&qs);
	return 0;
}
