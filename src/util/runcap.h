/* Running a program and keeping what it writes: its own process group,
 * stdin from /dev/null, stdout and stderr captured, no other descriptor
 * of ours, killed (the whole group) when the time is up. The run ends
 * when the program exits, whoever still holds its pipes; then everything
 * it started is killed and reaped (cudawiz is their subreaper meanwhile,
 * so a setsid() daemon comes back to it too). For the commands cudawiz
 * runs on a user's behalf (the helper, a sourced script's shell), whose
 * output it reads but whose failure must never be its own. */
#ifndef CUDAWIZ_RUNCAP_H
#define CUDAWIZ_RUNCAP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

struct runcap {
	struct strbuf	 out;		/* stdout, up to out_cap bytes */
	struct strbuf	 err;		/* the last 4 KiB of stderr */
	bool		 timed_out;
	bool		 truncated;	/* stdout went past out_cap: killed */
	bool		 aborted;	/* runcap_abort(): killed */
	int		 status;	/* waitpid()'s, when it ran */
};

/* Runs path with argv (argv[0] included) and env, for at most
 * timeout_s seconds. 0 when it ran (whatever its status), -1 with *err
 * when it could not be started (the path and the errno text). While it
 * runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT, where nobody handles them,
 * end the run first and then cudawiz, as they would have: nothing it
 * started is left behind. Only SIGKILL of cudawiz leaves the program's
 * own children (the program itself gets SIGKILL as its parent dies). */
int	runcap(const char *path, char *const *argv, char *const *env,
	    double timeout_s, size_t out_cap, struct runcap *rc, char **err);
void	runcap_free(struct runcap *rc);

/* Async-signal-safe, for a signal handler: the runcap() in progress, and
 * every one after until runcap_abort_clear(), kills its child at once and
 * returns with aborted set (a user's Ctrl-C or SIGTERM should not wait
 * out a hanging vendor library). */
void	runcap_abort(void);
void	runcap_abort_clear(void);

#endif
