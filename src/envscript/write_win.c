/* script_write_file and script_target_exists (envscript.h) for the
 * Windows program, in place of write.c (links, fchown, flock and mkstemp
 * have no Windows meaning): the text goes to a temporary file beside the
 * target, flushed to disk, and is moved over the name in one step
 * (MoveFileExW, replacing); a file that was there is first copied to
 * PATH.bak, PATH.bak.1 … (never replacing a backup). Names are UTF-8 and
 * go to the wide API, so any name Windows holds works. */
#include "config.h"

#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "envscript/envscript.h"
#include "i18n.h"
#include "util/wstr.h"
#include "util/xalloc.h"

/* The system's words for GetLastError()'s code. Owned. */
static char *
win_error(DWORD code)
{
	wchar_t *w = NULL;
	char *s;
	size_t n;

	if (FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER |
	    FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
	    code, 0, (wchar_t *)&w, 0, NULL) == 0 || w == NULL)
		return xasprintf("error %lu", (unsigned long)code);
	s = wstr_utf8(w);
	LocalFree(w);
	if (s == NULL)
		return xasprintf("error %lu", (unsigned long)code);
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
	    s[n - 1] == '.'))
		s[--n] = '\0';
	return s;
}

static char *
say(const char *fmt, const char *a, DWORD code)
{
	char *why = win_error(code), *s = xasprintf(fmt, a, why);

	free(why);
	return s;
}

/* Copies target to the first free PATH.bak[.N]. Owned name, or NULL
 * with *err. */
static char *
backup_of(const char *target, char **err)
{
	wchar_t *wt = wstr_wide(target);

	for (unsigned i = 0; wt != NULL && i < 10000; i++) {
		char *bak = i == 0 ? xasprintf("%s.bak", target) :
		    xasprintf("%s.bak.%u", target, i);
		wchar_t *wb = wstr_wide(bak);
		DWORD e;

		if (wb != NULL && CopyFileW(wt, wb, TRUE)) {
			free(wb);
			free(wt);
			return bak;
		}
		e = GetLastError();
		free(wb);
		if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS) {
			*err = say(_("cannot keep a backup of %s: %s"), target, e);
			free(bak);
			free(wt);
			return NULL;
		}
		free(bak);
	}
	free(wt);
	*err = xasprintf(_("cannot keep a backup of %s: too many backups "
	    "already (%s.bak.*)"), target, target);
	return NULL;
}

int
script_write_file(const char *path, const char *text, bool force,
    char **backup, char **err)
{
	char *tmp = NULL, *bak = NULL;
	wchar_t *wp = NULL, *wtmp = NULL;
	DWORD attr;
	FILE *fp = NULL;
	size_t len = strlen(text);
	int rc = -1;

	(void)force;	/* a link is written through, as NTFS opens it */
	*backup = NULL;
	if (*path == '\0') {
		*err = xstrdup(_("cannot write a file with an empty name"));
		return -1;
	}
	wp = wstr_wide(path);
	tmp = xasprintf("%s.cudawiz-%lu", path, (unsigned long)GetCurrentProcessId());
	wtmp = wstr_wide(tmp);
	if (wp == NULL || wtmp == NULL) {
		*err = xasprintf(_("cannot write %s: %s"), path,
		    _("the name is not valid UTF-8"));
		goto out;
	}
	attr = GetFileAttributesW(wp);
	if (attr != INVALID_FILE_ATTRIBUTES &&
	    (attr & FILE_ATTRIBUTE_DIRECTORY) != 0) {
		*err = xasprintf(_("cannot write %s: %s"), path,
		    _("it is a directory"));
		goto out;
	}
	fp = _wfopen(wtmp, L"wb");
	if (fp == NULL) {
		*err = xasprintf(_("cannot write %s: %s"), tmp, strerror(errno));
		goto out;
	}
	if (fwrite(text, 1, len, fp) != len || fflush(fp) != 0 ||
	    _commit(_fileno(fp)) != 0) {
		*err = xasprintf(_("cannot write %s: %s"), tmp, strerror(errno));
		fclose(fp);
		goto fail;
	}
	if (fclose(fp) != 0) {
		*err = xasprintf(_("cannot write %s: %s"), tmp, strerror(errno));
		goto fail;
	}
	if (attr != INVALID_FILE_ATTRIBUTES &&
	    (bak = backup_of(path, err)) == NULL)
		goto fail;
	if (!MoveFileExW(wtmp, wp, MOVEFILE_REPLACE_EXISTING |
	    MOVEFILE_WRITE_THROUGH)) {
		*err = say(_("cannot write %s: %s"), path, GetLastError());
		if (bak != NULL) {
			wchar_t *wb = wstr_wide(bak);

			if (wb != NULL)
				(void)DeleteFileW(wb);
			free(wb);
			FREE(&bak);
		}
		goto fail;
	}
	*backup = bak;
	rc = 0;
	goto out;
fail:
	(void)DeleteFileW(wtmp);
out:
	free(tmp);
	free(wtmp);
	free(wp);
	return rc;
}

bool
script_target_exists(const char *path)
{
	wchar_t *w = wstr_wide(path);
	bool there = w != NULL && GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;

	free(w);
	return there;
}
