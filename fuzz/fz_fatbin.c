/* Fatbinaries: fatbin_walk() and fatbin_read() on an ELF file holding
 * .nv_fatbin or __nv_relfatbin, written into the scratch root and read
 * through the sysroot, as `cudawiz --root` reads a library.
 *
 * Beyond "no crash": a failure names the file; every entry the walk
 * gives lies inside its fatbinary and the file (fatbin.h promises it);
 * the walk and the listing agree on the number of entries and on the
 * names; every name listed is one fatbin_arch_cc() takes; a callback that
 * stops the walk stops it with its own value. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "loader/fatbin.h"
#include "sysroot/sysroot.h"

#define FZ_PATH	"/lib/libfz_fatbin.so"

struct seen {
	size_t		 size;		/* of the input file */
	size_t		 entries;
	struct strv	 names[2];	/* [sass, ptx], as the walk met them */
	size_t		 stop_at;	/* 0: never stop */
};

static int
visit(const struct fatbin_entry *e, void *arg)
{
	struct seen *s = arg;
	char name[32], cc[16];

	if (e->header_size < 64 || e->offset < e->fatbin_offset ||
	    e->offset > s->size || e->header_size > s->size - e->offset ||
	    e->payload_size > s->size - e->offset - e->header_size)
		abort();
	if (strcmp(e->section, ".nv_fatbin") != 0 &&
	    strcmp(e->section, "__nv_relfatbin") != 0)
		abort();
	s->entries++;
	if (fatbin_entry_name(e, name, sizeof name)) {
		if (e->kind != FATBIN_KIND_SASS && e->kind != FATBIN_KIND_PTX)
			abort();
		if (!fatbin_arch_cc(name, cc, sizeof cc))
			abort();
		strv_push(&s->names[e->kind == FATBIN_KIND_PTX], name);
	} else if (e->kind == FATBIN_KIND_SASS || e->kind == FATBIN_KIND_PTX) {
		abort();
	}
	/* A tiny buffer is refused, never overrun. */
	(void)fatbin_entry_name(e, name, 4);
	if (s->stop_at != 0 && s->entries == s->stop_at)
		return 7;
	return 0;
}

/* Every name the listing holds was met by the walk, and the reverse. */
static void
same_names(const struct strv *listed, const struct strv *walked)
{
	char cc[16];

	for (size_t i = 0; i < listed->n; i++) {
		if (!strv_contains(walked, listed->v[i]) ||
		    !fatbin_arch_cc(listed->v[i], cc, sizeof cc))
			abort();
		if (i > 0 && strcmp(listed->v[i - 1], listed->v[i]) == 0)
			abort();
	}
	for (size_t i = 0; i < walked->n; i++)
		if (!strv_contains(listed, walked->v[i]))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = { .size = size }, part = { .size = size };
	struct fatbin_archs a;
	char *err = NULL, *err2 = NULL;
	bool has = false, has2 = false;
	int rw, rr;

	fz_write(FZ_PATH, data, size);
	rw = fatbin_walk(fz_sysroot(), FZ_PATH, visit, &s, &has, &err);
	if (rw != 0 && (rw != -1 || err == NULL ||
	    strncmp(err, FZ_PATH, strlen(FZ_PATH)) != 0))
		abort();
	if (rw == 0 && err != NULL)
		abort();
	rr = fatbin_read(fz_sysroot(), FZ_PATH, &a, &err2);
	/* The same file read twice gives the same answer. */
	if (rr != rw || (rr != 0 && strcmp(err, err2) != 0))
		abort();
	if (rr == 0) {
		if (a.has_fatbin != has || a.entries != s.entries)
			abort();
		same_names(&a.sass, &s.names[0]);
		same_names(&a.ptx, &s.names[1]);
	}
	/* A walk stopped at its first entry returns the callback's value. */
	if (rw == 0 && s.entries > 0) {
		part.stop_at = 1;
		if (fatbin_walk(fz_sysroot(), FZ_PATH, visit, &part, &has2,
		    &err2) != 7 || part.entries != 1)
			abort();
	}
	fatbin_archs_free(&a);
	free(err);
	free(err2);
	strv_free(&s.names[0]);
	strv_free(&s.names[1]);
	strv_free(&part.names[0]);
	strv_free(&part.names[1]);
	return 0;
}
