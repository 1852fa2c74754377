/* The PE/COFF reader on images built here byte by byte: each field it
 * reports, then damaged copies (cut at every header boundary and at
 * every length, RVAs past the end, a resource tree that loops, counts
 * far beyond the file), each of which must be an error naming the
 * damage. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pe/pe.h"
#include "sysroot/sysroot.h"
#include "lib/tap.h"
#include "lib/winfx.h"

static void
img_delay(struct img *m, const char *const *names, size_t n, bool va)
{
	uint64_t base = m->plus ? 0x180000000ull : 0x10000000ull;
	uint32_t rvas[16], desc;

	for (size_t i = 0; i < n; i++)
		rvas[i] = img_put_str(m, names[i]);
	desc = img_reserve(m, 32 * (n + 1));
	for (size_t i = 0; i < n; i++) {
		w32(m->b + img_off(desc) + 32 * i, va ? 0 : 1);
		w32(m->b + img_off(desc) + 32 * i + 4,
		    va ? (uint32_t)(base + rvas[i]) : rvas[i]);
	}
	m->delay_desc = img_off(desc);
	img_set_dir(m, 13, desc, (uint32_t)(32 * (n + 1)));
}

static void
img_exports(struct img *m, const char *dll, const char *const *names,
    size_t n)
{
	uint32_t rvas[16], tab, dir, name = img_put_str(m, dll);

	for (size_t i = 0; i < n; i++)
		rvas[i] = img_put_str(m, names[i]);
	tab = img_reserve(m, 4 * n);
	for (size_t i = 0; i < n; i++)
		w32(m->b + img_off(tab) + 4 * i, rvas[i]);
	dir = img_reserve(m, 40);
	m->exp_dir = img_off(dir);
	w32(m->b + m->exp_dir + 12, name);
	w32(m->b + m->exp_dir + 16, 1);
	w32(m->b + m->exp_dir + 20, (uint32_t)n);
	w32(m->b + m->exp_dir + 24, (uint32_t)n);
	w32(m->b + m->exp_dir + 32, tab);
	img_set_dir(m, 0, dir, 40);
}

/* A VS_VERSIONINFO under construction. */
struct vb {
	unsigned char	b[2048];
	size_t		len;
};

static void
vb_pad(struct vb *v)
{
	while (v->len % 4 != 0)
		v->b[v->len++] = 0;
}

/* Starts a block; value is vbytes bytes, wValueLength wlen. */
static size_t
vb_begin(struct vb *v, const char *key, const void *value, size_t vbytes,
    unsigned wlen, unsigned type)
{
	size_t start;

	vb_pad(v);
	start = v->len;
	w16(v->b + v->len + 2, wlen);
	w16(v->b + v->len + 4, type);
	v->len += 6;
	for (const char *k = key;; k++) {
		w16(v->b + v->len, (unsigned char)*k);
		v->len += 2;
		if (*k == '\0')
			break;
	}
	vb_pad(v);
	if (vbytes > 0)
		memcpy(v->b + v->len, value, vbytes);
	v->len += vbytes;
	return start;
}

static void
vb_end(struct vb *v, size_t start)
{
	w16(v->b + start, (unsigned)(v->len - start));
}

/* A String block whose value is the UTF-16 text w (NUL-terminated). */
static void
vb_string(struct vb *v, const char *key, const uint16_t *w)
{
	unsigned char val[256];
	size_t n = 0;

	do {
		w16(val + 2 * n, w[n]);
	} while (w[n++] != 0);
	vb_end(v, vb_begin(v, key, val, 2 * n, (unsigned)n, 1));
}

static const uint16_t *
wide(const char *s)
{
	static uint16_t w[4][128];
	static int slot;
	uint16_t *p = w[slot++ % 4];
	size_t i = 0;

	do {
		p[i] = (unsigned char)s[i];
	} while (s[i++] != '\0');
	return p;
}

