/* The matrix schema: one table per kind of row (each field's key, kind
 * and place in the C struct), and the patterns a string of each kind must
 * match; see schema_int.h and data/SCHEMA.md. The tables drive parsing,
 * copying, freeing and writing, so those cannot drift apart. */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "matrix/schema_int.h"
#include "util/utf8width.h"
#include "util/version.h"

const char *const mx_status_words[] = {
	[MATRIX_CONFIRMED] = "confirmed",
	[MATRIX_DERIVED] = "derived",
	[MATRIX_SECONDARY] = "secondary",
	[MATRIX_UNCONFIRMED] = "unconfirmed",
};
const char *const mx_loads_words[] = {
	[MATRIX_LOADS_DLOPEN] = "dlopen",
	[MATRIX_LOADS_NEEDED] = "needed",
};
const char *const mx_bundles_words[] = {
	[MATRIX_BUNDLES_NO] = "no",
	[MATRIX_BUNDLES_YES] = "yes",
	[MATRIX_BUNDLES_OPTIONAL] = "optional",
};


#define STR(k, kd, s)		{ .key = #k, .kind = kd, .off = offsetof(s, k) }
#define STRNULL(k, kd, s)	{ .key = #k, .kind = kd, .nullable = true, .off = offsetof(s, k) }
#define LIST(k, it, s)		{ .key = #k, .kind = K_STRINGS, .item = it, .off = offsetof(s, k) }
#define UINTF(k, s)		{ .key = #k, .kind = K_UINT, .lo = 1, .hi = UINT_FIELD_MAX, .off = offsetof(s, k) }
#define STATUS(s)		{ .key = "status", .kind = K_STATUS, .off = offsetof(s, status) }
/* Fields added after schema 1's first release: absent is NULL, empty or 0. */
#define OPTSTR(k, kd, s)	{ .key = #k, .kind = kd, .nullable = true, .optional = true, .off = offsetof(s, k) }
#define OPTLIST(k, it, s)	{ .key = #k, .kind = K_STRINGS, .item = it, .optional = true, .off = offsetof(s, k) }
#define TABLE(s, f, chk)	{ sizeof(s), f, sizeof (f) / sizeof (f)[0], chk, #s }

static const struct field range_fields[] = {
	STR(min, K_VERSION, struct matrix_range),
	STRNULL(max, K_VERSION, struct matrix_range),
};
static const struct table range_table = TABLE(struct matrix_range, range_fields, mx_check_range);

static const struct field cuda_release_fields[] = {
	STR(version, K_VERSION, struct matrix_cuda_release),
	STR(label, K_TEXT, struct matrix_cuda_release),
	STR(linux_driver, K_DRIVER, struct matrix_cuda_release),
	STRNULL(windows_driver, K_DRIVER, struct matrix_cuda_release),
	STATUS(struct matrix_cuda_release),
};
static const struct table cuda_release_table = TABLE(struct matrix_cuda_release,
    cuda_release_fields, NULL);

static const struct field cuda_major_fields[] = {
	UINTF(major, struct matrix_cuda_major),
	STRNULL(minor_compat_linux, K_DRIVER, struct matrix_cuda_major),
	STRNULL(minor_compat_windows, K_DRIVER, struct matrix_cuda_major),
	STRNULL(max_driver_branch, K_DRIVER, struct matrix_cuda_major),
	STR(lowest_cc, K_CC, struct matrix_cuda_major),
	STR(highest_cc, K_CC, struct matrix_cuda_major),
	LIST(dropped_cc, K_CC, struct matrix_cuda_major),
	STATUS(struct matrix_cuda_major),
};
static const struct table cuda_major_table = TABLE(struct matrix_cuda_major,
    cuda_major_fields, mx_check_cuda_major);

static const struct field architecture_fields[] = {
	STR(cc, K_CC, struct matrix_architecture),
	STR(name, K_TEXT, struct matrix_architecture),
	STRNULL(first_cuda, K_VERSION, struct matrix_architecture),
	STRNULL(last_cuda, K_VERSION, struct matrix_architecture),
	STATUS(struct matrix_architecture),
	OPTSTR(last_driver_branch, K_DRIVER, struct matrix_architecture),
	OPTSTR(first_driver_branch, K_DRIVER, struct matrix_architecture),
};
static const struct table architecture_table = TABLE(struct matrix_architecture,
    architecture_fields, mx_check_architecture);

static const struct field gpu_fields[] = {
	STR(name, K_TEXT, struct matrix_gpu),
	LIST(pci_ids, K_PCI_ID, struct matrix_gpu),
	STR(cc, K_CC, struct matrix_gpu),
	STATUS(struct matrix_gpu),
};
static const struct table gpu_table = TABLE(struct matrix_gpu, gpu_fields, NULL);

