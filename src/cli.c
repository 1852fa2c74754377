/* Option parsing and command dispatch; see cli.h.
 *
 * Two tables are the command line: options[] (each option, the commands
 * that take it, its lines of --help) and commands[] (each command, its
 * summary, how many words it takes and how it says so). getopt_long's
 * array, the option part of --help, the words explain keeps as options
 * and the "is an option of" checks are all read from them, so adding an
 * option is one row.
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
#include "diagnose/finding.h"
#include "cmd.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "src/commit.h"
#include "present/style.h"
#include "util/safeout.h"
#include "util/xalloc.h"
#include "wizard/cmd_wizard.h"

#define NELEMS(a) (sizeof (a) / sizeof (a)[0])

/* Longer than this, a timeout is a mistake, not a slow link. */
#define TIMEOUT_MAX_S 3600
/* A fleet report a year old is not stale, it is another machine. */
#define MAX_AGE_MAX_H (24 * 366)

/* One bit per command, for the commands an option belongs to. */
enum {
	C_DOCTOR = 1 << 0,
	C_WHY = 1 << 1,
	C_EXPLAIN = 1 << 2,
	C_VERIFY = 1 << 3,
	C_ENV = 1 << 4,
	C_MATRIX = 1 << 5,
	C_SPEC = 1 << 6,
	C_FLEET = 1 << 7,
	C_WIZARD = 1 << 8,
	C_ALL = (1 << 9) - 1,
};

/* The sections of --help's option part, in the order shown. */
enum section { S_COMMON, S_WHY, S_VERIFY, S_ENV, S_MATRIX, S_FLEET, S_NONE };

static const char *const section_title[] = {
	[S_COMMON] = N_("\nOptions:\n"),
	[S_WHY] = N_("\nOptions of 'why':\n"),
	[S_VERIFY] = N_("\nOptions of 'verify' and 'doctor':\n"),
	[S_ENV] = N_("\nOptions of 'env':\n"),
	[S_MATRIX] = N_("\nOptions of 'matrix update':\n"),
	[S_FLEET] = N_("\nOptions of 'doctor', 'spec' and 'fleet' for fleets:\n"),
};

/* What is said when a command is given an option that is not its own,
 * in the order checked: with several such options, the first here is
 * said (say_misplaced has the words). */
enum misplaced {
	M_NONE,
	M_MATRIX_UPDATE,
	M_TIMEOUT,
	M_NO_VERIFY,
	M_ENV,
	M_QUICK,
	M_VERIFY_ENV,
	M_FROM,
	M_OUTPUT,
	M_BASELINE,
	M_MAX_AGE,
	M_COUNT,
};

enum opt_id {
	O_JSON, O_FORMAT, O_ROOT, O_OFFLINE, O_MATRIX, O_NO_COLOR, O_COLOR, O_ASCII,
	O_NO_MOUSE,
	O_HELP, O_VERSION, O_FROM, O_URL, O_CONNECT_TIMEOUT, O_TIMEOUT,
	O_QUICK, O_ENV, O_NO_VERIFY, O_SHELL, O_OUTPUT, O_FORCE, O_INSTALL_RC,
	O_TOOLKIT, O_CUDNN, O_PYTHON_ENV, O_ADD_LIB, O_KEEP_OTHER_CUDA,
	O_SCOPE, O_CHECK, O_BASELINE, O_MAX_AGE, O_COUNT,
};

struct help_line {
	enum section	 section;
	const char	*text;		/* whole lines, names included */
};

struct option_def {
	const char	*name;		/* the long name, without "--" */
	char		 short_name;	/* 0: none */
	bool		 arg;		/* takes a value */
	unsigned	 cmds;		/* the commands that take it */
	enum misplaced	 misplaced;	/* what other commands are told */
	/* Its lines in --help, in up to two sections (--timeout means one
	 * thing to verify and another to matrix update); none for --color,
	 * which --no-color's line names. Within a section, lines are in
	 * this table's order. */
	struct help_line help[2];
};

