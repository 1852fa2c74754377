/* See runcap.h. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/monoclock.h"
#include "util/runcap.h"
#include "util/xalloc.h"

#define ERR_KEEP	4096
/* After the child's end, what is still in its pipes is read without
 * waiting. Everything that could write is dead by then, so the pipes
 * empty; the bound only ends the loop should something outside the tree
 * hold a write end (a descriptor passed over a socket). */
#define AFTER_CAP	(16u << 20)
/* Without a pidfd the loop looks for the child's exit this often while
 * its pipes are quiet (a grandchild may hold them open). */
#define TICK_MS		10
/* Rounds of killing what became our child: each round reaches one level
 * deeper into a tree of orphans; the bound ends the loop against a tree
 * that grows faster than it dies. */
#define SWEEP_ROUNDS	10000
/* The closing loop's end when the limit is unlimited or huge. */
#define FD_LOOP_MAX	(1 << 20)

/* The signals that end cudawiz by default; while a child runs they end it
 * only after the child and everything it started are gone. */
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSTOP	(sizeof stop_sigs / sizeof stop_sigs[0])

/* Set from signal handlers: runcap's only state between calls. */
static volatile sig_atomic_t abort_requested;
static volatile sig_atomic_t stop_sig;

struct guard {
	struct sigaction old[NSTOP];
	bool mine[NSTOP];
	struct sigaction old_chld;
	int reaper;	/* PR_GET_CHILD_SUBREAPER's, put back after */
};

struct watch {
	pid_t pid;
	int pidfd;	/* -1: none, the loop ticks */
	int out, err;	/* -1 once at EOF */
	bool exited;
	size_t cap;
	struct runcap *rc;
};

struct spawn {
	const char *path;
	char *const *argv, *const *env;
	int out, err, report;
	pid_t parent;
};

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

/* ------------------------------------------------------------ the child */

static _Noreturn void
start_failed(int report)
{
	int e = errno;

	/* The parent learns why through the report pipe, not a status. */
	if (write(report, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* FD moved to 3 or above, so the dup2s onto 0..2 cannot overwrite it
 * (a cudawiz started with a standard descriptor closed gets its pipes
 * there). */
static int
above_std(int fd)
{
	return fd >= 3 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

/* Every descriptor from LOW up is closed: a vendor library or a sourced
 * script gets no handle on anything cudawiz has open. */
static void
close_from(int low)
{
	struct rlimit rl;
	long max;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)low, ~0U, 0) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		max = (long)rl.rlim_cur;
	else
		max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > FD_LOOP_MAX)
		max = FD_LOOP_MAX;
	for (int fd = low; fd < max; fd++)
		close(fd);
}

static _Noreturn void
start(const struct spawn *s)
{
	int null, out, err, rep;

	setpgid(0, 0);
	/* Its own process group keeps a terminal's signals from it, so a
	 * cudawiz ended by one (SIGTERM, a wizard's Ctrl-C) would leave a
	 * hanging vendor library running with nobody to time it out. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != s->parent)
		_exit(127);	/* it died before the line above */
	if ((rep = above_std(s->report)) < 0)
		start_failed(s->report);
	if ((null = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0 ||
	    (null = above_std(null)) < 0 || (out = above_std(s->out)) < 0 ||
	    (err = above_std(s->err)) < 0)
		start_failed(rep);
	if (dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(err, STDERR_FILENO) < 0)
		start_failed(rep);
	/* The report pipe is the one descriptor above 2 left, and it closes
	 * on exec. */
	if (rep != 3 && dup3(rep, 3, O_CLOEXEC) < 0)
		start_failed(rep);
	close_from(4);
	execve(s->path, s->argv, s->env);
	start_failed(3);
}

/* ------------------------------------------------------ signals, reaping */

static void
on_stop(int sig)
{
	stop_sig = sig;
	abort_requested = 1;
}

/* For the run: cudawiz adopts every orphan its child leaves (even one
 * that called setsid()), sees its children's exits (a SIGCHLD ignored by
 * whoever started cudawiz would have the kernel reap them), and a signal
 * that would end cudawiz at once ends the run first. A handler someone
 * else installed (the wizard's) is left alone: it calls runcap_abort(). */
static void
guard_on(struct guard *g)
{
	struct sigaction sa;

	memset(g, 0, sizeof *g);
	if (prctl(PR_GET_CHILD_SUBREAPER, &g->reaper) != 0)
		g->reaper = 0;
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, &g->old_chld);
	stop_sig = 0;
	sa.sa_handler = on_stop;
	for (size_t i = 0; i < NSTOP; i++) {
		if (sigaction(stop_sigs[i], NULL, &g->old[i]) != 0 ||
		    g->old[i].sa_handler != SIG_DFL ||
		    (g->old[i].sa_flags & SA_SIGINFO) != 0)
			continue;
		g->mine[i] = sigaction(stop_sigs[i], &sa, NULL) == 0;
	}
}

/* Undoes guard_on(); a signal caught meanwhile now does what it would
 * have done (the process ends of it), nothing of the run left behind. */
static void
guard_off(struct guard *g)
{
	int sig = stop_sig;

	for (size_t i = 0; i < NSTOP; i++)
		if (g->mine[i])
			sigaction(stop_sigs[i], &g->old[i], NULL);
	sigaction(SIGCHLD, &g->old_chld, NULL);
	(void)prctl(PR_SET_CHILD_SUBREAPER, g->reaper);
	stop_sig = 0;
	if (sig != 0) {
		for (size_t i = 0; i < NSTOP; i++)
			if (stop_sigs[i] == sig && g->mine[i])
				raise(sig);
	}
}

/* Up to SIZE - 1 bytes of a /proc file, terminated; -1 with errno. */
static ssize_t
read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static void
push_pid(pid_t **v, size_t *n, long pid)
{
	if (pid <= 0)
		return;
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = (pid_t)pid;
}

/* Our children from /proc/self/task/TID/children; false when the kernel
 * has no such files (CONFIG_PROC_CHILDREN off). */
static bool
children_listed(pid_t **v, size_t *n)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	bool ok = d != NULL;

	while (ok && (de = readdir(d)) != NULL) {
		char path[320], buf[4096];
		char *p, *end;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/children",
		    de->d_name);
		/* A list longer than the buffer loses its tail this round;
		 * the next round finds the rest. */
		if (read_small(path, buf, sizeof buf) < 0) {
			ok = errno != ENOENT;
			continue;
		}
		for (p = buf;; p = end) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			push_pid(v, n, pid);
		}
	}
	if (d != NULL)
		closedir(d);
	return ok;
}

