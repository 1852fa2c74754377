/* Dotted version numbers such as "535.104.05", "13.0" or "9.19.0". */
#ifndef CUDAWIZ_VERSION_H
#define CUDAWIZ_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#define VERSION_MAX_PARTS 4

struct version {
	unsigned	part[VERSION_MAX_PARTS];
	size_t		nparts;		/* 0: not a valid version */
};

/* Parses exactly "N(.N){0,3}" with each N at most 9 digits; anything else
 * (letters, empty parts, trailing junk) fails. */
bool	version_parse(const char *s, struct version *out);
/* Like version_parse on the first len bytes. */
bool	version_parsen(const char *s, size_t len, struct version *out);
/* Compares part by part; a missing part counts as 0. */
int	version_cmp(const struct version *a, const struct version *b);
/* True when s is a valid version string. */
bool	version_valid(const char *s);
/* Compares two version strings; 0 when either does not parse. */
int	version_cmp_str(const char *a, const char *b);
/* The first part of a version string ("12" of "12.4"); 0 when NULL or
 * not a version. */
unsigned version_major_str(const char *v);
/* Python package names compare as pip compares them (PEP 503): case
 * aside, and any run of '-', '_' and '.' the same as one '-'. */
bool	pkg_name_eq(const char *a, const char *b);

#endif
