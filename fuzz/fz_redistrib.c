/* NVIDIA's redistrib manifests and the directory listings that name them
 * (`cudawiz matrix update` fetches both over the network): the input is
 * taken as a manifest (redistrib_is_manifest, redistrib_parse, then
 * redistrib_apply onto the embedded matrix) and as an HTML listing
 * (redistrib_listing).
 *
 * Oracles: a failed parse says why and leaves nothing; a manifest applied
 * leaves a matrix that holds the release and still validates (written
 * back, it parses again); the listing gives each name once, well formed,
 * newest first, and finds the same names again in its own output. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/version.h"

static void
check_applied(const struct redistrib *r, struct matrix *m)
{
	char *json, *err = NULL;
	struct matrix *m2;

	if (r->kind == REDISTRIB_CUDA) {
		const struct matrix_cuda_release *rel;

		rel = matrix_cuda_release(m, r->label);
		if (rel == NULL || rel->linux_driver == NULL)
			abort();
	} else if (matrix_cudnn_release(m, r->label) == NULL) {
		abort();
	}
	json = matrix_to_json(m);
	if (json == NULL)
		abort();
	m2 = matrix_parse(json, strlen(json), &err);
	if (m2 == NULL) {
		fprintf(stderr, "fz_redistrib: the matrix no longer validates "
		    "after the manifest: %s\n", err);
		abort();
	}
	matrix_free(m2);
	free(json);
}

static void
manifest(const char *data, size_t size)
{
	struct redistrib r;
	struct matrix *m;
	char *err = NULL;
	int rc;

	(void)redistrib_is_manifest(data, size);
	memset(&r, 0, sizeof r);
	if (redistrib_parse(data, size, &r, &err) != 0) {
		if (err == NULL || r.label != NULL || r.cudart != NULL ||
		    r.driver != NULL || r.cudnn != NULL || r.cuda_majors.n != 0)
			abort();
		free(err);
		redistrib_free(&r);
		return;
	}
	/* What parsed is a manifest by the quick test too. */
	if (!redistrib_is_manifest(data, size))
		abort();
	if (r.label == NULL || (r.kind != REDISTRIB_CUDA &&
	    r.kind != REDISTRIB_CUDNN))
		abort();
	m = matrix_embedded();
	rc = redistrib_apply(&r, m, &err);
	if (rc == 1)
		check_applied(&r, m);
	else if (rc == -1 && err != NULL)
		free(err);
	else if (rc != 0 || err != NULL)
		abort();
	matrix_free(m);
	redistrib_free(&r);
}

static void
listing(const char *data, size_t size)
{
	struct strv names = { 0 }, again = { 0 };
	struct strbuf sb = { 0 };
	size_t n;

	n = redistrib_listing(data, size, &names);
	if (n != names.n)
		abort();
	for (size_t i = 0; i < names.n; i++) {
		const char *s = names.v[i];
		size_t len = strlen(s);
		struct version v, prev;

		if (len < 16 || strncmp(s, "redistrib_", 10) != 0 ||
		    strcmp(s + len - 5, ".json") != 0 ||
		    !version_parsen(s + 10, len - 15, &v))
			abort();
		for (size_t j = 0; j < i; j++)
			if (strcmp(names.v[j], s) == 0)
				abort();
		if (i > 0) {
			const char *p = names.v[i - 1];

			if (!version_parsen(p + 10, strlen(p) - 15, &prev) ||
			    version_cmp(&prev, &v) < 0)
				abort();
		}
		strbuf_printf(&sb, "<a href=\"%s\">%s</a>\n", s, s);
	}
	/* The names, listed again, are found again in the same order. */
	if (redistrib_listing(strbuf_str(&sb), sb.len, &again) != names.n)
		abort();
	for (size_t i = 0; i < again.n; i++)
		if (strcmp(again.v[i], names.v[i]) != 0)
			abort();
	/* Appending to a list keeps what was there. */
	strv_free(&again);
	strv_push(&again, "kept");
	if (redistrib_listing(data, size, &again) != n ||
	    strcmp(again.v[0], "kept") != 0)
		abort();
	strbuf_free(&sb);
	strv_free(&names);
	strv_free(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	manifest((const char *)data, size);
	listing((const char *)data, size);
	return 0;
}