/* The same from every process's stat: the parent is the field after
 * the state, which follows the last ')' (a name may hold one). */
static void
children_scanned(pid_t **v, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t self = getpid();

	while (d != NULL && (de = readdir(d)) != NULL) {
		char path[320], buf[1024], *p;
		long ppid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		if (read_small(path, buf, sizeof buf) <= 0 ||
		    (p = strrchr(buf, ')')) == NULL)
			continue;
		if (sscanf(p + 1, " %*c %ld", &ppid) == 1 && ppid == self)
			push_pid(v, n, strtol(de->d_name, NULL, 10));
	}
	if (d != NULL)
		closedir(d);
}

/* Kills and reaps every child cudawiz has: after a run, each is a
 * descendant of the run's child re-parented to us (we are the subreaper),
 * since nothing else in cudawiz starts a process without waiting for it. A
 * killed process's orphans come to us before it can be reaped, so the
 * next round finds them. */
static void
sweep(void)
{
	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		pid_t *v = NULL;
		size_t n = 0;

		if (!children_listed(&v, &n)) {
			n = 0;
			children_scanned(&v, &n);
		}
		for (size_t i = 0; i < n; i++)
			kill(v[i], SIGKILL);
		for (size_t i = 0; i < n; i++)
			while (waitpid(v[i], NULL, 0) < 0 && errno == EINTR)
				;
		free(v);
		if (n == 0)
			return;
	}
}

/* ---------------------------------------------------------- the parent */

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

/* One read from *FD into the run: the bytes read, 0 at EOF (*FD closed
 * and -1), -1 when nothing was there. Past the cap the output is not what
 * was asked for: truncated, and the caller stops. */
static ssize_t
take(struct watch *w, int *fd)
{
	char buf[16384];
	ssize_t got = read(*fd, buf, sizeof buf);

	if (got < 0)
		return -1;
	if (got == 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	if (fd == &w->err) {
		keep_err(&w->rc->err, buf, (size_t)got);
	} else if (w->rc->out.len + (size_t)got > w->cap) {
		w->rc->truncated = true;
	} else {
		strbuf_add(&w->rc->out, buf, (size_t)got);
	}
	return got;
}

/* Whether the child has ended, left unreaped: its pid then stays its
 * process group's, so the kill of the group cannot reach a stranger. */
static bool
ended(struct watch *w)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return errno == ECHILD;
	return si.si_pid == w->pid;
}

/* Reads the pipes until the child ends, the time is up, the output
 * passes the cap or the run is aborted. The child's end is its exit, not
 * its pipes': a grandchild may hold them open for as long as it likes. */
