/* Unit tests for src/verify/spawn.c and parse.c: verify_exec() runs
 * stand-in helpers written as shell scripts that behave as a helper
 * whose vendor library misbehaves would (crash, hang, exit, print, flood,
 * leave a child behind), and the outcome must say so every time without
 * the caller being hurt. The real helper is tested in tests/cli/helper-*. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/tap.h"
#include "util/xalloc.h"
#include "verify/verify.h"

static char tmpdir[] = "/tmp/cudawiz-vexec.XXXXXX";

static char *
script(const char *name, const char *body)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");

	if (fp == NULL) {
		perror(path);
		exit(99);
	}
	fprintf(fp, "#!/bin/sh\n%s\n", body);
	fclose(fp);
	chmod(path, 0755);
	return path;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs body as the helper with args "driver --lib X"; fills run. */
static double
run_script(struct verify_run *run, const char *name, const char *body,
    double timeout)
{
	char *path = script(name, body);
	char e0[] = "PATH=/usr/bin:/bin", e1[] = "LANG=C";
	char *env[] = { e0, e1, NULL };
	double t0 = now_s();

	memset(run, 0, sizeof *run);
	run->kind = VERIFY_DRIVER;
	run->lib = xstrdup("libcuda.so.1");
	strv_push(&run->argv, "driver");
	strv_push(&run->argv, "--lib");
	strv_push(&run->argv, "libcuda.so.1");
	verify_exec(run, path, env, timeout);
	free(path);
	return now_s() - t0;
}

#define BEGIN "echo '{\"check\":\"begin\",\"mode\":\"driver\",\"helper\":\"t\",\"pid\":1}'\n"
#define STEP "echo '{\"check\":\"step\",\"name\":\"cuInit\"}'\n"
#define END "echo '{\"check\":\"end\",\"ok\":true,\"ms\":1.5}'\n"

static void
test_done(void)
{
	struct verify_run r;
	const struct verify_record *rec;
	double v;

	run_script(&r, "done.sh", BEGIN STEP
	    "echo '{\"check\":\"init\",\"ok\":false,\"code\":35,\"name\":\"cudaErrorInsufficientDriver\",\"message\":\"CUDA driver version is insufficient\"}'\n"
	    "echo '{\"check\":\"device\",\"device\":0,\"name\":\"H100\",\"cc\":\"9.0\",\"memory_total\":85520809984,\"uuid\":null,\"tried\":[\"a\",\"b\"]}'\n"
	    "echo 'library chatter on stderr' >&2\n"
	    END, 10);
	is_int(r.outcome, VERIFY_DONE, "a run that ends: done");
	is_int(r.records.n, 4, "begin, init, device, end: steps are not records");
	is_str(r.last_step, "cuInit", "the last step is kept");
	rec = verify_find(&r, "init", -1);
	ok(rec != NULL && rec->ok == 0 && rec->has_code && rec->code == 35,
	    "init: ok false, code 35");
	is_str(rec != NULL ? rec->name : NULL, "cudaErrorInsufficientDriver", "... its name");
	is_str(rec != NULL ? rec->message : NULL, "CUDA driver version is insufficient",
	    "... its message");
	rec = verify_find(&r, "device", 0);
	ok(rec != NULL && verify_num(rec, "memory_total", &v) && v == 85520809984.0,
	    "a device's memory, exactly");
	is_str(verify_str(rec, "cc"), "9.0", "... its compute capability");
	ok(verify_kv(rec, "uuid") != NULL && verify_kv(rec, "uuid")->type == VKV_NULL,
	    "null stays null");
	ok(verify_kv(rec, "tried") != NULL && verify_kv(rec, "tried")->type == VKV_JSON &&
	    strcmp(verify_kv(rec, "tried")->str, "[\"a\",\"b\"]") == 0,
	    "an array is kept as JSON");
	ok(r.stderr_tail != NULL && strstr(r.stderr_tail, "library chatter") != NULL,
	    "stderr is kept");
	verify_run_free(&r);
}

