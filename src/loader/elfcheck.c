/* elfobj_check(): glibc 2.36's open_verify() (elf/dl-load.c), the test
 * the dynamic loader puts every candidate file of a search through before
 * it maps one. It reads the ELF header and nothing else, because the
 * resolver calls it for every file name it tries.
 *
 * Each verdict below was checked against the real loader of glibc 2.36
 * (Debian 12, x86-64) by putting the file first on LD_LIBRARY_PATH, in
 * front of a good copy, and loading it with dlopen() and with
 * `ld.so --list`:
 *
 *   goes on searching:  ENOENT (a dangling link too), EACCES (the file or
 *                       its directory), any EI_CLASS other than the
 *                       loader's (even 0 or 7), another e_machine (even
 *                       when the rest of e_ident is wrong too: a Debian
 *                       patch);
 *   ends this list:     other open() errors (ELOOP, ENOTDIR for a
 *                       relative entry) in a directory taken to exist;
 *   stops with an error: a directory ("cannot read file data: Is a
 *                       directory"), fewer bytes than an Ehdr ("file too
 *                       short"), bad magic, byte order, ident version, OS
 *                       ABI, ABI version or padding, e_version, e_type,
 *                       e_phentsize, program headers past the end of the
 *                       file ("cannot read file data", no errno text:
 *                       the short pread() leaves errno at 0), and
 *                       ET_EXEC, which open_verify() passes but
 *                       _dl_map_object_from_fd() refuses at once.
 *
 * The checks run in glibc's order, so a file with several faults gets the
 * message glibc would print. There is no ABI-tag (PT_NOTE) check in 2.36:
 * a library whose .note.ABI-tag asks for Linux 99.0.0 loads. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "util/xalloc.h"

/* The loader runs on this machine, so its byte order is ours. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA	ELFDATA2LSB
#define WRONG_DATA_MSG	N_("ELF file data encoding not little-endian")
#else
#define HOST_DATA	ELFDATA2MSB
#define WRONG_DATA_MSG	N_("ELF file data encoding not big-endian")
#endif

/* glibc's LIBC_ABI_MAX: one more than the number of lines of libc-abis
 * that apply to the target. On x86-64 an ELFOSABI_GNU object with ABI
 * version 3 loads and 4 is "ELF file ABI version invalid" (checked);
 * targets without the IFUNC line (only x86, PowerPC and SPARC have it)
 * are taken to have one fewer. */
static unsigned
libc_abi_max(unsigned machine)
{
	switch (machine) {
	case EM_X86_64:
	case EM_386:
	case EM_PPC:
	case EM_PPC64:
	case EM_SPARC:
	case EM_SPARC32PLUS:
	case EM_SPARCV9:
		return 4;
	default:
		return 3;
	}
}

static enum elfobj_verdict
verdict(enum elfobj_verdict v, char **why, char *msg)
{
	if (why != NULL)
		*why = msg;
	else
		free(msg);
	return v;
}

static enum elfobj_verdict
wrong_machine(unsigned mach, char **why)
{
	char name[32];

	return verdict(ELFOBJ_WRONG_MACHINE, why, xasprintf(
	    _("incompatible ELF machine: %s"),
	    elfobj_machine_name(mach, name, sizeof name)));
}

/* Fills buf with up to n bytes from the start of the file, as open_verify()
 * does with its read() loop; *len says how many came. Returns 0 or errno. */
