/* PE/COFF files: pe_read_mem() with and without the exports, and
 * pe_read() of the same bytes written into the scratch root, as --root
 * would read a Windows tree.
 *
 * Beyond "no crash", it checks the contract pe.h states: a failed read
 * names the file and leaves nothing behind, a good one has no message;
 * the three reads agree (the file and the buffer are the same bytes, and
 * the exports are an addition, not another reading); every export read
 * is found again, and every DLL read is imported, once. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "pe/pe.h"

#define FZ_PATH	"/Windows/System32/nvcuda.dll"

static void
check_empty(const struct peobj *o)
{
	if (o->imports.n != 0 || o->delay_imports.n != 0 ||
	    o->exports.n != 0 || o->export_dll != NULL ||
	    o->file_version != NULL || o->product_version != NULL ||
	    o->file_version_str != NULL || o->product_version_str != NULL ||
	    o->product_name != NULL || o->has_version)
		abort();
}

/* The read's status, aborting when its outcome breaks the contract. */
static int
check_read(int rc, char *err, const char *name, const struct peobj *o)
{
	if (rc == 0) {
		if (err != NULL)
			abort();
		return 0;
	}
	if (rc != -1 || err == NULL || strncmp(err, name, strlen(name)) != 0)
		abort();
	check_empty(o);
	free(err);
	return rc;
}

static bool
same(const struct peobj *a, const struct peobj *b, bool exports)
{
	return a->machine == b->machine && a->dll == b->dll &&
	    a->pe32plus == b->pe32plus && a->subsystem == b->subsystem &&
	    a->image_base == b->image_base && a->has_version == b->has_version &&
	    fz_same_strv(&a->imports, &b->imports) &&
	    fz_same_strv(&a->delay_imports, &b->delay_imports) &&
	    fz_same_str(a->file_version, b->file_version) &&
	    fz_same_str(a->product_version, b->product_version) &&
	    fz_same_str(a->file_version_str, b->file_version_str) &&
	    fz_same_str(a->product_version_str, b->product_version_str) &&
	    fz_same_str(a->product_name, b->product_name) &&
	    (!exports || (fz_same_strv(&a->exports, &b->exports) &&
	    fz_same_str(a->export_dll, b->export_dll)));
}

static void
check_lists(const struct peobj *o)
{
	const struct strv *lists[] = { &o->imports, &o->delay_imports };

	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			if (!pe_imports(o, lists[l]->v[i]))
				abort();
			for (size_t j = 0; j < i; j++)
				if (strcasecmp(lists[l]->v[i],
				    lists[l]->v[j]) == 0)
					abort();
		}
	for (size_t i = 0; i < o->exports.n; i++)
		if (!pe_exports(o, o->exports.v[i]))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct peobj hdr, all, file;
	char *err, buf[32];
	int rh, ra, rf;

	/* err starts set, so a read that leaves it alone is caught. */
	err = (char *)"unset";
	rh = pe_read_mem(data, size, "mem", PE_HEADERS, &hdr, &err);
	rh = check_read(rh, err, "mem: ", &hdr);
	err = (char *)"unset";
	ra = pe_read_mem(data, size, "mem", PE_EXPORTS, &all, &err);
	ra = check_read(ra, err, "mem: ", &all);
	fz_write(FZ_PATH, data, size);
	err = (char *)"unset";
	rf = pe_read(fz_sysroot(), FZ_PATH, PE_EXPORTS, &file, &err);
	rf = check_read(rf, err, FZ_PATH ": ", &file);
	/* The file and the buffer are the same bytes. */
	if (rf != ra || (ra == 0 && !same(&all, &file, true)))
		abort();
	/* Without the exports, only they are missing; a read that failed
	 * on the exports alone may succeed without them. */
	if (ra == 0 && (rh != 0 || !same(&hdr, &all, false) ||
	    hdr.exports.n != 0 || hdr.export_dll != NULL))
		abort();
	if (ra == 0) {
		check_lists(&all);
		(void)pe_exports(&all, "cuInit");
		(void)pe_imports(&all, "KERNEL32.dll");
		(void)pe_machine_name(all.machine, buf, sizeof buf);
	}
	pe_free(&hdr);
	pe_free(&all);
	pe_free(&file);
	return 0;
}