static const struct field cudnn_release_fields[] = {
	{ .key = "versions", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_cudnn_release, versions) },
	{ .key = "cuda", .kind = K_ROWS, .sub = &range_table,
	  .off = offsetof(struct matrix_cudnn_release, cuda) },
	STRNULL(driver_linux, K_DRIVER, struct matrix_cudnn_release),
	STATUS(struct matrix_cudnn_release),
};
static const struct table cudnn_release_table = TABLE(struct matrix_cudnn_release,
    cudnn_release_fields, NULL);

static const struct field cudnn_library_fields[] = {
	UINTF(major, struct matrix_cudnn_library),
	LIST(sonames, K_SONAME, struct matrix_cudnn_library),
	STR(header, K_TEXT, struct matrix_cudnn_library),
	STRNULL(windows_dll, K_DLL, struct matrix_cudnn_library),
	STATUS(struct matrix_cudnn_library),
};
static const struct table cudnn_library_table = TABLE(struct matrix_cudnn_library,
    cudnn_library_fields, NULL);

static const struct field soname_fields[] = {
	STR(library, K_PACKAGE, struct matrix_soname),
	{ .key = "cuda", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_soname, cuda) },
	STR(soname, K_SONAME, struct matrix_soname),
	STRNULL(windows_dll, K_DLL, struct matrix_soname),
	STATUS(struct matrix_soname),
};
static const struct table soname_table = TABLE(struct matrix_soname, soname_fields, NULL);

static const struct field wheel_fields[] = {
	STR(package, K_PACKAGE, struct matrix_wheel),
	UINTF(cuda_major, struct matrix_wheel),
	STR(lib_dir, K_RELPATH, struct matrix_wheel),
	LIST(provides, K_SONAME, struct matrix_wheel),
	STATUS(struct matrix_wheel),
};
static const struct table wheel_table = TABLE(struct matrix_wheel, wheel_fields, NULL);

static const struct field conda_fields[] = {
	STR(name, K_PACKAGE, struct matrix_conda_package),
	STR(role, K_TEXT, struct matrix_conda_package),
	STATUS(struct matrix_conda_package),
};
static const struct table conda_table = TABLE(struct matrix_conda_package, conda_fields, NULL);

static const struct field build_fields[] = {
	STRNULL(variant, K_TEXT, struct matrix_build),
	STR(cuda, K_VERSION, struct matrix_build),
	STRNULL(cudnn, K_VERSION, struct matrix_build),
	LIST(sonames, K_SONAME, struct matrix_build),
	{ .key = "loads", .kind = K_LOADS, .off = offsetof(struct matrix_build, loads) },
	{ .key = "bundles_cuda", .kind = K_BUNDLES,
	  .off = offsetof(struct matrix_build, bundles_cuda) },
	LIST(ccs, K_CC, struct matrix_build),
	{ .key = "default", .member = "is_default", .kind = K_BOOL,
	  .off = offsetof(struct matrix_build, is_default) },
	/* Added for issue 19. */
	OPTLIST(ptx, K_CC, struct matrix_build),
	OPTSTR(ccs_source, K_URL, struct matrix_build),
};
static const struct table build_table = TABLE(struct matrix_build, build_fields, NULL);

static const struct field fw_check_fields[] = {
	STR(package, K_PACKAGE, struct matrix_fw_check),
	{ .key = "versions", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_fw_check, versions) },
	STR(library, K_PACKAGE, struct matrix_fw_check),
	STRNULL(min, K_VERSION, struct matrix_fw_check),
	STR(when, K_PACKAGE, struct matrix_fw_check),
	STR(source, K_URL, struct matrix_fw_check),
	STATUS(struct matrix_fw_check),
};
static const struct table fw_check_table = TABLE(struct matrix_fw_check,
    fw_check_fields, mx_check_fw_check);

static const struct field framework_fields[] = {
	STR(name, K_PACKAGE, struct matrix_framework),
	LIST(packages, K_PACKAGE, struct matrix_framework),
	{ .key = "versions", .kind = K_OBJECT, .sub = &range_table,
	  .off = offsetof(struct matrix_framework, versions) },
	{ .key = "builds", .kind = K_ROWS, .sub = &build_table,
	  .off = offsetof(struct matrix_framework, builds) },
	STATUS(struct matrix_framework),
	/* Added for issue 19. */
	{ .key = "checks", .kind = K_ROWS, .sub = &fw_check_table, .optional = true,
	  .off = offsetof(struct matrix_framework, checks) },
};
static const struct table framework_table = TABLE(struct matrix_framework,
    framework_fields, mx_check_framework);

