/* Choosing the matrix of a run; see select.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "util/xalloc.h"

#define SECONDS_PER_DAY 86400

static struct matrix *
load_file(const char *file, char **err)
{
	struct matrix *m;
	char *data, *why;
	size_t len;
	int rc;

	rc = cache_read_file(file, CACHE_READ_MAX, &data, &len, &why);
	if (rc > 0) {
		*err = xasprintf(_("%s: no such file"), file);
		return NULL;
	}
	if (rc < 0) {
		*err = why;
		return NULL;
	}
	m = matrix_parse(data, len, &why);
	free(data);
	if (m == NULL) {
		*err = xasprintf("%s: %s", file, why);
		free(why);
		return NULL;
	}
	matrix_set_source(m, MATRIX_FILE, file);
	return m;
}

struct matrix *
select_matrix(const char *file, char **note, char **err)
{
	struct matrix *emb, *cached;
	char *path, *why;

	*note = *err = NULL;
	if (file != NULL)
		return load_file(file, err);
	emb = matrix_embedded();
	path = cache_matrix_path(&why);
	if (path == NULL) {
		/* No home, no cache: nothing to say on every run. */
		free(why);
		return emb;
	}
	if (cache_load(path, &cached, &why) != 0) {
		*note = xasprintf(_("ignoring the cached matrix: %s"), why);
		free(why);
		free(path);
		return emb;
	}
	if (cached != NULL &&
	    strcmp(matrix_date(cached), matrix_date(emb)) < 0) {
		*note = xasprintf(_("ignoring the cached matrix %s: its data "
		    "(%s) is older than the built-in data (%s)"), path,
		    matrix_date(cached), matrix_date(emb));
		matrix_free(cached);
		cached = NULL;
	}
	free(path);
	if (cached == NULL)
		return emb;
	matrix_free(emb);
	return cached;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil), so no time zone or timegm() is involved. */
static long
days_from_civil(long y, long m, long d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int
select_age_days(const char *date, time_t now)
{
	unsigned y, m, d;
	char tail;
	long age;

	if (date == NULL ||
	    sscanf(date, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3 ||
	    m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	age = (long)(now / SECONDS_PER_DAY) - days_from_civil((long)y, (long)m, (long)d);
	return age < 0 ? 0 : (int)(age > 1000000 ? 1000000 : age);
}

bool
select_stale(const struct matrix *m, time_t now, time_t checked)
{
	int age = select_age_days(matrix_date(m), now);
	long window = (long)matrix_refresh_days(m);

	if (age < 0 || age <= window)
		return false;
	return !(checked > 0 && checked <= now &&
	    (now - checked) / SECONDS_PER_DAY <= window);
}
