/* script_write_file and script_target_exists (envscript.h) for the
 * Windows program, in place of write.c (links, fchown, flock and mkstemp
 * have no Windows meaning). The file is put in place by util's atomic
 * writer (atomicfile_win.c: a temporary beside it, flushed, moved over
 * the name in one step); what a script adds is the backup: a file that
 * was there is first copied to PATH.bak, PATH.bak.1 … (never replacing
 * a backup), and that copy is removed again when the write fails. Names
 * are UTF-8 and go to the wide API, so any name Windows holds works. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "envscript/envscript.h"
#include "i18n.h"
#include "util/atomicfile.h"
#include "util/wstr.h"
#include "util/xalloc.h"

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
			char *why = wstr_error(e);

			*err = xasprintf(_("cannot keep a backup of %s: %s"),
			    target, why);
			free(why);
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
	wchar_t *wp;
	DWORD attr;
	char *bak = NULL;

	(void)force;	/* a link is written through, as NTFS opens it */
	*backup = NULL;
	if (*path == '\0') {
		*err = xstrdup(_("cannot write a file with an empty name"));
		return -1;
	}
	if ((wp = wstr_wide(path)) == NULL) {
		*err = xasprintf(_("cannot write %s: %s"), path,
		    _("the name is not valid UTF-8"));
		return -1;
	}
	attr = GetFileAttributesW(wp);
	if (attr != INVALID_FILE_ATTRIBUTES &&
	    (attr & FILE_ATTRIBUTE_DIRECTORY) == 0 &&
	    (bak = backup_of(path, err)) == NULL) {
		free(wp);
		return -1;
	}
	if (atomic_write_file(path, text, strlen(text), err) != 0) {
		if (bak != NULL) {
			wchar_t *wb = wstr_wide(bak);

			if (wb != NULL)
				(void)DeleteFileW(wb);
			free(wb);
			free(bak);
		}
		free(wp);
		return -1;
	}
	free(wp);
	*backup = bak;
	return 0;
}

bool
script_target_exists(const char *path)
{
	wchar_t *w = wstr_wide(path);
	bool there = w != NULL && GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;

	free(w);
	return there;
}