static const struct field published_fields[] = {
	STR(channel, K_PACKAGE, struct matrix_published),
	STR(package, K_PUBNAME, struct matrix_published),
	{ .key = "versions", .kind = K_ROWS, .sub = &range_table, .optional = true,
	  .off = offsetof(struct matrix_published, versions) },
	{ .key = "cuda_major", .kind = K_UINT, .lo = 0, .hi = UINT_FIELD_MAX,
	  .optional = true, .off = offsetof(struct matrix_published, cuda_major) },
	OPTSTR(index_url, K_URL, struct matrix_published),
	OPTLIST(distros, K_PACKAGE, struct matrix_published),
	STR(source, K_URL, struct matrix_published),
	STATUS(struct matrix_published),
};
static const struct table published_table = TABLE(struct matrix_published,
    published_fields, NULL);

#define SECTION(k, t) { .key = #k, .kind = K_ROWS, .sub = &t, .off = offsetof(struct matrix, k) }

/* In enum matrix_section order after the first three. */
const struct field mx_top_fields[] = {
	{ .key = "schema", .kind = K_SCHEMA },
	STR(date, K_DATE, struct matrix),
	{ .key = "refresh_days", .kind = K_UINT, .lo = 1, .hi = 3650,
	  .off = offsetof(struct matrix, refresh_days) },
	SECTION(cuda_releases, cuda_release_table),
	SECTION(cuda_majors, cuda_major_table),
	SECTION(architectures, architecture_table),
	SECTION(gpus, gpu_table),
	SECTION(cudnn_releases, cudnn_release_table),
	SECTION(cudnn_libraries, cudnn_library_table),
	SECTION(sonames, soname_table),
	SECTION(wheels, wheel_table),
	SECTION(conda_packages, conda_table),
	SECTION(frameworks, framework_table),
	/* Sections added later are optional, like fields. */
	{ .key = "published", .kind = K_ROWS, .sub = &published_table, .optional = true,
	  .off = offsetof(struct matrix, published) },
};
const struct table mx_top_table = TABLE(struct matrix, mx_top_fields, NULL);

/* ------------------------------------------------------------- patterns */

static bool
is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool
is_lower_alnum(char ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z');
}

bool
mx_is_alnum(char ch)
{
	return is_lower_alnum(ch) || (ch >= 'A' && ch <= 'Z');
}

/* A run of lo to hi digits at s[*i]; advances *i past it. */
static bool
digits(const char *s, size_t len, size_t *i, size_t lo, size_t hi)
{
	size_t n = 0;

	while (*i < len && is_digit(s[*i])) {
		(*i)++;
		n++;
	}
	return n >= lo && n <= hi;
}

/* ^[0-9]{3}(\.[0-9]{1,3}){0,2}$ */
static bool
match_driver(const char *s, size_t len)
{
	size_t i = 0;

	if (!digits(s, len, &i, 3, 3))
		return false;
	for (int part = 0; part < 2 && i < len; part++) {
		if (s[i++] != '.' || !digits(s, len, &i, 1, 3))
			return false;
	}
	return i == len;
}

/* ^[0-9]{1,2}\.[0-9]$ */
static bool
match_cc(const char *s, size_t len)
{
	size_t i = 0;

	if (!digits(s, len, &i, 1, 2) || i >= len || s[i++] != '.')
		return false;
	return digits(s, len, &i, 1, 1) && i == len;
}

static unsigned
num(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	return v;
}

