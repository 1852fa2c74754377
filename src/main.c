/* cudawiz: find out why CUDA does not work, prove what does, write the fix. */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "i18n.h"
#include "util/selfexe.h"
#include "util/xalloc.h"

#ifdef ENABLE_NLS
/* The portable tarball unpacks anywhere: its catalogs lie in locale/
 * beside the binary. NULL in other builds, or when there is none. */
static char *
catalogs_beside(void)
{
#ifdef CUDAWIZ_PORTABLE
	char *exe = self_exe_dir(), *dir;
	struct stat st;

	if (exe == NULL)
		return NULL;
	dir = xasprintf("%s/locale", exe);
	free(exe);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return dir;
	free(dir);
#endif
	return NULL;
}

/* CUDAWIZ_LOCALEDIR lets the test suite use catalogs built in the tree;
 * a catalog only changes the words shown, never what is done. */
static void
bind_catalogs(void)
{
	const char *dir = getenv("CUDAWIZ_LOCALEDIR");
	char *beside = NULL;

	if (dir == NULL || *dir == '\0') {
		beside = catalogs_beside();
		dir = beside != NULL ? beside : LOCALEDIR;
	}
	bindtextdomain(PACKAGE, dir);
	textdomain(PACKAGE);
	free(beside);
}
#endif

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
#ifdef ENABLE_NLS
	bind_catalogs();
#endif
	return cli_main(argc, argv);
}
