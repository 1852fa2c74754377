/* What elfobj_read() and elfobj_check() say about files, one fact a line,
 * for the shell tests to compare with readelf and the real loader; and a
 * mutation driver that feeds them damaged copies of a file.
 *
 *   elfobj-dump [--root DIR] [--symbols] FILE...
 *	file PATH / class N / machine N / type N / interp S / soname S /
 *	needed S (in order) / rpath S / runpath S / nodeflib /
 *	verdef NAME / verneed FILE NAME [weak] /
 *	sym def|undef NAME[@VER|@@VER] [weak]   (with --symbols)
 *	error MESSAGE   (elfobj_read failed; the exit status is 1)
 *   elfobj-dump [--root DIR] --find NAME VERSION|- def|undef FILE
 *	found NAME[@VER|@@VER] / none   (elfobj_find_symbol)
 *   elfobj-dump [--root DIR] --check CLASS MACHINE FILE...
 *	check VERDICT WHY   (CLASS MACHINE "native": this program's own)
 *   elfobj-dump --mutate SEED COUNT SCRATCH FILE
 *	COUNT damaged copies (seeded byte changes) written to SCRATCH and
 *	read back; with COUNT "truncate", every prefix of FILE instead.
 *	Exit status 1 when a result breaks the contract (the seed and the
 *	iteration are printed), else a summary line. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loader/elfobj.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

static const char *const verdict_names[] = {
	[ELFOBJ_OK] = "OK",
	[ELFOBJ_NOENT] = "NOENT",
	[ELFOBJ_NOACCESS] = "NOACCESS",
	[ELFOBJ_WRONG_CLASS] = "WRONG_CLASS",
	[ELFOBJ_WRONG_MACHINE] = "WRONG_MACHINE",
	[ELFOBJ_FATAL] = "FATAL",
	[ELFOBJ_ENDS_LIST] = "ENDS_LIST",
};

static int
dump(const struct sysroot *sr, const char *path, unsigned what)
{
	struct elfobj o;
	char *err;

	printf("file %s\n", path);
	if (elfobj_read(sr, path, what, &o, &err) != 0) {
		printf("error %s\n", err);
		free(err);
		return 1;
	}
	printf("class %d\nmachine %u\ntype %u\n", o.elf_class, o.machine,
	    o.type);
	if (o.has_dynamic)
		printf("dynamic\n");
	if (o.interp != NULL)
		printf("interp %s\n", o.interp);
	if (o.soname != NULL)
		printf("soname %s\n", o.soname);
	for (size_t i = 0; i < o.needed.n; i++)
		printf("needed %s\n", o.needed.v[i]);
	if (o.rpath != NULL)
		printf("rpath %s\n", o.rpath);
	if (o.runpath != NULL)
		printf("runpath %s\n", o.runpath);
	if (o.nodeflib)
		printf("nodeflib\n");
	for (size_t i = 0; i < o.verdefs.n; i++)
		printf("verdef %s\n", o.verdefs.v[i]);
	for (size_t i = 0; i < o.verneeds.n; i++) {
		const struct elfobj_verneed *vn = &o.verneeds.v[i];

		for (size_t j = 0; j < vn->names.n; j++)
			printf("verneed %s %s%s\n", vn->file, vn->names.v[j],
			    strv_contains(&vn->weak, vn->names.v[j]) ?
			    " weak" : "");
	}
	for (size_t i = 0; i < o.symbols.n; i++) {
		const struct elfobj_symbol *s = &o.symbols.v[i];

		printf("sym %s %s%s%s%s\n", s->defined ? "def" : "undef",
		    s->name, s->version == NULL ? "" : s->hidden ? "@" : "@@",
		    s->version != NULL ? s->version : "",
		    s->weak ? " weak" : "");
	}
	elfobj_free(&o);
	return 0;
}

static int
check(const struct sysroot *sr, const char *path, int cls, unsigned machine)
{
	char *why = NULL;
	enum elfobj_verdict v = elfobj_check(sr, path, cls, machine, &why);

	printf("check %s%s%s\n", verdict_names[v], why != NULL ? " " : "",
	    why != NULL ? why : "");
	free(why);
	return 0;
}

static int
find(const struct sysroot *sr, const char *name, const char *ver,
    const char *def, const char *path)
{
	const struct elfobj_symbol *s;
	struct elfobj o;
	char *err;

	if (elfobj_read(sr, path, ELFOBJ_SYMBOLS, &o, &err) != 0) {
		printf("error %s\n", err);
		free(err);
		return 1;
	}
	s = elfobj_find_symbol(&o, name, strcmp(ver, "-") == 0 ? NULL : ver,
	    strcmp(def, "def") == 0);
	if (s == NULL)
		printf("none\n");
	else
		printf("found %s%s%s\n", s->name, s->version == NULL ? "" :
		    s->hidden ? "@" : "@@", s->version != NULL ? s->version : "");
	elfobj_free(&o);
	return 0;
}

/* A small, seedable generator, so a failure can be replayed anywhere. */
static unsigned long long rng_state;

