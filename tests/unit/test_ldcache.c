/* Unit tests of the ld.so.cache reader's API: the ABI flags, their names,
 * reading through the sysroot, and lookups on caches built here. The
 * layouts and glibc's rules are tested against ldconfig and the loader by
 * the tests/cli/ldcache-*.sh scripts. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/tap.h"
#include "loader/ldcache.h"
#include "sysroot/sysroot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct spec {
	const char	*key, *value;
	int32_t		 flags;
	int		 subdir;	/* index into the names, or -1 */
};

static void
put32(struct strbuf *sb, size_t at, uint32_t v)
{
	memcpy(sb->buf + at, &v, sizeof v);
}

static void
put64(struct strbuf *sb, size_t at, uint64_t v)
{
	memcpy(sb->buf + at, &v, sizeof v);
}

static void
zeros(struct strbuf *sb, size_t n)
{
	while (n-- > 0)
		strbuf_putc(sb, '\0');
}

/* A new-format cache with the entries in the order given, the glibc-hwcaps
 * names and a generator string, laid out as ldconfig lays it out. */
static struct strbuf
build_new(const struct spec *e, size_t n, const char *const *names,
    size_t nnames)
{
	struct strbuf sb = STRBUF_INIT;
	size_t ext, at;
	uint32_t *noff = xcalloc(nnames + 1, sizeof *noff);

	strbuf_add(&sb, "glibc-ld.so.cache1.1", 20);
	zeros(&sb, 28 + 24 * n);
	put32(&sb, 20, (uint32_t)n);
	sb.buf[28] = 2;
	for (size_t i = 0; i < n; i++) {
		put32(&sb, 48 + 24 * i, (uint32_t)e[i].flags);
		put32(&sb, 48 + 24 * i + 4, (uint32_t)sb.len);
		strbuf_add(&sb, e[i].key, strlen(e[i].key) + 1);
		put32(&sb, 48 + 24 * i + 8, (uint32_t)sb.len);
		strbuf_add(&sb, e[i].value, strlen(e[i].value) + 1);
		if (e[i].subdir >= 0)
			put64(&sb, 48 + 24 * i + 16,
			    LDCACHE_HWCAP_EXTENSION | (uint64_t)e[i].subdir);
	}
	for (size_t i = 0; i < nnames; i++) {
		noff[i] = (uint32_t)sb.len;
		strbuf_add(&sb, names[i], strlen(names[i]) + 1);
	}
	zeros(&sb, (4 - sb.len % 4) % 4);
	ext = sb.len;
	put32(&sb, 32, (uint32_t)ext);
	zeros(&sb, 8 + 2 * 16);
	put32(&sb, ext, (uint32_t)-358342284);
	put32(&sb, ext + 4, 2);
	at = sb.len;
	put32(&sb, ext + 8, 1);			/* glibc-hwcaps */
	put32(&sb, ext + 16, (uint32_t)at);
	put32(&sb, ext + 20, (uint32_t)(4 * nnames));
	zeros(&sb, 4 * nnames);
	for (size_t i = 0; i < nnames; i++)
		put32(&sb, at + 4 * i, noff[i]);
	put32(&sb, ext + 24, 0);		/* generator */
	put32(&sb, ext + 32, (uint32_t)sb.len);
	put32(&sb, ext + 36, 9);
	strbuf_add(&sb, "unit test", 9);
	free(noff);
	return sb;
}

static void
test_abi_flags(void)
{
	char buf[64];

	is_int(ldcache_abi_flags(64, EM_X86_64), 0x303, "x86-64");
	is_int(ldcache_abi_flags(ELFCLASS64, EM_X86_64), 0x303,
	    "x86-64, class given as ELFCLASS64");
	is_int(ldcache_abi_flags(32, EM_X86_64), 0x803, "x32");
	is_int(ldcache_abi_flags(32, EM_386), 0x3, "i386");
	is_int(ldcache_abi_flags(64, EM_386), -1, "a 64-bit i386 is unknown");
	is_int(ldcache_abi_flags(64, EM_AARCH64), 0xa03, "aarch64");
	is_int(ldcache_abi_flags(32, EM_AARCH64), -1, "aarch64 ILP32 is unknown");
	is_int(ldcache_abi_flags(64, EM_PPC64), 0x503, "ppc64");
	is_int(ldcache_abi_flags(64, EM_S390), 0x403, "s390x");
	is_int(ldcache_abi_flags(64, EM_RISCV), 0x1003, "riscv64 lp64d");
	is_int(ldcache_abi_flags(32, EM_ARM), 0x903, "armhf");
	is_int(ldcache_abi_flags(64, EM_MIPS), -1, "mips is unknown");
	is_int(ldcache_abi_flags(0, EM_X86_64), -1, "no class");

	is_str(ldcache_flags_name(0x303, buf, sizeof buf), "libc6,x86-64", "0x303");
	is_str(ldcache_flags_name(0x3, buf, sizeof buf), "libc6", "3");
	is_str(ldcache_flags_name(0x1, buf, sizeof buf), "ELF", "1");
	is_str(ldcache_flags_name(0xa03, buf, sizeof buf), "libc6,AArch64", "0xa03");
	is_str(ldcache_flags_name(0x803, buf, sizeof buf), "libc6,x32", "0x803");
	is_str(ldcache_flags_name(0x1304, buf, sizeof buf), "unknown,4864",
	    "an unknown kind and ABI, as ldconfig -p prints them");
	is_str(ldcache_flags_name(0x303, buf, 6), "libc6",
	    "a short buffer is cut, not overrun");
}

