/* How long loading the compiled-in matrix takes, the work every cudawiz
 * run does once before anything else: since the rows are parsed and
 * checked at build time (src/matrix/mkembedded) that is a load and a free;
 * beside it, what parsing and checking the same document as JSON takes
 * (what a cached matrix or --matrix FILE costs, and what every run paid
 * before). Prints the median (and the spread) of many runs, because one
 * run is mostly noise at this size. Target: under 2 ms.
 *
 * Usage: bench/matrix-load [RUNS]   (default 200) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void
print(const char *what, double *t, long runs)
{
	qsort(t, (size_t)runs, sizeof *t, cmp_double);
	printf("  %-28s median %.2f us (min %.2f, p90 %.2f, max %.2f)\n", what,
	    t[runs / 2] * 1e3, t[0] * 1e3, t[runs * 9 / 10] * 1e3, t[runs - 1] * 1e3);
}

int
main(int argc, char **argv)
{
	long runs = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	double *t;
	size_t rows = 0;
	char *json, *err = NULL;

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
	printf("matrix-load: %zu rows, %ld runs\n", rows, runs);
	print("built-in load (no parsing):", t, runs);

	{
		struct matrix *m = matrix_embedded();

		json = matrix_to_json(m);
		matrix_free(m);
	}
	for (long i = 0; i < runs; i++) {
		double start = now_ms();
		struct matrix *m = matrix_parse(json, strlen(json), &err);

		t[i] = now_ms() - start;
		if (m == NULL) {
			fprintf(stderr, "matrix-load: %s\n", err);
			return 1;
		}
		matrix_free(m);
	}
	print("parse+validate of its JSON:", t, runs);
	free(json);
	free(t);
	return 0;
}
