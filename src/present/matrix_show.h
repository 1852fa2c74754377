/* What `cudawiz matrix` shows: the matrix in use (show), the cache file
 * (path) and how an update went (update), as text or JSON documents
 * (cudawiz/matrix-show/1, matrix-path/1, matrix-update/1). The update
 * itself is matrix/update.c's; these only print what it left. */
#ifndef CUDAWIZ_PRESENT_MATRIX_SHOW_H
#define CUDAWIZ_PRESENT_MATRIX_SHOW_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "matrix/matrix.h"

struct matrix_update;

/* The matrix in use, as `matrix show` found it. */
struct matrix_show_view {
	const struct matrix	*m;
	char			*cache_path;	/* NULL: no cache directory */
	time_t			 checked;
	int			 age;
	bool			 stale;
	const char		*newest_cuda;
	enum matrix_status	 cuda_status;
	const char		*newest_cudnn;
	enum matrix_status	 cudnn_status;
};

/* The JSON document; false when it could not be written. */
bool	matrix_show_json(FILE *fp, const struct matrix_show_view *sh);
void	matrix_show_text(FILE *fp, const struct matrix_show_view *sh);

/* The cache file's path, a line or a JSON document; false when it could
 * not be written. */
bool	matrix_path_print(FILE *fp, const char *path, bool json);

/* How an update went (result "updated", "up-to-date" or "failed"; m the
 * matrix it left, NULL on failure; error the line already shown on
 * stderr, NULL unless it failed): one JSON document, or a line per source
 * and the result, the update's notes going to stderr. False when the JSON
 * document could not be written. */
bool	matrix_update_print(FILE *fp, const struct matrix_update *u, bool json,
	    const char *result, const struct matrix *m, const char *error);

#endif