static void
follow(struct watch *w, double deadline)
{
	for (;;) {
		struct pollfd pfd[3];
		nfds_t n = 0;
		double left;
		int ms;

		if (abort_requested) {
			w->rc->aborted = true;
			return;
		}
		if (ended(w)) {
			w->exited = true;
			return;
		}
		if ((left = deadline - mono_ms()) <= 0) {
			w->rc->timed_out = true;
			return;
		}
		ms = left > 1e6 ? 1000000 : (int)left + 1;
		if (w->out >= 0)
			pfd[n++] = (struct pollfd){ .fd = w->out, .events = POLLIN };
		if (w->err >= 0)
			pfd[n++] = (struct pollfd){ .fd = w->err, .events = POLLIN };
		if (w->pidfd >= 0)
			pfd[n++] = (struct pollfd){ .fd = w->pidfd, .events = POLLIN };
		else if (ms > TICK_MS)
			ms = TICK_MS;
		if (poll(pfd, n, ms) < 0)
			continue;	/* EINTR: the flags above say why */
		for (nfds_t i = 0; i < n; i++) {
			if (pfd[i].revents == 0 || pfd[i].fd == w->pidfd)
				continue;
			(void)take(w, pfd[i].fd == w->out ? &w->out : &w->err);
			if (w->rc->truncated)
				return;
		}
	}
}

/* What the pipes still hold once everything that wrote is dead. */
static void
take_rest(struct watch *w)
{
	size_t total = 0;

	if (w->out >= 0)
		(void)fcntl(w->out, F_SETFL, O_NONBLOCK);
	if (w->err >= 0)
		(void)fcntl(w->err, F_SETFL, O_NONBLOCK);
	while ((w->out >= 0 || w->err >= 0) && total < AFTER_CAP &&
	    !w->rc->truncated) {
		int *fd = w->out >= 0 ? &w->out : &w->err;
		ssize_t got = take(w, fd);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			/* Empty but not closed: someone outside the tree
			 * holds it. What was there has been read. */
			close(*fd);
			*fd = -1;
		}
		total += got > 0 ? (size_t)got : 0;
	}
}

/* The child and everything it started, gone: its process group at once,
 * then what escaped the group (setsid) as it comes to us. */
static void
finish(struct watch *w)
{
	kill(-w->pid, SIGKILL);
	if (!w->exited)
		kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &w->rc->status, 0) < 0) {
		if (errno == EINTR)
			continue;
		w->rc->status = 127 << 8;	/* reaped by someone else */
		break;
	}
	sweep();
	take_rest(w);
}

static int
open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)pid;
	return -1;
#endif
}

static void
close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0) {
			close(p[i]);
			p[i] = -1;
		}
}

int
runcap(const char *path, char *const *argv, char *const *env, double timeout_s,
    size_t out_cap, struct runcap *rc, char **err)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, rep[2] = { -1, -1 };
	double deadline = mono_ms() + timeout_s * 1000.0;
	struct watch w = { .pidfd = -1, .out = -1, .err = -1, .cap = out_cap,
	    .rc = rc };
	struct guard g;
	int exec_errno = 0, ret = -1;
	pid_t pid, parent;

	memset(rc, 0, sizeof *rc);
	if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
	    pipe2(rep, O_CLOEXEC) != 0) {
		*err = xasprintf("pipe: %s", strerror(errno));
		goto close;
	}
	guard_on(&g);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		*err = xasprintf("fork: %s", strerror(errno));
		guard_off(&g);
		goto close;
	}
	if (pid == 0) {
		struct spawn s = { path, argv, env, outp[1], errp[1], rep[1],
		    parent };

		start(&s);
	}
	/* Both sides set the group, so a kill cannot race the child's own
	 * setpgid. */
	setpgid(pid, pid);
	close(outp[1]);
	close(errp[1]);
	close(rep[1]);
	outp[1] = errp[1] = rep[1] = -1;
	if (read(rep[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno)
		exec_errno = 0;
	w.pid = pid;
	w.pidfd = open_pidfd(pid);
	w.out = outp[0];
	w.err = errp[0];
	outp[0] = errp[0] = -1;
	follow(&w, deadline);
	finish(&w);
	/* Still open after a truncated run: nobody reads them any more. */
	if (w.out >= 0)
		close(w.out);
	if (w.err >= 0)
		close(w.err);
	if (w.pidfd >= 0)
		close(w.pidfd);
	guard_off(&g);
	if (exec_errno != 0) {
		*err = xasprintf("%s: %s", path, strerror(exec_errno));
		goto close;
	}
	ret = 0;
close:
	close_pair(outp);
	close_pair(errp);
	close_pair(rep);
	return ret;
}

void
runcap_free(struct runcap *rc)
{
	strbuf_free(&rc->err);
	strbuf_free(&rc->out);
}