static int
read_head(int fd, unsigned char *buf, size_t n, size_t *len)
{
	*len = 0;
	while (*len < n) {
		ssize_t r = pread(fd, buf + *len, n - *len, (off_t)*len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (r == 0)
			break;
		*len += (size_t)r;
	}
	return 0;
}

/* Whether the directory part of path is a directory. */
static bool
dir_exists(const struct sysroot *sr, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == path ? xstrdup("/") :
	    xstrndup(path, (size_t)(slash - path));
	bool ok = sysroot_is_dir(sr, dir);

	free(dir);
	return ok;
}

/* The open() part: which errors let the search go on. */
static enum elfobj_verdict
open_failed(const struct sysroot *sr, const char *path, int rc, char **why)
{
	struct stat st;

	switch (rc) {
	case ENOENT:
		return verdict(ELFOBJ_NOENT, why, xstrdup(strerror(rc)));
	case EACCES:
		return verdict(ELFOBJ_NOACCESS, why, xstrdup(strerror(rc)));
	case SYSROOT_ENOTREG:
		/* open(O_RDONLY) of a directory succeeds; read() fails. */
		if (sysroot_stat(sr, path, &st) == 0 && S_ISDIR(st.st_mode))
			return verdict(ELFOBJ_FATAL, why, xasprintf("%s: %s",
			    _("cannot read file data"), strerror(EISDIR)));
		/* A FIFO would block the real loader for good, and a device
		 * is read like a file; either way nothing loads. */
		return verdict(ELFOBJ_FATAL, why, xasprintf("%s: %s",
		    _("cannot read file data"), sysroot_strerror(rc)));
	default:
		/* ELOOP, ENOTDIR, ENAMETOOLONG, EIO…: when the directory
		 * counts as existing (stat() says so, or the entry is
		 * relative, which glibc never stats), glibc 2.36 gives up on
		 * the rest of this search list (open_path() returns) and goes
		 * on with the next list; otherwise with the next directory. */
		if (path[0] != '/' || dir_exists(sr, path))
			return verdict(ELFOBJ_ENDS_LIST, why,
			    xstrdup(strerror(rc)));
		return verdict(ELFOBJ_NOACCESS, why, xstrdup(strerror(rc)));
	}
}

enum elfobj_verdict
elfobj_check(const struct sysroot *sr, const char *path, int elf_class,
    unsigned machine, char **why)
{
	unsigned char buf[sizeof(Elf64_Ehdr)];
	const unsigned char want_class = elf_class == 32 ? ELFCLASS32 : ELFCLASS64;
	const size_t ehsize = elf_class == 32 ? sizeof(Elf32_Ehdr) :
	    sizeof(Elf64_Ehdr);
	const size_t phentsize = elf_class == 32 ? sizeof(Elf32_Phdr) :
	    sizeof(Elf64_Phdr);
	unsigned osabi, abiver, type, mach, phent, phnum;
	uint16_t raw_machine;
	uint64_t version, phoff;
	const char *msg = NULL;
	struct stat st;
	size_t len;
	int fd, rc;

	if (why != NULL)
		*why = NULL;
	rc = sysroot_open_file(sr, path, &fd);
	if (rc != 0)
		return open_failed(sr, path, rc, why);
	rc = read_head(fd, buf, ehsize, &len);
	if (rc == 0 && fstat(fd, &st) != 0)
		rc = errno;
	close(fd);
	if (rc != 0)
		return verdict(ELFOBJ_FATAL, why, xasprintf("%s: %s",
		    _("cannot read file data"), strerror(rc)));
	if (len < ehsize)
		return verdict(ELFOBJ_FATAL, why, xstrdup(_("file too short")));

	/* e_ident, in the order glibc tells what is wrong with it. */
	osabi = buf[EI_OSABI];
	abiver = buf[EI_ABIVERSION];
	memcpy(&raw_machine, buf + offsetof(Elf64_Ehdr, e_machine),
	    sizeof raw_machine);
	if (memcmp(buf, ELFMAG, SELFMAG) != 0)
		msg = N_("invalid ELF header");
	else if (buf[EI_CLASS] != want_class)
		return verdict(ELFOBJ_WRONG_CLASS, why, xstrdup(elf_class == 32 ?
		    _("wrong ELF class: ELFCLASS64") :
		    _("wrong ELF class: ELFCLASS32")));
	else if (buf[EI_DATA] != HOST_DATA)
		msg = WRONG_DATA_MSG;
	else if (buf[EI_VERSION] != EV_CURRENT)
		msg = N_("ELF file version ident does not match current one");
	else if (osabi != ELFOSABI_SYSV && osabi != ELFOSABI_GNU)
		msg = N_("ELF file OS ABI invalid");
	else if (!(abiver == 0 || (osabi == ELFOSABI_GNU &&
	    abiver < libc_abi_max(machine))))
		msg = N_("ELF file ABI version invalid");
	else {
		for (size_t i = EI_PAD; i < EI_NIDENT; i++)
			if (buf[i] != 0)
				msg = N_("nonzero padding in e_ident");
	}
	/* Debian's glibc skips a file of another machine before it finds
	 * fault with the rest of e_ident (e_machine read in the loader's
	 * byte order, so a big-endian x86-64 file is another machine too);
	 * upstream's calls those fatal. */
	if (msg != NULL && memcmp(buf, ELFMAG, SELFMAG) == 0 &&
	    raw_machine != machine)
		return wrong_machine(raw_machine, why);
	if (msg != NULL)
		return verdict(ELFOBJ_FATAL, why, xstrdup(_(msg)));

	/* The class and byte order are the loader's from here on. */
	if (elf_class == 32) {
		Elf32_Ehdr eh;

		memcpy(&eh, buf, sizeof eh);
		version = eh.e_version;
		mach = eh.e_machine;
		type = eh.e_type;
		phent = eh.e_phentsize;
		phnum = eh.e_phnum;
		phoff = eh.e_phoff;
	} else {
		Elf64_Ehdr eh;

		memcpy(&eh, buf, sizeof eh);
		version = eh.e_version;
		mach = eh.e_machine;
		type = eh.e_type;
		phent = eh.e_phentsize;
		phnum = eh.e_phnum;
		phoff = eh.e_phoff;
	}
	if (version != EV_CURRENT)
		return verdict(ELFOBJ_FATAL, why, xstrdup(
		    _("ELF file version does not match current one")));
	if (mach != machine)
		return wrong_machine(mach, why);
	if (type != ET_DYN && type != ET_EXEC)
		return verdict(ELFOBJ_FATAL, why, xstrdup(
		    _("only ET_DYN and ET_EXEC can be loaded")));
	if (phent != phentsize)
		return verdict(ELFOBJ_FATAL, why, xstrdup(
		    _("ELF file's phentsize not the expected size")));
	/* The program headers are read with pread(); one that ends past
	 * the end of the file is a short read with errno still 0, and an
	 * offset past what off_t holds is EINVAL. */
	if (phoff > INT64_MAX)
		return verdict(ELFOBJ_FATAL, why, xasprintf("%s: %s",
		    _("cannot read file data"), strerror(EINVAL)));
	if (phoff + (uint64_t)phnum * phentsize > (uint64_t)st.st_size)
		return verdict(ELFOBJ_FATAL, why, xstrdup(
		    _("cannot read file data")));
	/* Past open_verify(): mapping refuses what is not position
	 * independent, and the search does not go on. */
	if (type == ET_EXEC)
		return verdict(ELFOBJ_FATAL, why, xstrdup(
		    _("cannot dynamically load executable")));
	return ELFOBJ_OK;
}
