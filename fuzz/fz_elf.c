/* ELF objects: elfobj_read() with and without the dynamic symbols,
 * elfobj_check() for several loaders, and elfobj_find_symbol() on what was
 * read. The parsers take a path inside a sysroot, so the input is written
 * into the scratch root and read through it, as --root reads it.
 *
 * Beyond "no crash", it checks the contract elfobj.h states: a failed read
 * names the file and leaves nothing behind, a good one has no message; a
 * verdict other than OK comes with glibc's words and OK without; the two
 * reads agree on every dynamic fact when both succeed (the symbols are an
 * addition, not another reading); every symbol read is found again. */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "loader/elfobj.h"
#include "sysroot/sysroot.h"

#define FZ_PATH	"/lib/libfz.so.1"

static void
check_empty(const struct elfobj *o)
{
	if (o->interp != NULL || o->soname != NULL || o->rpath != NULL ||
	    o->runpath != NULL || o->needed.n != 0 || o->verdefs.n != 0 ||
	    o->verneeds.n != 0 || o->symbols.n != 0)
		abort();
}

/* Reads the file with what; returns the read's status, aborting when the
 * outcome breaks the contract. */
static int
read_one(unsigned what, struct elfobj *o)
{
	char *err = (char *)"unset";
	int rc = elfobj_read(fz_sysroot(), FZ_PATH, what, o, &err);

	if (rc == 0) {
		/* A success clears the message (elfobj-dump --mutate holds
		 * it to that too). */
		if (err != NULL)
			abort();
		return rc;
	}
	if (rc != -1 || err == NULL || strstr(err, FZ_PATH) == NULL)
		abort();
	check_empty(o);
	free(err);
	return rc;
}

static void
check_symbols(const struct elfobj *o)
{
	for (size_t i = 0; i < o->symbols.n; i++) {
		const struct elfobj_symbol *s = &o->symbols.v[i], *f;

		if (s->name == NULL)
			abort();
		/* By name and version: some symbol of that name, version and
		 * kind is found (the first of them, maybe not this one). */
		f = elfobj_find_symbol(o, s->name, s->version, s->defined);
		if (f == NULL || strcmp(f->name, s->name) != 0 ||
		    f->defined != s->defined)
			abort();
		f = elfobj_find_symbol(o, s->name, NULL, s->defined);
		if (f == NULL)
			abort();
	}
	(void)elfobj_find_symbol(o, "cudaGetDeviceCount", NULL, true);
	(void)elfobj_find_symbol(o, "", "GLIBC_2.34", false);
}

static void
check_verdict(int cls, unsigned machine)
{
	char *why = (char *)"unset";
	enum elfobj_verdict v;

	v = elfobj_check(fz_sysroot(), FZ_PATH, cls, machine, &why);
	if (v > ELFOBJ_ENDS_LIST)
		abort();
	if ((v == ELFOBJ_OK) != (why == NULL))
		abort();
	free(why);
	/* Without a message wanted, the verdict is the same. */
	if (elfobj_check(fz_sysroot(), FZ_PATH, cls, machine, NULL) != v)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfobj dyn, sym;
	int rd, rs;
	char buf[32];

	fz_write(FZ_PATH, data, size);
	rd = read_one(ELFOBJ_DYNAMIC, &dyn);
	rs = read_one(ELFOBJ_SYMBOLS, &sym);
	if (rd == 0) {
		if (dyn.symbols.n != 0)
			abort();
		(void)elfobj_machine_name(dyn.machine, buf, sizeof buf);
	}
	if (rs == 0)
		check_symbols(&sym);
	if (rd == 0 && rs == 0 && (dyn.elf_class != sym.elf_class ||
	    dyn.machine != sym.machine || dyn.type != sym.type ||
	    dyn.has_dynamic != sym.has_dynamic ||
	    dyn.nodeflib != sym.nodeflib ||
	    !fz_same_str(dyn.interp, sym.interp) ||
	    !fz_same_str(dyn.soname, sym.soname) ||
	    !fz_same_str(dyn.rpath, sym.rpath) ||
	    !fz_same_str(dyn.runpath, sym.runpath) ||
	    !fz_same_strv(&dyn.needed, &sym.needed) ||
	    !fz_same_strv(&dyn.verdefs, &sym.verdefs) ||
	    dyn.verneeds.n != sym.verneeds.n))
		abort();
	elfobj_free(&dyn);
	elfobj_free(&sym);

	check_verdict(64, EM_X86_64);
	check_verdict(32, EM_386);
	check_verdict(64, EM_AARCH64);
	return 0;
}
