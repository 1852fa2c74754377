/* fleet --format html in the Windows program: not there yet. The HTML
 * presenters build their page in an open_memstream buffer, which mingw
 * does not have; this stands in for present/fleet.h's fleet_print_html
 * so the shared cmd_fleet.c links, and says so instead of writing a
 * page. Text and --json are the shared presenters'. */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "i18n.h"
#include "present/fleet.h"

int
fleet_print_html(FILE *fp, const struct fleet *fl)
{
	(void)fp;
	(void)fl;
	fprintf(stderr, _("%s: fleet --format html is not available on "
	    "Windows yet; use text or --json\n"), PACKAGE);
	errno = ENOSYS;
	return -1;
}
