/* step_result_name (resolve.h), apart from the resolver: the JSON views
 * name step results without the loader model (the Windows program has
 * no ELF reader). */
#include "config.h"

#include "loader/resolve.h"

const char *
step_result_name(enum step_result r)
{
	switch (r) {
	case STEP_NOT_FOUND:
		return "not_found";
	case STEP_DIR_MISSING:
		return "dir_missing";
	case STEP_FOUND:
		return "found";
	case STEP_SKIPPED:
		return "skipped";
	case STEP_FATAL:
		return "fatal";
	case STEP_DROPPED:
		return "dropped";
	case STEP_NODEFLIB:
		break;
	}
	return "nodeflib";
}
