/* See runcap.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/monoclock.h"
#include "util/runcap.h"
#include "util/xalloc.h"

#define ERR_KEEP	4096

/* Set from a signal handler: the one piece of state runcap keeps. */
static volatile sig_atomic_t abort_requested;

void
runcap_abort(void)
{
	abort_requested = 1;
}

void
runcap_abort_clear(void)
{
	abort_requested = 0;
}

static _Noreturn void
start(const char *path, char *const *argv, char *const *env, int out, int err,
    int report, pid_t parent)
{
	int null = open("/dev/null", O_RDONLY);
	int e;

	setpgid(0, 0);
	/* Its own process group keeps a terminal's signals from it, so a
	 * cudawiz ended by one (SIGTERM, a wizard's Ctrl-C) would leave a
	 * hanging vendor library running with nobody to time it out. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);	/* it died before the line above */
	if (null >= 0 && null != STDIN_FILENO)
		dup2(null, STDIN_FILENO);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	execve(path, argv, env);
	/* The parent learns why through the report pipe, not a status. */
	e = errno;
	if (write(report, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

static void
keep_err(struct strbuf *sb, const char *buf, size_t n)
{
	strbuf_add(sb, buf, n);
	if (sb->len > 2 * ERR_KEEP) {
		memmove(sb->buf, sb->buf + sb->len - ERR_KEEP, ERR_KEEP);
		sb->len = ERR_KEEP;
		sb->buf[sb->len] = '\0';
	}
}

/* Reads both pipes until they close, the output grows past cap or the
 * deadline passes. */
static void
drain(int outfd, int errfd, double deadline, size_t cap, struct runcap *rc,
    pid_t pid)
{
	bool open_out = true, open_err = true;

	while (open_out || open_err) {
		struct pollfd pfd[2];
		nfds_t n = 0;
		double left = deadline - mono_ms();
		char buf[16384];

		if (abort_requested) {
			rc->aborted = true;
			return;
		}
		if (left <= 0) {
			rc->timed_out = true;
			return;
		}
		if (open_out)
			pfd[n++] = (struct pollfd){ .fd = outfd, .events = POLLIN };
		if (open_err)
			pfd[n++] = (struct pollfd){ .fd = errfd, .events = POLLIN };
		if (poll(pfd, n, left > 1e6 ? 1000000 : (int)left + 1) < 0) {
			if (errno == EINTR)
				continue;
			rc->timed_out = true;
			return;
		}
		for (nfds_t i = 0; i < n; i++) {
			ssize_t got;

			if (pfd[i].revents == 0)
				continue;
			got = read(pfd[i].fd, buf, sizeof buf);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (pfd[i].fd == errfd) {
				if (got <= 0)
					open_err = false;
				else
					keep_err(&rc->err, buf, (size_t)got);
			} else if (got <= 0) {
				open_out = false;
			} else if (rc->out.len + (size_t)got > cap) {
				rc->truncated = true;
				kill(-pid, SIGKILL);
				return;
			} else {
				strbuf_add(&rc->out, buf, (size_t)got);
			}
		}
	}
}

int
runcap(const char *path, char *const *argv, char *const *env, double timeout_s,
    size_t out_cap, struct runcap *rc, char **err)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, rep[2] = { -1, -1 };
	double deadline = mono_ms() + timeout_s * 1000.0;
	int exec_errno = 0, ret = -1;
	pid_t pid, parent;

	memset(rc, 0, sizeof *rc);
	if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
	    pipe2(rep, O_CLOEXEC) != 0) {
		*err = xasprintf("pipe: %s", strerror(errno));
		goto close;
	}
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		*err = xasprintf("fork: %s", strerror(errno));
		goto close;
	}
	if (pid == 0)
		start(path, argv, env, outp[1], errp[1], rep[1], parent);
	/* Both sides set the group, so a kill cannot race the child's own
	 * setpgid. */
	setpgid(pid, pid);
	close(outp[1]);
	close(errp[1]);
	close(rep[1]);
	outp[1] = errp[1] = rep[1] = -1;
	if (read(rep[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno)
		exec_errno = 0;
	drain(outp[0], errp[0], deadline, out_cap, rc, pid);
	if (rc->timed_out || rc->aborted)
		kill(-pid, SIGKILL);
	for (;;) {
		pid_t w = waitpid(pid, &rc->status,
		    rc->timed_out || rc->aborted ? 0 : WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (w == 0 && mono_ms() > deadline) {
			/* The pipes closed but the process lives on. */
			rc->timed_out = true;
			kill(-pid, SIGKILL);
		} else if (w == 0) {
			usleep(1000);
		}
	}
	if (exec_errno != 0) {
		*err = xasprintf("%s: %s", path, strerror(exec_errno));
		goto close;
	}
	ret = 0;
close:
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (rep[i] >= 0)
			close(rep[i]);
	}
	return ret;
}

void
runcap_free(struct runcap *rc)
{
	strbuf_free(&rc->out);
	strbuf_free(&rc->err);
}
