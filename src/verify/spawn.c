/* Running the helper once: a child process in its own process group, its
 * stdout read as records, its stderr kept for evidence, killed when the
 * timeout passes. Whatever the vendor library does in there (crash, hang,
 * exit, print), this side only ever sees a process that ended. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xalloc.h"
#include "verify/verify.h"

/* More than this on stdout is not the protocol (a run writes a few KB). */
#define STDOUT_CAP	(8u * 1024 * 1024)
/* The end of stderr is where a library says why it stopped. */
#define STDERR_KEEP	4096
#define GARBAGE_SAMPLE	200

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* Keeps the last STDERR_KEEP bytes. */
static void
keep_tail(struct strbuf *sb, const char *buf, size_t n)
{
	strbuf_add(sb, buf, n);
	if (sb->len > 2 * STDERR_KEEP) {
		memmove(sb->buf, sb->buf + sb->len - STDERR_KEEP, STDERR_KEEP);
		sb->len = STDERR_KEEP;
		sb->buf[sb->len] = '\0';
	}
}

static _Noreturn void
child(const char *helper, char *const *argv, char *const *env, int out,
    int err, int report)
{
	int null = open("/dev/null", O_RDONLY);
	int e;

	setpgid(0, 0);
	if (null >= 0 && null != STDIN_FILENO)
		dup2(null, STDIN_FILENO);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	execve(helper, argv, env);
	e = errno;
	if (write(report, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

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
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, rep[2] = { -1, -1 };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char **argv;
	double start = now_ms(), deadline = start + timeout_s * 1000.0;
	bool timed_out = false, ended = false, open_out = true, open_err = true;
	bool flooded = false;
	int status = 0, exec_errno = 0;
	pid_t pid;

	argv = xreallocarray(NULL, run->argv.n + 2, sizeof *argv);
	argv[0] = (char *)helper;
	for (size_t i = 0; i < run->argv.n; i++)
		argv[i + 1] = run->argv.v[i];
	argv[run->argv.n + 1] = NULL;
	if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
	    pipe2(rep, O_CLOEXEC) != 0) {
		run->outcome = VERIFY_NOT_STARTED;
		run->start_error = xasprintf("pipe: %s", strerror(errno));
		goto close;
	}
	pid = fork();
	if (pid < 0) {
		run->outcome = VERIFY_NOT_STARTED;
		run->start_error = xasprintf("fork: %s", strerror(errno));
		goto close;
	}
	if (pid == 0)
		child(helper, argv, env, outp[1], errp[1], rep[1]);
	/* Both sides set the group, so a kill cannot race the child's own
	 * setpgid. */
	setpgid(pid, pid);
	close(outp[1]);
	close(errp[1]);
	close(rep[1]);
	outp[1] = errp[1] = rep[1] = -1;
	if (read(rep[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno)
		exec_errno = 0;
	while (open_out || open_err) {
		struct pollfd pfd[2];
		nfds_t n = 0;
		double left = deadline - now_ms();
		char buf[16384];

		if (left <= 0) {
			timed_out = true;
			break;
		}
		if (open_out)
			pfd[n++] = (struct pollfd){ .fd = outp[0], .events = POLLIN };
		if (open_err)
			pfd[n++] = (struct pollfd){ .fd = errp[0], .events = POLLIN };
		if (poll(pfd, n, left > 1e6 ? 1000000 : (int)left + 1) < 0) {
			if (errno == EINTR)
				continue;
			timed_out = true;
			break;
		}
		for (nfds_t i = 0; i < n; i++) {
			ssize_t got;

			if (pfd[i].revents == 0)
				continue;
			got = read(pfd[i].fd, buf, sizeof buf);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (pfd[i].fd == outp[0]) {
				if (got <= 0)
					open_out = false;
				else if (out.len + (size_t)got > STDOUT_CAP) {
					/* Not the protocol: stop it here. */
					flooded = true;
					open_out = false;
					kill(-pid, SIGKILL);
				} else
					strbuf_add(&out, buf, (size_t)got);
			} else {
				if (got <= 0)
					open_err = false;
				else
					keep_tail(&err, buf, (size_t)got);
			}
		}
	}
	if (timed_out)
		kill(-pid, SIGKILL);
	/* The pipes are closed, but a process may live on without them. */
	for (;;) {
		pid_t w = waitpid(pid, &status, timed_out ? 0 : WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (w == 0 && now_ms() > deadline) {
			timed_out = true;
			kill(-pid, SIGKILL);
		} else if (w == 0)
			usleep(1000);
	}
	run->ms = now_ms() - start;
	take_lines(run, &out, &ended);
	if (err.len > 0)
		run->stderr_tail = xstrdup(err.len > STDERR_KEEP ?
		    err.buf + err.len - STDERR_KEEP : err.buf);
	if (exec_errno != 0) {
		run->outcome = VERIFY_NOT_STARTED;
		run->start_error = xasprintf("%s: %s", helper, strerror(exec_errno));
	} else if (flooded) {
		run->outcome = VERIFY_GARBLED;
		run->garbage_lines++;
	} else if (timed_out) {
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
close:
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (rep[i] >= 0)
			close(rep[i]);
	}
	strbuf_free(&out);
	strbuf_free(&err);
	free(argv);
}
