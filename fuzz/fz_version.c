/* Version strings: the dotted-number parser and comparator every layer
 * uses, pip's name comparison, and the helpers that pull versions out of
 * library names and wheel versions. Beyond "no crash", it checks what the
 * callers rely on: comparison is antisymmetric and a parsed version
 * prints back to an equal one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "explain/recognize.h"
#include "probe/cudafiles.h"
#include "probe/fwint.h"
#include "util/version.h"

static void
check_roundtrip(const char *s)
{
	struct version v, again;
	char buf[64];
	size_t i, off = 0;

	if (!version_parse(s, &v))
		return;
	if (v.nparts == 0 || v.nparts > VERSION_MAX_PARTS)
		abort();
	for (i = 0; i < v.nparts; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%u",
		    i ? "." : "", v.part[i]);
	if (!version_parse(buf, &again) || version_cmp(&v, &again) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = fz_cstring(data, size), *b;
	char *pub;
	struct version v;
	int ab, ba;

	/* The raw bytes, NULs and all, as a length-bounded string. */
	(void)version_parsen((const char *)data, size, &v);

	/* Two strings: before and after the first NUL or newline. */
	b = a + strcspn(a, "\n");
	if (*b == '\n')
		*b++ = '\0';
	check_roundtrip(a);
	check_roundtrip(b);
	ab = version_cmp_str(a, b);
	ba = version_cmp_str(b, a);
	if ((ab > 0) != (ba < 0) || (ab == 0) != (ba == 0))
		abort();
	if (pkg_name_eq(a, b) != pkg_name_eq(b, a))
		abort();
	(void)version_major_str(a);
	(void)cf_so_version(a, "libcudnn");
	(void)cf_so_version(a, b);
	(void)explain_is_soname(a);
	pub = fw_public_version(a);
	if (pub == NULL || strlen(pub) > strlen(a))
		abort();
	free(pub);
	free(fw_digits_cuda(a, strlen(a)));
	free(a);
	return 0;
}
