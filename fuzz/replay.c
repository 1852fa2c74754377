/* The replay half of a fuzz target: without clang's libFuzzer, feeds each
 * file named on the command line (a directory: each file in it, in name
 * order) to LLVMFuzzerTestOneInput once. make check runs it over the
 * target's corpus, so every input that ever crashed stays a regression
 * test, under ASan and UBSan too. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Corpus files are small by construction (libFuzzer's -max_len); this
 * only stops a stray huge file from being read whole. */
#define REPLAY_MAX	(16u << 20)

static int
replay_file(const char *path)
{
	FILE *fp;
	uint8_t *buf;
	size_t n;

	fp = fopen(path, "rb");
	if (fp == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	buf = malloc(REPLAY_MAX);
	if (buf == NULL) {
		fclose(fp);
		fprintf(stderr, "replay: out of memory\n");
		return -1;
	}
	n = fread(buf, 1, REPLAY_MAX, fp);
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	/* A copy of exactly n bytes, so ASan sees reads past the input. */
	{
		uint8_t *in = malloc(n ? n : 1);

		if (in == NULL) {
			free(buf);
			return -1;
		}
		memcpy(in, buf, n);
		free(buf);
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
		LLVMFuzzerTestOneInput(in, n);
		free(in);
	}
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
replay_dir(const char *dir, unsigned long *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (d == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **grown;

			cap = cap ? cap * 2 : 64;
			grown = realloc(names, cap * sizeof(*names));
			if (grown == NULL) {
				rc = -1;
				break;
			}
			names = grown;
		}
		if (asprintf(&names[n], "%s/%s", dir, de->d_name) < 0) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		if (rc == 0 && replay_file(names[i]) != 0)
			rc = -1;
		else if (rc == 0)
			(*count)++;
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	unsigned long count = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
			    strerror(errno));
			return 1;
		}
		if (S_ISDIR(st.st_mode) ? replay_dir(argv[i], &count) != 0
		    : replay_file(argv[i]) != 0)
			return 1;
		if (!S_ISDIR(st.st_mode))
			count++;
	}
	printf("replayed %lu inputs\n", count);
	return 0;
}
