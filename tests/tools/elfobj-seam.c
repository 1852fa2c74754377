/* elfobj_read() with a file changed under it at the worst moment: after
 * the reader mapped it and before it parsed it (elfobj_after_map_hook).
 *
 *   elfobj-seam truncate SIZE FILE
 *	the first time FILE is mapped it is cut to SIZE bytes (an upgrade's
 *	`cp new.so old.so` at that instant); prints "maps N" (how many times
 *	the reader mapped it) and "error MESSAGE" or "ok"
 *   elfobj-seam flip SIZE FILE
 *	every time FILE is mapped it is cut to SIZE bytes or written back
 *	whole, in turn: a file that keeps changing; prints the same
 *   elfobj-seam read FILE
 *	no change: the same output for a file left alone
 *   elfobj-seam nomem FILE
 *	once FILE is mapped the address space is capped 512 KiB above what
 *	the process has, so libelf's own allocations for a file with many
 *	section headers fail: the reader must end with "out of memory"
 *	(status 2, from die()), never call the file damaged
 *   elfobj-seam fatbin-cut SIZE FILE
 *	fatbin_walk() over FILE, which is cut to SIZE bytes when the first
 *	fatbinary entry is seen, while libelf still has section headers and
 *	names to read past the cut; prints "maps N", "entries N" and "error
 *	MESSAGE" or "ok"
 *
 * A SIGBUS that escapes the reader kills this program by the signal. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "loader/elfobj.h"
#include "loader/fatbin.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

static const char *mode;
static off_t cut;
static unsigned char *whole;
static size_t whole_len;
static unsigned maps;
static unsigned entries;
static const char *cut_path;

static void
must(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "elfobj-seam: %s: %s\n", what, strerror(errno));
		exit(99);
	}
}

static void
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n = 0;

	must(f != NULL, path);
	must(fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0, path);
	rewind(f);
	whole_len = (size_t)n;
	whole = xmalloc(whole_len);
	must(fread(whole, 1, whole_len, f) == whole_len, path);
	fclose(f);
}

static void
put_back(const char *path)
{
	FILE *f = fopen(path, "r+b");

	must(f != NULL, path);
	must(fwrite(whole, 1, whole_len, f) == whole_len, path);
	must(fclose(f) == 0, path);
}

/* The address space in use now, from /proc/self/status (VmSize, kB). */
static unsigned long long
vm_size(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/self/status", "r");

	must(f != NULL, "/proc/self/status");
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static void
after_map(const char *path)
{
	maps++;
	if (strcmp(mode, "truncate") == 0 && maps == 1) {
		must(truncate(path, cut) == 0, path);
	} else if (strcmp(mode, "flip") == 0) {
		if (maps % 2 == 1)
			must(truncate(path, cut) == 0, path);
		else
			put_back(path);
	} else if (strcmp(mode, "nomem") == 0) {
		struct rlimit rl;

		rl.rlim_cur = rl.rlim_max = vm_size() + 512 * 1024;
		must(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit");
	}
}

/* fatbin_walk's callback: the first entry cuts the file. */
static int
on_entry(const struct fatbin_entry *e, void *arg)
{
	(void)e;
	(void)arg;
	if (entries++ == 0)
		must(truncate(cut_path, cut) == 0, cut_path);
	return 0;
}

static int
fatbin_cut(const struct sysroot *sr, const char *path)
{
	char *err = NULL;
	bool has = false;
	int rc;

	cut_path = path;
	rc = fatbin_walk(sr, path, on_entry, NULL, &has, &err);
	printf("maps %u\nentries %u\n", maps, entries);
	if (rc < 0) {
		printf("error %s\n", err);
		free(err);
	} else {
		printf("ok\n");
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct sysroot *sr;
	struct elfobj o;
	const char *path;
	char *err = NULL;
	int rc;

	if (argc == 4 && (strcmp(argv[1], "truncate") == 0 ||
	    strcmp(argv[1], "flip") == 0 ||
	    strcmp(argv[1], "fatbin-cut") == 0)) {
		cut = (off_t)strtoll(argv[2], NULL, 10);
		path = argv[3];
	} else if (argc == 3 && (strcmp(argv[1], "nomem") == 0 ||
	    strcmp(argv[1], "read") == 0)) {
		path = argv[2];
	} else {
		fprintf(stderr, "usage: elfobj-seam truncate|flip|fatbin-cut "
		    "SIZE FILE | read|nomem FILE\n");
		return 99;
	}
	mode = argv[1];
	slurp(path);
	if ((sr = sysroot_new(NULL, &err)) == NULL) {
		fprintf(stderr, "elfobj-seam: %s\n", err);
		return 99;
	}
	elfobj_after_map_hook = after_map;
	if (strcmp(mode, "fatbin-cut") == 0) {
		rc = fatbin_cut(sr, path);
		sysroot_free(sr);
		free(whole);
		return rc;
	}
	rc = elfobj_read(sr, path, ELFOBJ_SYMBOLS, &o, &err);
	printf("maps %u\n", maps);
	if (rc != 0) {
		printf("error %s\n", err);
		free(err);
	} else {
		printf("ok\n");
		elfobj_free(&o);
	}
	sysroot_free(sr);
	free(whole);
	return 0;
}