static void
vb_version(struct vb *v, uint32_t fv_ms, uint32_t fv_ls, uint32_t pv_ms,
    uint32_t pv_ls, const uint16_t *name)
{
	unsigned char ffi[52] = { 0 };
	size_t root, sfi, tab;

	w32(ffi, 0xfeef04bdu);
	w32(ffi + 4, 0x10000);
	w32(ffi + 8, fv_ms);
	w32(ffi + 12, fv_ls);
	w32(ffi + 16, pv_ms);
	w32(ffi + 20, pv_ls);
	root = vb_begin(v, "VS_VERSION_INFO", ffi, sizeof ffi, 52, 0);
	sfi = vb_begin(v, "StringFileInfo", NULL, 0, 0, 1);
	tab = vb_begin(v, "040904b0", NULL, 0, 0, 1);
	vb_string(v, "CompanyName", wide("NVIDIA Corporation"));
	vb_string(v, "FileVersion", wide("6,14,11,11080"));
	vb_string(v, "ProductName", name);
	vb_string(v, "ProductVersion", wide("11.8.89"));
	vb_end(v, tab);
	vb_end(v, sfi);
	vb_end(v, root);
}

/* The resource tree RT_VERSION / 1 / 0x409 over the blob. */
static void
img_version(struct img *m, const struct vb *v)
{
	uint32_t root = img_reserve(m, 24), name = img_reserve(m, 24),
	    lang = img_reserve(m, 24), data = img_reserve(m, 16),
	    blob = img_put(m, v->b, v->len);

	m->res_root = img_off(root);
	m->res_name = img_off(name);
	m->res_lang = img_off(lang);
	m->res_data = img_off(data);
	m->ver_blob = img_off(blob);
	m->ver_len = (uint32_t)v->len;
	w16(m->b + m->res_root + 14, 1);
	w32(m->b + m->res_root + 16, 16);
	w32(m->b + m->res_root + 20, 0x80000000u | (name - root));
	w16(m->b + m->res_name + 14, 1);
	w32(m->b + m->res_name + 16, 1);
	w32(m->b + m->res_name + 20, 0x80000000u | (lang - root));
	w16(m->b + m->res_lang + 14, 1);
	w32(m->b + m->res_lang + 16, 0x409);
	w32(m->b + m->res_lang + 20, data - root);
	w32(m->b + m->res_data, blob);
	w32(m->b + m->res_data + 4, (uint32_t)v->len);
	img_set_dir(m, 2, root, (uint32_t)(blob + v->len - root));
}

static const char *const cudart_imports[] = {
	"KERNEL32.dll", "cudnn64_8.dll", "kernel32.DLL", "msvcrt.dll",
};
static const char *const cudart_exports[] = {
	"cudaGetDeviceCount", "cudaRuntimeGetVersion", "cuGetProcAddress_v2",
	"cuInit",
};

/* A DLL like NVIDIA's cudart64_110.dll. */
static void
build_cudart(struct img *m)
{
	static const char *const delay[] = { "nvcuda.dll", "NVCUDA.DLL" };
	struct vb v = { .len = 0 };

	img_init(m, true, PE_MACHINE_AMD64, true);
	img_imports(m, cudart_imports, 4);
	img_delay(m, delay, 2, false);
	img_exports(m, "cudart64_110.dll", cudart_exports, 4);
	vb_version(&v, 0x000b0008, 0x00590000, 0x000b0008, 0x00590000,
	    wide("NVIDIA CUDA 11.8.89 Runtime"));
	img_version(m, &v);
}

/* pe_read_mem's error for the first len bytes of b, or NULL. */
static char *
read_err(const unsigned char *b, size_t len)
{
	struct peobj o;
	char *err = NULL;

	if (pe_read_mem(b, len, "t.dll", PE_EXPORTS, &o, &err) == 0) {
		pe_free(&o);
		return NULL;
	}
	return err;
}

/* One damaged image: an error starting with the name and holding want. */
static void
check_damage(const struct img *m, size_t len, const char *want,
    const char *label)
{
	char *err = read_err(m->b, len);

	ok(err != NULL && strncmp(err, "t.dll: ", 7) == 0 &&
	    strstr(err, want) != NULL, "%s: an error with \"%s\"", label,
	    want);
	if (err == NULL || strstr(err, want) == NULL)
		printf("#   got: %s\n", err != NULL ? err : "(success)");
	free(err);
}

