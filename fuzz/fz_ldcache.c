/* ld.so.cache: ldcache_parse() on the bytes as they are (the buffer API
 * ldcache_read() ends in), then glibc's lookup for the names the cache
 * holds and some it may not, for several loaders and CPUs.
 *
 * Beyond "no crash": a failed parse gives a message and leaves nothing, a
 * good one none; every entry's strings and hwcaps name lie where the cache
 * says; a lookup answers with one of the cache's own entries, for the name
 * asked and with flags the loader would take. */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "loader/ldcache.h"

/* Lookups per input: each bisects, and a 64 KiB cache holds thousands of
 * entries; the first ones cover every code path. */
#define FZ_LOOKUPS	48

static bool
owns(const struct ldcache *c, const struct ldcache_entry *e)
{
	return e >= c->entries.v && e < c->entries.v + c->entries.n;
}

/* The flags glibc's check takes for a loader (ldcache.h): its own, plain
 * ELF for the generic loaders, and plain libc6 for ARM's float ABIs. */
static bool
flags_taken(int32_t abi, int32_t flags)
{
	const int32_t libc6 = LDCACHE_FLAG_ELF_LIBC6;

	if (flags == abi)
		return true;
	if (abi == libc6)
		return flags == LDCACHE_FLAG_ELF;
	if (abi == (LDCACHE_FLAG_ARM_LIBHF | libc6) ||
	    abi == (LDCACHE_FLAG_ARM_LIBSF | libc6))
		return flags == libc6;
	return false;
}

static void
lookup(const struct ldcache *c, const char *name, int32_t abi,
    const struct strv *active, const struct ldcache_cpu *cpu)
{
	const struct ldcache_entry *e;

	e = ldcache_lookup_cpu(c, name, abi, active, cpu);
	if (e == NULL)
		return;
	/* The key is not compared: glibc's _dl_cache_libcmp takes
	 * "libx.so.01" for "libx.so.1", and so does the lookup. It may be
	 * empty: glibc reads such a cache as it is. */
	if (!owns(c, e))
		abort();
	if (!flags_taken(abi, e->flags))
		abort();
}

static void
check_entries(const struct ldcache *c)
{
	char buf[256];

	if (c->format > LDCACHE_OLD_NEW || c->data == NULL)
		abort();
	for (size_t i = 0; i < c->entries.n; i++) {
		const struct ldcache_entry *e = &c->entries.v[i];
		bool in = false;

		if (e->key == NULL || e->value == NULL)
			abort();
		(void)strlen(e->key);
		(void)strlen(e->value);
		if (e->hwcaps_subdir != NULL) {
			for (size_t j = 0; j < c->hwcaps_subdirs.n; j++)
				if (e->hwcaps_subdir == c->hwcaps_subdirs.v[j])
					in = true;
			if (!in)
				abort();
		}
		(void)ldcache_entry_describe(e, buf, sizeof buf);
		(void)ldcache_flags_name(e->flags, buf, sizeof buf);
	}
	if (c->generator != NULL)
		(void)strlen(c->generator);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const legacy_names[] = { "tls", "haswell",
	    "x86_64", "avx512_1", "tls/haswell/x86_64", "glibc-hwcaps" };
	struct strv active = { 0 }, legacy = { 0 };
	struct ldcache_cpu cpu = { 0 }, cpu_v4 = { 0 };
	const int32_t abis[] = {
		ldcache_abi_flags(64, EM_X86_64),
		ldcache_abi_flags(32, EM_386),
		ldcache_abi_flags(32, EM_X86_64),	/* x32 */
		ldcache_abi_flags(64, EM_AARCH64),
		ldcache_abi_flags(32, EM_ARM),		/* armhf */
	};
	struct ldcache c;
	char *err = (char *)"unset";
	int rc;

	rc = ldcache_parse(data, size, "/etc/ld.so.cache", &c, &err);
	if (rc != 0) {
		if (rc != -1 || err == NULL || c.entries.n != 0)
			abort();
		free(err);
		return 0;
	}
	if (err != NULL)
		abort();
	check_entries(&c);

	for (size_t i = 0; i < sizeof legacy_names / sizeof *legacy_names; i++)
		strv_push(&legacy, legacy_names[i]);
	cpu.legacy = &legacy;
	cpu_v4.x86_isa = 0xf;
	/* Every glibc-hwcaps name the cache knows, active in file order. */
	for (size_t i = 0; i < c.hwcaps_subdirs.n; i++)
		strv_push(&active, c.hwcaps_subdirs.v[i]);
	for (size_t i = 0; i < c.entries.n && i < FZ_LOOKUPS; i++) {
		const char *key = c.entries.v[i].key;

		for (size_t a = 0; a < sizeof abis / sizeof *abis; a++) {
			lookup(&c, key, abis[a], NULL, NULL);
			lookup(&c, key, abis[a], &active, &cpu);
			lookup(&c, key, abis[a], &active, &cpu_v4);
		}
		lookup(&c, key, c.entries.v[i].flags, &active, NULL);
	}
	lookup(&c, "libcudart.so.12", abis[0], &active, NULL);
	lookup(&c, "", abis[0], NULL, NULL);
	if (ldcache_lookup(&c, "libc.so.6", -1, NULL) != NULL)
		abort();
	strv_free(&active);
	strv_free(&legacy);
	ldcache_free(&c);
	return 0;
}
