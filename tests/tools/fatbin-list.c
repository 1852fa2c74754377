/* What fatbin_read() and fatbin_walk() say about files, for the shell
 * tests to compare with what nvcc was asked to build and with cuobjdump;
 * a generator of synthetic fatbinary ELF files, so the reader is tested
 * where no CUDA toolkit is installed; and a damage driver.
 *
 *   fatbin-list [--root DIR] [--entries] [--io] FILE...
 *	file PATH
 *	entry SECTION OFFSET KIND NAME|- hdr=N payload=N [compressed]
 *	    (with --entries, one a line, in file order)
 *	has_fatbin yes|no / entries N / sass NAME...|- / ptx NAME...|-
 *	read_bytes N  (with --io: what fatbin_read read through read(2)
 *	    and pread(2), from /proc/self/io; mappings are not counted)
 *	error MESSAGE  (the exit status is 1)
 *   fatbin-list --cc NAME...
 *	NAME CC, or NAME - when fatbin_arch_cc refuses it
 *   fatbin-list --blob OUT SPEC
 *	the raw section contents SPEC describes, for objcopy --add-section
 *   fatbin-list --make OUT [--class 32|64] [--msb] [--payload N]
 *	    [--sparse] SECTION=SPEC...
 *	a minimal ELF file (section headers, no program headers) with one
 *	section per argument, each 16-byte aligned after the section
 *	header table; --sparse leaves every payload a hole, so a gigabyte
 *	costs nothing on disk
 *   fatbin-list --mutate SEED COUNT|truncate|cut FILE
 *	COUNT seeded damaged copies of FILE (mostly in the fatbinary
 *	headers); "truncate": every prefix of FILE; "cut": the first
 *	fatbinary section cut to every size from 0 to its own. Each must
 *	give a listing or an error naming the file, never a crash, a hang,
 *	a sanitizer report or an entry outside the file; a cut must list a
 *	subset of the whole. Exit status 1 when a copy breaks that.
 *
 * SPEC: fatbinaries separated by '/', entries by ','; an entry is
 * [N*]NAME[+z] with NAME sm_XX[a|f], compute_XX[a|f], lto_XX or kindK_XX
 * (+z sets the compressed flag); a part %N is N zero bytes of padding
 * instead of a fatbinary; "-" is an empty section; SECTION=@FILE reads
 * the spec from FILE. Payloads are --payload
 * bytes (default 256), rounded up to 8. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/fatbin.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

/* ---- listing ---- */

static void
print_list(const char *what, const struct strv *sv)
{
	printf("%s", what);
	for (size_t i = 0; i < sv->n; i++)
		printf(" %s", sv->v[i]);
	printf("%s\n", sv->n == 0 ? " -" : "");
}

static int
print_entry(const struct fatbin_entry *e, void *arg)
{
	char name[32];

	(void)arg;
	if (!fatbin_entry_name(e, name, sizeof name))
		strcpy(name, "-");
	printf("entry %s %ju %u %s hdr=%ju payload=%ju%s\n", e->section,
	    (uintmax_t)e->offset, e->kind, name, (uintmax_t)e->header_size,
	    (uintmax_t)e->payload_size, e->compressed ? " compressed" : "");
	return 0;
}

/* Bytes this process has read through read(2) and pread(2); -1 when the
 * kernel does not say. */