/* Indexed by enum opt_id. */
static const struct option_def options[O_COUNT] = {
	[O_JSON] = { "json", 0, false, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --json         print one JSON document instead of text\n") } } },
	[O_FORMAT] = { "format", 0, true, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --format F     text, json (= --json), html: one self-contained\n"
	    "                     page (doctor, explain and why), or prometheus:\n"
	    "                     metrics for node_exporter (doctor)\n") } } },
	[O_ROOT] = { "root", 0, true, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --root DIR     read DIR as if it were / (also CUDAWIZ_ROOT);\n"
	    "                     nothing is executed, loaded or fetched\n") } } },
	[O_OFFLINE] = { "offline", 0, false, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --offline      never use the network\n") } } },
	[O_MATRIX] = { "matrix", 0, true, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --matrix FILE  use this compatibility matrix instead of the\n"
	    "                     cached or built-in one\n") } } },
	[O_NO_COLOR] = { "no-color", 0, false, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --no-color     no colour (also NO_COLOR=1); --color forces it\n") } } },
	[O_COLOR] = { "color", 0, false, C_ALL, M_NONE, { { S_NONE, NULL } } },
	[O_ASCII] = { "ascii", 0, false, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --ascii        draw the wizard with ASCII characters only\n") } } },
	[O_NO_MOUSE] = { "no-mouse", 0, false, C_ALL, M_NONE, { { S_COMMON,
	    N_("      --no-mouse     the wizard leaves the mouse to the terminal\n") } } },
	[O_HELP] = { "help", 'h', false, C_ALL, M_NONE, { { S_COMMON,
	    N_("  -h, --help         show this help\n") } } },
	[O_VERSION] = { "version", 'V', false, C_ALL, M_NONE, { { S_COMMON,
	    N_("  -V, --version      show the version\n") } } },
	[O_FROM] = { "from", 0, true, C_WHY, M_FROM, { { S_WHY,
	    N_("      --from FILE    resolve as a dlopen() from this program or\n"
	    "                     library (its RPATH, RUNPATH and what it loads)\n") } } },
	[O_URL] = { "url", 0, true, C_MATRIX, M_MATRIX_UPDATE, { { S_MATRIX,
	    N_("      --url URL      fetch URL (repeatable) instead of the default\n"
	    "                     sources: a cudawiz matrix replaces the data, an\n"
	    "                     NVIDIA redistrib_*.json manifest or a directory\n"
	    "                     listing of them adds releases\n") } } },
	[O_CONNECT_TIMEOUT] = { "connect-timeout", 0, true, C_MATRIX,
	    M_MATRIX_UPDATE, { { S_MATRIX,
	    N_("      --connect-timeout S\n"
	    "                     seconds to connect (default 5)\n") } } },
	[O_TIMEOUT] = { "timeout", 0, true, C_VERIFY | C_DOCTOR | C_ENV | C_MATRIX,
	    M_TIMEOUT, { { S_VERIFY,
	    N_("      --timeout S    seconds each check may take (default 30)\n") },
	    { S_MATRIX,
	    N_("      --timeout S    seconds for each whole download (default 30)\n") } } },
	[O_QUICK] = { "quick", 0, false, C_VERIFY, M_QUICK, { { S_VERIFY,
	    N_("      --quick        verify: small sizes, no bandwidth or FMA runs\n") } } },
	[O_ENV] = { "env", 0, true, C_VERIFY, M_VERIFY_ENV, { { S_VERIFY,
	    N_("      --env DIR      verify: also load this environment's libraries\n"
	    "                     (the active one and the system's always are)\n") } } },
	[O_NO_VERIFY] = { "no-verify", 0, false, C_DOCTOR, M_NO_VERIFY, { { S_VERIFY,
	    N_("      --no-verify    doctor: no live checks, even with a driver\n") } } },
	[O_SHELL] = { "shell", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --shell NAME   sh (bash, zsh, dash, ksh), fish, csh (tcsh),\n"
	    "                     powershell, conda, lmod, tcl, direnv\n"
	    "                     (default: from $SHELL)\n") } } },
	[O_OUTPUT] = { "output", 'o', true, C_ENV | C_DOCTOR | C_SPEC | C_FLEET,
	    M_OUTPUT, { { S_ENV,
	    N_("  -o, --output FILE  write the script to FILE (atomically; an existing\n"
	    "                     file is backed up first) instead of stdout\n") },
	    { S_FLEET,
	    N_("  -o, --output FILE  write the report or spec to FILE atomically (a\n"
	    "                     temporary file renamed over it) instead of stdout\n") } } },
	[O_FORCE] = { "force", 0, false, C_ENV, M_ENV, { { S_ENV,
	    N_("      --force        write even where FILE is a symbolic link\n") } } },
	[O_INSTALL_RC] = { "install-rc", 0, false, C_ENV, M_ENV, { { S_ENV,
	    N_("      --install-rc   add one line sourcing FILE to your shell's rc file\n") } } },
	[O_TOOLKIT] = { "toolkit", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --toolkit V|DIR    use this CUDA toolkit (a version or directory)\n") } } },
	[O_CUDNN] = { "cudnn", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --cudnn DIR        use the cuDNN in DIR\n") } } },
	[O_PYTHON_ENV] = { "python-env", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --python-env DIR   make that environment's frameworks load\n") } } },
	[O_ADD_LIB] = { "add-lib", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --add-lib DIR      put DIR on LD_LIBRARY_PATH (repeatable)\n") } } },
	[O_KEEP_OTHER_CUDA] = { "keep-other-cuda", 0, false, C_ENV, M_ENV, { { S_ENV,
	    N_("      --keep-other-cuda  leave other CUDA versions' directories\n") } } },
	[O_SCOPE] = { "scope", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --scope S      session (default): the script changes the shell\n"
	    "                     it runs in; user (powershell, cmd): also your\n"
	    "                     Windows user environment, for new consoles\n") } } },
	[O_CHECK] = { "check", 0, true, C_ENV, M_ENV, { { S_ENV,
	    N_("      --check FILE   source FILE in its shell and show, library by\n"
	    "                     library, what it changes\n") } } },
	[O_BASELINE] = { "baseline", 0, true, C_DOCTOR | C_FLEET, M_BASELINE,
	    { { S_FLEET,
	    N_("      --baseline FILE  doctor, fleet: compare with this reference\n"
	    "                     machine's spec ('spec export'): each difference\n"
	    "                     is a finding\n") } } },
	[O_MAX_AGE] = { "max-age", 0, true, C_FLEET, M_MAX_AGE, { { S_FLEET,
	    N_("      --max-age H    fleet: a report older than H hours is stale\n"
	    "                     (default 24)\n") } } },
};

