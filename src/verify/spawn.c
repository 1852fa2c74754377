/* Running the helper once: a child process in its own process group, its
 * stdout read as records, its stderr kept for evidence, killed when the
 * timeout passes. Whatever the vendor library does in there (crash, hang,
 * exit, print), this side only ever sees a process that ended. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "util/monoclock.h"
#include "util/runcap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "verify/verify.h"

/* More than this on stdout is not the protocol (a run writes a few KB). */
#define STDOUT_CAP	(8u * 1024 * 1024)
/* The end of stderr is where a library says why it stopped. */
#define STDERR_KEEP	4096
#define GARBAGE_SAMPLE	200

static void
take_line(struct verify_run *run, const char *line, size_t len, bool *ended)
{
	struct verify_record rec;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return;
	if (!verify_parse_line(line, len, &rec)) {
		if (run->garbage_lines++ == 0)
			run->garbage_sample = xstrndup(line,
			    len < GARBAGE_SAMPLE ? len : GARBAGE_SAMPLE);
		return;
	}
	if (strcmp(rec.check, "step") == 0) {
		const char *name = verify_str(&rec, "name");

		FREE(&run->last_step);
		run->last_step = name != NULL ? xstrdup(name) : NULL;
		run->last_step_device = rec.device;
		verify_record_free(&rec);
		return;
	}
	if (strcmp(rec.check, "end") == 0)
		*ended = true;
	*(struct verify_record *)VEC_PUSH(&run->records) = rec;
}

static void
take_lines(struct verify_run *run, const struct strbuf *out, bool *ended)
{
	size_t start = 0;

	for (size_t i = 0; i < out->len; i++) {
		if (out->buf[i] != '\n')
			continue;
		take_line(run, out->buf + start, i - start, ended);
		start = i + 1;
	}
	/* A last line without its newline: the helper died mid-write. */
	if (start < out->len)
		take_line(run, out->buf + start, out->len - start, ended);
}

void
verify_exec(struct verify_run *run, const char *helper, char *const *env,
    double timeout_s)
{
	struct runcap rc;
	double t0;
	char **argv, *err = NULL;
	bool ended = false;
	int status;

	argv = xreallocarray(NULL, run->argv.n + 2, sizeof *argv);
	argv[0] = (char *)helper;
	for (size_t i = 0; i < run->argv.n; i++)
		argv[i + 1] = run->argv.v[i];
	argv[run->argv.n + 1] = NULL;
	t0 = mono_ms();
	if (runcap(helper, argv, env, timeout_s, STDOUT_CAP, &rc, &err) != 0) {
		run->outcome = VERIFY_NOT_STARTED;
		run->start_error = err;
		runcap_free(&rc);
		free(argv);
		return;
	}
	run->ms = mono_ms() - t0;
	status = rc.status;
	take_lines(run, &rc.out, &ended);
	if (rc.err.len > 0)
		run->stderr_tail = xstrdup(rc.err.len > STDERR_KEEP ?
		    rc.err.buf + rc.err.len - STDERR_KEEP : rc.err.buf);
	if (rc.aborted) {
		/* Stopped by the user's interrupt (runcap_abort), not by
		 * the library: reported as that signal. */
		run->outcome = VERIFY_SIGNALLED;
		run->signal = SIGINT;
	} else if (rc.truncated) {
		/* More than the protocol ever writes: not the protocol. */
		run->outcome = VERIFY_GARBLED;
		run->garbage_lines++;
	} else if (rc.timed_out) {
		run->outcome = VERIFY_TIMED_OUT;
	} else if (WIFSIGNALED(status)) {
		run->outcome = VERIFY_SIGNALLED;
		run->signal = WTERMSIG(status);
	} else if (run->records.n == 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 2) {
		/* Its usage error, before any library: a helper of another
		 * version than this cudawiz. */
		run->outcome = VERIFY_NOT_STARTED;
		run->start_error = xasprintf("%s %s", helper,
		    "rejected its command line (exit status 2)");
	} else if (!ended || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		run->outcome = VERIFY_EXITED;
		run->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	} else if (run->garbage_lines > 0) {
		run->outcome = VERIFY_GARBLED;
	} else {
		run->outcome = VERIFY_DONE;
	}
	runcap_free(&rc);
	free(argv);
}
