/* What naming a GPU from pci.ids costs: pciids_nvidia_names() (the
 * streaming read src/probe/pci.c does once per run when it finds an
 * NVIDIA GPU) asked for the last device of NVIDIA's block, the worst
 * case, since the read stops at the last id it wants. Prints the median
 * (and the spread) of many runs. Target: under 2 ms. When the tree holds
 * a driver's supported-gpus.json, the same for gpusupported_read(), which
 * scans all of it for that GPU.
 *
 * Usage: bench/pciids-read [RUNS [ROOT]]   (default 200 runs, the host) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "facts/facts.h"
#include "probe/gpusupported.h"
#include "probe/pciids.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

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
report(const char *what, double *t, long runs)
{
	qsort(t, (size_t)runs, sizeof *t, cmp_double);
	printf("  %-28s median %.3f ms (min %.3f, p90 %.3f, max %.3f; %ld runs)\n",
	    what, t[runs / 2], t[0], t[runs * 9 / 10], t[runs - 1], runs);
}

/* The last device id of the 10de block of the file at path, or -1. */
static long
last_nvidia_id(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[4096];
	long last = -1;
	int in = 0;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL) {
		if (!in) {
			in = strncmp(line, "10de  ", 6) == 0;
			continue;
		}
		if (line[0] != '\t' && line[0] != '#' && line[0] != '\n')
			break;
		if (line[0] == '\t' && line[1] != '\t' && line[5] == ' ')
			last = strtol(line + 1, NULL, 16);
	}
	fclose(fp);
	return last;
}

int
main(int argc, char **argv)
{
	static const char *const paths[] = {
		"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids",
		"/usr/share/pci.ids",
	};
	long runs = argc > 1 ? strtol(argv[1], NULL, 10) : 200, id = -1;
	const char *root = argc > 2 ? argv[2] : "/";
	struct probe_shared sh;
	struct probe_ctx ctx;
	struct sysroot *sr;
	char *err = NULL, *name = NULL, *path = NULL, full[4096];
	unsigned want;
	double *t;

	if (runs < 1 || runs > 1000000) {
		fprintf(stderr, "usage: %s [RUNS [ROOT]]   (1 to 1000000 runs)\n",
		    argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof paths / sizeof paths[0] && id < 0; i++) {
		snprintf(full, sizeof full, "%s%s", strcmp(root, "/") == 0 ? "" :
		    root, paths[i]);
		id = last_nvidia_id(full);
	}
	if (id < 0) {
		fprintf(stderr, "%s: no pci.ids with an NVIDIA block under %s\n",
		    argv[0], root);
		return 2;
	}
	sr = sysroot_new(root, &err);
	t = calloc((size_t)runs, sizeof *t);
	if (sr == NULL || t == NULL) {
		fprintf(stderr, "%s: %s\n", argv[0], err != NULL ? err : "out of memory");
		return 2;
	}
	memset(&sh, 0, sizeof sh);
	memset(&ctx, 0, sizeof ctx);
	ctx.sr = sr;
	ctx.shared = &sh;
	want = (unsigned)id;
	for (long r = 0; r < runs; r++) {
		double t0;

		ctx.facts = facts_new(root, false);
		t0 = now_ms();
		path = pciids_nvidia_names(&ctx, &want, 1, &name);
		t[r] = now_ms() - t0;
		if (r == 0)
			printf("pci.ids: %s, last NVIDIA device 10de:%04x: %s\n",
			    path != NULL ? path : "(none)", want,
			    name != NULL ? name : "(not found)");
		free(name);
		free(path);
		name = path = NULL;
		facts_free(ctx.facts);
	}
	report("pci.ids lookup, worst case", t, runs);
	for (long r = 0; r < runs; r++) {
		struct gpu_fact *g;
		double t0;

		ctx.facts = facts_new(root, false);
		g = VEC_PUSH(&ctx.facts->gpus);
		g->vendor_id = 0x10de;
		g->device_id = want;
		t0 = now_ms();
		path = gpusupported_read(&ctx, &name);
		t[r] = now_ms() - t0;
		if (r == 0)
			printf("supported-gpus.json: %s\n", path != NULL ? path :
			    "(none)");
		free(name);
		free(path);
		name = path = NULL;
		facts_free(ctx.facts);
	}
	report("supported-gpus.json scan", t, runs);
	free(t);
	sysroot_free(sr);
	return 0;
}