static void
test_fields(void)
{
	struct img m;
	struct peobj o;
	char *err = NULL;
	char buf[32];

	build_cudart(&m);
	ok(pe_read_mem(m.b, IMG_SIZE, "cudart64_110.dll", PE_EXPORTS, &o,
	    &err) == 0 && err == NULL, "cudart-like DLL: read");
	is_int(o.machine, 0x8664, "machine x86-64");
	is_str(pe_machine_name(o.machine, buf, sizeof buf), "x86-64",
	    "machine named x86-64");
	ok(o.pe32plus, "PE32+");
	ok(o.dll, "a DLL");
	is_int(o.subsystem, 2, "subsystem 2 (GUI)");
	is_int(o.image_base, 0x180000000ull, "image base");
	is_int(o.imports.n, 3, "imports: three DLLs (kernel32.DLL repeats "
	    "KERNEL32.dll)");
	is_str(o.imports.n > 0 ? o.imports.v[0] : NULL, "KERNEL32.dll",
	    "import 1, first spelling kept");
	is_str(o.imports.n > 1 ? o.imports.v[1] : NULL, "cudnn64_8.dll",
	    "import 2");
	is_str(o.imports.n > 2 ? o.imports.v[2] : NULL, "msvcrt.dll",
	    "import 3");
	is_int(o.delay_imports.n, 1, "delay-load: one DLL (NVCUDA.DLL "
	    "repeats nvcuda.dll)");
	is_str(o.delay_imports.n > 0 ? o.delay_imports.v[0] : NULL,
	    "nvcuda.dll", "delay-load nvcuda.dll");
	ok(pe_imports(&o, "NvCuda.dll") && pe_imports(&o, "CUDNN64_8.DLL") &&
	    !pe_imports(&o, "cudnn64_9.dll"), "pe_imports ignores case, "
	    "sees both directories");
	is_str(o.export_dll, "cudart64_110.dll", "export directory's name");
	is_int(o.exports.n, 4, "four exports");
	ok(pe_exports(&o, "cuInit") && pe_exports(&o, "cuGetProcAddress_v2"),
	    "exports cuInit and cuGetProcAddress_v2");
	ok(!pe_exports(&o, "cuinit") && !pe_exports(&o, "cuGetProcAddress"),
	    "exact names only (cuinit, cuGetProcAddress)");
	is_str(o.exports.n > 0 ? o.exports.v[0] : NULL, "cudaGetDeviceCount",
	    "exports in table order");
	ok(o.has_version, "has a version resource");
	is_str(o.file_version, "11.8.89.0", "fixed FileVersion");
	is_str(o.product_version, "11.8.89.0", "fixed ProductVersion");
	is_str(o.file_version_str, "6,14,11,11080", "string FileVersion");
	is_str(o.product_version_str, "11.8.89", "string ProductVersion");
	is_str(o.product_name, "NVIDIA CUDA 11.8.89 Runtime",
	    "string ProductName");
	pe_free(&o);

	ok(pe_read_mem(m.b, IMG_SIZE, "x", PE_HEADERS, &o, &err) == 0 &&
	    o.exports.n == 0 && o.export_dll == NULL && o.imports.n == 3 &&
	    o.file_version != NULL, "without PE_EXPORTS: no exports, the "
	    "rest read");
	pe_free(&o);
}

