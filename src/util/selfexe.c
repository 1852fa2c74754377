/* Where the running program lies (see selfexe.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>

#include "util/pathnorm.h"
#include "util/selfexe.h"

char *
self_exe_dir(void)
{
	char self[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		if (n == 0)
			errno = ENOENT;
		return NULL;
	}
	self[n] = '\0';
	return path_dirname(self);
}