static void
test_crash(void)
{
	struct verify_run r;

	run_script(&r, "segv.sh", BEGIN STEP "kill -SEGV $$\nsleep 5\n", 10);
	is_int(r.outcome, VERIFY_SIGNALLED, "killed by SIGSEGV: signalled");
	is_int(r.signal, SIGSEGV, "... the signal");
	is_str(r.last_step, "cuInit", "... in the last step");
	is_int(r.records.n, 1, "... what came before is kept");
	verify_run_free(&r);

	run_script(&r, "exit.sh", BEGIN STEP "exit 3\n", 10);
	is_int(r.outcome, VERIFY_EXITED, "exit(3) before the end: exited");
	is_int(r.exit_status, 3, "... with its status");
	verify_run_free(&r);

	run_script(&r, "exit0.sh", BEGIN STEP "exit 0\n", 10);
	is_int(r.outcome, VERIFY_EXITED, "exit(0) before the end record: exited too");
	verify_run_free(&r);

	run_script(&r, "usage.sh", "echo 'usage: cudawiz-verify MODE' >&2\nexit 2\n", 10);
	is_int(r.outcome, VERIFY_NOT_STARTED,
	    "exit 2 with no record: the helper refused its command line");
	ok(r.start_error != NULL && strstr(r.start_error, "command line") != NULL,
	    "... and says so");
	verify_run_free(&r);
}

static void
test_hang(void)
{
	struct verify_run r;
	double took;

	took = run_script(&r, "hang.sh", BEGIN STEP "sleep 30\n", 0.5);
	is_int(r.outcome, VERIFY_TIMED_OUT, "a hang: timed out");
	ok(took < 5, "... and stopped near the timeout (%.2f s)", took);
	is_str(r.last_step, "cuInit", "... in the last step");
	verify_run_free(&r);

	/* A grandchild that keeps stdout open would keep the pipe from
	 * closing: the whole process group goes. */
	took = run_script(&r, "daemon.sh", BEGIN "sleep 30 &\n" END "exit 0\n", 1);
	ok(r.outcome == VERIFY_DONE || r.outcome == VERIFY_TIMED_OUT,
	    "a child left behind holding stdout: the run still ends (%s)",
	    verify_outcome_name(r.outcome));
	ok(took < 5, "... within the timeout (%.2f s)", took);
	verify_run_free(&r);
}

static void
test_garbage(void)
{
	struct verify_run r;

	run_script(&r, "garbage.sh", BEGIN
	    "echo 'hello from libcuda'\necho '{\"check\": tru'\necho '[1,2]'\n"
	    "echo '{\"nocheck\":1}'\n" END, 10);
	is_int(r.outcome, VERIFY_GARBLED, "lines that are not records: garbled");
	is_int(r.garbage_lines, 4, "... four of them");
	is_str(r.garbage_sample, "hello from libcuda", "... the first is kept");
	ok(verify_find(&r, "end", -1) != NULL, "... the records around them are read");
	verify_run_free(&r);

	run_script(&r, "partial.sh", BEGIN "printf '{\"check\":\"init\",\"ok\":tr'\nkill -ABRT $$\n", 10);
	is_int(r.outcome, VERIFY_SIGNALLED, "a record cut off by a crash: signalled");
	is_int(r.garbage_lines, 1, "... the cut line is garbage, not a record");
	verify_run_free(&r);

	run_script(&r, "flood.sh", BEGIN "yes '{\"check\":\"x\"}'\n", 20);
	is_int(r.outcome, VERIFY_GARBLED, "megabytes of output: stopped, garbled");
	verify_run_free(&r);
}

static void
test_not_started(void)
{
	struct verify_run r;
	char *env[] = { NULL };

	memset(&r, 0, sizeof r);
	strv_push(&r.argv, "driver");
	verify_exec(&r, "/nonexistent/cudawiz-verify", env, 5);
	is_int(r.outcome, VERIFY_NOT_STARTED, "no helper: not started");
	ok(r.start_error != NULL && strstr(r.start_error, strerror(ENOENT)) != NULL,
	    "... with the path and errno text (%s)", r.start_error);
	verify_run_free(&r);
}

static void
test_parse(void)
{
	struct verify_record rec;
	static const char *const bad[] = {
		"", "{}", "null", "\"check\"", "{\"check\":1}",
		"{\"check\":\"a\",\"check\":\"b\"}", "{\"check\":\"a\"",
	};

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ok(!verify_parse_line(bad[i], strlen(bad[i]), &rec),
		    "not a record: '%s'", bad[i]);
		verify_record_free(&rec);
	}
	static const char odd[] =
	    "{\"check\":\"saxpy\",\"device\":-3,\"ok\":\"yes\",\"code\":1.5}";

	ok(verify_parse_line(odd, strlen(odd), &rec),
	    "odd field types still make a record");
	ok(rec.device == -1 && rec.ok == -1 && !rec.has_code,
	    "... but a negative device, a string ok and a real code are not taken");
	verify_record_free(&rec);
}

int
main(void)
{
	char *cmd;

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 99;
	}
	test_done();
	test_crash();
	test_hang();
	test_garbage();
	test_not_started();
	test_parse();
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	free(cmd);
	return done_testing();
}