/* YYYY-MM-DD that names a day of the Gregorian calendar. */
static bool
match_date(const char *s, size_t len)
{
	static const unsigned char mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned y, mo, d;

	if (len != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (i != 4 && i != 7 && !is_digit(s[i]))
			return false;
	y = num(s, 4);
	mo = num(s + 5, 2);
	d = num(s + 8, 2);
	if (y == 0 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
		return false;
	if (mo == 2 && d == 29)
		return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
	return true;
}

static bool
is_soname_char(char ch)
{
	return mx_is_alnum(ch) || ch == '_' || ch == '+' || ch == '-';
}

/* ^lib[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*\.so(\.[0-9]+)*$
 * The numeric tail is taken off first: only after all of it is gone can
 * what is left end in ".so", so no backtracking is needed. */
static bool
match_soname(const char *s, size_t len)
{
	size_t end = len, i;

	for (;;) {
		size_t j = end;

		while (j > 0 && is_digit(s[j - 1]))
			j--;
		if (j == end || j == 0 || s[j - 1] != '.')
			break;
		end = j - 1;
	}
	if (end < 3 + 1 + 3 || memcmp(s + end - 3, ".so", 3) != 0 ||
	    memcmp(s, "lib", 3) != 0)
		return false;
	end -= 3;
	/* lib, then segments of name characters, each non-empty, between dots. */
	for (i = 3; i < end; i++) {
		if (s[i] == '.') {
			if (s[i - 1] == '.' || i == 3 || i + 1 == end)
				return false;
		} else if (!is_soname_char(s[i])) {
			return false;
		}
	}
	return end > 3;
}

/* ^[A-Za-z0-9_]+\.dll$ */
static bool
match_dll(const char *s, size_t len)
{
	if (len < 5 || memcmp(s + len - 4, ".dll", 4) != 0)
		return false;
	for (size_t i = 0; i < len - 4; i++)
		if (!mx_is_alnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* ^[a-z0-9][a-z0-9._-]{0,99}$ */
static bool
match_package(const char *s, size_t len)
{
	if (len < 1 || len > 100 || !is_lower_alnum(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

/* ^[a-z0-9][a-z0-9._+-]{0,99}(\[E(,E)*\])?$ with E = [a-z0-9][a-z0-9._-]*:
 * a pip, conda or apt name ("libstdc++6"), with pip's extras
 * ("jax[cuda12-local]"). Nothing a shell would read as more than a word
 * but the brackets, which a printed command quotes. */
static bool
match_pubname(const char *s, size_t len)
{
	size_t i = 0;

	if (len < 1 || !is_lower_alnum(s[0]))
		return false;
	while (i < len && s[i] != '[') {
		if (!is_lower_alnum(s[i]) && strchr("._+-", s[i]) == NULL)
			return false;
		i++;
	}
	if (i > 100)
		return false;
	if (i == len)
		return true;
	if (s[len - 1] != ']' || len - i > 100)
		return false;
	/* Extras: non-empty, comma-separated, each starting alphanumeric. */
	for (i++; i < len - 1; i++) {
		if (s[i - 1] == '[' || s[i - 1] == ',') {
			if (!is_lower_alnum(s[i]))
				return false;
		} else if (s[i] != ',' && !is_lower_alnum(s[i]) &&
		    strchr("._-", s[i]) == NULL) {
			return false;
		}
	}
	return s[len - 2] != '[' && s[len - 2] != ',';
}

/* ^https://[a-z0-9.-]+(/[A-Za-z0-9._~%+-]*)*$, at most URL_MAX
 * characters: an address a command may print, with nothing a shell
 * would split or expand. */
static bool
match_url(const char *s, size_t len)
{
	size_t i = 8;

	if (len > URL_MAX || len <= i || memcmp(s, "https://", i) != 0)
		return false;
	while (i < len && s[i] != '/') {
		if (!is_lower_alnum(s[i]) && s[i] != '.' && s[i] != '-')
			return false;
		i++;
	}
	if (i == 8)
		return false;
	for (; i < len; i++)
		if (!mx_is_alnum(s[i]) && strchr("/._~%+-", s[i]) == NULL)
			return false;
	return true;
}

/* ^[a-z0-9_]+(/[a-z0-9_]+)*$: relative, and no "." or ".." can appear. */
static bool
match_relpath(const char *s, size_t len)
{
	if (len == 0 || s[0] == '/' || s[len - 1] == '/')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '/') {
			if (s[i - 1] == '/')
				return false;
		} else if (!is_lower_alnum(s[i]) && s[i] != '_') {
			return false;
		}
	}
	return true;
}

/* ^0x[0-9a-f]{4}$ */
static bool
match_pci_id(const char *s, size_t len)
{
	if (len != 6 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < len; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return false;
	return true;
}

/* Code points that would let a value steer a terminal or reorder what is
 * shown around it: C0, DEL, C1, and the bidirectional overrides and
 * isolates. */
bool
mx_unsafe_cp(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* 1 to TEXT_MAX characters of UTF-8, none of them unsafe. */
static bool
match_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;

	for (size_t i = 0, n; i < len; i += n) {
		long cp;

		n = utf8_seq(p + i, len - i, &cp);
		if (n == 0 || mx_unsafe_cp(cp))
			return false;
		chars++;
	}
	return chars >= 1 && chars <= TEXT_MAX;
}

bool
mx_match_kind(enum kind k, const char *s, size_t len)
{
	switch (k) {
	case K_VERSION:
		return version_parsen(s, len, NULL);
	case K_DRIVER:
		return match_driver(s, len);
	case K_CC:
		return match_cc(s, len);
	case K_DATE:
		return match_date(s, len);
	case K_SONAME:
		return match_soname(s, len);
	case K_DLL:
		return match_dll(s, len);
	case K_PACKAGE:
		return match_package(s, len);
	case K_RELPATH:
		return match_relpath(s, len);
	case K_PCI_ID:
		return match_pci_id(s, len);
	case K_TEXT:
		return match_text(s, len);
	case K_PUBNAME:
		return match_pubname(s, len);
	case K_URL:
		return match_url(s, len);
	case K_SCHEMA:
		return len == strlen(SCHEMA_ID) && memcmp(s, SCHEMA_ID, len) == 0;
	default:
		return false;
	}
}

