/* What the Windows unit tests share (test_winneeds, test_winguide,
 * test_winprobe, test_pe): a Windows drive built as a folder tree, one
 * tree per phase under a temporary base; PE images built byte by byte;
 * the probe and the Windows rules run over a tree. Failures to build a
 * fixture print why and exit 99 (a hard error under automake's harness). */
#ifndef CUDAWIZ_TEST_WINFX_H
#define CUDAWIZ_TEST_WINFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diagnose/finding.h"
#include "sysroot/sysroot.h"
#include "winprobe/winfacts.h"

struct matrix;

#define WINFX_TK	"Program Files/NVIDIA GPU Computing Toolkit/CUDA/"
#define WINFX_WTK	"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\"
/* python.org's Python 3.10's site-packages, as winfx_tf210 lays it out. */
#define WINFX_SITE	"Program Files/Python310/Lib/site-packages/"

/* ------------------------------------------------------------ the drive */

/* A base folder FX_TMP/NAME.XXXXXX (/tmp without FX_TMP); removed by
 * winfx_end. */
void winfx_begin(const char *name);
void winfx_end(void);
/* A fresh tree base/NAME, the current one from now on, and a sysroot
 * over it (a sysroot holds its root open: a tree removed under it is not
 * seen again). */
struct sysroot *winfx_phase(const char *name);
/* The current tree's folder. */
const char *winfx_root(void);

/* The current tree's REL (with its parents): a file of len bytes, a text
 * file, a folder. */
void winfx_file(const char *rel, const void *data, size_t len);
void winfx_text(const char *rel, const char *text);
void winfx_dir(const char *rel);
/* A minimal image (one section, a DLL) of the machine given, importing
 * the n DLLs named; an x86-64 one importing nothing. */
void winfx_pe(const char *rel, unsigned machine, const char *const *imports,
    size_t n);
void winfx_dll64(const char *rel);
/* python.org's Python 3.10 with TensorFlow 2.10.1 (tensorflow-intel),
 * whose build_info wants cudart64_110.dll and cudnn64_8.dll. */
void winfx_tf210(void);

/* CUDA 11.2's bin with cudart64_110.dll and cudnn64_8.dll. */
void winfx_cuda112(void);

/* Two machines both test_winneeds and test_winguide read, each an
 * environment and what winfx_machine_* lays out in the current tree.
 * The cudart64_110.dll case: CUDA 12.6 alone (cudart64_12.dll), first on
 * PATH and named by CUDA_PATH and CUDA_PATH_V12_6; TensorFlow 2.10. */
extern const char *const winfx_cuda12_env[];
void winfx_machine_cuda12(void);
/* A healthy one: CUDA 11.2 with cuDNN 8 on PATH, named by CUDA_PATH;
 * TensorFlow 2.10. */
extern const char *const winfx_healthy_env[];
void winfx_machine_healthy(void);

/* A writable copy of an environment (-Wwrite-strings); freed by
 * winfx_env_free. */
char **winfx_env(const char *const *src);
void winfx_env_free(char **envp);

/* ---------------------------------------------- the probe and the rules */

struct winfx_run {
	struct win_facts	 wf;
	struct findings		 fs;
};

/* The probe over sr with env, then the Windows rules with mx (NULL: none).
 * The driver's version needs NVIDIA's version resource, which these
 * trees' DLLs lack; the rules read only the result, so driver (NULL:
 * none) stands for it. */
void winfx_run(struct winfx_run *r, struct sysroot *sr, const char *const *env,
    const char *driver, const struct matrix *mx);
void winfx_run_free(struct winfx_run *r);

/* ------------------------------------------------------ PE images */

/* The image: headers in the first SEC_OFF bytes, one section holding
 * every directory, at file offset SEC_OFF and RVA SEC_RVA. */
#define SEC_OFF		0x400u
#define SEC_RVA		0x1000u
#define SEC_SIZE	0x4000u
#define IMG_SIZE	(SEC_OFF + SEC_SIZE)
#define LFANEW		0x40u
#define OPT_OFF		(LFANEW + 24)

struct img {
	unsigned char	b[IMG_SIZE];
	bool		plus;
	uint32_t	cur;		/* next free byte of the section */
	uint32_t	sec_hdr;	/* file offset of the section header */
	uint32_t	dirs;		/* file offset of the data directories */
	/* Where the builders put things, for test_pe's damage tests. */
	uint32_t	imp_desc, delay_desc, exp_dir, res_root, res_name, res_lang,
			res_data, ver_blob;
	uint32_t	ver_len;
};

/* Little-endian 16 and 32 bits at p. */
void w16(unsigned char *p, unsigned v);
void w32(unsigned char *p, uint32_t v);

/* The headers of an image of machine: PE32+ when plus, a DLL when dll. */
void img_init(struct img *m, bool plus, unsigned machine, bool dll);
/* The file offset of rva. */
uint32_t img_off(uint32_t rva);
/* len bytes into the section, 4-aligned; their RVA. */
uint32_t img_put(struct img *m, const void *p, size_t len);
uint32_t img_put_str(struct img *m, const char *s);
/* len zero bytes (at most 512). */
uint32_t img_reserve(struct img *m, size_t len);
/* Data directory i. */
void img_set_dir(struct img *m, int i, uint32_t rva, uint32_t size);
/* The import directory naming the n DLLs (at most 16). */
void img_imports(struct img *m, const char *const *names, size_t n);

#endif