static long long
rchar(void)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen("/proc/self/io", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "rchar: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int
list(const struct sysroot *sr, const char *path, bool entries, bool io)
{
	struct fatbin_archs a;
	long long before, after;
	char *err;
	bool has;

	printf("file %s\n", path);
	if (entries && fatbin_walk(sr, path, print_entry, NULL, &has,
	    &err) != 0) {
		printf("error %s\n", err);
		free(err);
		return 1;
	}
	fflush(stdout);
	before = rchar();
	if (fatbin_read(sr, path, &a, &err) != 0) {
		printf("error %s\n", err);
		free(err);
		fatbin_archs_free(&a);
		return 1;
	}
	after = rchar();
	printf("has_fatbin %s\nentries %zu\n", a.has_fatbin ? "yes" : "no",
	    a.entries);
	print_list("sass", &a.sass);
	print_list("ptx", &a.ptx);
	if (io && before >= 0 && after >= before)
		printf("read_bytes %lld\n", after - before);
	fatbin_archs_free(&a);
	return 0;
}

/* ---- the generator ---- */

struct run {
	unsigned long	 count;
	unsigned	 kind;
	unsigned	 arch;
	char		 variant;
	bool		 compressed;
	size_t		 part;
};

struct part {
	bool		 pad;		/* zero bytes, not a fatbinary */
	uint64_t	 size;		/* padding bytes, or the entries' bytes */
};

struct spec {
	struct {
		struct run	*v;
		size_t		 n, cap;
	} runs;
	struct {
		struct part	*v;
		size_t		 n, cap;
	} parts;
	uint64_t	 payload;
};

static uint64_t
entry_header_size(const struct run *r)
{
	if (r->kind == FATBIN_KIND_PTX)
		return 80;
	if (r->kind == FATBIN_KIND_SASS)
		return r->arch >= 100 ? 112 : 64;
	return 120;
}

static int
parse_entry(struct spec *sp, const char *tok, size_t part)
{
	struct run *r;
	const char *p = tok, *star = strchr(tok, '*');
	char *end;
	unsigned long count = 1;

	if (star != NULL) {
		count = strtoul(tok, &end, 10);
		if (end != star || count == 0)
			return -1;
		p = star + 1;
	}
	r = VEC_PUSH(&sp->runs);
	r->count = count;
	r->part = part;
	if (strncmp(p, "sm_", 3) == 0) {
		r->kind = FATBIN_KIND_SASS;
		p += 3;
	} else if (strncmp(p, "compute_", 8) == 0) {
		r->kind = FATBIN_KIND_PTX;
		p += 8;
	} else if (strncmp(p, "lto_", 4) == 0) {
		r->kind = 8;
		p += 4;
	} else if (strncmp(p, "kind", 4) == 0) {
		r->kind = (unsigned)strtoul(p + 4, &end, 10);
		if (*end != '_')
			return -1;
		p = end + 1;
	} else {
		return -1;
	}
	r->arch = (unsigned)strtoul(p, &end, 10);
	if (end == p)
		return -1;
	p = end;
	if (*p == 'a' || *p == 'f')
		r->variant = *p++;
	if (strcmp(p, "+z") == 0)
		r->compressed = true;
	else if (*p != '\0')
		return -1;
	sp->parts.v[part].size += count * (entry_header_size(r) + sp->payload);
	return 0;
}

static int
parse_spec(struct spec *sp, const char *text)
{
	char *copy, *save = NULL, *fb;

	if (strcmp(text, "-") == 0)
		return 0;
	copy = xstrdup(text);
	/* strsep keeps empty parts: "a//b" has an empty fatbinary. */
	save = copy;
	while ((fb = strsep(&save, "/")) != NULL) {
		struct part *pt = VEC_PUSH(&sp->parts);
		size_t part = sp->parts.n - 1;
		char *tok, *esave;

		if (fb[0] == '%') {
			pt->pad = true;
			pt->size = strtoull(fb + 1, NULL, 10);
			continue;
		}
		esave = fb;
		while ((tok = strsep(&esave, ",")) != NULL) {
			if (*tok == '\0')
				continue;
			if (parse_entry(sp, tok, part) != 0) {
				fprintf(stderr, "bad entry in spec: %s\n", tok);
				free(copy);
				return -1;
			}
		}
	}
	free(copy);
	return 0;
}

static void
put(unsigned char *p, size_t n, uint64_t v, bool msb)
{
	for (size_t i = 0; i < n; i++)
		p[msb ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Writes what the spec describes at the stream's position; returns the
 * number of bytes, or -1. */
static int
emit(FILE *f, const struct spec *sp, bool sparse, uint64_t *size)
{
	static unsigned char fill[4096];
	uint64_t total = 0;
	size_t r = 0;

	memset(fill, 0xa5, sizeof fill);
	for (size_t p = 0; p < sp->parts.n; p++) {
		const struct part *pt = &sp->parts.v[p];
		unsigned char h[128];

		if (pt->pad) {
			for (uint64_t i = 0; i < pt->size; i++)
				if (fputc(0, f) == EOF)
					return -1;
			total += pt->size;
			continue;
		}
		memset(h, 0, 16);
		put(h, 4, 0xba55ed50u, false);
		put(h + 4, 2, 1, false);
		put(h + 6, 2, 16, false);
		put(h + 8, 8, pt->size, false);
		if (fwrite(h, 1, 16, f) != 16)
			return -1;
		total += 16;
		for (; r < sp->runs.n && sp->runs.v[r].part == p; r++) {
			const struct run *rn = &sp->runs.v[r];
			uint64_t hs = entry_header_size(rn);
			uint64_t flags = 0x11;

			if (rn->compressed)
				flags |= 0x8000;
			if (rn->variant == 'a')
				flags |= 0x100000;
			if (rn->variant == 'f')
				flags |= 0x200000;
			if (rn->kind == FATBIN_KIND_SASS && rn->arch >= 100)
				flags |= 0x1000000;
			memset(h, 0, sizeof h);
			put(h, 2, rn->kind, false);
			put(h + 2, 2, 0x0101, false);
			put(h + 4, 4, hs, false);
			put(h + 8, 8, sp->payload, false);
			if (rn->compressed)
				put(h + 16, 4, sp->payload / 2, false);
			if (hs > 64)
				put(h + 20, 4, 64, false);
			put(h + 24, 4, rn->kind == FATBIN_KIND_PTX ? 0x90000 :
			    0x10008, false);
			put(h + 28, 4, rn->arch, false);
			put(h + 40, 8, flags, false);
			for (unsigned long i = 0; i < rn->count; i++) {
				if (fwrite(h, 1, hs, f) != hs)
					return -1;
				if (sparse && sp->payload > 0) {
					if (fseeko(f, (off_t)sp->payload, SEEK_CUR) != 0)
						return -1;
				} else {
					for (uint64_t left = sp->payload; left > 0;) {
						size_t n = left < sizeof fill ?
						    (size_t)left : sizeof fill;

						if (fwrite(fill, 1, n, f) != n)
							return -1;
						left -= n;
					}
				}
				total += hs + sp->payload;
			}
		}
	}
	*size = total;
	return 0;
}

static void
spec_free(struct spec *sp)
{
	free(sp->runs.v);
	free(sp->parts.v);
}

static int
blob(const char *out, const char *text, uint64_t payload)
{
	struct spec sp;
	uint64_t size;
	FILE *f;
	int rc;

	memset(&sp, 0, sizeof sp);
	sp.payload = payload;
	if (parse_spec(&sp, text) != 0) {
		spec_free(&sp);
		return 2;
	}
	f = fopen(out, "wb");
	if (f == NULL) {
		perror(out);
		spec_free(&sp);
		return 2;
	}
	rc = emit(f, &sp, false, &size);
	if (fclose(f) != 0 || rc != 0) {
		perror(out);
		rc = 2;
	}
	spec_free(&sp);
	return rc;
}

#define PUTF(buf, type, field, v) \
	put((buf) + offsetof(type, field), sizeof(((type *)0)->field), (v), msb)

static void
shdr(unsigned char *p, bool is64, bool msb, uint32_t name, uint32_t type,
    uint64_t flags, uint64_t off, uint64_t size, uint64_t align)
{
	if (is64) {
		PUTF(p, Elf64_Shdr, sh_name, name);
		PUTF(p, Elf64_Shdr, sh_type, type);
		PUTF(p, Elf64_Shdr, sh_flags, flags);
		PUTF(p, Elf64_Shdr, sh_offset, off);
		PUTF(p, Elf64_Shdr, sh_size, size);
		PUTF(p, Elf64_Shdr, sh_addralign, align);
	} else {
		PUTF(p, Elf32_Shdr, sh_name, name);
		PUTF(p, Elf32_Shdr, sh_type, type);
		PUTF(p, Elf32_Shdr, sh_flags, flags);
		PUTF(p, Elf32_Shdr, sh_offset, off);
		PUTF(p, Elf32_Shdr, sh_size, size);
		PUTF(p, Elf32_Shdr, sh_addralign, align);
	}
}

/* SECTION=@FILE: a spec too long for a command line. */
static int
read_spec(const char *path, char **text)
{
	struct sysroot *host;
	char *err;
	size_t len;
	int rc;

	host = sysroot_new(NULL, &err);
	if (host == NULL) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return -1;
	}
	rc = sysroot_read_file(host, path, 64u << 20, text, &len);
	sysroot_free(host);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", path, sysroot_strerror(rc));
		return -1;
	}
	(*text)[strcspn(*text, "\n")] = '\0';
	return 0;
}

static uint64_t
align16(uint64_t v)
{
	return (v + 15) & ~(uint64_t)15;
}

static int
make(int argc, char **argv)
{
	const char *out = NULL;
	bool is64 = true, msb = false, sparse = false;
	uint64_t payload = 256, shoff, ehsize, shentsize, strsize, pos;
	struct strv names = STRV_INIT, specs = STRV_INIT;
	unsigned char *head;
	size_t nsec, headlen;
	char *strtab;
	FILE *f;
	int rc = 2;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--class") == 0 && i + 1 < argc) {
			is64 = strcmp(argv[++i], "32") != 0;
		} else if (strcmp(argv[i], "--msb") == 0) {
			msb = true;
		} else if (strcmp(argv[i], "--sparse") == 0) {
			sparse = true;
		} else if (strcmp(argv[i], "--payload") == 0 && i + 1 < argc) {
			payload = (strtoull(argv[++i], NULL, 10) + 7) & ~7ULL;
		} else if (out == NULL) {
			out = argv[i];
		} else {
			const char *eq = strchr(argv[i], '=');

			if (eq == NULL) {
				fprintf(stderr, "not SECTION=SPEC: %s\n", argv[i]);
				goto done;
			}
			strv_push_owned(&names, xstrndup(argv[i],
			    (size_t)(eq - argv[i])));
			if (eq[1] == '@') {
				char *text;

				if (read_spec(eq + 2, &text) != 0)
					goto done;
				strv_push_owned(&specs, text);
			} else {
				strv_push(&specs, eq + 1);
			}
		}
	}
	if (out == NULL) {
		fprintf(stderr, "usage: --make OUT [options] SECTION=SPEC...\n");
		goto done;
	}
	nsec = names.n + 2;
	ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	shentsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	shoff = align16(ehsize);
	/* The string table: "\0.shstrtab\0" and every name. */
	strsize = 1 + sizeof ".shstrtab";
	for (size_t i = 0; i < names.n; i++)
		strsize += strlen(names.v[i]) + 1;
	headlen = (size_t)align16(shoff + nsec * shentsize + strsize);
	head = xcalloc(1, headlen);
	strtab = (char *)head + shoff + nsec * shentsize;
	memcpy(strtab + 1, ".shstrtab", sizeof ".shstrtab");

	memcpy(head, ELFMAG, SELFMAG);
	head[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	head[EI_DATA] = msb ? ELFDATA2MSB : ELFDATA2LSB;
	head[EI_VERSION] = EV_CURRENT;
	if (is64) {
		PUTF(head, Elf64_Ehdr, e_type, ET_DYN);
		PUTF(head, Elf64_Ehdr, e_machine, msb ? EM_PPC64 : EM_X86_64);
		PUTF(head, Elf64_Ehdr, e_version, EV_CURRENT);
		PUTF(head, Elf64_Ehdr, e_shoff, shoff);
		PUTF(head, Elf64_Ehdr, e_ehsize, ehsize);
		PUTF(head, Elf64_Ehdr, e_shentsize, shentsize);
		PUTF(head, Elf64_Ehdr, e_shnum, nsec);
		PUTF(head, Elf64_Ehdr, e_shstrndx, 1);
	} else {
		PUTF(head, Elf32_Ehdr, e_type, ET_DYN);
		PUTF(head, Elf32_Ehdr, e_machine, msb ? EM_PPC : EM_386);
		PUTF(head, Elf32_Ehdr, e_version, EV_CURRENT);
		PUTF(head, Elf32_Ehdr, e_shoff, shoff);
		PUTF(head, Elf32_Ehdr, e_ehsize, ehsize);
		PUTF(head, Elf32_Ehdr, e_shentsize, shentsize);
		PUTF(head, Elf32_Ehdr, e_shnum, nsec);
		PUTF(head, Elf32_Ehdr, e_shstrndx, 1);
	}

	f = fopen(out, "wb");
	if (f == NULL) {
		perror(out);
		free(head);
		goto done;
	}
	/* The sections first, then the headers that describe them. */
	pos = headlen;
	if (fseeko(f, (off_t)pos, SEEK_SET) != 0)
		goto ioerr;
	{
		size_t name_off = 1 + sizeof ".shstrtab";

		for (size_t i = 0; i < names.n; i++) {
			struct spec sp;
			uint64_t size;
			int erc;

			memset(&sp, 0, sizeof sp);
			sp.payload = payload;
			if (parse_spec(&sp, specs.v[i]) != 0) {
				spec_free(&sp);
				fclose(f);
				free(head);
				goto done;
			}
			erc = emit(f, &sp, sparse, &size);
			spec_free(&sp);
			if (erc != 0)
				goto ioerr;
			memcpy(strtab + name_off, names.v[i],
			    strlen(names.v[i]) + 1);
			shdr(head + shoff + (i + 2) * shentsize, is64, msb,
			    (uint32_t)name_off, SHT_PROGBITS, SHF_ALLOC, pos,
			    size, 8);
			name_off += strlen(names.v[i]) + 1;
			pos = align16(pos + size);
			if (fseeko(f, (off_t)pos, SEEK_SET) != 0)
				goto ioerr;
		}
	}
	shdr(head + shoff + shentsize, is64, msb, 1, SHT_STRTAB, 0,
	    (uint64_t)(strtab - (char *)head), strsize, 1);
	if (fseeko(f, 0, SEEK_SET) != 0 || fwrite(head, 1, headlen, f) != headlen)
		goto ioerr;
	if (fflush(f) != 0 || ftruncate(fileno(f), (off_t)pos) != 0)
		goto ioerr;
	rc = fclose(f) == 0 ? 0 : 2;
	free(head);
	goto done;
ioerr:
	perror(out);
	fclose(f);
	free(head);
done:
	strv_free(&names);
	strv_free(&specs);
	return rc;
}

