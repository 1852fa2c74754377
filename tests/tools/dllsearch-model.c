/* dllsearch-model: one search of the Windows DLL search model, printed
 * one line a step, for a differential test to hold against what
 * LoadLibraryExW does under Wine with the same layout.
 *
 *   dllsearch-model --root DIR [--drive C] [--app-dir W] [--cwd W]
 *       [--path 'W;W;…'] [--system32 W] [--system W] [--windows W]
 *       [--unsafe] [--flags default|python|system32|0xHEX]
 *       [--dll-load-dir W] [--user-dir W]… [--known NAME]…
 *       [--loaded W]… [--machine x64|x86|arm64] NAME
 *
 * W is a Windows path; DIR the directory standing for the drive. Output,
 * tab-separated, "-" for an empty field:
 *
 *   step	SOURCE	INDEX	RESULT	DIR	FILE	DETAIL
 *   copy	PATH
 *   winner	PATH	SOURCE
 *   error	CODE	TEXT
 *
 * Exit: 0 resolved, 1 not resolved, 2 usage. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"
#include "winload/dllsearch.h"

static void
usage(void)
{
	fprintf(stderr, "usage: dllsearch-model --root DIR [--drive C] [--app-dir W] "
	    "[--cwd W] [--path P] [--system32 W] [--system W] [--windows W] "
	    "[--unsafe] [--flags default|python|system32|0xHEX] [--dll-load-dir W] "
	    "[--user-dir W]... [--known NAME]... [--loaded W]... "
	    "[--machine x64|x86|arm64] NAME\n");
	exit(2);
}

static const char *
or_dash(const char *s)
{
	return s != NULL && s[0] != '\0' ? s : "-";
}

int
main(int argc, char **argv)
{
	struct dllsearch_env env;
	struct dll_resolution r;
	struct strv user = STRV_INIT, known = STRV_INIT, loaded = STRV_INIT;
	const char *rootdir = NULL, *name = NULL;
	unsigned short machine = 0;
	struct sysroot *sr;
	char *err = NULL;
	bool found;

	memset(&env, 0, sizeof env);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

#define OPT(s) (strcmp(a, (s)) == 0 && (v != NULL || (usage(), 0)) && ++i)
		if (OPT("--root"))
			rootdir = v;
		else if (OPT("--drive"))
			env.drive = v[0];
		else if (OPT("--app-dir"))
			env.app_dir = v;
		else if (OPT("--cwd"))
			env.cwd = v;
		else if (OPT("--path"))
			env.path = v;
		else if (OPT("--system32"))
			env.system32_dir = v;
		else if (OPT("--system"))
			env.system16_dir = v;
		else if (OPT("--windows"))
			env.windows_dir = v;
		else if (OPT("--dll-load-dir"))
			env.dll_load_dir = v;
		else if (OPT("--user-dir"))
			strv_push(&user, v);
		else if (OPT("--known"))
			strv_push(&known, v);
		else if (OPT("--loaded"))
			strv_push(&loaded, v);
		else if (OPT("--flags")) {
			if (strcmp(v, "default") == 0)
				env.flags = DLLSEARCH_F_DEFAULT_DIRS;
			else if (strcmp(v, "python") == 0)
				env.flags = DLLSEARCH_F_PYTHON38;
			else if (strcmp(v, "system32") == 0)
				env.flags = DLLSEARCH_F_SYSTEM32;
			else {
				char *end;

				env.flags = (unsigned)strtoul(v, &end, 0);
				if (*end != '\0')
					usage();
			}
		} else if (OPT("--machine")) {
			if (strcmp(v, "x64") == 0)
				machine = 0x8664;
			else if (strcmp(v, "x86") == 0)
				machine = 0x14c;
			else if (strcmp(v, "arm64") == 0)
				machine = 0xaa64;
			else
				usage();
		} else if (strcmp(a, "--unsafe") == 0)
			env.unsafe_search_mode = true;
		else if (a[0] == '-' && a[1] == '-')
			usage();
		else if (name == NULL)
			name = a;
		else
			usage();
#undef OPT
	}
	if (rootdir == NULL || name == NULL)
		usage();
	sr = sysroot_new(rootdir, &err);
	if (sr == NULL) {
		fprintf(stderr, "dllsearch-model: %s\n", err);
		free(err);
		return 2;
	}
	env.sr = sr;
	env.user_dirs = &user;
	env.known_dlls = &known;
	env.loaded = &loaded;
	if (machine != 0) {
		env.image_check = dllsearch_check_pe;
		env.image_arg = &machine;
	}
	found = dllsearch_resolve(&env, name, &r);
	for (size_t i = 0; i < r.steps.n; i++) {
		const struct dllsearch_step *s = &r.steps.v[i];

		printf("step\t%s\t%zu\t%s\t%s\t%s\t%s\n",
		    dllsearch_source_name(s->source), s->index,
		    dllsearch_result_name(s->result), or_dash(s->dir),
		    or_dash(s->path), or_dash(s->detail));
	}
	if (r.steps_cut > 0)
		printf("cut\t%zu\n", r.steps_cut);
	for (size_t i = 0; i < r.other_copies.n; i++)
		printf("copy\t%s\n", r.other_copies.v[i]);
	if (found)
		printf("winner\t%s\t%s\n", r.resolved, dllsearch_source_name(r.via));
	else
		printf("error\t%u\t%s\n", r.error, or_dash(r.error_text));
	dll_resolution_free(&r);
	strv_free(&user);
	strv_free(&known);
	strv_free(&loaded);
	sysroot_free(sr);
	return found ? 0 : 1;
}
