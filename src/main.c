/* cudawiz: find out why CUDA does not work, prove what does, write the fix. */
#include "config.h"

#include <locale.h>

#include "cli.h"
#include "i18n.h"

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
#ifdef ENABLE_NLS
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif
	return cli_main(argc, argv);
}
