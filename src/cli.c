/* Option parsing and command dispatch; see cli.h.
 *
 * Common options are accepted before or after the command word, so
 * "cudawiz --json doctor" and "cudawiz doctor --json" are the same. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "present/style.h"
#include "util/safeout.h"
#include "util/xalloc.h"
#include "wizard/cmd_wizard.h"

struct command {
	const char	*name;
	int		(*run)(const struct cli_opts *);
	const char	*summary;
};

static const struct command commands[] = {
	{ "doctor", cmd_doctor,
	    N_("every fact and every finding, with fixes") },
	{ "why", cmd_why,
	    N_("how the dynamic loader resolves a library, step by step") },
	{ "explain", cmd_explain,
	    N_("paste an error message; get the finding and the fix") },
	{ "verify", cmd_verify,
	    N_("run live GPU checks of the driver, each runtime and each cuDNN") },
	{ "env", cmd_env,
	    N_("write an activation script that fixes the environment") },
	{ "matrix", cmd_matrix,
	    N_("the compatibility matrix in use: show, path, update") },
};

/* Longer than this, a timeout is a mistake, not a slow link. */
#define TIMEOUT_MAX_S 3600

static void
usage(FILE *fp)
{
	fprintf(fp, _("Usage: %s [OPTION]... [COMMAND]\n"), PACKAGE);
	fputs(_("Find out why CUDA does not work on this machine, and how to fix it.\n"
	    "With no command, run the wizard on a terminal, else print the doctor report.\n"),
	    fp);
	fputs(_("\nCommands:\n"), fp);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(fp, "  %-10s  %s\n", commands[i].name,
		    _(commands[i].summary));
	fputs(_("\nOptions:\n"
	    "      --json         print one JSON document instead of text\n"
	    "      --root DIR     read DIR as if it were / (also CUDAWIZ_ROOT);\n"
	    "                     nothing is executed, loaded or fetched\n"
	    "      --offline      never use the network\n"
	    "      --matrix FILE  use this compatibility matrix instead of the\n"
	    "                     cached or built-in one\n"
	    "      --no-color     no colour (also NO_COLOR=1); --color forces it\n"
	    "      --ascii        draw the wizard with ASCII characters only\n"
	    "  -h, --help         show this help\n"
	    "  -V, --version      show the version\n"), fp);
	fputs(_("\nOptions of 'why':\n"
	    "      --from FILE    resolve as a dlopen() from this program or\n"
	    "                     library (its RPATH, RUNPATH and what it loads)\n"),
	    fp);
	fputs(_("\nOptions of 'verify' and 'doctor':\n"
	    "      --timeout S    seconds each check may take (default 30)\n"
	    "      --quick        verify: small sizes, no bandwidth or FMA runs\n"
	    "      --env DIR      verify: also load this environment's libraries\n"
	    "                     (the active one and the system's always are)\n"
	    "      --no-verify    doctor: no live checks, even with a driver\n"),
	    fp);
	fputs(_("\nOptions of 'env':\n"
	    "      --shell NAME   sh (bash, zsh, dash, ksh), fish, csh (tcsh),\n"
	    "                     powershell, conda, lmod, tcl, direnv\n"
	    "                     (default: from $SHELL)\n"
	    "  -o, --output FILE  write the script to FILE (atomically; an existing\n"
	    "                     file is backed up first) instead of stdout\n"
	    "      --force        write even where FILE is a symbolic link\n"
	    "      --install-rc   add one line sourcing FILE to your shell's rc file\n"
	    "      --toolkit V|DIR    use this CUDA toolkit (a version or directory)\n"
	    "      --cudnn DIR        use the cuDNN in DIR\n"
	    "      --python-env DIR   make that environment's frameworks load\n"
	    "      --add-lib DIR      put DIR on LD_LIBRARY_PATH (repeatable)\n"
	    "      --keep-other-cuda  leave other CUDA versions' directories\n"
	    "      --check FILE   source FILE in its shell and show, library by\n"
	    "                     library, what it changes\n"), fp);
	fputs(_("\nOptions of 'matrix update':\n"
	    "      --url URL      fetch URL (repeatable) instead of the default\n"
	    "                     sources: a cudawiz matrix replaces the data, an\n"
	    "                     NVIDIA redistrib_*.json manifest or a directory\n"
	    "                     listing of them adds releases\n"
	    "      --connect-timeout S\n"
	    "                     seconds to connect (default 5)\n"
	    "      --timeout S    seconds for each whole download (default 30)\n"),
	    fp);
	fputs(_("\nExit status: 0 no error found, 1 an error was found or the action\n"
	    "failed, 2 usage error or cudawiz could not run.\n"), fp);
}

