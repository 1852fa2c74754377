/* Which files a fleet reads: the words of the command line, a directory
 * standing for its *.json files. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet/fleet.h"
#include "util/strv.h"
#include "util/xalloc.h"

static bool
is_report_name(const char *name)
{
	size_t n = strlen(name);

	/* Hidden files are left out as a shell's *.json leaves them: an
	 * editor's or a copy's temporary. */
	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static void
add_dir(struct fleet *fl, const char *dir)
{
	struct strv names = STRV_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (d == NULL) {
		fleet_add_bad(fl, dir, xstrdup(strerror(errno)));
		return;
	}
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (is_report_name(de->d_name))
			strv_pushf(&names, "%s%s%s", dir,
			    dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		errno = 0;
	}
	/* What was listed is still read; the rest of the directory is one
	 * unreadable entry under its name. */
	if (errno != 0)
		fleet_add_bad(fl, dir, xstrdup(strerror(errno)));
	(void)closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++)
		fleet_add_file(fl, names.v[i]);
	strv_free(&names);
}

void
fleet_add_arg(struct fleet *fl, const char *arg)
{
	struct stat st;

	/* stat(2) opens nothing, so a FIFO named here does not wait; the
	 * file itself is opened by the reader, which takes regular files
	 * only. */
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		add_dir(fl, arg);
	else
		fleet_add_file(fl, arg);
}
