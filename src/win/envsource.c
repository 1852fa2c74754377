/* See envsource.h. The script is never named on a command line: a copy
 * of it under a name of cudawiz's own (cudawiz-check-PID-N.cmd) is made
 * in the temporary directory and run from there by that bare name, with
 * that directory current. cmd.exe reads a command line through its
 * percent, caret and CALL expansions, which no quoting survives (a path
 * may hold %, ^, & and !); the name it gets holds none of them. The
 * scripts cudawiz writes do not look at where they are (no %~dp0,
 * $PSScriptRoot), so the copy does what the file does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "i18n.h"
#include "util/readfile.h"
#include "util/strv.h"
#include "util/wstr.h"
#include "util/xalloc.h"
#include "verify/spawn_win.h"
#include "win/envsource.h"

/* The first bytes read for the "cudawiz-format:" line, which the
 * writers put in the first lines. */
#define HEAD_BYTES	4096
/* The environment read back: more is not a shell's `set`. */
#define ENV_OUT_CAP	(4u << 20)
/* Names tried for the copy before giving up. */
#define COPY_TRIES	100
/* The line the shell prints between the script's own output and the
 * environment. */
#define MARK		"cudawiz-env-check-8c1d5e"

int
win_script_format(const char *file, enum script_format *fmt, char **err)
{
	char *data = NULL, *why = NULL, word[32];
	const char *at;
	size_t len, n = 0;
	int rc = readfile_capped(file, 1u << 20, &data, &len, &why);

	if (rc == 1) {
		*err = xasprintf(_("%s: no such file"), file);
		return -1;
	}
	if (rc != 0) {
		*err = xasprintf("%s: %s", file, why);
		free(why);
		return -1;
	}
	if (len > HEAD_BYTES)
		data[HEAD_BYTES] = '\0';
	if ((at = strstr(data, "cudawiz-format:")) != NULL) {
		at += strlen("cudawiz-format:");
		while (*at == ' ' || *at == '\t')
			at++;
		while (n + 1 < sizeof word && at[n] >= 'a' && at[n] <= 'z')
			n++;
		memcpy(word, at, n);
		word[n] = '\0';
	}
	free(data);
	if (at == NULL || !script_format_parse(word, fmt)) {
		*err = xasprintf(_("%s: not a script cudawiz wrote (it has no "
		    "\"cudawiz-format:\" line): env --check proves only what "
		    "'%s env' writes"), file, PACKAGE);
		return -1;
	}
	if (*fmt != SCRIPT_CMD && *fmt != SCRIPT_POWERSHELL) {
		*err = xasprintf(_("%s: a %s script, which Windows does not run: "
		    "on Windows, env --check runs cmd and powershell scripts"),
		    file, script_format_name(*fmt));
		return -1;
	}
	return 0;
}

/* dir (a directory of the system: no quote in it) + rest, if a file is
 * there. Owned UTF-8, or NULL. */
static char *
system_file(const wchar_t *rest)
{
	wchar_t w[MAX_PATH + 64];
	UINT n = GetSystemDirectoryW(w, MAX_PATH);
	DWORD a;

	if (n == 0 || n >= MAX_PATH || wcslen(rest) + n >= sizeof w / sizeof *w)
		return NULL;
	wcscat(w, rest);
	a = GetFileAttributesW(w);
	if (a == INVALID_FILE_ATTRIBUTES || (a & FILE_ATTRIBUTE_DIRECTORY))
		return NULL;
	return wstr_utf8(w);
}

static char *
on_path(const wchar_t *name)
{
	wchar_t w[MAX_PATH];
	DWORD n = SearchPathW(NULL, name, NULL, MAX_PATH, w, NULL);

	return n > 0 && n < MAX_PATH ? wstr_utf8(w) : NULL;
}

/* The shell for fmt, owned; NULL with *err. */
static char *
shell_for(enum script_format fmt, char **err)
{
	char *s;

	if (fmt == SCRIPT_CMD) {
		if ((s = system_file(L"\\cmd.exe")) == NULL)
			*err = xstrdup(_("cmd.exe is not in the system directory"));
		return s;
	}
	if ((s = system_file(L"\\WindowsPowerShell\\v1.0\\powershell.exe")) != NULL ||
	    (s = on_path(L"pwsh.exe")) != NULL)
		return s;
	*err = xstrdup(_("PowerShell is not installed here (neither "
	    "powershell.exe in the system directory nor pwsh.exe on PATH), "
	    "so a PowerShell script cannot be checked: run it in PowerShell "
	    "and then 'cudawiz doctor' there"));
	return NULL;
}

