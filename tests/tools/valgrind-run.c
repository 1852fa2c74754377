/* cudawiz-valgrind (and cudawiz-verify-valgrind, the helper's): cudawiz
 * under valgrind memcheck, for `make check-valgrind` (tests/gates.mk).
 * The CLI tests reach cudawiz through $CUDAWIZ and the gate points it
 * here; this program replaces itself with valgrind running the real
 * binary, with the same arguments and the same environment.
 *
 * A program, not a shell script, because a shell rewrites PWD to the real
 * working directory when it starts, and tests set PWD to a directory
 * inside a --root tree on purpose. Every path is compiled in (VG_PROGRAM,
 * VG_BIN, VG_SUPP, VG_LOGDIR, VG_EXITCODE) because tests run cudawiz
 * under `env -i` and as user 65534, where no variable and no PATH lookup
 * survive. One log per process: %p, after the wrapper's start time,
 * since pids come round again in a long run and a log left by an earlier
 * process (perhaps another user's, which user 65534 cannot replace)
 * would otherwise be overwritten or stop valgrind from starting at all.
 * tests/lib/valgrind-report.sh judges
 * them afterwards, since a test that expects cudawiz to fail passes
 * whatever non-zero status it gets, --error-exitcode included.
 *
 * Sampling (issue 21, CI time): when VG_LOGDIR/sample holds "FIRST
 * EVERY", the n-th process (from 0) of one test with one command word
 * runs under memcheck only when n < FIRST or n % EVERY == 0; the others
 * exec the real binary unwatched. The test is the nearest ancestor
 * running a tests/cli/ script (found through /proc, since tests run
 * cudawiz under env -i), the command word cudawiz's first lower-case
 * argument; the count lives in a locked file per (test, word) in
 * VG_LOGDIR, so it is the same whatever the order of concurrent runs.
 * No sample file, or anything unreadable, means every process is
 * watched. tests/gates.mk says why ASan + UBSan still covers the rest. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(VG_PROGRAM) || !defined(VG_BIN) || !defined(VG_SUPP) || \
    !defined(VG_LOGDIR) || !defined(VG_EXITCODE)
#error "build through tests/gates.mk, which defines the VG_ paths"
#endif

static const char *const vg_args[] = {
	VG_PROGRAM,
	"--tool=memcheck",
	"--error-exitcode=" VG_EXITCODE,
	"--leak-check=full",
	"--errors-for-leak-kinds=definite",
	"--show-leak-kinds=definite",
	"--track-fds=no",
	"--num-callers=30",
	/* An eighth less CPU a run; a trace then names the function an
	 * inlined call landed in instead of the inlined one. */
	"--read-inline-info=no",
	/* elfobj's SIGBUS guard maps zeros over a page of a file cut short
	 * and retries the read; by default valgrind keeps only SP and PC
	 * exact at a memory access, so the retried read ran with a stale
	 * base register and faulted at address 0 (SIGSEGV). No cost seen:
	 * doctor 2.25 s without, 2.02 s with. */
	"--vex-iropt-register-updates=allregs-at-mem-access",
	"--suppressions=" VG_SUPP,
	NULL,	/* --log-file=, made by main() */
	VG_BIN,
};
#define LOG_ARG	(sizeof vg_args / sizeof vg_args[0] - 2)

/* Copies the part of NAME that is [A-Za-z0-9._-] into OUT (at most
 * SIZE - 1 bytes), so that it can be a file name. */
static void
safe_name(const char *name, char *out, size_t size)
{
	size_t j = 0;

	for (; *name != '\0' && j + 1 < size; name++)
		if (isalnum((unsigned char)*name) || *name == '.' ||
		    *name == '_' || *name == '-')
			out[j++] = *name;
	out[j] = '\0';
}

/* /proc/PID/WHAT into buf, NUL-terminated: its length, or -1. */
static long
read_proc(long pid, const char *what, char *buf, size_t size)
{
	char path[64];
	size_t len;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/%s", pid, what);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	len = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[len] = '\0';
	return (long)len;
}

/* In OUT, the name of the tests/cli/ script that is this process's
 * nearest ancestor running one (an argument that is that path alone:
 * make's TESTS="..." argument, further up, names them all); "-" when
 * there is none (cudawiz run by hand). */
