/* What every back end of the sysroot layer (sysroot.c, sysroot_win.c)
 * answers the same way, from sysroot_stat(). */
#include "config.h"

#include <stdbool.h>
#include <sys/stat.h>

#include "sysroot/sysroot.h"

bool
sysroot_is_dir(const struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool
sysroot_exists(const struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st) == 0;
}
