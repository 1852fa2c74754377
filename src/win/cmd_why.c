/* cudawiz why NAME.dll in the Windows program: which file LoadLibrary
 * would load for NAME on this machine, step by step, by the DLL search
 * model (winload/dllsearch.h) over the live system (every drive): System32 and
 * the Windows directory as GetSystemDirectoryW and GetWindowsDirectoryW
 * say, the current directory, PATH, the KnownDLLs of the registry, and
 * as the application directory that of the python.exe found first on
 * PATH (CUDA DLLs are mostly loaded by Python frameworks). Nothing is
 * loaded: the answer is the model's.
 *
 * Two searches are shown: the standard order (LoadLibrary from
 * python.exe: PATH is searched), and what Python 3.8 and later do for an
 * extension module's dependencies (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS with
 * the module's own directory: PATH and the current directory are not
 * searched). A DLL found only through PATH loads for the first and not
 * for the second; os.add_dll_directory(DIR) is then the fix. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "cmd.h"
#include "i18n.h"
#include "present/html.h"
#include "sysroot/sysroot.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "util/wstr.h"
#include "winload/dllsearch.h"

/* x64: the program and the Python it stands for. */
static unsigned short machine = 0x8664;

/* What GetSystemDirectoryW, GetWindowsDirectoryW, GetCurrentDirectoryW
 * give; NULL on failure. */
static char *
system_dir(UINT (WINAPI *get)(LPWSTR, UINT))
{
	wchar_t w[MAX_PATH + 1];
	UINT n = get(w, MAX_PATH + 1);

	return n > 0 && n <= MAX_PATH ? wstr_utf8(w) : NULL;
}

static char *
current_dir(void)
{
	DWORD n = GetCurrentDirectoryW(0, NULL);
	wchar_t *w;
	char *s = NULL;

	if (n == 0)
		return NULL;
	w = xcalloc(n + 1, sizeof *w);
	if (GetCurrentDirectoryW(n + 1, w) > 0)
		s = wstr_utf8(w);
	free(w);
	return s;
}

static char *
path_var(void)
{
	DWORD n = GetEnvironmentVariableW(L"PATH", NULL, 0);
	wchar_t *w;
	char *s = NULL;

	if (n == 0)
		return NULL;
	w = xcalloc(n + 1, sizeof *w);
	if (GetEnvironmentVariableW(L"PATH", w, n + 1) > 0)
		s = wstr_utf8(w);
	free(w);
	return s;
}

/* The KnownDLLs: the values of the Session Manager's KnownDLLs key
 * (their data are the names). None when the key cannot be read. */
static void
known_dlls(struct strv *out)
{
	HKEY key;
	wchar_t name[256], data[MAX_PATH];

	if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SYSTEM\\CurrentControlSet\\"
	    L"Control\\Session Manager\\KnownDLLs", 0, KEY_READ, &key) !=
	    ERROR_SUCCESS)
		return;
	for (DWORD i = 0; i < 1000; i++) {
		DWORD nlen = 256, dlen = sizeof data - sizeof *data, type;
		char *s;

		if (RegEnumValueW(key, i, name, &nlen, NULL, &type,
		    (BYTE *)data, &dlen) != ERROR_SUCCESS)
			break;
		if (type != REG_SZ)
			continue;
		data[dlen / sizeof *data] = L'\0';
		if ((s = wstr_utf8(data)) != NULL)
			strv_push_owned(out, s);
	}
	RegCloseKey(key);
}

/* The directory of the first python.exe on PATH (as the shell would run
 * it: the current directory is not looked in), or NULL. */
static char *
python_dir(const struct sysroot *sr, const char *path)
{
	struct strv dirs = STRV_INIT;
	char *found = NULL;

	if (path == NULL)
		return NULL;
	strv_split(&dirs, path, ";");
	for (size_t i = 0; i < dirs.n && found == NULL; i++) {
		struct dllsearch_env env = { .sr = sr, .all_drives = true };
		struct dll_resolution r;
		const char *d = dirs.v[i];
		size_t len = strlen(d);
		char *exe;

		if (len < 3 || d[1] != ':')
			continue;
		/* The model finds files case-insensitively over the drive:
		 * an absolute name is opened there only. */
		exe = xasprintf("%s%spython.exe", d,
		    d[len - 1] == '\\' || d[len - 1] == '/' ? "" : "\\");
		if (dllsearch_resolve(&env, exe, &r))
			found = xstrndup(d, len - (d[len - 1] == '\\' ||
			    d[len - 1] == '/'));
		dll_resolution_free(&r);
		free(exe);
	}
	strv_free(&dirs);
	return found;
}

struct live {
	struct sysroot	*sr;
	char		*system32, *windows, *system16, *cwd, *path, *python;
	struct strv	 known;
};

