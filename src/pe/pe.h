/* PE/COFF files (Windows DLLs and programs) read without loading them:
 * the Windows counterpart of loader/elfobj.h, for what cudawiz learns
 * about a Windows machine's cudart64_110.dll, cudnn64_8.dll, nvcuda.dll
 * or torch\lib\*.dll: the machine, the DLLs imported, the names
 * exported and the version resource.
 *
 * Nothing in the file is trusted: every offset, RVA, size and count is
 * checked against the file and its section table before use, the
 * resource tree is walked to a fixed depth with every directory visited
 * once, and the bytes read from one file are capped (PE_READ_CAP), since
 * a cuDNN DLL is hundreds of megabytes and only its headers and
 * directories are wanted. A damaged file is an error naming the damage,
 * never a crash or an endless loop. */
#ifndef CUDAWIZ_PE_H
#define CUDAWIZ_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

/* IMAGE_FILE_MACHINE_* for the machines cudawiz meets. */
#define PE_MACHINE_I386		0x14c
#define PE_MACHINE_AMD64	0x8664
#define PE_MACHINE_ARM64	0xaa64

/* The most bytes read from one file, all parts together: headers, the
 * section table, the import, export and resource directories. */
#define PE_READ_CAP		(64u << 20)

struct peobj {
	unsigned	 machine;	/* IMAGE_FILE_MACHINE_*, PE_MACHINE_* */
	unsigned	 characteristics;	/* the COFF header's */
	bool		 dll;		/* IMAGE_FILE_DLL */
	bool		 pe32plus;	/* optional header magic 0x20b (64-bit) */
	unsigned	 subsystem;	/* IMAGE_SUBSYSTEM_* (2 GUI, 3 console) */
	uint64_t	 image_base;
	/* The DLLs named by the import directory and by the delay-load
	 * directory, each in file order with later repeats left out
	 * (compared without case, as Windows compares DLL names). */
	struct strv	 imports;
	struct strv	 delay_imports;
	/* Filled only with PE_EXPORTS: the export directory's own name of
	 * the DLL (NULL when none) and the names it exports, in table order
	 * (the loader's binary search wants them sorted; a file's are). */
	char		*export_dll;
	struct strv	 exports;
	/* The version resource (RT_VERSION), when the file has one (the
	 * first, in US English when it comes in several languages):
	 * VS_FIXEDFILEINFO's FileVersion and ProductVersion as "a.b.c.d",
	 * and its first string table's FileVersion, ProductVersion and
	 * ProductName, UTF-8. Each NULL when absent. */
	bool		 has_version;
	char		*file_version;
	char		*product_version;
	char		*file_version_str;
	char		*product_version_str;
	char		*product_name;
};

#define PE_HEADERS	0x0	/* headers, imports, version resource */
#define PE_EXPORTS	0x1	/* also the exported names */

/* Reads path (inside the sysroot) with pread(2), only the parts needed.
 * Returns 0, or -1 with *err set to a message naming the file and the
 * damage, which the caller frees; *out is then empty (safe to pe_free). */
int	pe_read(const struct sysroot *sr, const char *path, unsigned what,
	    struct peobj *out, char **err);
/* The same from len bytes at buf; name stands for the file in messages. */
int	pe_read_mem(const void *buf, size_t len, const char *name,
	    unsigned what, struct peobj *out, char **err);
void	pe_free(struct peobj *obj);

/* Whether the file exports name (exact case, as GetProcAddress). */
bool	pe_exports(const struct peobj *obj, const char *name);
/* Whether it imports dll, by either directory (without case). */
bool	pe_imports(const struct peobj *obj, const char *dll);

/* "x86-64", "i386", "ARM64" for messages; "machine 0x1234" otherwise
 * (written into buf of size n). */
const char *pe_machine_name(unsigned machine, char *buf, size_t n);

#endif