/* ---- damage ---- */

/* A small, seedable generator, so a failure can be replayed anywhere. */
static unsigned long long rng_state;

static unsigned long
rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned long)(rng_state >> 33);
}

/* Where the headers of the original lie, so that changes can aim at
 * them: most bytes of a library are payload, which nothing reads. */
struct targets {
	struct {
		uint64_t	*v;
		size_t		 n, cap;
	} hdrs;			/* entry and fatbinary header offsets */
	uint64_t	 shoff, shsize;	/* the section header table */
	uint64_t	 sec_off, sec_size;	/* the first fatbinary section */
	uint64_t	 size_field;	/* where its sh_size lies */
	size_t		 size_len;
	bool		 msb;
};

static int
note_entry(const struct fatbin_entry *e, void *arg)
{
	struct targets *t = arg;

	*(uint64_t *)VEC_PUSH(&t->hdrs) = e->offset;
	if (t->hdrs.n == 1 || t->hdrs.v[t->hdrs.n - 2] < e->fatbin_offset)
		*(uint64_t *)VEC_PUSH(&t->hdrs) = e->fatbin_offset;
	return 0;
}

static void
find_targets(const char *path, unsigned char *image, size_t len,
    struct targets *t)
{
	struct sysroot *host;
	char *err = NULL;
	size_t shnum, shstrndx;
	bool has;
	Elf *e;

