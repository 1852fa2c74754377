/* Option parsing and command dispatch; see cli.h.
 *
 * Common options are accepted before or after the command word, so
 * "cudawiz --json doctor" and "cudawiz doctor --json" are the same. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"

struct command {
	const char	*name;
	int		(*run)(const struct cli_opts *);
	const char	*summary;
};

static const struct command commands[] = {
	{ "doctor", cmd_doctor,
	    N_("every fact and every finding, with fixes") },
};

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
	    "      --no-color     no colour (also NO_COLOR=1); --color forces it\n"
	    "  -h, --help         show this help\n"
	    "  -V, --version      show the version\n"), fp);
	fputs(_("\nExit status: 0 no error found, 1 an error was found or the action\n"
	    "failed, 2 usage error or cudawiz could not run.\n"), fp);
}

int
cli_main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_ROOT, OPT_OFFLINE, OPT_NO_COLOR, OPT_COLOR };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "offline", no_argument, NULL, OPT_OFFLINE },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "color", no_argument, NULL, OPT_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_opts opts = { .color = -1 };
	const char *name;
	int c;

	opts.root = getenv("CUDAWIZ_ROOT");
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
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
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("%s %s\n", PACKAGE, VERSION);
			return EXIT_OK;
		default:
			if (optopt != 0 && optopt < 256)
				fprintf(stderr, _("%s: unknown option '-%c'\n"),
				    PACKAGE, optopt);
			else
				fprintf(stderr, _("%s: unknown or incomplete option '%s'\n"),
				    PACKAGE, argv[optind - 1]);
			fprintf(stderr, _("Try '%s --help'.\n"), PACKAGE);
			return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		/* The wizard is not built yet: on a terminal and off one,
		 * the doctor report is what cudawiz shows. */
		return cmd_doctor(&opts);
	}
	name = argv[optind];
	opts.args = argv + optind + 1;
	opts.nargs = argc - optind - 1;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(commands[i].name, name) != 0)
			continue;
		return commands[i].run(&opts);
	}
	fprintf(stderr, _("%s: unknown command '%s'\n"), PACKAGE, name);
	fprintf(stderr, _("Try '%s --help'.\n"), PACKAGE);
	return EXIT_USAGE;
}