static void
test_kinds(void)
{
	static const char *const k32[] = { "KERNEL32.dll" };
	static const char *const delay[] = { "cudnn_ops64_9.dll" };
	struct img m;
	struct peobj o;
	char *err = NULL;
	char buf[32];

	/* A 32-bit console program, no directories at all. */
	img_init(&m, false, PE_MACHINE_I386, false);
	ok(pe_read_mem(m.b, IMG_SIZE, "a.exe", PE_EXPORTS, &o, &err) == 0,
	    "bare PE32 program: read");
	is_int(o.machine, 0x14c, "machine i386");
	ok(!o.pe32plus && !o.dll, "PE32, not a DLL");
	is_int(o.subsystem, 3, "subsystem 3 (console)");
	ok(o.imports.n == 0 && o.delay_imports.n == 0 && o.exports.n == 0 &&
	    !o.has_version && o.file_version == NULL && o.product_name == NULL,
	    "no imports, exports or version");
	pe_free(&o);

	/* A 32-bit DLL with VC6-style delay-load entries (addresses). */
	img_init(&m, false, PE_MACHINE_I386, true);
	img_imports(&m, k32, 1);
	img_delay(&m, delay, 1, true);
	ok(pe_read_mem(m.b, IMG_SIZE, "b.dll", PE_HEADERS, &o, &err) == 0 &&
	    o.delay_imports.n == 1 &&
	    strcmp(o.delay_imports.v[0], "cudnn_ops64_9.dll") == 0,
	    "PE32 delay-load entries by address: cudnn_ops64_9.dll");
	pe_free(&o);

	img_init(&m, true, PE_MACHINE_ARM64, true);
	ok(pe_read_mem(m.b, IMG_SIZE, "c.dll", PE_HEADERS, &o, &err) == 0 &&
	    o.machine == 0xaa64, "ARM64 DLL: machine 0xaa64");
	is_str(pe_machine_name(o.machine, buf, sizeof buf), "ARM64",
	    "machine named ARM64");
	is_str(pe_machine_name(0x1c4, buf, sizeof buf), "machine 0x1c4",
	    "an unknown machine by number");
	pe_free(&o);
}

static void
test_utf16(void)
{
	/* "Caf\u00e9 \U0001F600" and a lone high surrogate. */
	static const uint16_t name[] = { 'C', 'a', 'f', 0xe9, ' ', 0xd83d,
	    0xde00, ' ', 0xd800, '!', 0 };
	struct img m;
	struct vb v = { .len = 0 };
	struct peobj o;
	char *err = NULL;

	img_init(&m, true, PE_MACHINE_AMD64, true);
	vb_version(&v, 0x00090001, 0x00020003, 0x00090000, 0, name);
	img_version(&m, &v);
	ok(pe_read_mem(m.b, IMG_SIZE, "u.dll", PE_HEADERS, &o, &err) == 0,
	    "non-ASCII ProductName: read");
	is_str(o.product_name, "Caf\xc3\xa9 \xf0\x9f\x98\x80 \xef\xbf\xbd!",
	    "UTF-16 to UTF-8: \u00e9, a surrogate pair, a lone surrogate as "
	    "U+FFFD");
	is_str(o.file_version, "9.1.2.3", "FileVersion 9.1.2.3");
	is_str(o.product_version, "9.0.0.0", "ProductVersion 9.0.0.0");
	pe_free(&o);
}

/* A version resource in two languages, Arabic first: the US English
 * one is read; with one language only, whichever it is. */
static void
test_languages(void)
{
	struct img m;
	struct vb v = { .len = 0 };
	struct peobj o;
	unsigned char dir[32] = { 0 }, entry[16] = { 0 };
	uint32_t blob, data, lang, root;
	char *err = NULL;

	build_cudart(&m);
	root = m.res_root - SEC_OFF + SEC_RVA;
	vb_version(&v, 0x000b0008, 0x00590001, 0x000b0008, 0x00590001,
	    wide("Arabic first"));
	blob = img_put(&m, v.b, v.len);
	w32(entry, blob);
	w32(entry + 4, (uint32_t)v.len);
	data = img_put(&m, entry, sizeof entry);
	w16(dir + 14, 2);
	w32(dir + 16, 0x401);
	w32(dir + 20, data - root);
	w32(dir + 24, 0x409);
	w32(dir + 28, m.res_data - m.res_root);
	lang = img_put(&m, dir, sizeof dir);
	w32(m.b + m.res_name + 20, 0x80000000u | (lang - root));
	ok(pe_read_mem(m.b, IMG_SIZE, "l.dll", PE_HEADERS, &o, &err) == 0 &&
	    o.product_name != NULL &&
	    strcmp(o.product_name, "NVIDIA CUDA 11.8.89 Runtime") == 0 &&
	    strcmp(o.file_version, "11.8.89.0") == 0,
	    "Arabic (0x401) and US English (0x409): the English one");
	pe_free(&o);
	/* Without the English entry, the first language. */
	w16(m.b + img_off(lang) + 14, 1);
	ok(pe_read_mem(m.b, IMG_SIZE, "l.dll", PE_HEADERS, &o, &err) == 0 &&
	    o.product_name != NULL &&
	    strcmp(o.product_name, "Arabic first") == 0 &&
	    strcmp(o.file_version, "11.8.89.1") == 0,
	    "Arabic alone: that one");
	pe_free(&o);
}