/* What was given besides the fields of cli_opts. */
struct parsed {
	struct cli_opts	 opts;
	bool		 given[O_COUNT];
	bool		 ascii;		/* --ascii: only the wizard reads it */
	bool		 no_mouse;	/* --no-mouse: likewise */
	size_t		 urls_cap, add_cap;
};

static void usage_doctor(const struct cli_opts *);
static void usage_why(const struct cli_opts *);
static void usage_explain(const struct cli_opts *);
static void usage_verify(const struct cli_opts *);
static void usage_env(const struct cli_opts *);
static void usage_matrix(const struct cli_opts *);
static void usage_spec(const struct cli_opts *);
static void usage_fleet(const struct cli_opts *);
static void usage_wizard(const struct cli_opts *);

struct command {
	const char	*name;
	/* NULL for the wizard, which takes more than the options
	 * (run_wizard). */
	int		(*run)(const struct cli_opts *);
	const char	*summary;
	unsigned	 bit;
	/* The words after the command it takes (max -1: any number), and
	 * what it says otherwise. An option may stand in for the words:
	 * `why --from FILE` needs no SONAME. */
	int		 min_args, max_args;
	int		 min_unless;		/* an enum opt_id, or -1 */
	void		(*usage)(const struct cli_opts *);
};

static const struct command commands[] = {
	{ "doctor", cmd_doctor,
	    N_("every fact and every finding, with fixes"),
	    C_DOCTOR, 0, 0, -1, usage_doctor },
	{ "why", cmd_why,
	    N_("how the dynamic loader resolves a library, step by step"),
	    C_WHY, 1, 1, O_FROM, usage_why },
	{ "explain", cmd_explain,
	    N_("paste an error message; get the finding and the fix"),
	    C_EXPLAIN, 1, -1, -1, usage_explain },
	{ "verify", cmd_verify,
	    N_("run live GPU checks of the driver, each runtime and each cuDNN"),
	    C_VERIFY, 0, 0, -1, usage_verify },
	{ "env", cmd_env,
	    N_("write an activation script that fixes the environment"),
	    C_ENV, 0, 0, -1, usage_env },
	{ "matrix", cmd_matrix,
	    N_("the compatibility matrix in use: show, path, update"),
	    C_MATRIX, 1, 1, -1, usage_matrix },
	{ "spec", cmd_spec,
	    N_("what matters about this machine, as JSON: spec export"),
	    C_SPEC, 1, 1, -1, usage_spec },
	{ "fleet", cmd_fleet,
	    N_("many hosts' doctor reports: findings, drift, stale hosts"),
	    C_FLEET, 1, -1, -1, usage_fleet },
#ifdef CUDAWIZ_WINDOWS
	{ "wizard", NULL,
	    N_("the wizard's pages one at a time, answered line by line"),
	    C_WIZARD, 0, 0, -1, usage_wizard },
#else
	{ "wizard", NULL,
	    N_("the wizard on this terminal (as plain 'cudawiz' on one)"),
	    C_WIZARD, 0, 0, -1, usage_wizard },
#endif
};