/* file copied into the temporary directory as cudawiz-check-PID-N.ext:
 * *dir (the directory) and the bare name, both owned; -1 with *err. */
static int
copy_in_temp(const char *file, const char *ext, wchar_t **dir, char **name,
    char **err)
{
	wchar_t tmp[MAX_PATH + 1], *src = wstr_wide(file);
	DWORD n = GetTempPathW(MAX_PATH + 1, tmp), e = ERROR_INVALID_NAME;

	if (src == NULL || n == 0 || n > MAX_PATH) {
		free(src);
		*err = xasprintf(_("%s: cannot copy it to the temporary "
		    "directory"), file);
		return -1;
	}
	for (unsigned i = 0; i < COPY_TRIES; i++) {
		char *base = xasprintf("cudawiz-check-%lu-%u%s",
		    (unsigned long)GetCurrentProcessId(), i, ext);
		wchar_t *wb = wstr_wide(base), *dst;

		dst = xmalloc((wcslen(tmp) + wcslen(wb) + 1) * sizeof *dst);
		wcscpy(dst, tmp);
		wcscat(dst, wb);
		free(wb);
		if (CopyFileW(src, dst, TRUE)) {
			free(dst);
			free(src);
			*dir = xmalloc((wcslen(tmp) + 1) * sizeof **dir);
			wcscpy(*dir, tmp);
			*name = base;
			return 0;
		}
		e = GetLastError();
		free(dst);
		free(base);
		if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS)
			break;
	}
	free(src);
	{
		char *why = wstr_error(e);

		*err = xasprintf(_("%s: cannot copy it to the temporary "
		    "directory: %s"), file, why);
		free(why);
	}
	return -1;
}

static void
remove_copy(const wchar_t *dir, const char *name)
{
	wchar_t *wn = wstr_wide(name), *p;

	if (wn == NULL)
		return;
	p = xmalloc((wcslen(dir) + wcslen(wn) + 1) * sizeof *p);
	wcscpy(p, dir);
	wcscat(p, wn);
	(void)DeleteFileW(p);
	free(p);
	free(wn);
}

/* The shell's bytes as UTF-8: PowerShell is told to write UTF-8;
 * cmd.exe's `set` writes the console's code page, which is the OEM one
 * when it has no console. Owned. */
static char *
as_utf8(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
	wchar_t *w;
	char *u;

	if (n > 0)
		return xstrdup(s);
	if ((n = MultiByteToWideChar(CP_OEMCP, 0, s, -1, NULL, 0)) <= 0)
		return xstrdup(s);
	w = xmalloc((size_t)n * sizeof *w);
	MultiByteToWideChar(CP_OEMCP, 0, s, -1, w, n);
	u = wstr_utf8(w);
	free(w);
	return u != NULL ? u : xstrdup(s);
}

void
win_env_canonical(char **envp)
{
	static const char *const names[] = { "PATH=", "CUDA_PATH=" };

	for (size_t i = 0; envp[i] != NULL; i++)
		for (size_t j = 0; j < sizeof names / sizeof *names; j++)
			if (_strnicmp(envp[i], names[j], strlen(names[j])) == 0)
				memcpy(envp[i], names[j], strlen(names[j]));
}

/* The "NAME=value" lines after the mark, into out->envp. */
static int
read_env(const char *text, struct sourced *out)
{
	struct strv lines = STRV_INIT, env = STRV_INIT;
	bool after = false;
	char *u = as_utf8(text);

	strv_split(&lines, u, "\n");
	free(u);
	for (size_t i = 0; i < lines.n; i++) {
		char *l = lines.v[i];
		size_t n = strlen(l);

		while (n > 0 && (l[n - 1] == '\r' || l[n - 1] == ' '))
			l[--n] = '\0';
		if (!after) {
			after = strcmp(l, MARK) == 0;
			continue;
		}
		/* cmd.exe's per-drive directories ("=C:=C:\x") are no
		 * variables. */
		if (l[0] != '=' && strchr(l, '=') != NULL)
			strv_push(&env, l);
	}
	strv_free(&lines);
	if (!after) {
		strv_free(&env);
		return -1;
	}
	out->envp = xcalloc(env.n + 1, sizeof *out->envp);
	for (size_t i = 0; i < env.n; i++)
		out->envp[i] = xstrdup(env.v[i]);
	strv_free(&env);
	win_env_canonical(out->envp);
	return 0;
}

