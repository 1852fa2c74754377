/* The explain rules for GPU messages: no kernel image for the GPU's
 * architecture, PTX the driver cannot compile, forward compatibility;
 * see rules_explain.c. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------ GPU and PTX */

/* "8.6" → "86" into buf. */
static void
sm_digits(const char *cc, char *buf, size_t n)
{
	size_t k = 0;

	for (const char *p = cc; *p != '\0' && k + 1 < n; p++)
		if (*p != '.')
			buf[k++] = *p;
	buf[k] = '\0';
}

const struct gpu_fact *
rx_first_gpu_with_cc(const struct facts *facts)
{
	for (size_t i = 0; i < facts->gpus.n; i++)
		if (fact_known(&facts->gpus.v[i].cc))
			return &facts->gpus.v[i];
	return NULL;
}

void
rx_explain_arch(struct ctx *c, const struct explain_match *m)
{
	const struct gpu_fact *g = rx_first_gpu_with_cc(c->facts);
	const char *cc = m->cc != NULL ? m->cc : g != NULL ? g->cc.value : NULL;
	const struct matrix_architecture *arch = NULL;
	struct finding *f;
	char sm[16];

	if (c->arch_done) {
		if ((f = rx_have(c, FINDING_GPU_ARCH_UNSUPPORTED)) != NULL)
			rx_message_evidence(f, m);
		return;
	}
	c->arch_done = true;
	if (cc != NULL && c->m != NULL)
		arch = matrix_architecture(c->m, cc);
	if (cc != NULL)
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("The program (or the framework build) has no machine code "
		    "for compute capability %s%s%s%s, and no PTX the driver could "
		    "compile for it, so its kernels cannot run on this GPU."), cc,
		    arch != NULL ? " (" : "", arch != NULL ? arch->name : "",
		    arch != NULL ? ")" : "");
	else
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("The program (or the framework build) has no machine code "
		    "for this GPU's compute capability, and no PTX the driver "
		    "could compile for it, so its kernels cannot run on this GPU."));
	rx_message_evidence(f, m);
	if (m->device != NULL && m->cc != NULL)
		strv_pushf(&f->evidence, _("the message: %s has compute capability %s"),
		    m->device, m->cc);
	if (m->ccs.n > 0) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < m->ccs.n; i++) {
			if (i > 0)
				strbuf_putc(&sb, ' ');
			strbuf_puts(&sb, m->ccs.v[i]);
		}
		strv_pushf(&f->evidence, _("the build has code for: %s"), strbuf_str(&sb));
		strbuf_free(&sb);
	}
	for (size_t i = 0; i < c->facts->gpus.n; i++) {
		const struct gpu_fact *gg = &c->facts->gpus.v[i];

		if (fact_known(&gg->cc))
			strv_pushf(&f->evidence, _("GPU here: %s %s, compute capability %s"),
			    gg->pci_address, fact_known(&gg->name) ? gg->name.value : "",
			    gg->cc.value);
	}
	if (arch != NULL && arch->first_cuda != NULL)
		strv_pushf(&f->evidence, _("%s (%s) is supported from CUDA %s%s%s (matrix: %s)"),
		    arch->cc, arch->name, arch->first_cuda,
		    arch->last_cuda != NULL ? _(" to ") : "",
		    arch->last_cuda != NULL ? arch->last_cuda : "",
		    matrix_status_name(arch->status));
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (cc == NULL) {
		lr_fix_comment(f, _("find the GPU's compute capability:"));
		ip_fix_line(f, xstrdup("nvidia-smi --query-gpu=name,compute_cap --format=csv"));
		return;
	}
	sm_digits(cc, sm, sizeof sm);
	if (arch != NULL && arch->last_cuda != NULL) {
		strv_pushf(&f->fix, _("# CUDA after %s no longer builds for compute capability %s: use a framework build for CUDA %s or older, and a driver that runs it"),
		    arch->last_cuda, cc, arch->last_cuda);
	} else if (arch != NULL && arch->first_cuda != NULL) {
		strv_pushf(&f->fix, _("# install a framework build made with CUDA %s or newer (PyTorch: pick that CUDA version at https://pytorch.org/get-started/locally/), for example:"),
		    arch->first_cuda);
		struct fix_want want = { .channel = "pip", .package = "torch",
		    .upgrade = true };

		fixcmd_install(c->m, f, NULL, &want, 1);
	}
	strv_pushf(&f->fix, _("# building it yourself: add to nvcc's options -gencode arch=compute_%s,code=sm_%s"),
	    sm, sm);
	strv_pushf(&f->fix, "export TORCH_CUDA_ARCH_LIST=%s", cc);
}

