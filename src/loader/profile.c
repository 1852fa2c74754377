/* Placeholder; see profile.h. */
#include "config.h"

#include <string.h>

#include "loader/profile.h"

void
loader_profile_init(struct loader_profile *prof, const struct sysroot *sr)
{
	(void)sr;
	memset(prof, 0, sizeof *prof);
}

void
loader_profile_free(struct loader_profile *prof)
{
	(void)prof;
}
