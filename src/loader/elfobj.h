/* ELF objects as the dynamic loader sees them, read with libelf.
 *
 * Two entry points. elfobj_check() is glibc's open_verify(): it reads only
 * the ELF header and says whether the loader would take this file for a
 * given class and machine, skip it and go on searching (wrong class or
 * machine), or stop the whole search with an error (not ELF, too short, a
 * directory, an object type it cannot load). elfobj_read() reads what the
 * resolver and the rules need: the dynamic section found through the
 * program headers the way ld.so finds it (a file with its section headers
 * stripped still works), version definitions and needs, and, when asked,
 * the dynamic symbols.
 *
 * Nothing in the file is trusted: every offset, size, count and string
 * index is checked against the file before use. A damaged file is an
 * error with a reason, never a crash. */
#ifndef CUDAWIZ_ELFOBJ_H
#define CUDAWIZ_ELFOBJ_H

#include <stdbool.h>
#include <stddef.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

enum elfobj_verdict {
	ELFOBJ_OK = 0,		/* the loader would map it */
	ELFOBJ_NOENT,		/* open() fails with ENOENT (dangling link too) */
	ELFOBJ_NOACCESS,	/* open() fails with EACCES: the loader goes on */
	ELFOBJ_WRONG_CLASS,	/* skipped, search goes on */
	ELFOBJ_WRONG_MACHINE,	/* skipped, search goes on */
	ELFOBJ_FATAL,		/* the loader stops with an error (why says which) */
	ELFOBJ_ENDS_LIST,	/* open() failed otherwise (ELOOP, …) in a directory
				 * that exists: the loader gives up on the rest of
				 * this search list and goes on with the next one */
};

/* The verdict for path under the sysroot, for a loader of elf_class (32 or
 * 64) and machine (EM_*). *why, when not NULL, receives glibc's own words
 * for anything but OK ("invalid ELF header", "file too short", "wrong ELF
 * class: ELFCLASS32", "cannot read file data: Is a directory", "only ET_DYN
 * and ET_EXEC can be loaded", …); the caller frees it. ET_EXEC is FATAL
 * ("cannot dynamically load executable"): open_verify() passes it, but
 * the loader refuses it right after, without searching on. Other open()
 * errors than ENOENT and EACCES (ELOOP, ENOTDIR, …) are NOACCESS with
 * their errno text, though glibc 2.36 then skips the rest of the search
 * list when it takes the directory for an existing one (see elfcheck.c). */
enum elfobj_verdict elfobj_check(const struct sysroot *sr, const char *path,
	    int elf_class, unsigned machine, char **why);

/* One version a file needs from one of its dependencies (DT_VERNEED):
 * file "libc.so.6" with names "GLIBC_2.34", "GLIBC_2.2.5". */
struct elfobj_verneed {
	char		*file;
	struct strv	 names;
	struct strv	 weak;		/* the subset marked VER_FLG_WEAK */
};

struct elfobj_symbol {
	char	*name;
	char	*version;	/* NULL when unversioned or the base version */
	bool	 defined;	/* st_shndx != SHN_UNDEF */
	bool	 weak;		/* STB_WEAK */
	bool	 hidden;	/* a non-default version (name@VER, not @@) */
};

struct elfobj {
	int		 elf_class;	/* 32 or 64 */
	unsigned	 machine;	/* EM_X86_64, … */
	unsigned	 type;		/* ET_DYN, ET_EXEC, … */
	bool		 has_dynamic;	/* a PT_DYNAMIC segment was found */
	char		*interp;	/* PT_INTERP, NULL when none */
	char		*soname;	/* DT_SONAME, NULL when none */
	struct strv	 needed;	/* DT_NEEDED, in order */
	char		*rpath;		/* DT_RPATH, NULL when none */
	char		*runpath;	/* DT_RUNPATH, NULL when none */
	bool		 nodeflib;	/* DF_1_NODEFLIB in DT_FLAGS_1 */
	struct strv	 verdefs;	/* DT_VERDEF names, the base (soname) left out */
	struct {
		struct elfobj_verneed	*v;
		size_t			 n, cap;
	} verneeds;
	/* Filled only with ELFOBJ_SYMBOLS: the global, weak and unique
	 * dynamic symbols in table order (locals, which the loader never
	 * binds to, are left out). */
	struct {
		struct elfobj_symbol	*v;
		size_t			 n, cap;
	} symbols;
};

#define ELFOBJ_DYNAMIC	0x0	/* header, segments, dynamic section, versions */
#define ELFOBJ_SYMBOLS	0x1	/* also the dynamic symbol table */

/* Reads path (inside the sysroot). Returns 0, or -1 with *err set to a
 * message naming the file and the damage, which the caller frees; *out is
 * then empty (safe to elfobj_free). A file that shrinks or changes while
 * it is read is read again (three tries), then reported as changing; it
 * never crashes the reader. libelf running out of memory ends the program
 * with that message (die()), as our own allocations do. */
int	elfobj_read(const struct sysroot *sr, const char *path, unsigned what,
	    struct elfobj *out, char **err);
void	elfobj_free(struct elfobj *obj);

/* For the tests only (NULL in cudawiz): called with the path once a file
 * is mapped and before it is parsed, where a test cuts the file short to
 * prove a truncation under the reader is no crash. */
extern void	(*elfobj_after_map_hook)(const char *path);

/* A file mapped for reading under elfobj's SIGBUS guard, for the other
 * readers of ELF files (fatbin.c): a page the file loses while it is
 * mapped reads as zeros instead of killing the program, and the ELF
 * header and header tables are private copies made before libelf reads
 * them (libelf reads some fields twice). One mapping at a time. */
struct elfobj_map {
	unsigned char	*p;
	size_t		 len;
};

/* Maps the whole of fd (opened for path) privately and starts the guard;
 * calls elfobj_after_map_hook. Returns 0, or -1 with *why set to the
 * reason without the path (an empty file is "not an ELF file"), which the
 * caller frees. Running out of memory ends the program (die()). */
int	elfobj_map_begin(int fd, const char *path, struct elfobj_map *map,
	    char **why);
/* Ends the guard and unmaps. True when a page of the file was cut off
 * while it was mapped: what was read is not the file's content. */
bool	elfobj_map_end(struct elfobj_map *map);
/* libelf's words for its last error; libelf running out of memory ends
 * the program naming path, as our own allocations do. */
const char *elfobj_elf_why(const char *path);

/* The symbol named name (any version when version is NULL), or NULL. */
const struct elfobj_symbol *elfobj_find_symbol(const struct elfobj *obj,
	    const char *name, const char *version, bool defined);

/* "x86-64", "AArch64", "i386", … for messages; "machine 1234" otherwise
 * (written into buf of size n). */
const char *elfobj_machine_name(unsigned machine, char *buf, size_t n);

#endif