static int
live_open(struct live *l)
{
	char *err = NULL;

	memset(l, 0, sizeof *l);
	l->known = (struct strv)STRV_INIT;
	if ((l->sr = sysroot_new(NULL, &err)) == NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		return -1;
	}
	l->system32 = system_dir(GetSystemDirectoryW);
	l->windows = system_dir(GetWindowsDirectoryW);
	if (l->windows != NULL)
		l->system16 = xasprintf("%s\\System", l->windows);
	l->cwd = current_dir();
	l->path = path_var();
	l->python = python_dir(l->sr, l->path);
	known_dlls(&l->known);
	return 0;
}

static void
live_close(struct live *l)
{
	sysroot_free(l->sr);
	free(l->system32);
	free(l->windows);
	free(l->system16);
	free(l->cwd);
	free(l->path);
	free(l->python);
	strv_free(&l->known);
}

static void
env_of(const struct live *l, unsigned flags, struct dllsearch_env *env)
{
	memset(env, 0, sizeof *env);
	env->sr = l->sr;
	env->all_drives = true;
	env->drive = l->system32 != NULL ? l->system32[0] : 0;
	env->app_dir = l->python;
	env->system32_dir = l->system32;
	env->system16_dir = l->system16;
	env->windows_dir = l->windows;
	env->cwd = l->cwd;
	env->path = l->path;
	env->flags = flags;
	env->known_dlls = &l->known;
	env->image_check = dllsearch_check_pe;
	env->image_arg = &machine;
}

/* The directory of a resolved Windows path. */
static char *
dir_of(const char *path)
{
	const char *s = strrchr(path, '\\');

	return s == NULL ? xstrdup(path) : xstrndup(path, (size_t)(s - path));
}

/* ---------------------------------------------------------------- text */

static const char *
source_words(enum dllsearch_source s)
{
	switch (s) {
	case DLLSRC_GIVEN:	return _("the path given");
	case DLLSRC_LOADED:	return _("already loaded");
	case DLLSRC_KNOWN_DLLS:	return _("KnownDLLs");
	case DLLSRC_DLL_LOAD_DIR: return _("the module's directory");
	case DLLSRC_APP_DIR:	return _("application dir");
	case DLLSRC_USER_DIR:	return _("AddDllDirectory");
	case DLLSRC_SYSTEM32:	return _("System32");
	case DLLSRC_SYSTEM16:	return _("System");
	case DLLSRC_WINDOWS:	return _("Windows dir");
	case DLLSRC_CURRENT_DIR: return _("current dir");
	case DLLSRC_PATH:	return "PATH";
	case DLLSRC_NONE:	break;
	}
	return "?";
}

static const char *
result_words(enum dllsearch_result r)
{
	switch (r) {
	case DLLSTEP_NOT_FOUND:	return _("not there");
	case DLLSTEP_DIR_MISSING: return _("no such directory");
	case DLLSTEP_FOUND:	return _("FOUND");
	case DLLSTEP_SKIPPED:	return _("skipped");
	case DLLSTEP_FATAL:	return _("stops the search");
	}
	return "?";
}

static void
print_resolution(const struct dll_resolution *r)
{
	for (size_t i = 0; i < r->steps.n; i++) {
		const struct dllsearch_step *s = &r->steps.v[i];
		const char *where = s->path != NULL ? s->path :
		    s->dir != NULL ? s->dir : s->spec != NULL ? s->spec : "";

		printf("  %2zu. %-16s %s: %s", i + 1, source_words(s->source),
		    where, result_words(s->result));
		if (s->detail != NULL)
			printf(" (%s)", s->detail);
		putchar('\n');
	}
	if (r->steps_cut > 0)
		printf(_("      … and %zu more steps\n"), r->steps_cut);
	if (r->resolved != NULL)
		printf(_("  => loads %s\n"), r->resolved);
	else
		printf(_("  => fails: error %u: %s\n"), r->error,
		    r->error_text != NULL ? r->error_text : "");
}

/* ---------------------------------------------------------------- json */

static json_t *
resolution_json(const struct dll_resolution *r)
{
	json_t *o = json_object(), *steps = json_array(), *copies = json_array();

	for (size_t i = 0; i < r->steps.n; i++) {
		const struct dllsearch_step *s = &r->steps.v[i];
		json_t *j = json_object();

		json_object_set_new(j, "source",
		    json_string(dllsearch_source_name(s->source)));
		json_object_set_new(j, "dir", s->dir != NULL ?
		    json_string(s->dir) : json_null());
		json_object_set_new(j, "path", s->path != NULL ?
		    json_string(s->path) : json_null());
		json_object_set_new(j, "result",
		    json_string(dllsearch_result_name(s->result)));
		if (s->detail != NULL)
			json_object_set_new(j, "detail", json_string(s->detail));
		json_array_append_new(steps, j);
	}
	for (size_t i = 0; i < r->other_copies.n; i++)
		json_array_append_new(copies, json_string(r->other_copies.v[i]));
	json_object_set_new(o, "resolved", r->resolved != NULL ?
	    json_string(r->resolved) : json_null());
	json_object_set_new(o, "via", r->resolved != NULL ?
	    json_string(dllsearch_source_name(r->via)) : json_null());
	json_object_set_new(o, "error", json_integer(r->error));
	json_object_set_new(o, "error_text", r->error_text != NULL ?
	    json_string(r->error_text) : json_null());
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "steps_cut", json_integer((json_int_t)r->steps_cut));
	json_object_set_new(o, "other_copies", copies);
	return o;
}

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* ------------------------------------------------------------- command */

