/* cudawiz: find out why CUDA does not work, prove what does, write the fix. */
#include "config.h"

#include <locale.h>
#include <stdlib.h>

#include "cli.h"
#include "i18n.h"

#ifdef ENABLE_NLS
/* CUDAWIZ_LOCALEDIR lets the test suite use catalogs built in the tree;
 * a catalog only changes the words shown, never what is done. */
static void
bind_catalogs(void)
{
	const char *dir = getenv("CUDAWIZ_LOCALEDIR");

	bindtextdomain(PACKAGE, dir != NULL && *dir != '\0' ? dir : LOCALEDIR);
	textdomain(PACKAGE);
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