static void
usage_doctor(const struct cli_opts *o)
{
	fprintf(stderr, _("%s: doctor takes no arguments ('%s')\n"),
	    PACKAGE, o->args[0]);
}

static void
usage_why(const struct cli_opts *o)
{
	(void)o;
	fprintf(stderr, _("%s: usage: %s why SONAME [--from FILE] | why --from FILE\n"),
	    PACKAGE, PACKAGE);
}

static void
usage_explain(const struct cli_opts *o)
{
	(void)o;
	fprintf(stderr, _("%s: usage: %s explain TEXT | %s explain - "
	    "(the message on standard input)\n"), PACKAGE, PACKAGE,
	    PACKAGE);
}

static void
usage_verify(const struct cli_opts *o)
{
	fprintf(stderr, _("%s: verify takes no arguments ('%s')\n"),
	    PACKAGE, o->args[0]);
}

static void
usage_env(const struct cli_opts *o)
{
	fprintf(stderr, _("%s: env takes no arguments ('%s')\n"), PACKAGE,
	    o->args[0]);
}

static void
usage_matrix(const struct cli_opts *o)
{
	if (o->nargs == 0)
		fprintf(stderr, _("%s: matrix needs a subcommand: show, path or "
		    "update\n"), PACKAGE);
	else
		fprintf(stderr, _("%s: matrix %s takes no arguments ('%s')\n"),
		    PACKAGE, o->args[0], o->args[1]);
}

static void
usage_spec(const struct cli_opts *o)
{
	if (o->nargs == 0)
		fprintf(stderr, _("%s: spec needs a subcommand: export\n"),
		    PACKAGE);
	else
		fprintf(stderr, _("%s: spec %s takes no arguments ('%s')\n"),
		    PACKAGE, o->args[0], o->args[1]);
}

static void
usage_fleet(const struct cli_opts *o)
{
	(void)o;
	fprintf(stderr, _("%s: usage: %s fleet REPORT.json... | DIR\n"),
	    PACKAGE, PACKAGE);
}

static void
usage_wizard(const struct cli_opts *o)
{
	fprintf(stderr, _("%s: wizard takes no arguments ('%s')\n"),
	    PACKAGE, o->args[0]);
}

/* The messages stay whole sentences (one per group of options) so that
 * they translate as they did. */
static void
say_misplaced(enum misplaced m)
{
	switch (m) {
	case M_MATRIX_UPDATE:
		fprintf(stderr, _("%s: --url and --connect-timeout are options "
		    "of 'matrix update'\n"), PACKAGE);
		break;
	case M_TIMEOUT:
		fprintf(stderr, _("%s: --timeout is an option of 'verify', "
		    "'doctor', 'env --check' and 'matrix update'\n"), PACKAGE);
		break;
	case M_NO_VERIFY:
		fprintf(stderr, _("%s: --no-verify is an option of 'doctor'\n"),
		    PACKAGE);
		break;
	case M_ENV:
		fprintf(stderr, _("%s: --shell, --force, --install-rc, "
		    "--toolkit, --cudnn, --python-env, --add-lib, --keep-other-cuda, "
		    "--scope and --check are options of 'env'\n"), PACKAGE);
		break;
	case M_QUICK:
		fprintf(stderr, _("%s: --quick is an option of 'verify'\n"),
		    PACKAGE);
		break;
	case M_VERIFY_ENV:
		fprintf(stderr, _("%s: --env is an option of 'verify'\n"),
		    PACKAGE);
		break;
	case M_FROM:
		fprintf(stderr, _("%s: --from is an option of 'why'\n"), PACKAGE);
		break;
	case M_OUTPUT:
		fprintf(stderr, _("%s: -o/--output is an option of 'env', "
		    "'doctor', 'spec export' and 'fleet'\n"), PACKAGE);
		break;
	case M_BASELINE:
		fprintf(stderr, _("%s: --baseline is an option of 'doctor' and "
		    "'fleet'\n"), PACKAGE);
		break;
	case M_MAX_AGE:
		fprintf(stderr, _("%s: --max-age is an option of 'fleet'\n"),
		    PACKAGE);
		break;
	case M_NONE:
	case M_COUNT:
		break;
	}
}

