/* How long loading the compiled-in matrix takes: parse, validate, convert
 * and free, the work every cudawiz run does once before anything else.
 * Prints the median (and the spread) of many runs, because one run is
 * mostly noise at this size. Target: under 2 ms.
 *
 * Usage: bench/matrix-load [RUNS]   (default 200) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "matrix/matrix.h"

static double
now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		perror("clock_gettime");
		exit(2);
	}
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	long runs = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	double *t;
	size_t rows = 0;

	if (runs < 1 || runs > 1000000) {
		fprintf(stderr, "usage: %s [RUNS]   (1 to 1000000)\n", argv[0]);
		return 2;
	}
	t = calloc((size_t)runs, sizeof *t);
	if (t == NULL) {
		perror("calloc");
		return 2;
	}
	/* One run first, untimed: page faults and the allocator's first
	 * growth are start-up costs, not the parser's. */
	matrix_free(matrix_embedded());
	for (long i = 0; i < runs; i++) {
		double start = now_ms();
		struct matrix *m = matrix_embedded();

		t[i] = now_ms() - start;
		if (i == 0)
			for (int s = 0; s < MATRIX_SEC_COUNT; s++)
				rows += matrix_count(m, (enum matrix_section)s);
		matrix_free(m);
	}
	qsort(t, (size_t)runs, sizeof *t, cmp_double);
	printf("matrix-load: %zu rows; parse+validate of the embedded matrix over %ld runs: "
	    "median %.3f ms (min %.3f, p90 %.3f, max %.3f)\n", rows, runs,
	    t[runs / 2], t[0], t[runs * 9 / 10], t[runs - 1]);
	free(t);
	return 0;
}