/* Long options that take a value as the next word. */
static const char *const opts_with_value[] = {
	"--root", "--matrix", "--from", "--url", "--connect-timeout", "--timeout",
	"--shell", "--output", "-o", "--toolkit", "--cudnn", "--python-env",
	"--add-lib", "--check", "--env",
};
static const char *const opts_plain[] = {
	"--json", "--offline", "--no-color", "--color", "--help", "--version",
	"--no-verify", "--quick", "--force", "--install-rc", "--keep-other-cuda",
	"--ascii",
};

static bool
word_in(const char *w, const char *const *list, size_t n, bool prefix_eq)
{
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(list[i]);

		if (strcmp(w, list[i]) == 0 ||
		    (prefix_eq && strncmp(w, list[i], l) == 0 && w[l] == '='))
			return true;
	}
	return false;
}

#define NWORDS(a) (sizeof a / sizeof a[0])

/* A pasted error message often starts with "-" ("-> CUDA driver version
 * is insufficient…"): after `explain`, only cudawiz's own options are
 * options and every other word is text. The words are rearranged so
 * getopt sees the text after a "--". Returns a new argv (NULL-terminated,
 * the strings not copied) or NULL when the command is not explain. */
static char **
explain_argv(int argc, char **argv, int *new_argc)
{
	char **out;
	int cmd = -1, n = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (word_in(argv[i], opts_with_value, NWORDS(opts_with_value), false)) {
			i++;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0')
			continue;
		cmd = i;
		break;
	}
	if (cmd < 0 || strcmp(argv[cmd], "explain") != 0)
		return NULL;
	out = xreallocarray(NULL, (size_t)argc + 2, sizeof *out);
	for (int i = 0; i <= cmd; i++)
		out[n++] = argv[i];
	for (int i = cmd + 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (word_in(argv[i], opts_with_value, NWORDS(opts_with_value), false) &&
		    i + 1 < argc) {
			out[n++] = argv[i];
			out[n++] = argv[++i];
		} else if (word_in(argv[i], opts_with_value, NWORDS(opts_with_value), true) ||
		    word_in(argv[i], opts_plain, NWORDS(opts_plain), false)) {
			out[n++] = argv[i];
		}
	}
	out[n++] = (char *)"--";
	for (int i = cmd + 1, after = 0; i < argc; i++) {
		if (!after && strcmp(argv[i], "--") == 0) {
			after = 1;
			continue;
		}
		if (!after && word_in(argv[i], opts_with_value, NWORDS(opts_with_value), false) &&
		    i + 1 < argc) {
			i++;
			continue;
		}
		if (!after && (word_in(argv[i], opts_with_value, NWORDS(opts_with_value), true) ||
		    word_in(argv[i], opts_plain, NWORDS(opts_plain), false)))
			continue;
		out[n++] = argv[i];
	}
	out[n] = NULL;
	*new_argc = n;
	return out;
}

/* Seconds as "2" or "0.5", to milliseconds; -1 when not a sane number. */
static long
parse_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) ||
	    v <= 0 || v > TIMEOUT_MAX_S)
		return -1;
	return v * 1000 < 1 ? 1 : (long)(v * 1000 + 0.5);
}

static int
bad_seconds(const char *opt, const char *arg)
{
	fprintf(stderr, _("%s: %s: '%s' is not a number of seconds "
	    "(more than 0, at most %d)\n"), PACKAGE, opt, arg, TIMEOUT_MAX_S);
	return EXIT_USAGE;
}

/* Whether what the command prints on stdout is for a person to read, and
 * so goes through safeout: not JSON (jansson escapes control characters
 * itself), not a script (its bytes are the point), not a path a shell
 * will use. */
static bool
stdout_is_text(const struct cli_opts *o, const char *name)
{
	if (o->json)
		return false;
	if (strcmp(name, "env") == 0)
		return o->check != NULL || o->output != NULL;
	if (strcmp(name, "matrix") == 0)
		return o->nargs == 0 || strcmp(o->args[0], "path") != 0;
	return true;
}