static void
usage(FILE *fp)
{
	fprintf(fp, _("Usage: %s [OPTION]... [COMMAND]\n"), PACKAGE);
	fputs(_("Find out why CUDA does not work on this machine, and how to fix it.\n"
	    "With no command, run the wizard on a terminal, else print the doctor report.\n"),
	    fp);
	fputs(_("\nCommands:\n"), fp);
	for (size_t i = 0; i < NELEMS(commands); i++)
		fprintf(fp, "  %-10s  %s\n", commands[i].name,
		    _(commands[i].summary));
	for (int s = S_COMMON; s < S_NONE; s++) {
		fputs(_(section_title[s]), fp);
		for (size_t i = 0; i < O_COUNT; i++)
			for (size_t h = 0; h < NELEMS(options[i].help); h++)
				if (options[i].help[h].text != NULL &&
				    options[i].help[h].section == (enum section)s)
					fputs(_(options[i].help[h].text), fp);
	}
	fputs(_("\nExit status: 0 no error found, 1 an error was found or the action\n"
	    "failed, 2 usage error or cudawiz could not run.\n"), fp);
#ifdef CUDAWIZ_WINDOWS
	fputs(_("\nThis Windows build has 'doctor' (the driver, toolkits, cuDNN,\n"
	    "Python installs and the DLLs their frameworks load, as Windows would\n"
	    "find them), 'verify' (nvcuda.dll, each cudart64_*.dll and\n"
	    "cudnn64_*.dll loaded and tried by cudawiz-verify.exe in a process of\n"
	    "its own), 'explain' (from the message alone), 'why NAME.dll' (the\n"
	    "DLL search on this machine, and Python 3.8+'s), 'matrix show', 'matrix\n"
	    "path' and 'matrix update', and 'env' (a PowerShell or cmd.exe script\n"
	    "that puts the DLLs' directories first on PATH, for this console or\n"
	    "with --scope user for your user environment too), 'spec export' (this\n"
	    "machine's spec, its items named as on Linux) and 'fleet' (many hosts'\n"
	    "reports, Windows and Linux alike).\n"
	    "Only 'matrix update' uses the network (WinHTTP: Windows' proxy settings\n"
	    "and certificate store; --offline refuses it). It keeps the matrix in\n"
	    "LOCALAPPDATA's cudawiz folder ('matrix path'), which every command then\n"
	    "uses unless --matrix FILE is given; before it, the built-in one.\n"), fp);
	fputs(_("\nOn a console, plain 'cudawiz' runs the guided mode, as 'wizard'\n"
	    "does anywhere: the wizard's pages one at a time, each answered by\n"
	    "typing a line (n next, a page's number, d N a finding, q quit).\n"),
	    fp);
#endif
}

/* getopt_long's value for an option: its short name where it has one
 * (the unknown-option message names it), else past every char. */
static int
opt_val(size_t id)
{
	return options[id].short_name != 0 ? options[id].short_name :
	    256 + (int)id;
}

static void
build_getopt(struct option *longopts, char *shortopts)
{
	size_t n = 0;

	for (size_t i = 0; i < O_COUNT; i++) {
		longopts[i] = (struct option){ options[i].name,
		    options[i].arg ? required_argument : no_argument, NULL,
		    opt_val(i) };
		if (options[i].short_name != 0) {
			shortopts[n++] = options[i].short_name;
			if (options[i].arg)
				shortopts[n++] = ':';
		}
	}
	longopts[O_COUNT] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[n] = '\0';
}

/* Whether w is "--NAME" (or "-C" for a short name), or with eq also
 * "--NAME=..." ("-C=..."). */
static bool
names_option(const char *w, const struct option_def *o, bool short_too,
    bool eq)
{
	size_t l;

	if (short_too && o->short_name != 0 && w[0] == '-' &&
	    w[1] == o->short_name && (w[2] == '\0' || (eq && w[2] == '=')))
		return true;
	if (strncmp(w, "--", 2) != 0)
		return false;
	l = strlen(o->name);
	return strncmp(w + 2, o->name, l) == 0 &&
	    (w[2 + l] == '\0' || (eq && w[2 + l] == '='));
}

/* Whether w is an option that takes the next word as its value. */
static bool
takes_next(const char *w)
{
	for (size_t i = 0; i < O_COUNT; i++)
		if (options[i].arg && names_option(w, &options[i], true, false))
			return true;
	return false;
}

