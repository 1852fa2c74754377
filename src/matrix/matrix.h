/* The compatibility matrix: version facts as data (data/SCHEMA.md).
 *
 * A matrix is parsed and validated from JSON as a whole; callers then ask it
 * questions through the functions below and never walk the raw data. All
 * strings returned are owned by the matrix and live as long as it does. */
#ifndef CUDAWIZ_MATRIX_H
#define CUDAWIZ_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

struct matrix;

enum matrix_source {
	MATRIX_EMBEDDED = 0,
	MATRIX_CACHE,
	MATRIX_FILE,
};

/* Parses and validates a document. On failure returns NULL and sets *err
 * to "JSON.path: what is wrong" (the caller frees it). */
struct matrix	*matrix_parse(const char *data, size_t len, char **err);
/* The compiled-in default; it is checked by the tests, so failing to
 * parse it is a bug and dies. */
struct matrix	*matrix_embedded(void);
void		 matrix_free(struct matrix *m);

/* The document as JSON, for writing a merged cache. The caller frees it. */
char		*matrix_to_json(const struct matrix *m);

void		 matrix_set_source(struct matrix *m, enum matrix_source src,
		    const char *path);
enum matrix_source matrix_source(const struct matrix *m);
const char	*matrix_source_name(enum matrix_source src);	/* "embedded" … */
const char	*matrix_path(const struct matrix *m);		/* NULL when embedded */
const char	*matrix_date(const struct matrix *m);		/* "YYYY-MM-DD" */
unsigned	 matrix_refresh_days(const struct matrix *m);

/* Adds or updates what NVIDIA's redistrib manifests say: a CUDA release
 * and the minimum Linux driver it ships with, or a cuDNN release and the
 * CUDA majors it is built for ("11", "12"). Values are validated exactly as
 * in matrix_parse; returns 0, or -1 with *err set. */
int	matrix_add_cuda_release(struct matrix *m, const char *version,
	    const char *linux_driver, char **err);
int	matrix_add_cudnn_release(struct matrix *m, const char *version,
	    const char *const *cuda_majors, size_t n, char **err);

#endif
