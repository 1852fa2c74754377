/* Mapping an ELF file for reading (see elfobj.h): a private mapping whose
 * headers are pinned as they are at this moment, and the SIGBUS guard that
 * turns a page lost to a truncation into zeros and a note. Shared by the
 * ELF reader (elfobj.c) and the fatbin reader. */
#include "config.h"

#include <byteswap.h>
#include <errno.h>
#include <gelf.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "util/xalloc.h"

/* The SIGBUS guard: while a file is mapped for reading, a fault inside
 * its mapping (the file was cut short) puts a private page of zeros where
 * the file's page was, notes it, and lets the read go on; the reader takes
 * the zeros for damage and elfobj_read() reads the file again. One file is
 * read at a time (cudawiz reads on one thread), so one guard serves. */
static struct {
	void *volatile		 start;
	volatile size_t		 len;
	volatile sig_atomic_t	 hit;
	size_t			 page;
	bool			 installed;
	struct sigaction	 old;
} guard;

/* Async-signal-safe: mmap and sigaction are system calls here. */
static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const uintptr_t start = (uintptr_t)guard.start;
	const uintptr_t addr = (uintptr_t)si->si_addr;
	const int saved = errno;

	(void)uc;
	if (si->si_code > 0 && start != 0 && addr >= start &&
	    addr - start < guard.len &&
	    mmap((void *)(addr & ~(uintptr_t)(guard.page - 1)), guard.page,
	    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
	    -1, 0) != MAP_FAILED) {
		guard.hit = 1;
		errno = saved;
		return;
	}
	/* Not a page of ours: whatever handled SIGBUS before (the default
	 * kills) takes the fault again when the instruction is retried. */
	sigaction(SIGBUS, &guard.old, NULL);
	guard.installed = false;
	if (si->si_code <= 0)
		raise(sig);
	errno = saved;
}

static void
guard_begin(void *map, size_t len)
{
	if (!guard.installed) {
		struct sigaction sa;
		long page = sysconf(_SC_PAGESIZE);

		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		guard.page = page > 0 ? (size_t)page : 4096;
		/* Without the handler a truncation still crashes, as it
		 * did before; nothing else changes. */
		guard.installed = sigaction(SIGBUS, &sa, &guard.old) == 0;
	}
	guard.hit = 0;
	guard.len = len;
	guard.start = map;
}

/* Whether a page of the mapping was replaced by zeros. */
static bool
guard_end(void)
{
	guard.start = NULL;
	guard.len = 0;
	return guard.hit != 0;
}

/* Makes the pages of [off, off + len) private copies of this moment, by
 * writing one byte of each (the mapping is private): later writes to the
 * file no longer reach them. */
static void
pin_range(unsigned char *m, uint64_t fsize, uint64_t off, uint64_t len)
{
	if (off >= fsize)
		return;
	if (len > fsize - off)
		len = fsize - off;
	for (uint64_t p = off & ~(uint64_t)(guard.page - 1); p < off + len;
	    p += guard.page) {
		volatile unsigned char *b = m + p;

		*b = *b;
	}
}

/* The counts too large for the ELF header, from section 0 (already
 * pinned): sh_info for the program headers, sh_size for the sections;
 * at most 64Ki each, and left as they are when section 0 is not there. */
static void
ext_counts(const unsigned char *m, uint64_t fsize, uint64_t shoff, bool is32,
    bool swap, unsigned *phnum, unsigned *shnum)
{
	uint64_t info, size;

	if (is32) {
		Elf32_Shdr sh;

		if (shoff > fsize || fsize - shoff < sizeof sh)
			return;
		memcpy(&sh, m + shoff, sizeof sh);
		info = swap ? bswap_32(sh.sh_info) : sh.sh_info;
		size = swap ? bswap_32(sh.sh_size) : sh.sh_size;
	} else {
		Elf64_Shdr sh;

		if (shoff > fsize || fsize - shoff < sizeof sh)
			return;
		memcpy(&sh, m + shoff, sizeof sh);
		info = swap ? bswap_32(sh.sh_info) : sh.sh_info;
		size = swap ? bswap_64(sh.sh_size) : sh.sh_size;
	}
	if (*phnum == 0xffff)
		*phnum = info > 0x10000 ? 0x10000 : (unsigned)info;
	if (*shnum == 0)
		*shnum = size > 0x10000 ? 0x10000 : (unsigned)size;
}

