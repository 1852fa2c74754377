/* Unit tests for the sysroot layer: links resolve inside the root, never
 * outside it; sizes, FIFOs and loops give errors, not hangs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/tap.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

static char root[PATH_MAX];
/* A directory beside the root, outside it, holding a secret. */
static char outside[PATH_MAX + 16];

/* The swap the walk hook makes once when the walk reaches race_at: the
 * name race_at in the root is moved aside and a symlink to race_to (a
 * host path outside the root) put in its place, the way a second process
 * could do it between a check and an open. */
static const char *race_at;
static char race_to[PATH_MAX * 2];
static int race_swaps;

static void
race_hook(const char *walked)
{
	char path[PATH_MAX * 2], aside[PATH_MAX * 2 + 8];

	if (race_at == NULL || strcmp(walked, race_at) != 0)
		return;
	snprintf(path, sizeof path, "%s%s", root, race_at);
	snprintf(aside, sizeof aside, "%s.old", path);
	if (rename(path, aside) != 0 || symlink(race_to, path) != 0) {
		perror(path);
		exit(99);
	}
	race_swaps++;
	race_at = NULL;
}

/* Arms the hook: at walked, swap in a link to outside's rel. */
static void
race_arm(const char *walked, const char *rel)
{
	race_at = walked;
	race_swaps = 0;
	snprintf(race_to, sizeof race_to, "%s%s", outside, rel);
}

static void
mk(const char *rel, const char *content)
{
	char path[PATH_MAX * 2], *slash;
	FILE *fp;

	snprintf(path, sizeof path, "%s%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')) != NULL; slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if (content == NULL) {
		mkdir(path, 0755);
		return;
	}
	fp = fopen(path, "w");
	if (fp == NULL) {
		perror(path);
		exit(99);
	}
	fputs(content, fp);
	fclose(fp);
}

static void
ln(const char *target, const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof path, "%s%s", root, rel);
	if (symlink(target, path) != 0) {
		perror(path);
		exit(99);
	}
}

static char *
rp(struct sysroot *sr, const char *path, int *rc)
{
	char *out = NULL;

	*rc = sysroot_realpath(sr, path, &out);
	return out;
}

/* Lists path and returns the error, as user 65534 when running as root
 * (root reads every directory whatever its mode; CI runs as root). */
