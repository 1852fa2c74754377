/* runcap: the end of a run is the child's exit, not its pipes'; nothing
 * the child started outlives the call (a background child, a setsid()
 * daemon, one past the timeout or the output's cap); the child gets no
 * descriptor of ours, and a run leaves none open.
 * The children are this program itself, run again with a role. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/tap.h"
#include "util/runcap.h"
#include "util/xalloc.h"

/* Long enough to outlast any test run; bounded, so a failed test leaves
 * nothing for long. */
#define SLEEP_S	300
/* Far beyond a run's few milliseconds, far below SLEEP_S: a run that
 * waits for the sleeper's pipe ends here, timed out. */
#define TIMEOUT_S	60.0

/* --- the roles --------------------------------------------------------- */

/* A child in our process group that keeps stdout and sleeps; its pid on
 * stdout. */
static int
role_bg(void)
{
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		sleep(SLEEP_S);
		_exit(0);
	}
	printf("%ld\n", (long)pid);
	return 0;
}

/* A daemon: a session of its own, its parent gone, stdout kept; its pid
 * on stdout once it exists. */
static int
role_daemon(void)
{
	int p[2];
	long pid = 0;
	FILE *f;

	if (pipe(p) != 0)
		return 1;
	switch (fork()) {
	case -1:
		return 1;
	case 0:
		close(p[0]);
		setsid();
		if (fork() != 0)
			_exit(0);
		dprintf(p[1], "%ld\n", (long)getpid());
		close(p[1]);
		sleep(SLEEP_S);
		_exit(0);
	}
	close(p[1]);
	if ((f = fdopen(p[0], "r")) == NULL || fscanf(f, "%ld", &pid) != 1)
		return 1;
	fclose(f);
	printf("%ld\n", pid);
	return 0;
}

/* The descriptors above 2 it has, one a line. */
static int
role_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (d == NULL)
		return 1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.' && atoi(de->d_name) > 2 &&
		    atoi(de->d_name) != dirfd(d))
			printf("%s\n", de->d_name);
	closedir(d);
	return 0;
}

/* Sleeps past any timeout. */
static int
role_hang(void)
{
	sleep(SLEEP_S);
	return 0;
}

/* More than the cap, then sleeps. */
static int
role_flood(void)
{
	static char buf[65536];

	memset(buf, 'x', sizeof buf);
	if (write(STDOUT_FILENO, buf, sizeof buf) < 0)
		return 1;
	sleep(SLEEP_S);
	return 0;
}

/* --- the checks -------------------------------------------------------- */

static const char *self;

static int
run_role(const char *role, double timeout_s, struct runcap *rc)
{
	char *argv[] = { (char *)self, (char *)role, NULL };
	char *env[] = { NULL };
	char *err = NULL;
	int ret = runcap(self, argv, env, timeout_s, 4096, rc, &err);

	if (ret != 0) {
		printf("# %s: %s\n", role, err);
		free(err);
	}
	return ret;
}

static bool
gone(long pid)
{
	return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Nothing left for us to reap: the run took its children with it. */
static bool
no_children(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static void
check_left(const char *role, const char *what)
{
	struct runcap rc;
	long pid = 0;

	if (run_role(role, TIMEOUT_S, &rc) != 0) {
		ok(0, "%s: started", role);
		return;
	}
	ok(!rc.timed_out && WIFEXITED(rc.status) && WEXITSTATUS(rc.status) == 0,
	    "%s: done at its exit, not when %s lets go of the pipe", role, what);
	ok(sscanf(strbuf_str(&rc.out), "%ld", &pid) == 1,
	    "%s: what it wrote before its exit is read", role);
	ok(gone(pid), "%s: %s (pid %ld) is gone", role, what, pid);
	ok(no_children(), "%s: and reaped", role);
	runcap_free(&rc);
}

static void
check_fds(void)
{
	struct runcap rc;
	int fd = open("/dev/null", O_RDONLY);	/* no O_CLOEXEC on purpose */

	if (fd < 0 || run_role("fds", TIMEOUT_S, &rc) != 0) {
		ok(0, "fds: started");
		return;
	}
	is_str(strbuf_str(&rc.out), "",
	    "fds: the child has no descriptor above 2 (ours was %d)", fd);
	close(fd);
	runcap_free(&rc);
}

static void
check_timeout(void)
{
	struct runcap rc;

	if (run_role("hang", 0.5, &rc) != 0) {
		ok(0, "hang: started");
		return;
	}
	ok(rc.timed_out, "hang: the timeout still applies to the child");
	is_int(WIFSIGNALED(rc.status) ? WTERMSIG(rc.status) : -1, SIGKILL,
	    "hang: killed");
	ok(no_children(), "hang: and reaped");
	runcap_free(&rc);
}

/* Descriptors open in this process. */
static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static void
check_truncated(void)
{
	struct runcap rc;
	int before = count_fds();

	if (run_role("flood", TIMEOUT_S, &rc) != 0) {
		ok(0, "flood: started");
		return;
	}
	ok(rc.truncated && rc.out.len <= 4096,
	    "flood: past the cap, truncated (%zu bytes kept)", rc.out.len);
	is_int(count_fds(), before, "flood: its pipes are closed after");
	ok(no_children(), "flood: and it is reaped");
	runcap_free(&rc);
}

static void
check_missing(void)
{
	char *argv[] = { (char *)"/nonexistent/prog", NULL };
	char *env[] = { NULL };
	char *err = NULL;
	struct runcap rc;
	int ret = runcap(argv[0], argv, env, TIMEOUT_S, 4096, &rc, &err);

	ok(ret == -1 && err != NULL && strstr(err, "No such file") != NULL,
	    "a program that is not there: -1, the errno text (%s)",
	    err != NULL ? err : "");
	free(err);
	runcap_free(&rc);
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "bg") == 0)
		return role_bg();
	if (argc == 2 && strcmp(argv[1], "daemon") == 0)
		return role_daemon();
	if (argc == 2 && strcmp(argv[1], "fds") == 0)
		return role_fds();
	if (argc == 2 && strcmp(argv[1], "hang") == 0)
		return role_hang();
	if (argc == 2 && strcmp(argv[1], "flood") == 0)
		return role_flood();
	/* The path, not /proc/self/exe: a sanitizer's or libtool's wrapper
	 * would be what that names. */
	self = realpath(argv[0], NULL);
	if (self == NULL) {
		perror(argv[0]);
		return 99;
	}
	check_left("bg", "a background child");
	check_left("daemon", "a setsid() daemon");
	check_fds();
	check_timeout();
	check_truncated();
	check_missing();
	free((char *)self);
	return done_testing();
}