	memset(t, 0, sizeof t[0]);
	host = sysroot_new(NULL, &err);
	if (host != NULL && fatbin_walk(host, path, note_entry, t, &has,
	    &err) != 0) {
		fprintf(stderr, "# the original does not read: %s\n", err);
		free(err);
	}
	sysroot_free(host);
	elf_version(EV_CURRENT);
	e = elf_memory((char *)image, len);
	if (e == NULL)
		return;
	t->msb = image[EI_DATA] == ELFDATA2MSB;
	if (elf_getshdrnum(e, &shnum) == 0 && elf_getshdrstrndx(e,
	    &shstrndx) == 0) {
		GElf_Ehdr eh;
		bool is64 = gelf_getclass(e) == ELFCLASS64;

		if (gelf_getehdr(e, &eh) != NULL) {
			t->shoff = eh.e_shoff;
			t->shsize = (uint64_t)shnum * eh.e_shentsize;
		}
		for (size_t i = 1; i < shnum; i++) {
			Elf_Scn *scn = elf_getscn(e, i);
			GElf_Shdr sh;
			const char *name;

			if (scn == NULL || gelf_getshdr(scn, &sh) == NULL)
				continue;
			name = elf_strptr(e, shstrndx, sh.sh_name);
			if (name == NULL || (strcmp(name, ".nv_fatbin") != 0 &&
			    strcmp(name, "__nv_relfatbin") != 0))
				continue;
			t->sec_off = sh.sh_offset;
			t->sec_size = sh.sh_size;
			t->size_field = eh.e_shoff + i * eh.e_shentsize +
			    (is64 ? offsetof(Elf64_Shdr, sh_size) :
			    offsetof(Elf32_Shdr, sh_size));
			t->size_len = is64 ? 8 : 4;
			break;
		}
	}
	elf_end(e);
}

