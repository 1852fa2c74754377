/* Which matrix a run uses, and how old it is.
 *
 * --matrix FILE wins; else the cache when it validates and is not older
 * than the embedded data (a cache built from the embedded data plus
 * NVIDIA's manifests carries the same date); else the embedded data. */
#ifndef CUDAWIZ_SELECT_H
#define CUDAWIZ_SELECT_H

#include <stdbool.h>
#include <time.h>

struct matrix;

/* Returns the matrix, its source and path set. With a file that cannot be
 * read or does not validate, returns NULL and sets *err ("FILE:
 * JSON.path: what is wrong"): a usage error. A cache that exists but is
 * not used sets *note to say why (the caller frees it); it is not an
 * error, the embedded data is used instead. */
struct matrix	*select_matrix(const char *file, char **note, char **err);

/* Whole days from a "YYYY-MM-DD" date to now (UTC), 0 when the date is in
 * the future, -1 when it does not parse. */
int		 select_age_days(const char *date, time_t now);

/* MATRIX_STALE's test: older than its refresh window, and not refreshed
 * within it (checked: the last update that reached the network, 0
 * never). */
bool		 select_stale(const struct matrix *m, time_t now,
		    time_t checked);

#endif
