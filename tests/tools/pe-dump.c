/* What pe_read() says about PE files, one fact a line, for the shell
 * tests to compare with objdump -p; and a mutation driver that feeds
 * pe_read_mem() damaged copies of a file.
 *
 *   pe-dump [--root DIR] [--exports] FILE...
 *	file PATH / machine 0xN NAME / format PE32|PE32+ / dll yes|no /
 *	subsystem N / import DLL (in order) / delay DLL (in order) /
 *	export-dll NAME / export NAME (with --exports) /
 *	file-version A.B.C.D / product-version A.B.C.D (VS_FIXEDFILEINFO) /
 *	string FileVersion|ProductVersion|ProductName TEXT
 *	error MESSAGE   (pe_read failed; the exit status is 1)
 *   pe-dump --mutate SEED COUNT FILE
 *	COUNT copies with seeded byte changes, read from memory; with
 *	COUNT "truncate", every prefix of FILE instead. Exit status 1 when
 *	a result breaks the contract (an error without the file's name, a
 *	success with an error set), else a summary line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe/pe.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

static int
dump(const struct sysroot *sr, const char *path, unsigned what)
{
	struct peobj o;
	char *err, buf[32];

	printf("file %s\n", path);
	if (pe_read(sr, path, what, &o, &err) != 0) {
		printf("error %s\n", err);
		free(err);
		return 1;
	}
	printf("machine %#x %s\n", o.machine,
	    pe_machine_name(o.machine, buf, sizeof buf));
	printf("format %s\n", o.pe32plus ? "PE32+" : "PE32");
	printf("dll %s\n", o.dll ? "yes" : "no");
	printf("subsystem %u\n", o.subsystem);
	for (size_t i = 0; i < o.imports.n; i++)
		printf("import %s\n", o.imports.v[i]);
	for (size_t i = 0; i < o.delay_imports.n; i++)
		printf("delay %s\n", o.delay_imports.v[i]);
	if (o.export_dll != NULL)
		printf("export-dll %s\n", o.export_dll);
	for (size_t i = 0; i < o.exports.n; i++)
		printf("export %s\n", o.exports.v[i]);
	if (o.file_version != NULL)
		printf("file-version %s\n", o.file_version);
	if (o.product_version != NULL)
		printf("product-version %s\n", o.product_version);
	if (o.file_version_str != NULL)
		printf("string FileVersion %s\n", o.file_version_str);
	if (o.product_version_str != NULL)
		printf("string ProductVersion %s\n", o.product_version_str);
	if (o.product_name != NULL)
		printf("string ProductName %s\n", o.product_name);
	pe_free(&o);
	return 0;
}

static unsigned long long rng;

static unsigned
next_rand(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33);
}

/* 0 when one read of len bytes of copy keeps the contract. */
static int
try_copy(const unsigned char *copy, size_t len, unsigned long long iter)
{
	struct peobj o;
	char *err = NULL;
	int rc = pe_read_mem(copy, len, "copy", PE_EXPORTS, &o, &err);

	if (rc == 0 && err == NULL) {
		pe_free(&o);
		return 0;
	}
	if (rc != 0 && err != NULL && strncmp(err, "copy: ", 6) == 0 &&
	    o.imports.n == 0 && o.exports.n == 0 && o.file_version == NULL) {
		free(err);
		return 0;
	}
	printf("contract broken at iteration %llu (rc %d, error %s)\n", iter,
	    rc, err != NULL ? err : "(none)");
	free(err);
	return 1;
}

static int
mutate(const struct sysroot *sr, const char *seed, const char *count,
    const char *path)
{
	unsigned char *data, *copy;
	size_t len;
	unsigned long long n, errors = 0;
	int rc;

	rc = sysroot_read_file(sr, path, 64u << 20, (char **)&data, &len);
	if (rc != 0 || len == 0) {
		fprintf(stderr, "pe-dump: %s: %s\n", path,
		    rc != 0 ? sysroot_strerror(rc) : "empty");
		return 2;
	}
	copy = xmalloc(len);
	if (strcmp(count, "truncate") == 0) {
		for (size_t cut = 0; cut < len; cut++) {
			memcpy(copy, data, cut);
			if (try_copy(copy, cut, cut) != 0)
				errors++;
		}
		printf("%zu prefixes read, %llu broke the contract\n", len,
		    errors);
	} else {
		rng = strtoull(seed, NULL, 10);
		n = strtoull(count, NULL, 10);
		for (unsigned long long i = 0; i < n; i++) {
			unsigned k = 1 + next_rand() % 8;

			memcpy(copy, data, len);
			/* Mostly the first 4 KiB, where the headers and
			 * small directories lie. */
			while (k-- > 0) {
				size_t at = next_rand() % 4 == 0 ?
				    next_rand() % len :
				    next_rand() % (len < 4096 ? len : 4096);

				copy[at] = (unsigned char)next_rand();
			}
			if (try_copy(copy, len, i) != 0)
				errors++;
		}
		printf("%llu copies read, %llu broke the contract\n", n,
		    errors);
	}
	free(copy);
	free(data);
	return errors != 0;
}

int
main(int argc, char **argv)
{
	struct sysroot *sr;
	const char *root = NULL;
	unsigned what = PE_HEADERS;
	char *err;
	int i = 1, status = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--root") == 0 && i + 1 < argc)
			root = argv[++i];
		else if (strcmp(argv[i], "--exports") == 0)
			what |= PE_EXPORTS;
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: pe-dump [--root DIR] [--exports] "
		    "FILE...\n       pe-dump --mutate SEED COUNT|truncate "
		    "FILE\n");
		return 2;
	}
	if ((sr = sysroot_new(root, &err)) == NULL) {
		fprintf(stderr, "pe-dump: %s\n", err);
		free(err);
		return 2;
	}
	if (argc == 5 && strcmp(argv[1], "--mutate") == 0)
		status = mutate(sr, argv[2], argv[3], argv[4]);
	else
		for (; i < argc; i++)
			status |= dump(sr, argv[i], what);
	sysroot_free(sr);
	return status;
}
