#include "config.h"

#include "envscript/envscript_int.h"
#include "util/xalloc.h"

int
render_pwsh(const struct prep *pr, const char *version, struct script_text *out,
    char **err)
{
	(void)pr; (void)version; (void)out;
	*err = xstrdup("not yet");
	return -1;
}