static unsigned long
rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned long)(rng_state >> 33);
}

/* The damaged copy lives in a memfd when the kernel has them: thousands
 * of copies through a real file system cost seconds. */
struct scratch {
	int	 fd;		/* -1: write the file at path each time */
	char	*path;
};

static void
scratch_open(struct scratch *sc, const char *file)
{
	sc->fd = memfd_create("elfobj-dump", MFD_CLOEXEC);
	if (sc->fd >= 0)
		sc->path = xasprintf("/proc/self/fd/%d", sc->fd);
	else
		sc->path = xstrdup(file);
}

static int
scratch_write(const struct scratch *sc, const unsigned char *buf, size_t len)
{
	size_t done = 0;
	int fd = sc->fd;

	if (fd >= 0 && ftruncate(fd, 0) != 0)
		return -1;
	if (fd < 0 && (fd = open(sc->path, O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) < 0)
		return -1;
	while (done < len) {
		ssize_t w = pwrite(fd, buf + done, len - done, (off_t)done);

		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (sc->fd < 0 && close(fd) != 0)
		return -1;
	return done == len ? 0 : -1;
}

static size_t n_read_ok, n_check_ok;

static int
try_copy(const struct sysroot *sr, const char *scratch, int cls,
    unsigned machine)
{
	struct elfobj o;
	char *err = (char *)"unset", *why = (char *)"unset";
	int rc, bad = 0;
	enum elfobj_verdict v;

	rc = elfobj_read(sr, scratch, ELFOBJ_SYMBOLS, &o, &err);
	if (rc == 0 && err != NULL) {
		printf("# read returned 0 with a message: %s\n", err);
		bad = 1;
	} else if (rc == -1 && (err == NULL ||
	    strncmp(err, scratch, strlen(scratch)) != 0)) {
		printf("# read returned -1 without a message naming the file: "
		    "%s\n", err != NULL ? err : "(null)");
		bad = 1;
	} else if (rc == -1 && (o.soname != NULL || o.needed.n != 0 ||
	    o.symbols.n != 0)) {
		printf("# read returned -1 but left results behind\n");
		bad = 1;
	} else if (rc != 0 && rc != -1) {
		printf("# read returned %d\n", rc);
		bad = 1;
	}
	if (rc == 0)
		n_read_ok++;
	if (rc == 0) {
		/* Touch every result, so a sanitizer sees bad pointers. */
		size_t sum = 0;

		for (size_t i = 0; i < o.needed.n; i++)
			sum += strlen(o.needed.v[i]);
		for (size_t i = 0; i < o.symbols.n; i++)
			sum += strlen(o.symbols.v[i].name) +
			    (o.symbols.v[i].version != NULL ?
			    strlen(o.symbols.v[i].version) : 0);
		for (size_t i = 0; i < o.verneeds.n; i++)
			sum += strlen(o.verneeds.v[i].file);
		if (sum == (size_t)-1)
			printf("#\n");
	} else {
		free(err);
	}
	elfobj_free(&o);
	v = elfobj_check(sr, scratch, cls, machine, &why);
	if (v == ELFOBJ_OK)
		n_check_ok++;
	if ((v == ELFOBJ_OK) != (why == NULL)) {
		printf("# check gave %s with why=%s\n", verdict_names[v],
		    why != NULL ? why : "(null)");
		bad = 1;
	}
	free(why);
	return bad;
}

/* Where PT_DYNAMIC lies in the original, so that changes can aim at it:
 * most random bytes of a library fall on code, which nothing reads. */
static void
find_dynamic(unsigned char *image, size_t len, size_t *off, size_t *n)
{
	Elf *e;
	size_t phnum;

	*off = *n = 0;
	elf_version(EV_CURRENT);
	e = elf_memory((char *)image, len);
	if (e == NULL)
		return;
	if (elf_getphdrnum(e, &phnum) == 0) {
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) != NULL &&
			    ph.p_type == PT_DYNAMIC && ph.p_offset < len &&
			    ph.p_filesz <= len - ph.p_offset) {
				*off = ph.p_offset;
				*n = ph.p_filesz;
			}
		}
	}
	elf_end(e);
}

/* One seeded change: a random byte, one bit, plus or minus one, or a
 * 32-bit field set to all ones, zero or a small number; mostly in the
 * headers and tables at the start, or in the dynamic section. */
static void
change(unsigned char *buf, size_t len, size_t dyn_off, size_t dyn_len)
{
	unsigned long where = rng() % 10;
	size_t at;
	unsigned long v;

	if (where < 4 || dyn_len == 0)
		at = rng() % (len < 1536 ? len : 1536);
	else if (where < 7)
		at = dyn_off + rng() % dyn_len;
	else
		at = rng() % len;
	switch (rng() % 6) {
	case 0:
		buf[at] = (unsigned char)rng();
		break;
	case 1:
		buf[at] ^= (unsigned char)(1u << (rng() % 8));
		break;
	case 2:
		buf[at] += rng() % 2 ? 1 : 0xff;
		break;
	default:
		v = rng() % 3 == 0 ? 0xffffffffUL : rng() % 2 ? 0 : rng() % 64;
		for (size_t k = 0; k < 4 && at + k < len; k++)
			buf[at + k] = (unsigned char)(v >> (8 * k));
		break;
	}
}

