/* Colour decisions for the text report; see style.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "present/style.h"

bool
style_want_color(int fd, int flag)
{
	const char *v;

	if (flag >= 0)
		return flag == 1;
	v = getenv("NO_COLOR");
	if (v != NULL && *v != '\0')
		return false;
	v = getenv("TERM");
	if (v == NULL || strcmp(v, "dumb") == 0)
		return false;
	return isatty(fd) == 1;
}

const char *
style_sev_on(enum severity sev, bool color)
{
	if (!color)
		return "";
	switch (sev) {
	case SEV_ERROR:
		return "\033[1;31m";
	case SEV_WARNING:
		return "\033[1;33m";
	case SEV_INFO:
		break;
	}
	return "\033[1;36m";
}

const char *
style_bold(bool color)
{
	return color ? "\033[1m" : "";
}

const char *
style_off(bool color)
{
	return color ? "\033[0m" : "";
}
