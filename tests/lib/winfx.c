/* What the Windows unit tests share: tests/lib/winfx.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diagnose/rules_windows.h"
#include "lib/winfx.h"
#include "util/xalloc.h"
#include "winprobe/winprobe.h"

#define BUILD_INFO_210 \
	"build_info = {'cuda_version': '64_112', 'cudnn_version': '64_8', " \
	"'is_cuda_build': True, 'cudart_dll_name': 'cudart64_110.dll', " \
	"'cudnn_dll_name': 'cudnn64_8.dll'}\n"

static char base[PATH_MAX / 2];
static char root[PATH_MAX];

/* ------------------------------------------------------------ the drive */

void
winfx_begin(const char *name)
{
	const char *tmp = getenv("FX_TMP");

	snprintf(base, sizeof base, "%s/%s.XXXXXX", tmp != NULL ? tmp : "/tmp", name);
	if (mkdtemp(base) == NULL) {
		perror(base);
		exit(99);
	}
}

void
winfx_end(void)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		perror(cmd);
}

struct sysroot *
winfx_phase(const char *name)
{
	struct sysroot *sr;
	char *err = NULL;

	snprintf(root, sizeof root, "%s/%s", base, name);
	if (mkdir(root, 0755) != 0)
		perror(root);
	sr = sysroot_new(root, &err);
	if (sr == NULL) {
		fprintf(stderr, "%s\n", err);
		exit(99);
	}
	return sr;
}

const char *
winfx_root(void)
{
	return root;
}

/* root/rel in p, its parents made. */
static void
mkparents(char *p, size_t size, const char *rel)
{
	snprintf(p, size, "%s/%s", root, rel);
	for (char *q = p + strlen(root) + 1; *q != '\0'; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			perror(p);
		*q = '/';
	}
}

void
winfx_file(const char *rel, const void *data, size_t len)
{
	char p[PATH_MAX * 2];
	FILE *fp;

	mkparents(p, sizeof p, rel);
	fp = fopen(p, "wb");
	if (fp == NULL || fwrite(data, 1, len, fp) != len || fclose(fp) != 0)
		perror(p);
}

void
winfx_text(const char *rel, const char *text)
{
	winfx_file(rel, text, strlen(text));
}

void
winfx_dir(const char *rel)
{
	char p[PATH_MAX * 2];

	mkparents(p, sizeof p, rel);
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		perror(p);
}

void
winfx_pe(const char *rel, unsigned machine, const char *const *imports,
    size_t n)
{
	static struct img m;

	img_init(&m, machine != 0x14c, machine, true);
	if (n > 0)
		img_imports(&m, imports, n);
	winfx_file(rel, m.b, sizeof m.b);
}

void
winfx_dll64(const char *rel)
{
	winfx_pe(rel, 0x8664, NULL, 0);
}

void
winfx_tf210(void)
{
	winfx_text("Program Files/Python310/python.exe", "x");
	winfx_text(WINFX_SITE "tensorflow/python/platform/build_info.py", BUILD_INFO_210);
	winfx_text(WINFX_SITE "tensorflow_intel-2.10.1.dist-info/METADATA", "x");
}

void
winfx_cuda112(void)
{
	winfx_dll64(WINFX_TK "v11.2/bin/cudart64_110.dll");
	winfx_dll64(WINFX_TK "v11.2/bin/cudnn64_8.dll");
}

const char *const winfx_cuda12_env[] = {
	"PATH=" WINFX_WTK "v12.6\\bin;C:\\Windows\\System32;C:\\Program Files\\Python310",
	"CUDA_PATH=" WINFX_WTK "v12.6",
	"CUDA_PATH_V12_6=" WINFX_WTK "v12.6",
	NULL,
};

void
winfx_machine_cuda12(void)
{
	winfx_dll64(WINFX_TK "v12.6/bin/cudart64_12.dll");
	winfx_text("Windows/System32/kernel32.dll", "x");
	winfx_tf210();
}

const char *const winfx_healthy_env[] = {
	"PATH=" WINFX_WTK "v11.2\\bin;C:\\Windows\\System32",
	"CUDA_PATH=" WINFX_WTK "v11.2",
	NULL,
};

void
winfx_machine_healthy(void)
{
	winfx_cuda112();
	winfx_tf210();
}

char **
winfx_env(const char *const *src)
{
	size_t n = 0;
	char **out;

	while (src[n] != NULL)
		n++;
	out = xcalloc(n + 1, sizeof *out);
	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(src[i]);
	return out;
}

