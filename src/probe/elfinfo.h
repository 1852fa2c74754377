/* What the probes need to know of an ELF shared object: class, machine,
 * SONAME, NEEDED, RPATH and RUNPATH. Damaged files are errors with a
 * reason, never crashes. */
#ifndef CUDAWIZ_ELFINFO_H
#define CUDAWIZ_ELFINFO_H

#include <stdbool.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

struct elf_info {
	int		 elf_class;	/* 32 or 64 */
	unsigned	 machine;	/* EM_X86_64, EM_AARCH64, … */
	bool		 shared;	/* ET_DYN */
	char		*soname;	/* NULL when none */
	struct strv	 needed;
	char		*rpath;
	char		*runpath;
};

/* Reads path (inside the sysroot). Returns 0, or -1 with *err set to a
 * message naming the problem, which the caller frees. */
int	elfinfo_read(const struct sysroot *sr, const char *path,
	    struct elf_info *out, char **err);
void	elfinfo_free(struct elf_info *info);

#endif