/* --json, or the page over the same document (present/html.h). */
static int
write_doc(const struct cli_opts *opts, const json_t *o)
{
	if (opts->html)
		return html_print_win_why(stdout, o);
	if (json_dumpf(o, stdout, JSON_INDENT(2)) != 0 || putchar('\n') == EOF)
		return -1;
	return 0;
}

int
cmd_why(const struct cli_opts *opts)
{
	struct dll_resolution std, py;
	struct dllsearch_env env;
	struct live l;
	const char *name;
	char *fix_dir = NULL;
	bool std_ok, py_ok;
	int rc;

	if (opts->nargs != 1 || opts->from != NULL) {
		fprintf(stderr, _("%s: why: on Windows give one DLL name "
		    "('%s why cudart64_110.dll'); --from is not available "
		    "on Windows yet\n"), PACKAGE, PACKAGE);
		return EXIT_USAGE;
	}
	if (opts->root != NULL) {
		fprintf(stderr, _("%s: why: --root is not available on Windows "
		    "yet\n"), PACKAGE);
		return EXIT_USAGE;
	}
	name = opts->args[0];
	if (live_open(&l) != 0)
		return EXIT_USAGE;
	env_of(&l, 0, &env);
	std_ok = dllsearch_resolve(&env, name, &std);
	/* The extension module's own directory is searched first as well;
	 * which module asks is not known here. */
	env_of(&l, DLLSEARCH_F_DEFAULT_DIRS, &env);
	py_ok = dllsearch_resolve(&env, name, &py);
	if (std_ok && !py_ok && (std.via == DLLSRC_PATH ||
	    std.via == DLLSRC_CURRENT_DIR))
		fix_dir = dir_of(std.resolved);

	if (opts->json || opts->html) {
		json_t *o = json_object();
		json_t *sys = json_object();

		json_object_set_new(o, "name", json_string(name));
		json_object_set_new(sys, "system32", str_or_null(l.system32));
		json_object_set_new(sys, "windows", str_or_null(l.windows));
		json_object_set_new(sys, "current_dir", str_or_null(l.cwd));
		json_object_set_new(sys, "path", str_or_null(l.path));
		json_object_set_new(sys, "python_dir", str_or_null(l.python));
		json_object_set_new(o, "system", sys);
		json_object_set_new(o, "standard", resolution_json(&std));
		json_object_set_new(o, "python38", resolution_json(&py));
		json_object_set_new(o, "add_dll_directory", str_or_null(fix_dir));
		rc = write_doc(opts, o);
		json_decref(o);
	} else {
		printf(_("How Windows would load %s on this machine\n"), name);
		printf(_("  System32:      %s\n"), l.system32 != NULL ? l.system32 : _("(unknown)"));
		printf(_("  Windows dir:   %s\n"), l.windows != NULL ? l.windows : _("(unknown)"));
		printf(_("  current dir:   %s\n"), l.cwd != NULL ? l.cwd : _("(unknown)"));
		printf(_("  python.exe:    %s\n"), l.python != NULL ? l.python :
		    _("none on PATH (no application directory is searched)"));
		printf(_("\nLoadLibrary from python.exe (the standard order, "
		    "PATH included):\n"));
		print_resolution(&std);
		if (std.other_copies.n > 0) {
			printf(_("  other copies in the directories searched:\n"));
			for (size_t i = 0; i < std.other_copies.n; i++)
				printf("    %s\n", std.other_copies.v[i]);
		}
		printf(_("\nPython 3.8 and later, for an extension module's "
		    "dependencies (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS: the "
		    "module's own directory first, then the ones below; PATH "
		    "and the current directory are not searched):\n"));
		print_resolution(&py);
		if (fix_dir != NULL)
			printf(_("\n%s is found only through %s, which Python 3.8 "
			    "and later do not search. Before the import, add:\n"
			    "    import os\n"
			    "    os.add_dll_directory(r\"%s\")\n"), name,
			    std.via == DLLSRC_PATH ? "PATH" : _("the current directory"),
			    fix_dir);
		rc = 0;
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0) {
		perror(PACKAGE ": writing the report");
		rc = EXIT_USAGE;
	} else {
		rc = std_ok && py_ok ? EXIT_OK : EXIT_FINDINGS;
	}
	free(fix_dir);
	dll_resolution_free(&std);
	dll_resolution_free(&py);
	live_close(&l);
	return rc;
}
