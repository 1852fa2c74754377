/* bench/why-resolve FILE [RUNS]: the resolver alone, in-process: the
 * median time of resolve_closure(FILE) over RUNS runs (each with a fresh
 * directory cache, as one `cudawiz why` has), after one session set-up
 * (the loader profile and ld.so.cache), which is timed on its own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "loader/resolve.h"
#include "sysroot/sysroot.h"

extern char **environ;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	struct loader_session ls;
	struct sysroot *sr;
	double t0, setup, *t;
	char *err = NULL;
	int runs = argc > 2 ? atoi(argv[2]) : 21;
	size_t n = 0;

	if (argc < 2 || runs <= 0) {
		fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]);
		return 2;
	}
	sr = sysroot_new(NULL, &err);
	if (sr == NULL)
		return 2;
	t0 = now_ms();
	loader_session_init(&ls, sr, environ);
	setup = now_ms() - t0;
	t = calloc((size_t)runs, sizeof *t);
	if (t == NULL)
		return 2;
	for (int i = 0; i < runs; i++) {
		struct closure c;

		t0 = now_ms();
		if (resolve_closure(&ls.env, argv[1], &c, &err) != 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		t[i] = now_ms() - t0;
		n = c.resolutions.n;
		closure_free(&c);
	}
	qsort(t, (size_t)runs, sizeof *t, cmp_double);
	printf("%-44s %8.2f ms\n", "session set-up (ld.so --help, cache)", setup);
	printf("%-44s %8.2f ms (%zu searches)\n", "resolve_closure alone (median)",
	    t[runs / 2], n);
	free(t);
	loader_session_free(&ls);
	sysroot_free(sr);
	return 0;
}