static void
test_parse_and_lookup(void)
{
	static const char *const names[] = { "x86-64-v2", "x86-64-v3" };
	/* ldconfig's order: names descending, glibc-hwcaps entries first. */
	static const struct spec e[] = {
		{ "libz.so.1", "/l/glibc-hwcaps/x86-64-v2/libz.so.1", 0x303, 0 },
		{ "libz.so.1", "/l/glibc-hwcaps/x86-64-v3/libz.so.1", 0x303, 1 },
		{ "libz.so.1", "/l/libz.so.1", 0x303, -1 },
		{ "libz.so.1", "/l32/libz.so.1", 0x3, -1 },
		{ "libm.so.6", "/l/libm.so.6", 0x303, -1 },
		{ "libc.so.6", "/l/libc.so.6", 0x303, -1 },
	};
	struct strbuf sb = build_new(e, 6, names, 2);
	char *av2[] = { (char *)"x86-64-v2" };
	char *av32[] = { (char *)"x86-64-v3", (char *)"x86-64-v2" };
	struct strv v2 = { av2, 1, 1 }, v32 = { av32, 2, 2 }, none = STRV_INIT;
	struct ldcache c, hand;
	const struct ldcache_entry *r;
	char *err = (char *)"unset";
	char buf[128];
	int rc;

	rc = ldcache_parse(sb.buf, sb.len, "unit.cache", &c, &err);
	is_int(rc, 0, "a cache built here parses");
	ok(err == NULL, "no message on success");
	is_int(c.format, LDCACHE_NEW, "new format");
	is_int(c.entries.n, 6, "six entries");
	is_int(c.hwcaps_subdirs.n, 2, "two glibc-hwcaps names");
	is_str(c.generator, "unit test", "the generator string");
	is_str(c.entries.v[1].hwcaps_subdir, "x86-64-v3",
	    "an entry points at its subdirectory's name");
	ok(c.entries.v[1].hwcaps_subdir == c.hwcaps_subdirs.v[1],
	    "… inside hwcaps_subdirs");
	is_str(ldcache_entry_describe(&c.entries.v[1], buf, sizeof buf),
	    "libc6,x86-64, hwcap: \"x86-64-v3\"", "described as ldconfig -p does");
	is_str(ldcache_entry_describe(&c.entries.v[2], buf, sizeof buf),
	    "libc6,x86-64", "a plain entry described");

	r = ldcache_lookup(&c, "libz.so.1", 0x303, &v32);
	is_str(r ? r->value : NULL, "/l/glibc-hwcaps/x86-64-v3/libz.so.1",
	    "v3 active and first: its entry");
	r = ldcache_lookup(&c, "libz.so.1", 0x303, &v2);
	is_str(r ? r->value : NULL, "/l/glibc-hwcaps/x86-64-v2/libz.so.1",
	    "only v2 active: its entry");
	r = ldcache_lookup(&c, "libz.so.1", 0x303, &none);
	is_str(r ? r->value : NULL, "/l/libz.so.1", "none active: the plain entry");
	r = ldcache_lookup(&c, "libz.so.1", 0x303, NULL);
	is_str(r ? r->value : NULL, "/l/libz.so.1", "NULL active: the plain entry");
	r = ldcache_lookup(&c, "libz.so.1", 0x3, &v32);
	is_str(r ? r->value : NULL, "/l32/libz.so.1", "i386: its own entry");
	r = ldcache_lookup(&c, "libz.so.01", 0x303, NULL);
	is_str(r ? r->value : NULL, "/l/libz.so.1", "libz.so.01 is libz.so.1");
	r = ldcache_lookup(&c, "libc.so.6", 0x303, NULL);
	is_str(r ? r->value : NULL, "/l/libc.so.6", "the last entry");
	r = ldcache_lookup(&c, "libm.so.6", 0x303, NULL);
	is_str(r ? r->value : NULL, "/l/libm.so.6", "a middle entry");
	ok(ldcache_lookup(&c, "libm.so.6", 0xa03, NULL) == NULL,
	    "no aarch64 entry");
	ok(ldcache_lookup(&c, "libq.so.1", 0x303, NULL) == NULL, "an absent name");
	ok(ldcache_lookup(&c, "libz.so.1", -1, NULL) == NULL, "an unknown ABI");
	ok(ldcache_lookup(&c, NULL, 0x303, NULL) == NULL, "no name");
	ok(ldcache_lookup(NULL, "libz.so.1", 0x303, NULL) == NULL, "no cache");

	/* A cache put together by hand answers the same. */
	memset(&hand, 0, sizeof hand);
	hand.entries.v = c.entries.v;
	hand.entries.n = c.entries.n;
	r = ldcache_lookup(&hand, "libm.so.6", 0x303, NULL);
	is_str(r ? r->value : NULL, "/l/libm.so.6", "a cache built by hand");

	ldcache_free(&c);
	ok(c.entries.v == NULL && c.data == NULL && c.generator == NULL,
	    "ldcache_free empties the cache");
	ldcache_free(&c);
	ok(1, "and a second ldcache_free is harmless");

	rc = ldcache_parse(sb.buf, 47, "unit.cache", &c, &err);
	is_int(rc, -1, "a cut header is damage");
	is_str(err, "unit.cache: damaged ld.so.cache: the header is cut short "
	    "(47 of 48 bytes)", "… said with the file's name");
	ok(c.entries.v == NULL && c.data == NULL, "… and nothing is left to free");
	free(err);
	strbuf_free(&sb);
}