static void
test_file(void)
{
	struct img m;
	struct peobj o;
	struct sysroot *sr;
	char path[] = "/tmp/test_pe.XXXXXX", *err = NULL;
	int fd;

	build_cudart(&m);
	fd = mkstemp(path);
	ok(fd >= 0 && write(fd, m.b, IMG_SIZE) == (ssize_t)IMG_SIZE,
	    "wrote the image to %s", path);
	if (fd >= 0)
		close(fd);
	sr = sysroot_new(NULL, &err);
	ok(sr != NULL, "host sysroot");
	ok(pe_read(sr, path, PE_EXPORTS, &o, &err) == 0 && o.exports.n == 4 &&
	    o.imports.n == 3 && o.product_name != NULL &&
	    strcmp(o.product_name, "NVIDIA CUDA 11.8.89 Runtime") == 0,
	    "pe_read from the file: the same facts");
	pe_free(&o);
	unlink(path);
	ok(pe_read(sr, path, PE_EXPORTS, &o, &err) != 0 && err != NULL &&
	    strncmp(err, path, strlen(path)) == 0,
	    "a missing file: an error naming it");
	free(err);
	sysroot_free(sr);
}

static void
test_truncated(void)
{
	struct img m;
	size_t broken = 0, ok_prefix = 0;
	struct {
		size_t		 len;
		const char	*want;
	} cuts[] = {
		{ 0, "no MZ header" },
		{ 2, "no MZ header" },
		{ 63, "no MZ header" },
		{ 64, "the PE signature and COFF header is cut off" },
		{ LFANEW + 23, "the PE signature and COFF header is cut off" },
		{ OPT_OFF + 1, "the optional header is cut off" },
		{ OPT_OFF + 239, "the optional header is cut off" },
		{ OPT_OFF + 240, "the section table is cut off" },
		{ OPT_OFF + 240 + 39, "the section table is cut off" },
	};

	build_cudart(&m);
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		char label[64];

		snprintf(label, sizeof label, "cut at %zu bytes", cuts[i].len);
		check_damage(&m, cuts[i].len, cuts[i].want, label);
	}
	/* Every prefix: an error naming the file, or (once every part read
	 * is in) success; never a crash. */
	for (size_t len = 0; len < IMG_SIZE; len++) {
		char *err = read_err(m.b, len);

		if (err == NULL)
			ok_prefix++;
		else if (strncmp(err, "t.dll: ", 7) != 0)
			broken++;
		free(err);
	}
	is_int(broken, 0, "every prefix of %u bytes: errors name the file",
	    IMG_SIZE);
	is_int(ok_prefix, IMG_SIZE - (m.ver_blob + m.ver_len),
	    "the prefixes that read are those holding the version resource, "
	    "the last part read");
	check_damage(&m, m.ver_blob + m.ver_len - 1, "version resource",
	    "cut inside the version resource");
}

