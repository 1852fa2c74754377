/* The explain rules for cuDNN messages: a version mismatch and the
 * status codes; see rules_explain.c. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
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

/* ---------------------------------------------------------------- cuDNN */

static void
cudnn_installs_evidence(const struct ctx *c, struct finding *f)
{
	for (size_t i = 0; i < c->facts->cudnn.n; i++) {
		const struct cudnn_fact *d = &c->facts->cudnn.v[i];
		const char *v = fact_known(&d->version) ? d->version.value :
		    fact_known(&d->lib_version) ? d->lib_version.value : "?";

		if (fact_known(&d->cuda_major))
			strv_pushf(&f->evidence, _("cuDNN %s for CUDA %s in %s (%s)"), v,
			    d->cuda_major.value, d->lib_dir, d->where);
		else
			strv_pushf(&f->evidence, _("cuDNN %s in %s (%s)"), v, d->lib_dir,
			    d->where);
	}
	if (c->facts->cudnn.n == 0)
		strv_push(&f->evidence, _("no cuDNN installation was found here"));
}

/* An installed cuDNN of the same major, at least version want. */
static const struct cudnn_fact *
cudnn_satisfying(const struct ctx *c, const char *want)
{
	const struct cudnn_fact *best = NULL;

	for (size_t i = 0; i < c->facts->cudnn.n; i++) {
		const struct cudnn_fact *d = &c->facts->cudnn.v[i];
		const char *v = fact_known(&d->version) ? d->version.value : NULL;

		if (v == NULL || version_major_str(v) != version_major_str(want) || version_cmp_str(v, want) < 0)
			continue;
		if (best == NULL || version_cmp_str(v, best->version.value) > 0)
			best = d;
	}
	return best;
}

void
rx_explain_cudnn_version(struct ctx *c, const struct explain_match *m)
{
	const struct cudnn_fact *good;
	struct finding *f;
	unsigned wmaj = version_major_str(m->wanted);
	char *so;

	if (m->found == NULL || m->wanted == NULL)
		return;
	f = finding_add(c->out, FINDING_FRAMEWORK_CUDA_MISMATCH,
	    _("The framework was built with cuDNN %s but loaded cuDNN %s. It "
	    "needs the same major version and at least the minor it was built "
	    "with, so it stops (TensorFlow: \"DNN library is not found\" or "
	    "\"Failed to get convolution algorithm\")."), m->wanted, m->found);
	rx_message_evidence(f, m);
	so = xasprintf("libcudnn.so.%u", version_major_str(m->found));
	rx_resolution_evidence(f, rx_lib_named(c, so));
	free(so);
	cudnn_installs_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	good = cudnn_satisfying(c, m->wanted);
	if (good != NULL) {
		strv_pushf(&f->fix, _("# cuDNN %s in %s will do: load it first"),
		    good->version.value, good->lib_dir);
		ip_fix_line(f, lr_llp_prepend_line(good->lib_dir));
		return;
	}
	so = xasprintf("libcudnn.so.%u", wmaj);
	if (c->m == NULL || !ip_install_cudnn(&c->ip, f, so, wmaj, m->wanted)) {
		unsigned majors[8];
		size_t n = c->m != NULL ? ip_cuda_majors(&c->ip, majors, 8) : 0;

		strv_pushf(&f->fix, _("# install cuDNN %u, version %s or newer, for the CUDA version the framework uses"),
		    wmaj, m->wanted);
		fixcmd_cudnn(c->m, f, NULL, wmaj, m->wanted, majors, n);
	}
	free(so);
}

enum cudnn_hint {
	HINT_MIXED = 0,	/* sub-libraries of two installs, or one missing */
	HINT_MEMORY,
	HINT_DRIVER,
	HINT_ARCH,
	HINT_RUNTIME,
	HINT_CALLER,
	HINT_UPGRADE,
	HINT_KERNEL,
	HINT_OTHER,
};

static enum cudnn_hint
cudnn_hint_of(const char *code)
{
	static const struct {
		const char	*part;
		enum cudnn_hint	 hint;
	} parts[] = {
		{ "VERSION_MISMATCH", HINT_MIXED },
		{ "SUBLIBRARY", HINT_MIXED },
		{ "PREREQUISITE", HINT_MIXED },
		{ "INCOMPATIBLE_CUDA_DRIVER", HINT_DRIVER },
		{ "EXECUTION_FAILED_CUDA_DRIVER", HINT_DRIVER },
		{ "INCOMPATIBLE_CUDART", HINT_RUNTIME },
		{ "ARCH_MISMATCH", HINT_ARCH },
		{ "NOT_INITIALIZED", HINT_MEMORY },
		{ "ALLOC", HINT_MEMORY },
		{ "INTERNAL_ERROR", HINT_MEMORY },
		{ "BAD_PARAM", HINT_CALLER },
		{ "INVALID_VALUE", HINT_CALLER },
		{ "NOT_SUPPORTED", HINT_UPGRADE },
		{ "EXECUTION_FAILED", HINT_KERNEL },
		{ "MAPPING_ERROR", HINT_KERNEL },
	};

	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(code, parts[i].part) != NULL)
			return parts[i].hint;
	return HINT_OTHER;
}