/* Whether w is an option complete in itself: one without a value
 * (by its long name) or "--NAME=VALUE". */
static bool
whole_option(const char *w)
{
	for (size_t i = 0; i < O_COUNT; i++)
		if (options[i].arg ? names_option(w, &options[i], true, true) :
		    names_option(w, &options[i], false, false))
			return true;
	return false;
}

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
		if (takes_next(argv[i])) {
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
		if (takes_next(argv[i]) && i + 1 < argc) {
			out[n++] = argv[i];
			out[n++] = argv[++i];
		} else if (whole_option(argv[i])) {
			out[n++] = argv[i];
		}
	}
	out[n++] = (char *)"--";
	for (int i = cmd + 1, after = 0; i < argc; i++) {
		if (!after && strcmp(argv[i], "--") == 0) {
			after = 1;
			continue;
		}
		if (!after && takes_next(argv[i]) && i + 1 < argc) {
			i++;
			continue;
		}
		if (!after && whole_option(argv[i]))
			continue;
		out[n++] = argv[i];
	}
	out[n] = NULL;
	*new_argc = n;
	return out;
}

/* A positive number as "2" or "0.5", at most max, times unit (rounded,
 * at least 1); -1 when not a sane number. --timeout's seconds become
 * milliseconds, --max-age's hours seconds. */
static long
parse_amount(const char *s, double max, double unit)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) ||
	    v <= 0 || v > max)
		return -1;
	return v * unit < 1 ? 1 : (long)(v * unit + 0.5);
}

static long
parse_seconds(const char *s)
{
	return parse_amount(s, TIMEOUT_MAX_S, 1000);
}

static int
bad_seconds(const char *opt, const char *arg)
{
	fprintf(stderr, _("%s: %s: '%s' is not a number of seconds "
	    "(more than 0, at most %d)\n"), PACKAGE, opt, arg, TIMEOUT_MAX_S);
	return EXIT_USAGE;
}

static void
push(const char ***v, size_t *n, size_t *cap, const char *s)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = s;
}

/* --format: the last of --format and --json counts. */
static int
set_format(struct cli_opts *o, const char *arg)
{
	if (strcmp(arg, "text") != 0 && strcmp(arg, "json") != 0 &&
	    strcmp(arg, "html") != 0 && strcmp(arg, "prometheus") != 0) {
		fprintf(stderr, _("%s: --format: '%s' is not one of text, json, "
		    "html, prometheus\n"), PACKAGE, arg);
		return -1;
	}
	o->json = strcmp(arg, "json") == 0;
	o->html = strcmp(arg, "html") == 0;
	o->prometheus = strcmp(arg, "prometheus") == 0;
	return 0;
}

/* Stores one option's value. -1 when the value is refused (said). */
static int
set_option(struct parsed *p, enum opt_id id, const char *arg)
{
	struct cli_opts *o = &p->opts;

	p->given[id] = true;
	switch (id) {
	case O_JSON:
		o->json = true;
		o->html = o->prometheus = false;
		break;
	case O_FORMAT:		return set_format(o, arg);
	case O_ROOT:		o->root = arg; break;
	case O_OFFLINE:		o->offline = true; break;
	case O_MATRIX:		o->matrix_file = arg; break;
	case O_NO_COLOR:	o->color = 0; break;
	case O_COLOR:		o->color = 1; break;
	case O_ASCII:		p->ascii = true; break;
	case O_NO_MOUSE:	p->no_mouse = true; break;
	case O_FROM:		o->from = arg; break;
	case O_URL:		push(&o->urls, &o->nurls, &p->urls_cap, arg); break;
	case O_CONNECT_TIMEOUT:
		if ((o->connect_timeout_ms = parse_seconds(arg)) < 0) {
			(void)bad_seconds("--connect-timeout", arg);
			return -1;
		}
		break;
	case O_TIMEOUT:
		if ((o->timeout_ms = parse_seconds(arg)) < 0) {
			(void)bad_seconds("--timeout", arg);
			return -1;
		}
		break;
	case O_QUICK:		o->quick = true; break;
	case O_ENV:		o->verify_env = arg; break;
	case O_NO_VERIFY:	o->no_verify = true; break;
	case O_SHELL:		o->shell = arg; break;
	case O_OUTPUT:		o->output = arg; break;
	case O_FORCE:		o->force = true; break;
	case O_INSTALL_RC:	o->install_rc = true; break;
	case O_TOOLKIT:		o->toolkit = arg; break;
	case O_CUDNN:		o->cudnn = arg; break;
	case O_PYTHON_ENV:	o->python_env = arg; break;
	case O_ADD_LIB:
		push(&o->add_lib, &o->nadd_lib, &p->add_cap, arg);
		break;
	case O_KEEP_OTHER_CUDA:	o->keep_other_cuda = true; break;
	case O_SCOPE:
		if (strcmp(arg, "session") != 0 && strcmp(arg, "user") != 0) {
			fprintf(stderr, _("%s: --scope: '%s' is not one of session, "
			    "user\n"), PACKAGE, arg);
			return -1;
		}
		o->scope_user = strcmp(arg, "user") == 0;
		break;
	case O_CHECK:		o->check = arg; break;
	case O_BASELINE:	o->baseline = arg; break;
	case O_MAX_AGE:
		if ((o->max_age_s = parse_amount(arg, MAX_AGE_MAX_H, 3600)) < 0) {
			fprintf(stderr, _("%s: --max-age: '%s' is not a number of "
			    "hours (more than 0, at most %d)\n"), PACKAGE, arg,
			    MAX_AGE_MAX_H);
			return -1;
		}
		break;
	case O_HELP:
	case O_VERSION:
	case O_COUNT:
		break;
	}
	return 0;
}