static void
test_damaged(void)
{
	struct img m;

	build_cudart(&m);
	w32(m.b + 0x3c, 0xfffffff0u);
	check_damage(&m, IMG_SIZE, "the PE signature and COFF header is cut "
	    "off", "e_lfanew far past the end");

	build_cudart(&m);
	memcpy(m.b + LFANEW, "PX", 2);
	check_damage(&m, IMG_SIZE, "no PE signature at offset 0x40",
	    "no PE signature");

	build_cudart(&m);
	w16(m.b + OPT_OFF, 0x107);
	check_damage(&m, IMG_SIZE, "unknown optional header magic 0x107",
	    "ROM magic");

	build_cudart(&m);
	w16(m.b + LFANEW + 20, 100);
	check_damage(&m, IMG_SIZE, "too short for its data directories",
	    "optional header of 100 bytes for PE32+");

	build_cudart(&m);
	w16(m.b + LFANEW + 6, 60000);
	check_damage(&m, IMG_SIZE, "claims 60000 sections", "60000 sections");

	build_cudart(&m);
	w32(m.b + m.imp_desc + 20 + 12, 0x7fff0000u);
	check_damage(&m, IMG_SIZE, "an imported DLL's name at RVA 0x7fff0000 "
	    "lies outside", "import name RVA past the image");

	build_cudart(&m);
	w32(m.b + m.dirs + 8, 0xfffffff0u);
	check_damage(&m, IMG_SIZE, "the import directory at RVA 0xfffffff0 "
	    "lies outside", "import directory RVA near 4 GiB");

	/* Descriptors to the end of the section, none empty. */
	build_cudart(&m);
	for (uint32_t o = m.imp_desc; o + 20 <= IMG_SIZE; o += 20)
		w32(m.b + o + 12, SEC_RVA + 8);
	check_damage(&m, IMG_SIZE, "the import directory at RVA",
	    "import descriptors without an empty one");

	/* A section whose raw data lies past the file's end. */
	build_cudart(&m);
	w32(m.b + m.sec_hdr + 20, 0x7ffff000u);
	check_damage(&m, IMG_SIZE, "is cut off", "section data past the end");

	/* Code, not an empty entry, after the delay-load entries: the
	 * directory's size ends the list; without a size it is damage. */
	build_cudart(&m);
	memset(m.b + m.delay_desc + 64, 0x90, 32);
	{
		struct peobj o;
		char *err = NULL;

		w32(m.b + m.dirs + 13 * 8 + 4, 64);
		ok(pe_read_mem(m.b, IMG_SIZE, "t.dll", PE_HEADERS, &o,
		    &err) == 0 && o.delay_imports.n == 1,
		    "delay-load entries end at the directory's size");
		pe_free(&o);
		free(err);
	}
	w32(m.b + m.dirs + 13 * 8 + 4, 0);
	check_damage(&m, IMG_SIZE, "entry 2 names its DLL at address "
	    "0x90909090, outside the image", "delay-load entries without an "
	    "end");

	build_cudart(&m);
	w32(m.b + m.exp_dir + 24, 0xffffffffu);
	check_damage(&m, IMG_SIZE, "claims 4294967295 names", "export count "
	    "of 2^32-1");

	build_cudart(&m);
	w32(m.b + m.exp_dir + 24, 100000);
	check_damage(&m, IMG_SIZE, "(100000 names) runs past the end",
	    "export count beyond the section");

	/* The DLL name runs to the end of the section without a NUL. */
	build_cudart(&m);
	memset(m.b + IMG_SIZE - 16, 'A', 16);
	w32(m.b + m.exp_dir + 12, SEC_RVA + SEC_SIZE - 16);
	check_damage(&m, IMG_SIZE, "has no end within 16 bytes",
	    "unterminated export DLL name");

	/* The name directory's entry leads back to the root. */
	build_cudart(&m);
	w32(m.b + m.res_name + 20, 0x80000000u);
	check_damage(&m, IMG_SIZE, "the resource tree loops: the directory "
	    "at offset 0 is reached again", "resource cycle to the root");

	/* The language entry leads back to the name directory. */
	build_cudart(&m);
	w32(m.b + m.res_lang + 20, 0x80000000u | (m.res_name - m.res_root));
	check_damage(&m, IMG_SIZE, "the resource tree loops",
	    "resource cycle at the last level");

	build_cudart(&m);
	w32(m.b + m.res_lang + 20, 0x80000000u | (m.res_data - m.res_root));
	check_damage(&m, IMG_SIZE, "deeper than three levels",
	    "a fourth level of directories");

	build_cudart(&m);
	w32(m.b + m.res_name + 20, m.res_data - m.res_root);
	check_damage(&m, IMG_SIZE, "ends in data at level 2",
	    "data where a directory belongs");

	build_cudart(&m);
	w16(m.b + m.res_root + 12, 0xffff);
	w16(m.b + m.res_root + 14, 0xffff);
	check_damage(&m, IMG_SIZE, "claims 131070 entries",
	    "resource directory count overflow");

	build_cudart(&m);
	w32(m.b + m.res_root + 20, 0x80000000u | 0x7ffffff0u);
	check_damage(&m, IMG_SIZE, "lies outside the resource section",
	    "resource subdirectory offset past the section");

	build_cudart(&m);
	w32(m.b + m.res_data, 0x7fff0000u);
	check_damage(&m, IMG_SIZE, "the version resource at RVA 0x7fff0000",
	    "version data RVA outside");

	build_cudart(&m);
	w32(m.b + m.res_data + 4, 0x100000);
	check_damage(&m, IMG_SIZE, "claims 1048576 bytes",
	    "version resource of 1 MiB");

	build_cudart(&m);
	w16(m.b + m.ver_blob, 0xfff0);
	check_damage(&m, IMG_SIZE, "first block does not fit",
	    "VS_VERSIONINFO longer than its resource");

	build_cudart(&m);
	w32(m.b + m.ver_blob + 40, 0xdeadbeefu);
	check_damage(&m, IMG_SIZE, "signature 0xdeadbeef",
	    "VS_FIXEDFILEINFO signature");

	/* The StringFileInfo block claims more than the root holds. */
	build_cudart(&m);
	w16(m.b + m.ver_blob + 92, 0x7ff0);
	check_damage(&m, IMG_SIZE, "the version resource's block at byte 92 "
	    "is damaged", "StringFileInfo longer than VS_VERSIONINFO");

	/* A string with a length of zero would never move on. */
	build_cudart(&m);
	{
		/* StringFileInfo at 92, its table at 92 + 36, whose first
		 * string starts 24 bytes in. */
		uint32_t s = m.ver_blob + 92 + 36 + 24;

		w16(m.b + s, 0);
		check_damage(&m, IMG_SIZE, "string at byte",
		    "a string block of length 0");
	}

	build_cudart(&m);
	w16(m.b + m.ver_blob + 6, 'X');
	check_damage(&m, IMG_SIZE, "starts with \"XS_VERSION_INFO\"",
	    "not VS_VERSION_INFO");
}