int
win_script_source(const char *file, enum script_format fmt,
    unsigned long timeout_ms, struct sourced *out, char **err)
{
	const char *argv[12];
	struct winrun res;
	wchar_t *dir = NULL, here[MAX_PATH + 1];
	char *name = NULL, *line = NULL;
	DWORD hn;
	size_t k = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if ((out->shell = shell_for(fmt, err)) == NULL)
		return -1;
	if (copy_in_temp(file, fmt == SCRIPT_CMD ? ".cmd" : ".ps1", &dir,
	    &name, err) != 0)
		return -1;
	argv[k++] = out->shell;
	if (fmt == SCRIPT_CMD) {
		/* /d: no AutoRun command of the registry's runs first. */
		line = xasprintf("call %s&& echo " MARK "&& set", name);
		argv[k++] = "/d";
		argv[k++] = "/c";
	} else {
		line = xasprintf("$ErrorActionPreference = 'Stop'; . .\\%s; "
		    "[Console]::OutputEncoding = [Text.Encoding]::UTF8; "
		    "Write-Output '" MARK "'; Get-ChildItem env: | "
		    "ForEach-Object { $_.Name + '=' + $_.Value }", name);
		argv[k++] = "-NoProfile";
		argv[k++] = "-NonInteractive";
		argv[k++] = "-ExecutionPolicy";
		argv[k++] = "Bypass";
		argv[k++] = "-Command";
	}
	argv[k++] = line;
	argv[k] = NULL;
	out->how = xasprintf("%s %s", out->shell, line);
	/* The child starts in the directory of the copy; this process's
	 * own is put back before anything else is looked at. */
	hn = GetCurrentDirectoryW(MAX_PATH + 1, here);
	if (hn == 0 || hn > MAX_PATH || !SetCurrentDirectoryW(dir)) {
		*err = xstrdup(_("cannot enter the temporary directory"));
		goto out;
	}
	/* winrun quotes the line as one argument; cmd.exe, seeing '&'
	 * in it, takes off the outer quotes and runs it as it stands. */
	rc = winrun(argv, timeout_ms, ENV_OUT_CAP, &res);
	(void)SetCurrentDirectoryW(here);
	if (rc != 0) {
		*err = xasprintf(_("%s: the shell could not be run"), file);
		goto out;
	}
	rc = -1;
	if (res.how == WINRUN_NOSTART) {
		char *why = wstr_error(res.code);

		*err = xasprintf(_("%s could not start: %s"), out->shell, why);
		free(why);
	} else if (res.how == WINRUN_TIMEOUT) {
		*err = xasprintf(_("%s: the script did not finish within %lu "
		    "ms"), file, timeout_ms);
	} else if (res.how == WINRUN_CRASHED || res.code != 0) {
		*err = xasprintf(_("%s: the script failed (%s exited with "
		    "%lu)"), file, out->shell, res.code);
	} else if (res.truncated || read_env(res.out != NULL ? res.out : "",
	    out) != 0) {
		/* Wine's powershell.exe is such a shell: it runs nothing. */
		*err = xasprintf(_("%s: %s did not give back the environment "
		    "the script leaves (it printed no end mark after running "
		    "it)"), file, out->shell);
	} else {
		rc = 0;
	}
	free(res.out);
out:
	remove_copy(dir, name);
	free(dir);
	free(name);
	free(line);
	return rc;
}

void
win_sourced_free(struct sourced *s)
{
	if (s->envp != NULL)
		for (size_t i = 0; s->envp[i] != NULL; i++)
			free(s->envp[i]);
	free(s->envp);
	free(s->shell);
	free(s->how);
	memset(s, 0, sizeof *s);
}
