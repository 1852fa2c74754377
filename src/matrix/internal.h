/* The matrix's own layout, shared by its parser (parse.c), its questions
 * (query.c) and the generated embedded.c; nothing outside src/matrix/
 * includes this, so callers cannot come to depend on the raw rows. */
#ifndef CUDAWIZ_MATRIX_INTERNAL_H
#define CUDAWIZ_MATRIX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "matrix/matrix.h"

struct matrix {
	enum matrix_source	 source;
	/* The rows (every vector and string below) are the compiled-in
	 * ones, read-only and shared: matrix_free leaves them alone, and a
	 * change first copies them (matrix.c's mx_own_rows). */
	bool			 borrowed;
	char			*path;		/* NULL when embedded */
	char			*date;
	unsigned		 refresh_days;
	size_t			 ignored;	/* unknown keys skipped while parsing */
	struct {
		struct matrix_cuda_release	*v;
		size_t				 n, cap;
	} cuda_releases;
	struct {
		struct matrix_cuda_major	*v;
		size_t				 n, cap;
	} cuda_majors;
	struct {
		struct matrix_architecture	*v;
		size_t				 n, cap;
	} architectures;
	struct {
		struct matrix_gpu		*v;
		size_t				 n, cap;
	} gpus;
	struct {
		struct matrix_cudnn_release	*v;
		size_t				 n, cap;
	} cudnn_releases;
	struct {
		struct matrix_cudnn_library	*v;
		size_t				 n, cap;
	} cudnn_libraries;
	struct {
		struct matrix_soname		*v;
		size_t				 n, cap;
	} sonames;
	struct {
		struct matrix_wheel		*v;
		size_t				 n, cap;
	} wheels;
	struct {
		struct matrix_conda_package	*v;
		size_t				 n, cap;
	} conda_packages;
	struct {
		struct matrix_framework		*v;
		size_t				 n, cap;
	} frameworks;
	struct {
		struct matrix_published		*v;
		size_t				 n, cap;
	} published;
};

/* data/matrix.json as src/matrix/mkembedded parsed and checked it at build
 * time (the generated src/matrix/embedded.c): borrowed rows, so loading
 * the built-in matrix copies one struct and parses nothing. */
extern const struct matrix	matrix_builtin;

/* Writes m as C source defining matrix_builtin; for mkembedded. Returns 0,
 * or -1 when out fails (errno says why). */
int	matrix_write_c(const struct matrix *m, const char *from, FILE *out);

#endif