/* The class and machine of this very program, for --check native. */
static int
native(int *cls, unsigned *machine)
{
	char *err;
	struct sysroot *host = sysroot_new(NULL, &err);
	struct elfobj o;
	int rc;

	rc = elfobj_read(host, "/proc/self/exe", ELFOBJ_DYNAMIC, &o, &err);
	sysroot_free(host);
	if (rc != 0) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return -1;
	}
	*cls = o.elf_class;
	*machine = o.machine;
	elfobj_free(&o);
	return 0;
}

static int
mutate(const struct sysroot *sr, const char *seed_s, const char *count_s,
    const char *scratch, const char *path)
{
	unsigned char *orig, *buf;
	size_t len, n, failures = 0, dyn_off, dyn_len;
	struct scratch sc;
	int status = 0;
	bool truncate = strcmp(count_s, "truncate") == 0;
	unsigned long long seed = strtoull(seed_s, NULL, 0);
	unsigned machine;
	char *data;
	int cls, rc;

	if (native(&cls, &machine) != 0)
		return 2;
	rc = sysroot_read_file(sr, path, 64u << 20, &data, &len);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", path, sysroot_strerror(rc));
		return 2;
	}
	if (len == 0) {
		fprintf(stderr, "%s: empty\n", path);
		return 2;
	}
	orig = (unsigned char *)data;
	buf = xmalloc(len);
	memcpy(buf, orig, len);
	find_dynamic(buf, len, &dyn_off, &dyn_len);
	scratch_open(&sc, scratch);
	n = truncate ? len : strtoul(count_s, NULL, 0);
	rng_state = seed;
	for (size_t it = 0; it < n; it++) {
		size_t use = len;

		memcpy(buf, orig, len);
		if (truncate) {
			use = it;
		} else {
			unsigned changes = 1 + rng() % 4;

			for (unsigned c = 0; c < changes; c++)
				change(buf, len, dyn_off, dyn_len);
		}
		if (scratch_write(&sc, buf, use) != 0) {
			fprintf(stderr, "%s: %s\n", sc.path, strerror(errno));
			status = 2;
			break;
		}
		if (try_copy(sr, sc.path, cls, machine) != 0) {
			printf("# FAILED: seed %llu, iteration %zu (%s)\n", seed,
			    it, truncate ? "truncation" : "byte changes");
			failures++;
			if (failures > 10)
				break;
		}
	}
	printf("mutated %zu copies of %s (seed %llu): %zu read, %zu passed "
	    "the check, %zu broke the contract\n", n, path, seed, n_read_ok,
	    n_check_ok, failures);
	if (sc.fd >= 0)
		close(sc.fd);
	free(sc.path);
	free(buf);
	free(data);
	return status != 0 ? status : failures > 0;
}

int
main(int argc, char **argv)
{
	struct sysroot *sr;
	const char *root = NULL;
	unsigned what = ELFOBJ_DYNAMIC;
	char *err;
	int i = 1, rc = 0;

	while (i < argc && strncmp(argv[i], "--", 2) == 0) {
		if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
			root = argv[i + 1];
			i += 2;
		} else if (strcmp(argv[i], "--symbols") == 0) {
			what |= ELFOBJ_SYMBOLS;
			i++;
		} else {
			break;
		}
	}
	sr = sysroot_new(root, &err);
	if (sr == NULL) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return 2;
	}
	if (i < argc && strcmp(argv[i], "--mutate") == 0) {
		if (argc - i != 5) {
			fprintf(stderr, "usage: --mutate SEED COUNT SCRATCH FILE\n");
			rc = 2;
		} else {
			rc = mutate(sr, argv[i + 1], argv[i + 2], argv[i + 3],
			    argv[i + 4]);
		}
	} else if (i < argc && strcmp(argv[i], "--find") == 0) {
		if (argc - i != 5) {
			fprintf(stderr, "usage: --find NAME VERSION def|undef FILE\n");
			rc = 2;
		} else {
			rc = find(sr, argv[i + 1], argv[i + 2], argv[i + 3],
			    argv[i + 4]);
		}
	} else if (i < argc && strcmp(argv[i], "--check") == 0) {
		int cls = 64;
		unsigned machine = EM_X86_64;

		if (argc - i < 3) {
			fprintf(stderr, "usage: --check CLASS MACHINE FILE...\n");
			rc = 2;
		} else if (strcmp(argv[i + 1], "native") == 0) {
			if (native(&cls, &machine) != 0)
				rc = 2;
		} else {
			cls = atoi(argv[i + 1]);
			machine = (unsigned)strtoul(argv[i + 2], NULL, 0);
		}
		for (int j = i + 3; rc == 0 && j < argc; j++)
			check(sr, argv[j], cls, machine);
	} else {
		for (; i < argc; i++)
			rc |= dump(sr, argv[i], what);
	}
	sysroot_free(sr);
	return rc;
}
