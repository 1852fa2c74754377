/* The GPU code a CUDA library carries, read from its fatbinaries without
 * running anything.
 *
 * nvcc embeds device code in an ELF file as fatbinaries: the .nv_fatbin
 * section (whole-program code) and __nv_relfatbin (relocatable device
 * code, -rdc). Each fatbinary holds entries of SASS for one sm_XX (a
 * cubin) or PTX for one compute_XX, possibly compressed; the entry
 * headers are never compressed, so listing the architectures reads only
 * the headers, however large the library (libtorch_cuda.so is over a
 * gigabyte). Nothing in the file is trusted: every offset and size is
 * checked before use. */
#ifndef CUDAWIZ_FATBIN_H
#define CUDAWIZ_FATBIN_H

#include <stdbool.h>
#include <stddef.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

struct fatbin_archs {
	bool		 has_fatbin;	/* a fatbinary section was found */
	size_t		 entries;	/* entries listed, over every fatbinary */
	struct strv	 sass;		/* "sm_50", "sm_90a" …: sorted by number, unique */
	struct strv	 ptx;		/* "compute_90" …: sorted by number, unique */
};

/* Lists the architectures in the fatbinaries of the ELF file at path
 * (inside the sysroot). Returns 0 (has_fatbin false when the file holds
 * none), or -1 with *err naming the file and what is wrong (not ELF,
 * unreadable, a damaged fatbinary header); *out is then empty. The caller
 * frees *err and, either way, calls fatbin_archs_free. */
int	fatbin_read(const struct sysroot *sr, const char *path,
	    struct fatbin_archs *out, char **err);
void	fatbin_archs_free(struct fatbin_archs *a);

/* The compute capability of "sm_86", "compute_90a", "sm_100f" as
 * "8.6", "9.0", "10.0" into buf; false when the name is not one. */
bool	fatbin_arch_cc(const char *arch, char *buf, size_t n);

#endif