/* One line, for bug reports: the release, the commit it was built from
 * (src/commit.h) and the built-in matrix's date, which says how old its
 * driver and framework rows are. Tools read the part before " (". */
static void
print_version(void)
{
	struct matrix *m = matrix_embedded();

	printf("%s %s (commit %s, matrix %s)\n", PACKAGE, VERSION,
	    CUDAWIZ_COMMIT, matrix_date(m));
	matrix_free(m);
}

/* Reads the options. Returns -1 to go on to the command, else the exit
 * status (--help, --version, a bad option). */
static int
parse(struct parsed *p, int argc, char **argv)
{
	struct option longopts[O_COUNT + 1];
	char shortopts[2 * O_COUNT + 1];
	int c;

	build_getopt(longopts, shortopts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		size_t id = 0;

		while (id < O_COUNT && opt_val(id) != c)
			id++;
		if (id == O_HELP) {
			usage(stdout);
			return EXIT_OK;
		}
		if (id == O_VERSION) {
			print_version();
			return EXIT_OK;
		}
		if (id == O_COUNT) {
			if (optopt != 0 && optopt < 256)
				fprintf(stderr, _("%s: unknown option '-%c'\n"),
				    PACKAGE, optopt);
			else
				fprintf(stderr, _("%s: unknown or incomplete option '%s'\n"),
				    PACKAGE, argv[optind - 1]);
			fprintf(stderr, _("Try '%s --help'.\n"), PACKAGE);
			return EXIT_USAGE;
		}
		if (set_option(p, (enum opt_id)id, optarg) != 0)
			return EXIT_USAGE;
	}
	return -1;
}

/* Options a command does not take are an error, rather than silently
 * ignored. cmds is the command's bit (doctor's when there is no
 * command word; none for an unknown word). */
static int
check_options(const struct parsed *p, unsigned cmds)
{
	for (int m = M_NONE + 1; m < M_COUNT; m++)
		for (size_t i = 0; i < O_COUNT; i++)
			if (options[i].misplaced == (enum misplaced)m &&
			    p->given[i] && (options[i].cmds & cmds) == 0) {
				say_misplaced((enum misplaced)m);
				return -1;
			}
	return 0;
}

/* The number of words after the command, then the one option that needs
 * another (the rc file sources the script, so it must be a file). */
static int
check_words(const struct command *c, const struct parsed *p)
{
	int n = p->opts.nargs;
	bool waived = c->min_unless >= 0 && p->given[c->min_unless];

	if ((n < c->min_args && !waived) || (c->max_args >= 0 && n > c->max_args)) {
		c->usage(&p->opts);
		return -1;
	}
	if (p->opts.html &&
	    (c->bit & (C_DOCTOR | C_WHY | C_EXPLAIN | C_FLEET)) == 0) {
		fprintf(stderr, _("%s: --format html is for 'doctor', 'explain', "
		    "'why' and 'fleet'\n"), PACKAGE);
		return -1;
	}
	if (p->opts.prometheus && c->bit != C_DOCTOR) {
		fprintf(stderr, _("%s: --format prometheus is for 'doctor'\n"),
		    PACKAGE);
		return -1;
	}
	if (p->given[O_INSTALL_RC] && !p->given[O_OUTPUT]) {
		fprintf(stderr, _("%s: --install-rc needs -o FILE: the rc file "
		    "sources that file\n"), PACKAGE);
		return -1;
	}
	return 0;
}