/* One seeded change: a random byte, one bit, plus or minus one, or a
 * field set to all ones, zero, a small number or a huge one; mostly in
 * a fatbinary or entry header, else in the section headers or anywhere
 * in the fatbinary section or the file. */
static size_t
change(unsigned char *buf, size_t len, const struct targets *t,
    size_t *at_out)
{
	unsigned long where = rng() % 10;
	size_t at, width = 1;
	uint64_t v;

	if (where < 6 && t->hdrs.n > 0)
		at = (size_t)t->hdrs.v[rng() % t->hdrs.n] + rng() % 64;
	else if (where < 7 && t->shsize > 0)
		at = (size_t)(t->shoff + rng() % t->shsize);
	else if (where < 9 && t->sec_size > 0)
		at = (size_t)(t->sec_off + rng() % t->sec_size);
	else
		at = rng() % (len < 64 ? len : 64);
	if (at >= len)
		at = rng() % len;
	switch (rng() % 6) {
	case 0:
		buf[at] = (unsigned char)rng();
		break;
	case 1:
		buf[at] ^= (unsigned char)(1u << (rng() % 8));
		break;
	case 2:
		buf[at] += rng() % 2 ? 1 : 0xff;
		break;
	default:
		switch (rng() % 4) {
		case 0:
			v = UINT64_MAX;
			break;
		case 1:
			v = 0;
			break;
		case 2:
			v = rng() % 128;
			break;
		default:
			v = (uint64_t)1 << (20 + rng() % 40);
			break;
		}
		width = rng() % 2 ? 4 : 8;
		if (width > len - at)
			width = len - at;
		put(buf + at, width, v, false);
		break;
	}
	*at_out = at;
	return width;
}