void
rx_explain_ptx(struct ctx *c, const struct explain_match *m)
{
	const struct gpu_fact *g = rx_first_gpu_with_cc(c->facts);
	const char *src, *drv = rx_driver_version(c, &src), *cuda, *need;
	struct finding *f;
	char sm[16];

	if (rx_adopt(c, FINDING_PTX_TOOLCHAIN_TOO_NEW, m) != NULL)
		return;
	if ((f = rx_have(c, FINDING_PTX_TOOLCHAIN_TOO_NEW)) != NULL) {
		rx_message_evidence(f, m);
		return;
	}
	f = finding_add(c->out, FINDING_PTX_TOOLCHAIN_TOO_NEW,
	    _("The program carries PTX made by a newer CUDA toolkit than the "
	    "driver%s%s%s can compile: the runtime may load, but kernels that "
	    "must be JIT-compiled from that PTX fail with "
	    "cudaErrorUnsupportedPtxVersion (222)."), drv != NULL ? " (" : "",
	    drv != NULL ? drv : "", drv != NULL ? ")" : "");
	rx_message_evidence(f, m);
	rx_driver_evidence(c, f);
	rx_toolkit_need_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	need = rx_needed_driver(c, &cuda);
	if (need != NULL) {
		fd_install(f, c->facts, c->m, need, cuda);
	}
	if (g != NULL) {
		sm_digits(g->cc.value, sm, sizeof sm);
		strv_pushf(&f->fix, _("# or build machine code for the GPU instead of PTX: add to nvcc's options -gencode arch=compute_%s,code=sm_%s"),
		    sm, sm);
	}
	if (fact_known(&c->facts->driver.max_cuda))
		strv_pushf(&f->fix, _("# or build with a toolkit this driver runs: CUDA %s or older"),
		    c->facts->driver.max_cuda.value);
	if (need == NULL) {
		lr_fix_comment(f, _("see which CUDA version the driver runs:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
	}
}

void
rx_explain_forward_compat(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = rx_lib_named(c, "libcuda.so.1");
	struct finding *f;
	char *line;

	if ((f = rx_have(c, FINDING_FORWARD_COMPAT_UNSUPPORTED)) != NULL) {
		rx_message_evidence(f, m);
		return;
	}
	f = finding_add(c->out, FINDING_FORWARD_COMPAT_UNSUPPORTED,
	    _("The program loaded a forward-compatibility libcuda (the "
	    "cuda-compat package), which works only on data-center GPUs with "
	    "a supported driver branch; elsewhere every CUDA call fails with "
	    "cudaErrorCompatNotSupportedOnDevice (804)."));
	rx_message_evidence(f, m);
	rx_resolution_evidence(f, lib);
	rx_driver_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	line = lr_llp_filter(c->facts, rx_drop_compat, NULL);
	if (line != NULL) {
		lr_fix_comment(f, _("take the compat directory out of LD_LIBRARY_PATH:"));
		ip_fix_line(f, line);
	}
	lr_fix_comment(f, _("or remove the forward-compatibility package and use "
	    "the driver's own libcuda:"));
	ip_fix_line(f, xstrdup("sudo apt-get remove 'cuda-compat-*'"));
}

