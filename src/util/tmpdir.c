/* Where a program makes its own short-lived files (see tmpdir.h). */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "util/tmpdir.h"

const char *
tmpdir_base(void)
{
	const char *v[] = { getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR") };

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (v[i] != NULL && v[i][0] == '/' &&
		    access(v[i], W_OK | X_OK) == 0)
			return v[i];
	return "/tmp";
}
