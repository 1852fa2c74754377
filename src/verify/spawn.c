/* Running the helper once: a child process in its own process group, its
 * stdout read as records, its stderr kept for evidence, killed when the
 * timeout passes. Whatever the vendor library does in there (crash, hang,
 * exit, print, fork), this side only ever sees a process that ended.
 *
 * Each run has a token, passed in the helper's environment and written
 * before every record: a line without it is not a record, whoever wrote
 * it to the protocol's pipe (a child a library started that kept the
 * descriptor, a library writing to descriptors it did not open). It does
 * not stop the library itself, which runs in the helper's address space
 * and can read the token there. The helper writes its first record before
 * it loads anything, so a first line without the token is a helper that
 * does not know tokens (the test suite's stand-ins, one run by hand
 * through a wrapper): its lines are taken as they are. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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
#define TOKEN_VAR	"CUDAWIZ_VERIFY_TOKEN"
#define TOKEN_BYTES	16

/* A fresh token, 32 hex digits; "" when the kernel gives no randomness
 * (the records then come without one, as from a helper run by hand). */
static void
make_token(char tok[2 * TOKEN_BYTES + 1])
{
	unsigned char r[TOKEN_BYTES];

	tok[0] = '\0';
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
		return;
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(tok + 2 * i, 3, "%02x", r[i]);
}

/* ENV without any token of its own, with TOK's. */
static char **
env_with_token(char *const *env, const char *tok, char **owned)
{
	size_t n = 0, k = 0;
	char **v;

	while (env[n] != NULL)
		n++;
	v = xreallocarray(NULL, n + 2, sizeof *v);
	for (size_t i = 0; i < n; i++)
		if (strncmp(env[i], TOKEN_VAR "=", sizeof TOKEN_VAR) != 0)
			v[k++] = env[i];
	*owned = NULL;
	if (*tok != '\0')
		v[k++] = *owned = xasprintf("%s=%s", TOKEN_VAR, tok);
	v[k] = NULL;
	return v;
}

/* The line without the token and its blank; NULL when it does not carry
 * the token. */
static const char *
untoken(const char *line, size_t *len, const char *tok)
{
	size_t n = strlen(tok);

	if (n == 0)
		return line;
	if (*len <= n || memcmp(line, tok, n) != 0 || line[n] != ' ')
		return NULL;
	*len -= n + 1;
	return line + n + 1;
}

static void
take_line(struct verify_run *run, const char *line, size_t len,
    const char *tok, bool *ended)
{
	struct verify_record rec;
	const char *body;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return;
	if ((body = untoken(line, &len, tok)) == NULL ||
	    !verify_parse_line(body, len, &rec)) {
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

/* Whether the first line of OUT carries TOK: the helper speaks tokens. */
static bool
speaks_token(const struct strbuf *out, const char *tok)
{
	size_t n = strlen(tok), i = 0;

	while (i < out->len && (out->buf[i] == '\n' || out->buf[i] == '\r'))
		i++;
	return n > 0 && out->len - i > n && memcmp(out->buf + i, tok, n) == 0 &&
	    out->buf[i + n] == ' ';
}

static void
take_lines(struct verify_run *run, const struct strbuf *out, const char *tok,
    bool *ended)
{
	size_t start = 0;

	if (!speaks_token(out, tok))
		tok = "";

	for (size_t i = 0; i < out->len; i++) {
		if (out->buf[i] != '\n')
			continue;
		take_line(run, out->buf + start, i - start, tok, ended);
		start = i + 1;
	}
	/* A last line without its newline: the helper died mid-write. */
	if (start < out->len)
		take_line(run, out->buf + start, out->len - start, tok, ended);
}

void
verify_exec(struct verify_run *run, const char *helper, char *const *env,
    double timeout_s)
{
	struct runcap rc;
	double t0;
	char **argv, **envt, *err = NULL, *tokvar;
	char tok[2 * TOKEN_BYTES + 1];
	bool ended = false;
	int status;

	argv = xreallocarray(NULL, run->argv.n + 2, sizeof *argv);
	argv[0] = (char *)helper;
	for (size_t i = 0; i < run->argv.n; i++)
		argv[i + 1] = run->argv.v[i];
	argv[run->argv.n + 1] = NULL;
	make_token(tok);
	envt = env_with_token(env, tok, &tokvar);
	t0 = mono_ms();
	if (runcap(helper, argv, envt, timeout_s, STDOUT_CAP, &rc, &err) != 0) {
		run->outcome = VERIFY_NOT_STARTED;
		run->start_error = err;
		runcap_free(&rc);
		free(envt);
		free(tokvar);
		free(argv);
		return;
	}
	free(envt);
	free(tokvar);
	run->ms = mono_ms() - t0;
	status = rc.status;
	take_lines(run, &rc.out, tok, &ended);
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