static bool
name_ok(const char *name, const char *prefix, unsigned *num, int *variant)
{
	char cc[16], *end;
	size_t plen = strlen(prefix);

	if (strncmp(name, prefix, plen) != 0 || !fatbin_arch_cc(name, cc,
	    sizeof cc))
		return false;
	*num = (unsigned)strtoul(name + plen, &end, 10);
	*variant = *end == 'a' ? 1 : *end == 'f' ? 2 : 0;
	return true;
}

static int
list_ok(const struct strv *sv, const char *prefix, const struct strv *whole)
{
	unsigned last = 0, num;
	int lastv = -1, v;

	for (size_t i = 0; i < sv->n; i++) {
		if (!name_ok(sv->v[i], prefix, &num, &v)) {
			printf("# not a %s name: %s\n", prefix, sv->v[i]);
			return 1;
		}
		if (i > 0 && (num < last || (num == last && v <= lastv))) {
			printf("# %s is out of order or repeated\n", sv->v[i]);
			return 1;
		}
		if (whole != NULL && !strv_contains(whole, sv->v[i])) {
			printf("# a cut section lists %s, which the whole "
			    "does not\n", sv->v[i]);
			return 1;
		}
		last = num;
		lastv = v;
	}
	return 0;
}

struct bounds {
	uint64_t	 fsize;
	size_t		 n;
	int		 bad;
};

static int
check_entry(const struct fatbin_entry *e, void *arg)
{
	struct bounds *b = arg;
	char name[32];

	b->n++;
	if (e->header_size < 64 || e->offset > b->fsize ||
	    e->header_size > b->fsize - e->offset ||
	    e->payload_size > b->fsize - e->offset - e->header_size) {
		printf("# entry at %ju (%ju + %ju bytes) outside the file\n",
		    (uintmax_t)e->offset, (uintmax_t)e->header_size,
		    (uintmax_t)e->payload_size);
		b->bad = 1;
	}
	if ((e->kind == FATBIN_KIND_SASS || e->kind == FATBIN_KIND_PTX) &&
	    !fatbin_entry_name(e, name, sizeof name)) {
		printf("# entry at %ju has no name\n", (uintmax_t)e->offset);
		b->bad = 1;
	}
	return 0;
}

static size_t n_listed, n_refused;

