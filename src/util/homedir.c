/* The user's home directory; see homedir.h. */
#include "config.h"

#include <stdlib.h>

#include "util/homedir.h"

const char *
home_dir(void)
{
	const char *home = getenv("HOME");

	return home != NULL && home[0] == '/' ? home : NULL;
}