/* Export names that make every read land far from the last: the bytes
 * read pass PE_READ_CAP, and the read stops with that, not later. */
static void
test_read_cap(void)
{
	enum { BIG = 0x40000, NNAMES = 1100 };
	struct img m;
	struct peobj o;
	unsigned char *b = calloc(1, SEC_OFF + BIG);
	char *err = NULL;

	img_init(&m, true, PE_MACHINE_AMD64, true);
	memcpy(b, m.b, SEC_OFF);
	w32(b + m.sec_hdr + 8, BIG);
	w32(b + m.sec_hdr + 16, BIG);
	memcpy(b + SEC_OFF + 0x100, "cuInit", 7);
	memcpy(b + SEC_OFF + 0x30000, "cuGetProcAddress_v2", 20);
	for (unsigned i = 0; i < NNAMES; i++)
		w32(b + SEC_OFF + 0x200 + 4 * i,
		    SEC_RVA + (i % 2 == 0 ? 0x100 : 0x30000));
	w32(b + SEC_OFF + 0x2000 + 24, NNAMES);
	w32(b + SEC_OFF + 0x2000 + 32, SEC_RVA + 0x200);
	w32(b + m.dirs, SEC_RVA + 0x2000);
	w32(b + m.dirs + 4, 40);
	ok(pe_read_mem(b, SEC_OFF + BIG, "t.dll", PE_EXPORTS, &o, &err) != 0 &&
	    err != NULL && strstr(err, "needs more than 64 MiB") != NULL,
	    "%u names 192 KiB apart: stops at the read cap", NNAMES);
	if (err != NULL)
		printf("#   %s\n", err);
	free(err);
	err = NULL;
	ok(pe_read_mem(b, SEC_OFF + BIG, "t.dll", PE_HEADERS, &o, &err) == 0,
	    "the same file without its exports reads");
	pe_free(&o);
	/* Fewer names, the same layout: under the cap. */
	w32(b + SEC_OFF + 0x2000 + 24, 200);
	ok(pe_read_mem(b, SEC_OFF + BIG, "t.dll", PE_EXPORTS, &o, &err) == 0 &&
	    o.exports.n == 200 && pe_exports(&o, "cuGetProcAddress_v2"),
	    "200 such names read (12.5 MiB)");
	pe_free(&o);
	free(b);
}

int
main(void)
{
	test_fields();
	test_kinds();
	test_utf16();
	test_languages();
	test_file();
	test_truncated();
	test_damaged();
	test_read_cap();
	return done_testing();
}