/* libelf reads the ELF header and the header tables more than once (it
 * checks a field, then reads it again to use it), so in a file rewritten
 * meanwhile a check passes on one value and a use meets another: a
 * class of 0 indexes libelf's tables out of bounds. The header, the
 * program headers and the section headers (at most 64Ki of each) are
 * pinned before libelf sees them; everything else it returns is checked here. */
static void
pin_headers(unsigned char *m, uint64_t fsize)
{
	uint64_t phoff, shoff;
	unsigned phnum, phent, shnum, shent;
	bool swap;

	pin_range(m, fsize, 0, sizeof(Elf64_Ehdr));
	if (fsize < sizeof(Elf64_Ehdr) || memcmp(m, ELFMAG, SELFMAG) != 0)
		return;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	swap = m[EI_DATA] != ELFDATA2LSB;
#else
	swap = m[EI_DATA] != ELFDATA2MSB;
#endif
	if (m[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;

		memcpy(&eh, m, sizeof eh);
		phoff = swap ? bswap_32(eh.e_phoff) : eh.e_phoff;
		shoff = swap ? bswap_32(eh.e_shoff) : eh.e_shoff;
		phnum = swap ? bswap_16(eh.e_phnum) : eh.e_phnum;
		phent = swap ? bswap_16(eh.e_phentsize) : eh.e_phentsize;
		shnum = swap ? bswap_16(eh.e_shnum) : eh.e_shnum;
		shent = swap ? bswap_16(eh.e_shentsize) : eh.e_shentsize;
	} else {
		Elf64_Ehdr eh;

		memcpy(&eh, m, sizeof eh);
		phoff = swap ? bswap_64(eh.e_phoff) : eh.e_phoff;
		shoff = swap ? bswap_64(eh.e_shoff) : eh.e_shoff;
		phnum = swap ? bswap_16(eh.e_phnum) : eh.e_phnum;
		phent = swap ? bswap_16(eh.e_phentsize) : eh.e_phentsize;
		shnum = swap ? bswap_16(eh.e_shnum) : eh.e_shnum;
		shent = swap ? bswap_16(eh.e_shentsize) : eh.e_shentsize;
	}
	/* 0xffff program headers or 0 sections: the real count is in
	 * section 0 (sh_info, sh_size), pinned first and read from there;
	 * no section table at all (e_shoff 0) pins nothing more than the
	 * program headers. */
	if (shoff != 0 && shent != 0) {
		pin_range(m, fsize, shoff, shent);
		if (phnum == 0xffff || shnum == 0)
			ext_counts(m, fsize, shoff, m[EI_CLASS] == ELFCLASS32,
			    swap, &phnum, &shnum);
		pin_range(m, fsize, shoff, (uint64_t)shnum * shent);
	}
	pin_range(m, fsize, phoff, (uint64_t)phnum * phent);
}

int
elfobj_map_begin(int fd, const char *path, struct elfobj_map *map,
    char **why)
{
	struct stat st;
	void *m;

	map->p = NULL;
	map->len = 0;
	*why = NULL;
	if (fstat(fd, &st) != 0) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	/* An empty file cannot be mapped; it is no ELF file either. */
	if (st.st_size <= 0) {
		*why = xstrdup(_("not an ELF file"));
		return -1;
	}
	if ((uintmax_t)st.st_size > SIZE_MAX) {
		*why = xasprintf(_("the file is too large to map (%ju bytes)"),
		    (uintmax_t)st.st_size);
		return -1;
	}
	/* Writable, private: pin_headers() and open_without_sections()
	 * write to their copy, never to the file. */
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE,
	    fd, 0);
	if (m == MAP_FAILED) {
		if (errno == ENOMEM)
			die(_("%s: out of memory while mapping it (%ju bytes): %s"),
			    path, (uintmax_t)st.st_size, strerror(errno));
		*why = xasprintf(_("cannot be mapped: %s"), strerror(errno));
		return -1;
	}
	map->p = m;
	map->len = (size_t)st.st_size;
	guard_begin(m, map->len);
	if (elfobj_after_map_hook != NULL)
		elfobj_after_map_hook(path);
	pin_headers(map->p, map->len);
	return 0;
}

bool
elfobj_map_end(struct elfobj_map *map)
{
	bool hit = guard_end();

	if (map->p != NULL)
		munmap(map->p, map->len);
	map->p = NULL;
	map->len = 0;
	return hit;
}

