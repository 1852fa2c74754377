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
 * whatever non-zero status it gets, --error-exitcode included. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

int
main(int argc, char **argv)
{
	size_t n = sizeof vg_args / sizeof vg_args[0];
	char **args;
	char log[sizeof VG_LOGDIR + 80];
	struct timespec ts;

	if (argc < 1)
		return 127;
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
