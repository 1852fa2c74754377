/* The nvidia module files of the kernels that matter (the running one and
 * the one the next boot runs): the driver version each was built from and
 * whether it carries a signature, read from the file itself without
 * modinfo; and whether each DKMS build is installed into its kernel's
 * module tree.
 *
 * A module is an ELF relocatable file whose .modinfo section holds
 * "key=value" strings, "version=550.54.14" among them; a signed module
 * ends with the magic string "~Module signature appended~\n". Only the
 * ELF header, the section table, the section names and .modinfo are read
 * (a few KiB of a 60 MiB nvidia.ko), plus the last 28 bytes. A compressed
 * module (.ko.xz, .ko.zst) is known by its name only. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/version.h"
#include "util/xalloc.h"

/* nvidia.ko has about 60 sections; a kernel module with more than this
 * is not one. */
#define SHNUM_MAX	8192
#define SHSTR_CAP	(1024 * 1024)
#define MODINFO_CAP	(64 * 1024)

static const char sig_magic[] = "~Module signature appended~\n";
#define SIG_LEN	(sizeof sig_magic - 1)

static bool
read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n >= 0 && (size_t)n == len;
}

/* The value of "version=" in a .modinfo section, or NULL. */
static char *
modinfo_version(const char *data, size_t len)
{
	static const char key[] = "version=";

	for (size_t off = 0; off < len;) {
		const char *s = data + off;
		size_t n = strnlen(s, len - off);

		if (n > sizeof key - 1 && strncmp(s, key, sizeof key - 1) == 0) {
			char *v = xstrndup(s + sizeof key - 1, n - (sizeof key - 1));

			if (version_valid(v))
				return v;
			free(v);
			return NULL;
		}
		off += n + 1;
	}
	return NULL;
}

/* The .modinfo version of an ELF64 little-endian module open on fd. */
static char *
elf_module_version(int fd, off_t size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL, *names;
	char *shstr = NULL, *info = NULL, *ver = NULL;

	if (!read_at(fd, &eh, sizeof eh, 0) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
	    eh.e_shnum > SHNUM_MAX || eh.e_shstrndx >= eh.e_shnum ||
	    eh.e_shoff > (Elf64_Off)size ||
	    (Elf64_Off)size - eh.e_shoff < (Elf64_Off)eh.e_shnum * sizeof *sh)
		return NULL;
	sh = xreallocarray(NULL, eh.e_shnum, sizeof *sh);
	if (!read_at(fd, sh, eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff))
		goto out;
	names = &sh[eh.e_shstrndx];
	if (names->sh_size == 0 || names->sh_size > SHSTR_CAP ||
	    names->sh_offset > (Elf64_Off)size ||
	    (Elf64_Off)size - names->sh_offset < names->sh_size)
		goto out;
	shstr = xmalloc(names->sh_size + 1);
	if (!read_at(fd, shstr, names->sh_size, (off_t)names->sh_offset))
		goto out;
	shstr[names->sh_size] = '\0';
	for (size_t i = 0; i < eh.e_shnum; i++) {
		const Elf64_Shdr *s = &sh[i];

		if (s->sh_name >= names->sh_size ||
		    strcmp(shstr + s->sh_name, ".modinfo") != 0)
			continue;
		if (s->sh_type == SHT_NOBITS || s->sh_size == 0 ||
		    s->sh_size > MODINFO_CAP || s->sh_offset > (Elf64_Off)size ||
		    (Elf64_Off)size - s->sh_offset < s->sh_size)
			break;
		info = xmalloc(s->sh_size + 1);
		if (read_at(fd, info, s->sh_size, (off_t)s->sh_offset)) {
			info[s->sh_size] = '\0';
			ver = modinfo_version(info, s->sh_size);
		}
		break;
	}
out:
	free(info);
	free(shstr);
	free(sh);
	return ver;
}

/* The main module (nvidia.ko, nvidia-current.ko), not nvidia-uvm … */
static bool
is_main_module(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strncmp(base, "nvidia.ko", 9) == 0 ||
	    strncmp(base, "nvidia-current.ko", 17) == 0;
}

static bool
is_compressed(const char *path)
{
	size_t n = strlen(path);

	return n < 3 || strcmp(path + n - 3, ".ko") != 0;
}

static void
read_module(struct probe_ctx *ctx, struct kernel_module_file *m)
{
	struct stat st;
	char tail[SIG_LEN];
	int fd, rc;

	if (is_compressed(m->path))
		return;
	rc = sysroot_open_file(ctx->sr, m->path, &fd);
	if (rc != 0) {
		facts_note(ctx->facts, m->path, _("cannot read: %s"),
		    sysroot_strerror(rc));
		return;
	}
	if (fstat(fd, &st) != 0) {
		close(fd);
		return;
	}
	m->version = elf_module_version(fd, st.st_size);
	if ((size_t)st.st_size >= SIG_LEN &&
	    read_at(fd, tail, SIG_LEN, st.st_size - (off_t)SIG_LEN))
		m->signed_state = memcmp(tail, sig_magic, SIG_LEN) == 0;
	close(fd);
}

static bool
kernel_matters(const struct driver_facts *d, const char *kernel)
{
	return (fact_known(&d->kernel_release) &&
	    strcmp(d->kernel_release.value, kernel) == 0) ||
	    (fact_known(&d->boot_kernel) &&
	    strcmp(d->boot_kernel.value, kernel) == 0);
}

void
probe_module_files(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;

	for (size_t i = 0; i < d->module_files.n; i++) {
		struct kernel_module_file *m = &d->module_files.v[i];

		if (kernel_matters(d, m->kernel) && is_main_module(m->path))
			read_module(ctx, m);
	}
	/* DKMS "installed": dkms copied the build into the kernel's tree;
	 * "built" only, the module cannot be loaded by name. */
	for (size_t i = 0; i < d->dkms.n; i++)
		for (size_t j = 0; j < d->module_files.n; j++)
			if (strcmp(d->dkms.v[i].kernel,
			    d->module_files.v[j].kernel) == 0 &&
			    is_main_module(d->module_files.v[j].path))
				d->dkms.v[i].installed = true;
}