void
winfx_env_free(char **envp)
{
	for (size_t i = 0; envp[i] != NULL; i++)
		free(envp[i]);
	free(envp);
}

/* ---------------------------------------------- the probe and the rules */

void
winfx_run(struct winfx_run *r, struct sysroot *sr, const char *const *env,
    const char *driver, const struct matrix *mx)
{
	char **envp = winfx_env(env);

	memset(r, 0, sizeof *r);
	winprobe_run(sr, envp, NULL, &r->wf);
	if (driver != NULL)
		r->wf.driver.version = xstrdup(driver);
	rules_windows(&r->wf, mx, &r->fs);
	winfx_env_free(envp);
}

void
winfx_run_free(struct winfx_run *r)
{
	findings_free(&r->fs);
	win_facts_free(&r->wf);
}

/* ------------------------------------------------------ PE images */

void
w16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

void
w32(unsigned char *p, uint32_t v)
{
	w16(p, v & 0xffff);
	w16(p + 2, v >> 16);
}

uint32_t
img_off(uint32_t rva)
{
	return rva - SEC_RVA + SEC_OFF;
}

void
img_init(struct img *m, bool plus, unsigned machine, bool dll)
{
	unsigned char *o;
	unsigned opt_size = plus ? 240 : 224;

	memset(m, 0, sizeof *m);
	m->plus = plus;
	m->b[0] = 'M';
	m->b[1] = 'Z';
	w32(m->b + 0x3c, LFANEW);
	memcpy(m->b + LFANEW, "PE\0\0", 4);
	w16(m->b + LFANEW + 4, machine);
	w16(m->b + LFANEW + 6, 1);
	w16(m->b + LFANEW + 20, opt_size);
	w16(m->b + LFANEW + 22, 0x0002 | (dll ? 0x2000 : 0));
	o = m->b + OPT_OFF;
	w16(o, plus ? 0x20b : 0x10b);
	if (plus) {
		w32(o + 24, 0x80000000u);
		w32(o + 28, 0x1);		/* ImageBase 0x180000000 */
	} else {
		w32(o + 28, 0x10000000u);
	}
	w32(o + 56, SEC_RVA + SEC_SIZE);	/* SizeOfImage */
	w32(o + 60, SEC_OFF);			/* SizeOfHeaders */
	w16(o + 68, dll ? 2 : 3);
	w32(o + (plus ? 108 : 92), 16);
	m->dirs = OPT_OFF + (plus ? 112 : 96);
	m->sec_hdr = OPT_OFF + opt_size;
	memcpy(m->b + m->sec_hdr, ".data", 5);
	w32(m->b + m->sec_hdr + 8, SEC_SIZE);
	w32(m->b + m->sec_hdr + 12, SEC_RVA);
	w32(m->b + m->sec_hdr + 16, SEC_SIZE);
	w32(m->b + m->sec_hdr + 20, SEC_OFF);
}

uint32_t
img_put(struct img *m, const void *p, size_t len)
{
	uint32_t rva = SEC_RVA + m->cur;

	memcpy(m->b + SEC_OFF + m->cur, p, len);
	m->cur = (uint32_t)((m->cur + len + 3) & ~3u);
	return rva;
}

uint32_t
img_put_str(struct img *m, const char *s)
{
	return img_put(m, s, strlen(s) + 1);
}

uint32_t
img_reserve(struct img *m, size_t len)
{
	static const unsigned char zero[512];

	return img_put(m, zero, len);
}

void
img_set_dir(struct img *m, int i, uint32_t rva, uint32_t size)
{
	w32(m->b + m->dirs + 8 * i, rva);
	w32(m->b + m->dirs + 8 * i + 4, size);
}

void
img_imports(struct img *m, const char *const *names, size_t n)
{
	uint32_t rvas[16], desc;

	for (size_t i = 0; i < n; i++)
		rvas[i] = img_put_str(m, names[i]);
	desc = img_reserve(m, 20 * (n + 1));
	for (size_t i = 0; i < n; i++) {
		w32(m->b + img_off(desc) + 20 * i + 12, rvas[i]);
		w32(m->b + img_off(desc) + 20 * i + 16, 0x3000);
	}
	m->imp_desc = img_off(desc);
	img_set_dir(m, 1, desc, (uint32_t)(20 * (n + 1)));
}