static int
list_unprivileged(struct sysroot *sr, const char *path)
{
	struct strv names = STRV_INIT;
	int status, rc;
	pid_t pid;

	if (geteuid() != 0) {
		rc = sysroot_list_dir(sr, path, &names);
		strv_free(&names);
		return rc;
	}
	chmod(root, 0755);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(100);
		rc = sysroot_list_dir(sr, path, &names);
		_exit(rc > 0 && rc < 100 ? rc : 101);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int
main(void)
{
	struct sysroot *sr;
	struct strv names = STRV_INIT;
	struct stat st;
	char *err, *s, *data = NULL, hostpath[PATH_MAX * 2];
	const char *tmp = getenv("FX_TMP");
	size_t len = 0;
	FILE *fp;
	int rc, fd;

	snprintf(root, sizeof root, "%s/sysroot-test.XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		return 99;
	}
	mk("/usr/local/cuda-12.4/lib64/libcudart.so.12", "x");
	mk("/etc/hostname", "fixture\n");
	mk("/opt", NULL);
	ln("/usr/local/cuda-12.4", "/usr/local/cuda");
	ln("cuda-12.4/lib64", "/usr/local/rel");
	ln("../../../../../../../etc", "/opt/up");
	ln("/", "/opt/rootlink");
	ln("/opt/loop2", "/opt/loop1");
	ln("/opt/loop1", "/opt/loop2");
	ln("/nowhere", "/opt/dangling");
	ln(".", "/usr/local/here");

	sr = sysroot_new(root, &err);
	ok(sr != NULL, "opens a directory root");
	ok(!sysroot_is_host(sr), "a directory root is not the host");

	s = rp(sr, "/usr/local/cuda/lib64", &rc);
	is_str(s, "/usr/local/cuda-12.4/lib64", "an absolute link resolves inside the root");
	free(s);
	s = rp(sr, "/usr/local/rel/libcudart.so.12", &rc);
	is_str(s, "/usr/local/cuda-12.4/lib64/libcudart.so.12", "a relative link resolves");
	free(s);
	s = rp(sr, "/opt/up/hostname", &rc);
	is_str(s, "/etc/hostname", "\"..\" never climbs above the root");
	free(s);
	s = rp(sr, "/opt/rootlink/etc/hostname", &rc);
	is_str(s, "/etc/hostname", "a link to / means the root");
	free(s);
	s = rp(sr, "/usr/local/cuda/lib64/../lib64/./libcudart.so.12", &rc);
	is_str(s, "/usr/local/cuda-12.4/lib64/libcudart.so.12",
	    "\"..\" goes back to the directory the link led to");
	free(s);
	s = rp(sr, "/usr/local/cuda/lib64/..", &rc);
	is_str(s, "/usr/local/cuda-12.4", "a path may end in \"..\"");
	free(s);
	{
		struct stat want;

		snprintf(hostpath, sizeof hostpath, "%s/usr/local", root);
		ok(stat(hostpath, &want) == 0 &&
		    sysroot_stat(sr, "/usr/local/here", &st) == 0 &&
		    st.st_ino == want.st_ino,
		    "stat of a link to \".\" is its directory, not the link");
	}
	s = rp(sr, "/opt/loop1", &rc);
	ok(s == NULL && rc == ELOOP, "a symlink loop is ELOOP");
	s = rp(sr, "/opt/dangling", &rc);
	ok(s == NULL && rc == ENOENT, "a dangling link is ENOENT");
	ok(sysroot_lstat(sr, "/opt/dangling", &st) == 0 && S_ISLNK(st.st_mode),
	    "lstat sees the dangling link itself");
	ok(sysroot_readlink(sr, "/usr/local/cuda", &s) == 0 &&
	    strcmp(s, "/usr/local/cuda-12.4") == 0, "readlink gives the raw target");
	free(s);
	ok(sysroot_stat(sr, "/usr/local/cuda/lib64/libcudart.so.12", &st) == 0 &&
	    S_ISREG(st.st_mode), "stat follows links inside the root");
	ok(sysroot_is_dir(sr, "/usr/local/cuda"), "is_dir through a link");
	ok(!sysroot_exists(sr, "/etc/passwd"), "the host's /etc/passwd is not seen");

	rc = sysroot_read_file(sr, "/etc/hostname", 64, &data, &len);
	ok(rc == 0 && len == 8 && strcmp(data, "fixture\n") == 0, "reads a small file");
	free(data);
	rc = sysroot_read_file(sr, "/etc/hostname", 4, &data, &len);
	is_int(rc, SYSROOT_ETOOBIG, "a file over the cap is refused");
	rc = sysroot_read_tail(sr, "/etc/hostname", 64, &data, &len);
	ok(rc == 0 && len == 8 && strcmp(data, "fixture\n") == 0,
	    "read_tail: a file under the cap whole");
	free(data);
	rc = sysroot_read_tail(sr, "/etc/hostname", 4, &data, &len);
	ok(rc == 0 && len == 0 && data[0] == '\0',
	    "read_tail: a cut first line is dropped, not half read");
	free(data);

	/* A 2 GB sparse file costs no disk and must not be read. */
	snprintf(hostpath, sizeof hostpath, "%s/opt/big.json", root);
	fd = open(hostpath, O_WRONLY | O_CREAT, 0644);
	ok(fd >= 0 && ftruncate(fd, 2LL * 1024 * 1024 * 1024) == 0, "made a 2 GB sparse file");
	if (fd >= 0)
		close(fd);
	rc = sysroot_read_file(sr, "/opt/big.json", 1 << 20, &data, &len);
	is_int(rc, SYSROOT_ETOOBIG, "the 2 GB file is refused by size");

	snprintf(hostpath, sizeof hostpath, "%s/opt/fifo", root);
	ok(mkfifo(hostpath, 0644) == 0, "made a FIFO");
	rc = sysroot_read_file(sr, "/opt/fifo", 1024, &data, &len);
	is_int(rc, SYSROOT_ENOTREG, "a FIFO is refused without blocking");
	rc = sysroot_read_file(sr, "/opt", 1024, &data, &len);
	is_int(rc, SYSROOT_ENOTREG, "a directory is not a file");

	rc = sysroot_list_dir(sr, "/opt", &names);
	ok(rc == 0 && names.n == 7, "lists a directory (got %zu names)", names.n);
	ok(names.n > 0 && strcmp(names.v[0], "big.json") == 0, "listing is sorted");
	strv_free(&names);
	rc = sysroot_list_dir(sr, "/opt/loop1", &names);
	is_int(rc, ELOOP, "listing through a loop is ELOOP");

	snprintf(hostpath, sizeof hostpath, "%s/opt/secret", root);
	mkdir(hostpath, 0);
	is_int(list_unprivileged(sr, "/opt/secret"), EACCES,
	    "an unreadable directory is EACCES");
	chmod(hostpath, 0755);

	/* Kept listings are found by the canonical path: another way to
	 * the same directory gets the first answer, even after a change. */
	sysroot_keep_listings(sr);
	rc = sysroot_list_dir(sr, "/usr/local/cuda/lib64", &names);
	ok(rc == 0 && names.n == 1, "a kept listing (got %zu names)", names.n);
	strv_free(&names);
	mk("/usr/local/cuda-12.4/lib64/libnew.so", "x");
	rc = sysroot_list_dir(sr, "/usr/local/cuda-12.4/lib64/", &names);
	ok(rc == 0 && names.n == 1,
	    "the same directory by another path is the kept answer (got %zu names)",
	    names.n);
	strv_free(&names);
	rc = sysroot_list_dir(sr, "/opt/loop1", &names);
	is_int(rc, ELOOP, "a path that cannot be walked is an error, kept or not");

	/* Issue 16: a tree changed while it is read. Each case swaps a
	 * checked name for a link out of the root before the walk uses it;
	 * what is read must be what was checked, or an error, and never the
	 * secret beside the root. */
	snprintf(outside, sizeof outside, "%s-outside", root);
	ok(mkdir(outside, 0755) == 0, "made a directory outside the root");
	snprintf(hostpath, sizeof hostpath, "%s/secret", outside);
	ok((fp = fopen(hostpath, "w")) != NULL && fputs("SECRET, outside the root\n", fp) >= 0 &&
	    fclose(fp) == 0, "put a secret outside the root");
	mk("/race/d/secret", "inside\n");
	mk("/race/e/secret", "inside\n");
	mk("/race/l/inside-only", "inside\n");
	mk("/race/s/secret", "inside\n");
	sysroot_walk_hook = race_hook;

	race_arm("/race/d", "");
	data = NULL;
	rc = sysroot_read_file(sr, "/race/d/secret", 1024, &data, &len);
	is_int(race_swaps, 1, "the directory was swapped for a link out of the root");
	ok(rc != 0 || strstr(data, "SECRET") == NULL,
	    "a directory swapped for a link mid-walk does not lead out of the root");
	ok(rc == 0 && strcmp(data, "inside\n") == 0,
	    "the file read is the one in the directory checked");
	free(data);

	race_arm("/race/e/secret", "/secret");
	data = NULL;
	rc = sysroot_read_file(sr, "/race/e/secret", 1024, &data, &len);
	is_int(race_swaps, 1, "the file was swapped for a link out of the root");
	ok(rc != 0 || strstr(data, "SECRET") == NULL,
	    "a file swapped for a link before the open is not followed out");
	is_int(rc, SYSROOT_ECHANGED, "and the swap is an error saying so");
	if (rc == 0)
		free(data);

	race_arm("/race/l", "");
	rc = sysroot_list_dir(sr, "/race/l", &names);
	is_int(race_swaps, 1, "the listed directory was swapped for a link");
	ok(!strv_contains(&names, "secret"),
	    "a listing never shows the directory outside the root");
	ok(rc != 0 || strv_contains(&names, "inside-only"),
	    "it is the directory checked, or an error");
	strv_free(&names);

	race_arm("/race/s", "");
	rc = sysroot_stat(sr, "/race/s/secret", &st);
	is_int(race_swaps, 1, "the directory stat walks was swapped");
	ok(rc != 0 || st.st_size == (off_t)strlen("inside\n"),
	    "stat describes the file inside the root");
	sysroot_walk_hook = NULL;

	sysroot_free(sr);
	sr = sysroot_new(NULL, &err);
	ok(sr != NULL && sysroot_is_host(sr) && strcmp(sysroot_dir(sr), "/") == 0,
	    "NULL gives the host");
	sysroot_free(sr);
	sr = sysroot_new("/nonexistent/root", &err);
	ok(sr == NULL && err != NULL && strstr(err, "/nonexistent/root") != NULL,
	    "a missing root is an error naming it");
	free(err);

	snprintf(hostpath, sizeof hostpath, "rm -rf '%s'", root);
	if (system(hostpath) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	snprintf(hostpath, sizeof hostpath, "rm -rf '%s'", outside);
	if (system(hostpath) != 0)
		fprintf(stderr, "could not remove %s\n", outside);
	return done_testing();
}
