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
 * checked before use.
 *
 * The sections are found through the section headers. A file without
 * them (sstrip) is an error, not "no fatbinary": finding the fatbinaries
 * then means reading every loadable byte, which this module never does.
 * Fatbinaries are little-endian; a big-endian ELF file that has one of
 * the sections is refused. The layout (found by experiment with CUDA 13
 * and checked against CUDA 12 libraries) is described in fatbin.c. */
#ifndef CUDAWIZ_FATBIN_H
#define CUDAWIZ_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

struct fatbin_archs {
	bool		 has_fatbin;	/* a fatbinary section was found */
	size_t		 entries;	/* entries of every kind (SASS, PTX,
					 * LTO-IR …), over every fatbinary */
	struct strv	 sass;		/* "sm_50", "sm_90", "sm_90a" …: sorted by
					 * number (plain, then a, then f), unique */
	struct strv	 ptx;		/* "compute_90" …: sorted the same way */
};

/* Lists the architectures in the fatbinaries of the ELF file at path
 * (inside the sysroot). Returns 0 (has_fatbin false when the file holds
 * none), or -1 with *err naming the file and what is wrong (not ELF,
 * unreadable, no section headers, a damaged fatbinary header); *out is
 * then empty. The caller frees *err and, either way, calls
 * fatbin_archs_free. */
int	fatbin_read(const struct sysroot *sr, const char *path,
	    struct fatbin_archs *out, char **err);
void	fatbin_archs_free(struct fatbin_archs *a);

/* The compute capability of "sm_86", "compute_90a", "sm_100f" as
 * "8.6", "9.0", "10.0" into buf; false when the name is not one. */
bool	fatbin_arch_cc(const char *arch, char *buf, size_t n);

/* Entry kinds as the fatbinary stores them. Others exist (8 is LTO-IR
 * for -dlto); they are counted and passed to fatbin_walk's callback but
 * name no architecture. */
#define FATBIN_KIND_PTX		1
#define FATBIN_KIND_SASS	2

/* The most headers (fatbinaries and entries together) one file may have;
 * past it the file is called damaged. The largest CUDA libraries have a
 * few thousand. */
#define FATBIN_MAX_HEADERS	1000000

/* One entry, as its header describes it. Every offset and size has been
 * checked: the header and its payload lie inside their fatbinary, its
 * section and the file. */
struct fatbin_entry {
	const char	*section;	/* ".nv_fatbin" or "__nv_relfatbin" */
	uint64_t	 fatbin_offset;	/* file offset of its fatbinary */
	uint64_t	 offset;	/* file offset of the entry header */
	uint64_t	 header_size;
	uint64_t	 payload_size;	/* bytes after the header, padding included */
	unsigned	 kind;		/* FATBIN_KIND_* or another number */
	unsigned	 arch;		/* 90 for sm_90; 10…999 for PTX and SASS */
	char		 variant;	/* 'a' (arch-specific), 'f' (family) or 0 */
	bool		 compressed;
};

/* Called for every entry in file order; a positive return stops the walk
 * and is what fatbin_walk returns (so it cannot be taken for an error). */
typedef int	(*fatbin_entry_fn)(const struct fatbin_entry *e, void *arg);

/* Walks every entry of every fatbinary of the file, reading nothing but
 * headers. Returns 0, the callback's positive value, or -1 with *err set
 * as for fatbin_read (the callback may already have seen some entries).
 * *has_fatbin says whether a fatbinary section was found. */
int	fatbin_walk(const struct sysroot *sr, const char *path,
	    fatbin_entry_fn fn, void *arg, bool *has_fatbin, char **err);

/* "sm_90a" or "compute_90" for a PTX or SASS entry into buf; false for
 * other kinds or when buf is too small. */
bool	fatbin_entry_name(const struct fatbin_entry *e, char *buf, size_t n);

#endif