static void
test_read(void)
{
	char dir[] = "/tmp/cudawiz-test-ldcache.XXXXXX";
	static const struct spec e[] = { { "liba.so.1", "/l/liba.so.1", 0x303, -1 } };
	struct strbuf sb = build_new(e, 1, NULL, 0);
	struct sysroot *sr;
	struct ldcache c;
	char *path, *err = NULL;
	int fd, rc;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	sr = sysroot_new(dir, &err);
	ok(sr != NULL, "a sysroot for the tree");
	if (sr == NULL)
		return;

	rc = ldcache_read(sr, "/etc/ld.so.cache", &c, &err);
	is_int(rc, ENOENT, "no cache: ENOENT");
	ok(err != NULL && strstr(err, "/etc/ld.so.cache") != NULL,
	    "… with a message naming it");
	free(err);

	path = xasprintf("%s/etc", dir);
	mkdir(path, 0755);
	free(path);
	path = xasprintf("%s/etc/ld.so.cache", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, sb.buf, sb.len) == (ssize_t)sb.len &&
	    close(fd) == 0, "(the cache is written into the tree)");
	rc = ldcache_read(sr, "/etc/ld.so.cache", &c, &err);
	is_int(rc, 0, "the cache inside the tree reads");
	ok(err == NULL, "… with no message");
	is_int(c.entries.n, 1, "… one entry");
	is_str(c.entries.n == 1 ? c.entries.v[0].value : NULL, "/l/liba.so.1",
	    "… the one written");
	ldcache_free(&c);

	ok(truncate(path, 0) == 0, "(the cache is emptied)");
	rc = ldcache_read(sr, "/etc/ld.so.cache", &c, &err);
	is_int(rc, -1, "an empty cache is damage");
	is_str(err, "/etc/ld.so.cache: damaged ld.so.cache: the file is empty",
	    "… said with the path inside the tree");
	free(err);

	ok(truncate(path, (off_t)LDCACHE_MAX_SIZE + 1) == 0, "(the cache grows)");
	rc = ldcache_read(sr, "/etc/ld.so.cache", &c, &err);
	is_int(rc, SYSROOT_ETOOBIG, "a cache over 64 MiB is refused");
	is_str(err, "/etc/ld.so.cache: larger than 64 MiB, not an ld.so.cache",
	    "… saying why");
	free(err);

	unlink(path);
	free(path);
	path = xasprintf("%s/etc", dir);
	rmdir(path);
	free(path);
	rmdir(dir);
	sysroot_free(sr);
	strbuf_free(&sb);
}

int
main(void)
{
	test_abi_flags();
	test_parse_and_lookup();
	test_read();
	return done_testing();
}