static void
test_name(char *out, size_t size)
{
	long pid = (long)getppid();

	snprintf(out, size, "-");
	for (int depth = 0; pid > 1 && depth < 64; depth++) {
		char buf[4096];
		long len, ppid = 0;
		const char *rp;

		if ((len = read_proc(pid, "cmdline", buf, sizeof buf)) < 0)
			return;
		for (long i = 0; i < len; i += (long)strlen(buf + i) + 1) {
			const char *a = buf + i, *cli = strstr(a, "tests/cli/");
			size_t n = strlen(a);

			if (cli != NULL && n > 3 && strcmp(a + n - 3, ".sh") == 0 &&
			    strpbrk(a, " =") == NULL) {
				safe_name(cli + 10, out, size);
				return;
			}
		}
		/* comm may hold spaces and parentheses: ppid follows the last ')'. */
		if (read_proc(pid, "stat", buf, sizeof buf) < 0)
			return;
		rp = strrchr(buf, ')');
		if (rp == NULL || sscanf(rp + 1, " %*c %ld", &ppid) != 1)
			return;
		pid = ppid;
	}
}

/* Whether this process runs under memcheck (see the sampling rule above). */
static int
watched(int argc, char **argv)
{
	char path[sizeof VG_LOGDIR + 256], test[96], word[32] = "-", buf[32];
	unsigned long first, every, n = 0;
	FILE *f;
	int fd;
	ssize_t got;

	if ((f = fopen(VG_LOGDIR "/sample", "r")) == NULL)
		return 1;
	if (fscanf(f, "%lu %lu", &first, &every) != 2 || every == 0) {
		fclose(f);
		return 1;
	}
	fclose(f);
	for (int i = 1; i < argc; i++)
		if (islower((unsigned char)argv[i][0]) &&
		    strspn(argv[i], "abcdefghijklmnopqrstuvwxyz-") ==
		    strlen(argv[i])) {
			safe_name(argv[i], word, sizeof word);
			break;
		}
	test_name(test, sizeof test);
	/* No test script above it (a tmux pane's wizard: its parent is the
	 * tmux server): one counter would be shared by every such test, and
	 * which run is watched would hang on the order concurrent tests
	 * reach it. All are watched, as before sampling. */
	if (strcmp(test, "-") == 0)
		return 1;
	snprintf(path, sizeof path, "%s/sample.%s.%s.count", VG_LOGDIR, test,
	    word);
	/* 0666: some tests run cudawiz as user 65534 (the directory is
	 * sticky, which stops removal, not writing). */
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0)
		return 1;
	(void)fchmod(fd, 0666);
	if (flock(fd, LOCK_EX) != 0) {
		close(fd);
		return 1;
	}
	got = read(fd, buf, sizeof buf - 1);
	if (got > 0) {
		buf[got] = '\0';
		n = strtoul(buf, NULL, 10);
	}
	snprintf(buf, sizeof buf, "%lu\n", n + 1);
	if (lseek(fd, 0, SEEK_SET) != 0 ||
	    write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf)) {
		close(fd);
		return 1;
	}
	close(fd);
	return n < first || n % every == 0;
}

int
main(int argc, char **argv)
{
	size_t n = sizeof vg_args / sizeof vg_args[0];
	char **args;
	char log[sizeof VG_LOGDIR + 80];
	struct timespec ts;

	if (argc < 1)
		return 127;
	if (!watched(argc, argv)) {
		argv[0] = (char *)VG_BIN;	/* as valgrind would pass it */
		execv(VG_BIN, argv);
		fprintf(stderr, "cudawiz-valgrind: %s: %s\n", VG_BIN,
		    strerror(errno));
		return 127;
	}
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
		perror("cudawiz-valgrind: clock_gettime");
		return 127;
	}
	/* valgrind fills in %p, the child's own pid after a fork. */
	snprintf(log, sizeof log, "--log-file=%s/vg.%lld%09ld.%%p.log",
	    VG_LOGDIR, (long long)ts.tv_sec, (long)ts.tv_nsec);
	args = calloc(n + (size_t)argc, sizeof *args);
	if (args == NULL) {
		perror("cudawiz-valgrind");
		return 127;
	}
	for (size_t i = 0; i < n; i++)
		args[i] = (char *)vg_args[i];
	args[LOG_ARG] = log;
	for (int i = 1; i < argc; i++)
		args[n + (size_t)i - 1] = argv[i];
	args[n + (size_t)argc - 1] = NULL;
	execv(VG_PROGRAM, args);
	fprintf(stderr, "cudawiz-valgrind: %s: %s\n", VG_PROGRAM,
	    strerror(errno));
	return 127;
}
