/* cudawiz-verify: loads one vendor library (libcuda, a libcudart, a
 * libcudnn), proves it works, and says so as JSON Lines on stdout
 * (docs/VERIFY.md). It is a separate program so that whatever the
 * library does (crash, hang, exit, print) happens to it and not to
 * cudawiz; it links nothing but libc, libdl and libm so it can be copied
 * alone onto a GPU machine. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/random.h>
#include <sys/resource.h>
#endif
#include <unistd.h>

#include "helper/helper.h"
#include "helper/ptx.h"
#ifdef _WIN32
#include "helper/win.h"
#endif
#include "src/commit.h"

static const char usage_text[] =
    "usage: cudawiz-verify driver  [--lib PATH] [--device N] [--quick]\n"
    "       cudawiz-verify runtime --lib PATH\n"
    "       cudawiz-verify cudnn   --lib PATH [--cudart PATH]\n"
    "       cudawiz-verify --version | --list-ptx | --dump-ptx NAME\n";

static _Noreturn void
usage(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "cudawiz-verify: %s\n", why);
	fputs(usage_text, stderr);
	exit(2);
}

/* --list-ptx and --dump-ptx: the embedded kernels, for ptxas in the
 * tests and for a person reading what the driver is asked to JIT. */
static int
ptx_option(const char *opt, const char *name)
{
	const struct ptx_variant *v;

	if (strcmp(opt, "--list-ptx") == 0) {
		for (size_t i = 0; i < ptx_nvariants; i++)
			printf("%s %s\n", ptx_variants[i].name,
			    ptx_variants[i].target);
		return 0;
	}
	if (name == NULL)
		usage("--dump-ptx needs a variant's name (--list-ptx)");
	if ((v = ptx_find(name)) == NULL) {
		fprintf(stderr, "cudawiz-verify: no PTX variant %s\n", name);
		return 2;
	}
	fputs(v->text, stdout);
	return 0;
}

static void
parse(int argc, char **argv, struct helper_opts *o)
{
	memset(o, 0, sizeof *o);
	o->device = -1;
	if (argc < 2)
		usage(NULL);
	o->mode = argv[1];
	if (strcmp(o->mode, "driver") != 0 && strcmp(o->mode, "runtime") != 0 &&
	    strcmp(o->mode, "cudnn") != 0)
		usage("the mode is driver, runtime or cudnn");
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--quick") == 0 && strcmp(o->mode, "driver") == 0) {
			o->quick = true;
			continue;
		}
		if (strcmp(a, "--lib") == 0 || strcmp(a, "--cudart") == 0 ||
		    strcmp(a, "--device") == 0) {
			if (val == NULL || *val == '\0')
				usage("an option needs a value");
			i++;
		}
		if (strcmp(a, "--lib") == 0)
			o->lib = val;
		else if (strcmp(a, "--cudart") == 0 &&
		    strcmp(o->mode, "cudnn") == 0)
			o->cudart = val;
		else if (strcmp(a, "--device") == 0 &&
		    strcmp(o->mode, "driver") == 0) {
			char *end;
			long n = strtol(val, &end, 10);

			if (*end != '\0' || n < 0 || n > 4096)
				usage("--device takes a device's index");
			o->device = (int)n;
		} else
			usage("an option this mode does not take");
	}
	if (strcmp(o->mode, "driver") != 0 && o->lib == NULL)
		usage("this mode needs --lib PATH");
}

/* The parent's token for this run (docs/VERIFY.md), taken before any
 * library is loaded. A library can read the environment, and
 * /proc/self/environ shows the strings the process started with rather
 * than what unsetenv() left: the value is overwritten in place too. */
static void
take_token(void)
{
	char *tok = getenv("CUDAWIZ_VERIFY_TOKEN");

	if (tok == NULL)
		return;
	if (!jsonl_set_token(tok))
		fputs("cudawiz-verify: CUDAWIZ_VERIFY_TOKEN is not a token; "
		    "records go out without one\n", stderr);
	memset(tok, 'x', strlen(tok));
#ifdef _WIN32
	win_unsetenv("CUDAWIZ_VERIFY_TOKEN");
#else
	unsetenv("CUDAWIZ_VERIFY_TOKEN");
#endif
}

#ifndef _WIN32
/* Where the records' descriptor goes: a random number between 64 and
 * the limit, so that a library writing to a small descriptor it thinks
 * its own (or to 3, the first free one, on purpose) misses the
 * protocol. A library that looks through /proc/self/fd still finds it. */
static int
record_fd_floor(void)
{
	struct rlimit rl;
	unsigned int r;
	rlim_t lim = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		lim = rl.rlim_cur < 65536 ? rl.rlim_cur : 65536;
	if (lim <= 128 || getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r)
		return 3;
	return 64 + (int)(r % (unsigned int)(lim - 64));
}

/* The protocol gets a private copy of stdout before any library is
 * loaded; descriptor 1 then points at stderr, so a library's printf
 * lands there and never between two records. CLOEXEC keeps the copy from
 * programs a library starts (libcuda may run nvidia-modprobe). */
static void
private_stdout(void)
{
	int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, record_fd_floor());

	if (fd < 0)
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	jsonl_set_fd(fd);
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0 && null != STDOUT_FILENO) {
			dup2(null, STDOUT_FILENO);
			close(null);
		}
	}
}
#endif

int
main(int argc, char **argv)
{
	struct helper_opts o;
	double start;
	struct rec r;

#ifdef _WIN32
	win_utf8_argv(&argc, &argv);
#endif
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("cudawiz-verify %s (commit %s)\n", PACKAGE_VERSION,
		    CUDAWIZ_COMMIT);
		return 0;
	}
	if (argc >= 2 && (strcmp(argv[1], "--list-ptx") == 0 ||
	    strcmp(argv[1], "--dump-ptx") == 0))
		return ptx_option(argv[1], argc >= 3 ? argv[2] : NULL);
	parse(argc, argv, &o);
	take_token();
#ifdef _WIN32
	win_quiet_errors();
	win_private_stdout();
#else
	private_stdout();
#endif
	start = now_ms();

	rec_open(&r, "begin");
	rec_str(&r, "mode", o.mode);
	rec_str(&r, "helper", PACKAGE_VERSION);
	rec_int(&r, "pid", (long long)getpid());
	rec_emit(&r);

	if (strcmp(o.mode, "driver") == 0)
		mode_driver(&o);
	else if (strcmp(o.mode, "runtime") == 0)
		mode_runtime(&o);
	else
		mode_cudnn(&o);

	/* What a library printed with stdio is still in its buffer; out
	 * now, so it reaches stderr before the end. */
	fflush(stdout);
	rec_open(&r, "end");
	rec_bool(&r, "ok", !helper_failed());
	rec_num(&r, "ms", now_ms() - start);
	rec_num(&r, "context_ms", helper_context_ms());
	rec_emit(&r);
	/* Not exit(): vendor atexit handlers and destructors (cuDNN's,
	 * the driver's) have crashed processes after their work was done,
	 * and the run is over. */
	_exit(0);
}
