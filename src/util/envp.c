/* See envp.h. */
#include "config.h"

#include <string.h>

#include "util/envp.h"

const char *
envp_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp != NULL && *envp != NULL; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}