static int
try_copy(const struct sysroot *sr, const char *path, uint64_t fsize,
    const struct fatbin_archs *whole)
{
	struct fatbin_archs a;
	struct bounds b = { fsize, 0, 0 };
	char *err = (char *)"unset", *werr = NULL;
	bool has;
	int rc, wrc, bad = 0;

	rc = fatbin_read(sr, path, &a, &err);
	wrc = fatbin_walk(sr, path, check_entry, &b, &has, &werr);
	if (rc == 0 && err != NULL) {
		printf("# read returned 0 with a message: %s\n", err);
		bad = 1;
	} else if (rc == -1 && (err == NULL || strncmp(err, path,
	    strlen(path)) != 0 || strncmp(err + strlen(path), ": ", 2) != 0)) {
		printf("# read returned -1 without a message naming the file: "
		    "%s\n", err != NULL ? err : "(null)");
		bad = 1;
	} else if (rc == -1 && (a.has_fatbin || a.entries != 0 ||
	    a.sass.n != 0 || a.ptx.n != 0)) {
		printf("# read returned -1 but left results behind\n");
		bad = 1;
	} else if (rc != 0 && rc != -1) {
		printf("# read returned %d\n", rc);
		bad = 1;
	}
	if (rc == 0) {
		n_listed++;
		if (!a.has_fatbin && (a.entries != 0 || a.sass.n + a.ptx.n != 0)) {
			printf("# entries without a fatbinary section\n");
			bad = 1;
		}
		if (a.sass.n + a.ptx.n > a.entries) {
			printf("# %zu names from %zu entries\n",
			    a.sass.n + a.ptx.n, a.entries);
			bad = 1;
		}
		if (whole != NULL && a.entries > whole->entries) {
			printf("# a cut section has %zu entries, the whole %zu\n",
			    a.entries, whole->entries);
			bad = 1;
		}
		bad |= list_ok(&a.sass, "sm_", whole != NULL ? &whole->sass :
		    NULL);
		bad |= list_ok(&a.ptx, "compute_", whole != NULL ? &whole->ptx :
		    NULL);
	} else {
		n_refused++;
		free(err);
	}
	if ((rc == 0) != (wrc == 0) || (rc == 0 && b.n != a.entries)) {
		printf("# fatbin_read (%d, %zu entries) and fatbin_walk (%d, %zu "
		    "entries) disagree\n", rc, a.entries, wrc, b.n);
		bad = 1;
	}
	free(werr);
	fatbin_archs_free(&a);
	return bad | b.bad;
}

/* The damaged copy lives in a memfd when the kernel has them. */
static int
scratch_open(char **path)
{
	int fd = memfd_create("fatbin-list", MFD_CLOEXEC);

	if (fd < 0) {
		char tmpl[] = "/tmp/fatbin-list.XXXXXX";

		fd = mkstemp(tmpl);
		if (fd >= 0)
			unlink(tmpl);
	}
	if (fd >= 0)
		*path = xasprintf("/proc/self/fd/%d", fd);
	return fd;
}

