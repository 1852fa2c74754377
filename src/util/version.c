/* Version strings; see version.h. */
#include "config.h"

#include <string.h>

#include "util/version.h"

bool
version_parsen(const char *s, size_t len, struct version *out)
{
	struct version v = { { 0 }, 0 };
	size_t i = 0;

	while (i < len) {
		unsigned n = 0;
		size_t digits = 0;

		if (v.nparts == VERSION_MAX_PARTS)
			return false;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (++digits > 9)
				return false;
			n = n * 10 + (unsigned)(s[i] - '0');
			i++;
		}
		if (digits == 0)
			return false;
		v.part[v.nparts++] = n;
		if (i == len)
			break;
		if (s[i] != '.' || i + 1 == len)
			return false;
		i++;
	}
	if (v.nparts == 0)
		return false;
	if (out != NULL)
		*out = v;
	return true;
}

bool
version_parse(const char *s, struct version *out)
{
	return version_parsen(s, strlen(s), out);
}

bool
version_valid(const char *s)
{
	return s != NULL && version_parse(s, NULL);
}

int
version_cmp(const struct version *a, const struct version *b)
{
	for (size_t i = 0; i < VERSION_MAX_PARTS; i++) {
		unsigned x = i < a->nparts ? a->part[i] : 0;
		unsigned y = i < b->nparts ? b->part[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

int
version_cmp_str(const char *a, const char *b)
{
	struct version va, vb;

	if (!version_parse(a, &va) || !version_parse(b, &vb))
		return 0;
	return version_cmp(&va, &vb);
}

unsigned
version_major_str(const char *v)
{
	struct version ver;

	return v != NULL && version_parse(v, &ver) ? ver.part[0] : 0;
}

static char
tolower_ascii(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

static bool
is_name_sep(char ch)
{
	return ch == '-' || ch == '_' || ch == '.';
}

bool
pkg_name_eq(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (is_name_sep(*a) && is_name_sep(*b)) {
			while (is_name_sep(*a))
				a++;
			while (is_name_sep(*b))
				b++;
			continue;
		}
		if (tolower_ascii(*a) != tolower_ascii(*b))
			return false;
		a++;
		b++;
	}
	return *a == '\0' && *b == '\0';
}
