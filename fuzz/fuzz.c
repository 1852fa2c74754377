/* The shared half of every fuzz target: the scratch root and input files. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "sysroot/sysroot.h"
#include "util/strv.h"

static char *root;

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	if (remove(path) != 0 && errno != ENOENT)
		fprintf(stderr, "fuzz: cannot remove %s: %s\n", path,
		    strerror(errno));
	return 0;
}

static void
rm_root(void)
{
	if (root == NULL)
		return;
	/* Depth first, not following links: a target may plant links. */
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
	root = NULL;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
fz_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

const char *
fz_root(void)
{
	const char *tmp;
	char *tmpl;

	if (root != NULL)
		return root;
	tmp = getenv("TMPDIR");
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	if (asprintf(&tmpl, "%s/cudawiz-fuzz.XXXXXX", tmp) < 0)
		fz_die("out of memory");
	if (mkdtemp(tmpl) == NULL)
		fz_die("mkdtemp %s: %s", tmpl, strerror(errno));
	root = tmpl;
	atexit(rm_root);
	return root;
}

static void
make_parents(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			fz_die("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
}

void
fz_write(const char *rel, const uint8_t *data, size_t size)
{
	char *path;
	size_t done = 0;
	int fd;

	if (asprintf(&path, "%s/%s", fz_root(), rel) < 0)
		fz_die("out of memory");
	make_parents(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fz_die("open %s: %s", path, strerror(errno));
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fz_die("write %s: %s", path, strerror(errno));
		done += (size_t)n;
	}
	if (close(fd) != 0)
		fz_die("close %s: %s", path, strerror(errno));
	free(path);
}

void
fz_put(const char *rel, const char *text)
{
	fz_write(rel, (const uint8_t *)text, strlen(text));
}

char *
fz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		fz_die("out of memory");
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

const struct sysroot *
fz_sysroot(void)
{
	static struct sysroot *sr;
	char *err = NULL;

	if (sr == NULL) {
		sr = sysroot_new(fz_root(), &err);
		if (sr == NULL)
			fz_die("sysroot %s: %s", fz_root(),
			    err != NULL ? err : "?");
	}
	return sr;
}

bool
fz_same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

bool
fz_same_strv(const struct strv *a, const struct strv *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}