/* Whether what the command prints on stdout is for a person to read, and
 * so goes through safeout: not JSON (jansson escapes control characters
 * itself) or HTML (html_esc replaces them), not a script (its bytes are
 * the point), not a path a shell will use. */
static bool
stdout_is_text(const struct cli_opts *o, const char *name)
{
	if (o->json || o->html || o->prometheus)
		return false;
	if (strcmp(name, "spec") == 0)
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
#ifdef CUDAWIZ_WINDOWS
	/* The wrapping replaces stdout with an fopencookie() stream; the
	 * Windows C runtime has neither (its stdout is not a variable). Not
	 * done there yet: the Windows program writes its streams as they
	 * are (issue 23). */
	(void)o;
	(void)name;
	(void)stdout_is_text;
#else
	if (stdout_is_text(o, name))
		(void)safeout_wrap(&stdout,
		    style_want_color(STDOUT_FILENO, o->color));
	(void)safeout_wrap(&stderr, false);
#endif
}

static const struct command *
find_command(const char *name)
{
	for (size_t i = 0; i < NELEMS(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* No command word: the wizard on a terminal; off one (a pipe, a
 * notebook cell, TERM=dumb) or with --json or --format html, the doctor
 * report. */
static int
run_default(struct parsed *p)
{
	if (!p->opts.json && !p->opts.html && cmd_wizard_wanted())
		return cmd_wizard(&p->opts, p->ascii, !p->no_mouse);
	guard_output(&p->opts, "doctor");
	p->opts.next_steps = !p->opts.json && !p->opts.html;
	return cmd_doctor(&p->opts);
}

/* The wizard asked for by name. On Linux it needs a terminal, and says
 * so rather than print the report that plain `cudawiz` would; on
 * Windows it is the guided mode, which reads lines from stdin whatever
 * stdin is (so it can be driven by a pipe). */
static int
run_wizard(struct parsed *p)
{
#ifndef CUDAWIZ_WINDOWS
	if (!cmd_wizard_wanted()) {
		fprintf(stderr, _("%s: the wizard needs a terminal (standard "
		    "input and output on one, TERM set and not 'dumb'); '%s "
		    "doctor' prints the report\n"), PACKAGE, PACKAGE);
		return EXIT_USAGE;
	}
#endif
	return cmd_wizard(&p->opts, p->ascii, !p->no_mouse);
}

static int
dispatch(struct parsed *p, int argc, char **argv)
{
	const char *name = optind < argc ? argv[optind] : "doctor";
	const struct command *c = find_command(name);

	if (check_options(p, c != NULL ? c->bit : 0) != 0)
		return EXIT_USAGE;
	if (optind == argc)
		return run_default(p);
	if (c == NULL) {
		fprintf(stderr, _("%s: unknown command '%s'\n"), PACKAGE, name);
		fprintf(stderr, _("Try '%s --help'.\n"), PACKAGE);
		return EXIT_USAGE;
	}
	p->opts.args = argv + optind + 1;
	p->opts.nargs = argc - optind - 1;
	if (check_words(c, p) != 0)
		return EXIT_USAGE;
	if (c->run == NULL)
		return run_wizard(p);
	guard_output(&p->opts, name);
	return c->run(&p->opts);
}

int
cli_main(int argc, char **argv)
{
	struct parsed p = { .opts = { .color = -1 } };
	char **ex_argv;
	int rc, ex_argc = 0;

	if ((ex_argv = explain_argv(argc, argv, &ex_argc)) != NULL) {
		argc = ex_argc;
		argv = ex_argv;
	}
	p.opts.root = getenv("CUDAWIZ_ROOT");
	if ((rc = parse(&p, argc, argv)) < 0)
		rc = dispatch(&p, argc, argv);
	free(p.opts.urls);
	free(p.opts.add_lib);
	free(ex_argv);
	return rc;
}

int
cmd_report_exit(int print_rc, const struct findings *fs)
{
	if (print_rc == 0 && fflush(stdout) != 0)
		print_rc = -1;
	if (print_rc != 0) {
		perror(PACKAGE ": writing the report");
		return EXIT_USAGE;
	}
	return findings_count(fs, SEV_ERROR) > 0 ? EXIT_FINDINGS : EXIT_OK;
}
