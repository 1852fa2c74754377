/* ELF dynamic-section reading with libelf; see elfinfo.h. */
#include "config.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/elfinfo.h"
#include "util/xalloc.h"

static char *
dyn_string(Elf *e, size_t strndx, GElf_Xword off)
{
	const char *s = elf_strptr(e, strndx, (size_t)off);

	return s != NULL ? xstrdup(s) : NULL;
}

static void
read_dynamic(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct elf_info *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count;

	if (data == NULL || sh->sh_entsize == 0)
		return;
	count = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Dyn dyn;
		char *s;

		if (gelf_getdyn(data, (int)i, &dyn) == NULL)
			break;
		if (dyn.d_tag == DT_NULL)
			break;
		switch (dyn.d_tag) {
		case DT_SONAME:
			if (out->soname == NULL)
				out->soname = dyn_string(e, sh->sh_link, dyn.d_un.d_val);
			break;
		case DT_NEEDED:
			s = dyn_string(e, sh->sh_link, dyn.d_un.d_val);
			if (s != NULL)
				strv_push_owned(&out->needed, s);
			break;
		case DT_RPATH:
			if (out->rpath == NULL)
				out->rpath = dyn_string(e, sh->sh_link, dyn.d_un.d_val);
			break;
		case DT_RUNPATH:
			if (out->runpath == NULL)
				out->runpath = dyn_string(e, sh->sh_link, dyn.d_un.d_val);
			break;
		default:
			break;
		}
	}
}

int
elfinfo_read(const struct sysroot *sr, const char *path, struct elf_info *out,
    char **err)
{
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd, rc;

	memset(out, 0, sizeof *out);
	*err = NULL;
	rc = sysroot_open_file(sr, path, &fd);
	if (rc != 0) {
		*err = xasprintf("%s: %s", path, sysroot_strerror(rc));
		return -1;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		*err = xasprintf(_("%s: libelf is unusable: %s"), path,
		    elf_errmsg(-1));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF || gelf_getehdr(e, &eh) == NULL) {
		*err = xasprintf(_("%s: not an ELF file"), path);
		goto fail;
	}
	switch (gelf_getclass(e)) {
	case ELFCLASS32:
		out->elf_class = 32;
		break;
	case ELFCLASS64:
		out->elf_class = 64;
		break;
	default:
		*err = xasprintf(_("%s: unknown ELF class"), path);
		goto fail;
	}
	out->machine = eh.e_machine;
	out->shared = eh.e_type == ET_DYN;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) == NULL) {
			*err = xasprintf(_("%s: damaged section header: %s"), path,
			    elf_errmsg(-1));
			goto fail;
		}
		if (sh.sh_type == SHT_DYNAMIC)
			read_dynamic(e, scn, &sh, out);
	}
	elf_end(e);
	close(fd);
	return 0;
fail:
	if (e != NULL)
		elf_end(e);
	close(fd);
	elfinfo_free(out);
	return -1;
}

void
elfinfo_free(struct elf_info *info)
{
	FREE(&info->soname);
	FREE(&info->rpath);
	FREE(&info->runpath);
	strv_free(&info->needed);
}