static int
pwrite_all(int fd, const unsigned char *buf, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int
mutate(const char *seed_s, const char *count_s, const char *path)
{
	enum { RANDOM, TRUNCATE, CUT } mode = RANDOM;
	unsigned long long seed = strtoull(seed_s, NULL, 0);
	struct fatbin_archs whole;
	struct sysroot *host;
	struct targets t;
	unsigned char *orig, *buf;
	size_t len, n, failures = 0;
	char *data, *err, *spath = NULL;
	int fd, rc, status = 0;

	if (strcmp(count_s, "truncate") == 0)
		mode = TRUNCATE;
	else if (strcmp(count_s, "cut") == 0)
		mode = CUT;
	host = sysroot_new(NULL, &err);
	if (host == NULL) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return 2;
	}
	rc = sysroot_read_file(host, path, 64u << 20, &data, &len);
	if (rc != 0 || len == 0) {
		fprintf(stderr, "%s: %s\n", path, rc != 0 ?
		    sysroot_strerror(rc) : "empty");
		if (rc == 0)
			free(data);
		sysroot_free(host);
		return 2;
	}
	orig = (unsigned char *)data;
	buf = xmalloc(len);
	memcpy(buf, orig, len);
	find_targets(path, buf, len, &t);
	if (fatbin_read(host, path, &whole, &err) != 0) {
		fprintf(stderr, "the original does not read: %s\n", err);
		free(err);
		status = 2;
		goto out;
	}
	fd = scratch_open(&spath);
	if (fd < 0 || pwrite_all(fd, orig, len, 0) != 0) {
		fprintf(stderr, "scratch: %s\n", strerror(errno));
		status = 2;
		goto out;
	}
	if (mode == CUT && t.size_len == 0) {
		fprintf(stderr, "%s: no fatbinary section to cut\n", path);
		status = 2;
		goto closed;
	}
	n = mode == TRUNCATE ? len : mode == CUT ? (size_t)t.sec_size + 1 :
	    strtoul(count_s, NULL, 0);
	rng_state = seed;
	for (size_t it = 0; it < n; it++) {
		uint64_t fsize = len;
		size_t at[4], width[4], changes = 0;

		if (mode == TRUNCATE) {
			/* Longest first, so each step only shrinks the file. */
			fsize = len - 1 - it;
			if (ftruncate(fd, (off_t)fsize) != 0)
				break;
		} else if (mode == CUT) {
			put(buf, t.size_len, it, t.msb);
			if (pwrite_all(fd, buf, t.size_len, t.size_field) != 0)
				break;
		} else {
			changes = 1 + rng() % 4;
			for (size_t c = 0; c < changes; c++) {
				width[c] = change(buf, len, &t, &at[c]);
				if (pwrite_all(fd, buf + at[c], width[c], at[c]) != 0)
					break;
			}
		}
		if (try_copy(host, spath, fsize, mode == CUT ? &whole : NULL) != 0) {
			printf("# FAILED: seed %llu, iteration %zu (%s)\n", seed, it,
			    mode == TRUNCATE ? "truncation" : mode == CUT ?
			    "section cut" : "byte changes");
			if (++failures > 10)
				break;
		}
		/* Put the original bytes back, last change first. */
		for (size_t c = changes; c-- > 0;) {
			memcpy(buf + at[c], orig + at[c], width[c]);
			pwrite_all(fd, buf + at[c], width[c], at[c]);
		}
	}
	printf("%s %zu copies of %s (seed %llu): %zu listed, %zu refused, %zu "
	    "broke the contract\n", mode == TRUNCATE ? "truncated" : mode == CUT ?
	    "cut" : "mutated", n, path, seed, n_listed, n_refused, failures);
	status = failures > 0;
closed:
	close(fd);
out:
	fatbin_archs_free(&whole);
	free(spath);
	free(t.hdrs.v);
	free(buf);
	free(data);
	sysroot_free(host);
	return status;
}

/* ---- main ---- */

static int
cc(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char buf[16];

		if (fatbin_arch_cc(argv[i], buf, sizeof buf))
			printf("%s %s\n", argv[i], buf);
		else
			printf("%s -\n", argv[i]);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct sysroot *sr;
	const char *root = NULL;
	bool entries = false, io = false;
	char *err;
	int i = 1, rc = 0;

	if (argc > 1 && strcmp(argv[1], "--cc") == 0)
		return cc(argc - 2, argv + 2);
	if (argc > 1 && strcmp(argv[1], "--make") == 0)
		return make(argc - 2, argv + 2);
	if (argc > 1 && strcmp(argv[1], "--blob") == 0) {
		uint64_t payload = 256;

		if (argc == 6 && strcmp(argv[2], "--payload") == 0) {
			payload = (strtoull(argv[3], NULL, 10) + 7) & ~7ULL;
			argv += 2;
			argc -= 2;
		}
		if (argc != 4) {
			fprintf(stderr, "usage: --blob [--payload N] OUT SPEC\n");
			return 2;
		}
		return blob(argv[2], argv[3], payload);
	}
	if (argc > 1 && strcmp(argv[1], "--mutate") == 0) {
		if (argc != 5) {
			fprintf(stderr, "usage: --mutate SEED COUNT|truncate|cut "
			    "FILE\n");
			return 2;
		}
		return mutate(argv[2], argv[3], argv[4]);
	}
	while (i < argc && strncmp(argv[i], "--", 2) == 0) {
		if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
			root = argv[i + 1];
			i += 2;
		} else if (strcmp(argv[i], "--entries") == 0) {
			entries = true;
			i++;
		} else if (strcmp(argv[i], "--io") == 0) {
			io = true;
			i++;
		} else {
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 2;
		}
	}
	sr = sysroot_new(root, &err);
	if (sr == NULL) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return 2;
	}
	for (; i < argc; i++)
		rc |= list(sr, argv[i], entries, io);
	sysroot_free(sr);
	return rc;
}