/* The cuDNN wheel for this machine's CUDA major, for upgrade advice. */
static void
cudnn_upgrade_fix(const struct ctx *c, struct finding *f)
{
	unsigned majors[8];
	size_t n = c->m != NULL ? ip_cuda_majors(&c->ip, majors, 8) : 0;

	for (size_t i = 0; i < n; i++)
		for (unsigned cm = 12; cm >= 8; cm--) {
			const struct matrix_cudnn_library *cl = matrix_cudnn_library(c->m, cm);
			const struct matrix_wheel *w = cl != NULL && cl->sonames.n > 0 ?
			    ip_wheel_for(c->m, "cudnn", majors[i], cl->sonames.v[0]) : NULL;
			struct fix_want want = { .channel = "pip", .upgrade = true };

			if (w == NULL)
				continue;
			want.package = w->package;
			if (fixcmd_install(c->m, f, NULL, &want, 1))
				return;
		}
	lr_fix_comment(f, _("upgrade cuDNN to the newest release for this "
	    "machine's CUDA"));
}

void
rx_explain_cudnn_status(struct ctx *c, const struct explain_match *m)
{
	enum cudnn_hint hint = cudnn_hint_of(m->code);
	const struct gpu_fact *g;
	struct finding *f;

	if (m->number >= 0)
		f = finding_add(c->out, FINDING_CUDNN_FAILED,
		    _("cuDNN returned %s (%ld): %s."), m->code, m->number,
		    m->meaning != NULL ? _(m->meaning) : _("an error"));
	else
		f = finding_add(c->out, FINDING_CUDNN_FAILED,
		    _("cuDNN returned %s: %s."), m->code,
		    m->meaning != NULL ? _(m->meaning) : _("an error this table does not know"));
	rx_message_evidence(f, m);
	cudnn_installs_evidence(c, f);
	for (size_t i = 0; i < c->facts->cudnn.n; i++) {
		const struct lib_fact *lib = rx_lib_named(c, c->facts->cudnn.v[i].soname);

		if (lib != NULL)
			rx_resolution_evidence(f, lib);
	}
	if (hint == HINT_DRIVER || hint == HINT_MEMORY || hint == HINT_KERNEL)
		rx_driver_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	switch (hint) {
	case HINT_MIXED:
		if (c->facts->cudnn.n > 0) {
			const struct cudnn_fact *best = &c->facts->cudnn.v[0];

			for (size_t i = 1; i < c->facts->cudnn.n; i++)
				if (fact_known(&c->facts->cudnn.v[i].version) &&
				    (!fact_known(&best->version) ||
				    version_cmp_str(c->facts->cudnn.v[i].version.value,
				    best->version.value) > 0))
					best = &c->facts->cudnn.v[i];
			strv_pushf(&f->fix, _("# load all of cuDNN from one installation (%s) first:"),
			    best->lib_dir);
			ip_fix_line(f, lr_llp_prepend_line(best->lib_dir));
		} else {
			lr_fix_comment(f, _("install cuDNN whole, for this machine's CUDA:"));
			cudnn_upgrade_fix(c, f);
		}
		break;
	case HINT_MEMORY:
		lr_fix_comment(f, _("see what holds the GPU's memory:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
		lr_fix_comment(f, _("TensorFlow: allocate GPU memory as needed instead "
		    "of all at start:"));
		ip_fix_line(f, xstrdup("export TF_FORCE_GPU_ALLOW_GROWTH=true"));
		lr_fix_comment(f, _("if memory is free, check that cuDNN is built for "
		    "the CUDA major in use (evidence above), and reinstall it:"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_DRIVER: {
		const char *cuda, *need = rx_needed_driver(c, &cuda);

		lr_fix_comment(f, _("update the NVIDIA driver:"));
		if (need != NULL)
			ip_driver_fix(&c->ip, f, need);
		else
			ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
		break;
	}
	case HINT_ARCH:
		g = rx_first_gpu_with_cc(c->facts);
		if (g != NULL)
			strv_pushf(&f->evidence, _("GPU here: compute capability %s"),
			    g->cc.value);
		lr_fix_comment(f, _("this cuDNN has no code for the GPU: install a "
		    "cuDNN release that supports it (newer GPUs need newer cuDNN; "
		    "cuDNN 9 dropped GPUs below compute capability 5.0):"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_RUNTIME:
		lr_fix_comment(f, _("install the cuDNN built for the CUDA major the "
		    "program uses (the cuN suffix of the wheel):"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_CALLER:
		lr_fix_comment(f, _("the calling code passed something cuDNN rejects "
		    "(shapes, data types, layouts): upgrade the framework, or "
		    "report it with the input that fails; to see where:"));
		ip_fix_line(f, xstrdup("export CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG=stderr"));
		break;
	case HINT_UPGRADE:
		lr_fix_comment(f, _("a newer cuDNN may implement it:"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_KERNEL:
		lr_fix_comment(f, _("make the failing call show where it fails:"));
		ip_fix_line(f, xstrdup("export CUDA_LAUNCH_BLOCKING=1"));
		lr_fix_comment(f, _("and check the driver and the GPU:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
		break;
	case HINT_OTHER:
		lr_fix_comment(f, _("cuDNN's own log says more:"));
		ip_fix_line(f, xstrdup("export CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG=stderr"));
		break;
	}
}