/* Names from the filesystem and the environment reach both streams;
 * neither may carry their escape sequences to the terminal. A stream
 * that cannot be wrapped stays as it was: the report matters more. */
static void
guard_output(const struct cli_opts *o, const char *name)
{
	if (stdout_is_text(o, name))
		(void)safeout_wrap(&stdout,
		    style_want_color(STDOUT_FILENO, o->color));
	(void)safeout_wrap(&stderr, false);
}

int
cli_main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_ROOT, OPT_OFFLINE, OPT_NO_COLOR, OPT_COLOR,
	    OPT_MATRIX, OPT_FROM, OPT_URL, OPT_CONNECT_TIMEOUT, OPT_TIMEOUT,
	    OPT_NO_VERIFY, OPT_QUICK, OPT_SHELL, OPT_FORCE, OPT_INSTALL_RC,
	    OPT_TOOLKIT, OPT_CUDNN, OPT_PYTHON_ENV, OPT_ADD_LIB, OPT_KEEP_OTHER,
	    OPT_CHECK, OPT_ASCII, OPT_ENV };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "offline", no_argument, NULL, OPT_OFFLINE },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "color", no_argument, NULL, OPT_COLOR },
		{ "matrix", required_argument, NULL, OPT_MATRIX },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "url", required_argument, NULL, OPT_URL },
		{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "no-verify", no_argument, NULL, OPT_NO_VERIFY },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "shell", required_argument, NULL, OPT_SHELL },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "install-rc", no_argument, NULL, OPT_INSTALL_RC },
		{ "toolkit", required_argument, NULL, OPT_TOOLKIT },
		{ "cudnn", required_argument, NULL, OPT_CUDNN },
		{ "python-env", required_argument, NULL, OPT_PYTHON_ENV },
		{ "add-lib", required_argument, NULL, OPT_ADD_LIB },
		{ "keep-other-cuda", no_argument, NULL, OPT_KEEP_OTHER },
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "env", required_argument, NULL, OPT_ENV },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_opts opts = { .color = -1 };
	const char *name;
	size_t urls_cap = 0, add_cap = 0;
	char **ex_argv;
	int c, rc, ex_argc = 0;
	bool ascii = false;	/* --ascii: only the wizard reads it */

	if ((ex_argv = explain_argv(argc, argv, &ex_argc)) != NULL) {
		argc = ex_argc;
		argv = ex_argv;
	}

	opts.root = getenv("CUDAWIZ_ROOT");
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hVo:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			opts.json = true;
			break;
		case OPT_ROOT:
			opts.root = optarg;
			break;
		case OPT_OFFLINE:
			opts.offline = true;
			break;
		case OPT_NO_COLOR:
			opts.color = 0;
			break;
		case OPT_COLOR:
			opts.color = 1;
			break;
		case OPT_MATRIX:
			opts.matrix_file = optarg;
			break;
		case OPT_FROM:
			opts.from = optarg;
			break;
		case OPT_URL:
			if (opts.nurls == urls_cap) {
				urls_cap = urls_cap ? urls_cap * 2 : 4;
				opts.urls = xreallocarray(opts.urls, urls_cap,
				    sizeof *opts.urls);
			}
			opts.urls[opts.nurls++] = optarg;
			break;
		case OPT_CONNECT_TIMEOUT:
			opts.connect_timeout_ms = parse_seconds(optarg);
			if (opts.connect_timeout_ms < 0) {
				rc = bad_seconds("--connect-timeout", optarg);
				goto out;
			}
			break;
		case OPT_TIMEOUT:
			opts.timeout_ms = parse_seconds(optarg);
			if (opts.timeout_ms < 0) {
				rc = bad_seconds("--timeout", optarg);
				goto out;
			}
			break;
		case OPT_NO_VERIFY:
			opts.no_verify = true;
			break;
		case OPT_QUICK:
			opts.quick = true;
			break;
		case OPT_SHELL:
			opts.shell = optarg;
			break;
		case 'o':
			opts.output = optarg;
			break;
		case OPT_FORCE:
			opts.force = true;
			break;
		case OPT_INSTALL_RC:
			opts.install_rc = true;
			break;
		case OPT_TOOLKIT:
			opts.toolkit = optarg;
			break;
		case OPT_CUDNN:
			opts.cudnn = optarg;
			break;
		case OPT_PYTHON_ENV:
			opts.python_env = optarg;
			break;
		case OPT_ADD_LIB:
			if (opts.nadd_lib == add_cap) {
				add_cap = add_cap ? add_cap * 2 : 4;
				opts.add_lib = xreallocarray(opts.add_lib, add_cap,
				    sizeof *opts.add_lib);
			}
			opts.add_lib[opts.nadd_lib++] = optarg;
			break;
		case OPT_KEEP_OTHER:
			opts.keep_other_cuda = true;
			break;
		case OPT_CHECK:
			opts.check = optarg;
			break;
		case OPT_ASCII:
			ascii = true;
			break;
		case OPT_ENV:
			opts.verify_env = optarg;
			break;
		case 'h':
			usage(stdout);
			rc = EXIT_OK;
			goto out;
		case 'V':
			printf("%s %s\n", PACKAGE, VERSION);
			rc = EXIT_OK;
			goto out;
		default:
			if (optopt != 0 && optopt < 256)
				fprintf(stderr, _("%s: unknown option '-%c'\n"),
				    PACKAGE, optopt);
			else
				fprintf(stderr, _("%s: unknown or incomplete option '%s'\n"),
				    PACKAGE, argv[optind - 1]);
			fprintf(stderr, _("Try '%s --help'.\n"), PACKAGE);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	name = optind < argc ? argv[optind] : "doctor";
	/* Options that only `matrix update` reads are an error elsewhere,
	 * rather than silently ignored. */
	if ((opts.nurls > 0 || opts.connect_timeout_ms > 0) &&
	    strcmp(name, "matrix") != 0) {
		fprintf(stderr, _("%s: --url and --connect-timeout are options "
		    "of 'matrix update'\n"), PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if (opts.timeout_ms > 0 && strcmp(name, "matrix") != 0 &&
	    strcmp(name, "verify") != 0 && strcmp(name, "doctor") != 0 &&
	    strcmp(name, "env") != 0) {
		fprintf(stderr, _("%s: --timeout is an option of 'verify', "
		    "'doctor', 'env --check' and 'matrix update'\n"), PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if (opts.no_verify && strcmp(name, "doctor") != 0) {
		fprintf(stderr, _("%s: --no-verify is an option of 'doctor'\n"),
		    PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if ((opts.shell != NULL || opts.output != NULL || opts.force ||
	    opts.install_rc || opts.toolkit != NULL || opts.cudnn != NULL ||
	    opts.python_env != NULL || opts.nadd_lib > 0 || opts.keep_other_cuda ||
	    opts.check != NULL) && strcmp(name, "env") != 0) {
		fprintf(stderr, _("%s: --shell, --output, --force, --install-rc, "
		    "--toolkit, --cudnn, --python-env, --add-lib, --keep-other-cuda "
		    "and --check are options of 'env'\n"), PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if (opts.quick && strcmp(name, "verify") != 0) {
		fprintf(stderr, _("%s: --quick is an option of 'verify'\n"),
		    PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if (opts.verify_env != NULL && strcmp(name, "verify") != 0) {
		fprintf(stderr, _("%s: --env is an option of 'verify'\n"),
		    PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if (opts.from != NULL && strcmp(name, "why") != 0) {
		fprintf(stderr, _("%s: --from is an option of 'why'\n"), PACKAGE);
		rc = EXIT_USAGE;
		goto out;
	}
	if (optind == argc) {
		/* The wizard on a terminal; off one (a pipe, a notebook
		 * cell, TERM=dumb) or with --json, the doctor report. */
		if (!opts.json && cmd_wizard_wanted()) {
			rc = cmd_wizard(&opts, ascii);
		} else {
			guard_output(&opts, "doctor");
			opts.next_steps = !opts.json;
			rc = cmd_doctor(&opts);
		}
		goto out;
	}
	opts.args = argv + optind + 1;
	opts.nargs = argc - optind - 1;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(commands[i].name, name) != 0)
			continue;
		guard_output(&opts, name);
		rc = commands[i].run(&opts);
		goto out;
	}
	fprintf(stderr, _("%s: unknown command '%s'\n"), PACKAGE, name);
	fprintf(stderr, _("Try '%s --help'.\n"), PACKAGE);
	rc = EXIT_USAGE;
out:
	free(opts.urls);
	free(opts.add_lib);
	free(ex_argv);
	return rc;
}
