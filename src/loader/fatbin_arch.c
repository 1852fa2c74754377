/* fatbin_arch_cc (fatbin.h), apart from the fatbin reader: the rules
 * turn architecture names into compute capabilities without libelf (the
 * Windows program has none). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "loader/fatbin.h"

bool
fatbin_arch_cc(const char *arch, char *buf, size_t n)
{
	const char *p;
	unsigned v = 0;
	size_t digits = 0;
	int len;

	if (n > 0)
		buf[0] = '\0';
	if (arch == NULL || n == 0)
		return false;
	if (strncmp(arch, "sm_", 3) == 0)
		p = arch + 3;
	else if (strncmp(arch, "compute_", 8) == 0)
		p = arch + 8;
	else
		return false;
	if (*p == '0')
		return false;
	while (*p >= '0' && *p <= '9' && digits <= 3) {
		v = v * 10 + (unsigned)(*p - '0');
		p++;
		digits++;
	}
	if (digits < 2 || digits > 3)
		return false;
	if (*p == 'a' || *p == 'f')
		p++;
	if (*p != '\0')
		return false;
	len = snprintf(buf, n, "%u.%u", v / 10, v % 10);
	if (len < 0 || (size_t)len >= n) {
		buf[0] = '\0';
		return false;
	}
	return true;
}
