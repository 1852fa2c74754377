/* The matrix's own layout, shared by its parser (matrix.c), its questions
 * (query.c) and the generated embedded.c; nothing outside src/matrix/
 * includes this, so callers cannot come to depend on the raw rows. */
#ifndef CUDAWIZ_MATRIX_INTERNAL_H
#define CUDAWIZ_MATRIX_INTERNAL_H

#include <stddef.h>

#include "matrix/matrix.h"

/* data/matrix.json, compiled in by data/embed.sh (terminated by a NUL that
 * matrix_embedded_json_len does not count). */
extern const char	matrix_embedded_json[];
extern const size_t	matrix_embedded_json_len;

struct matrix {
	enum matrix_source	 source;
	char			*path;		/* NULL when embedded */
	char			*date;
	unsigned		 refresh_days;
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
};

#endif
