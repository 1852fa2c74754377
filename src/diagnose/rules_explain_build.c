/* The explain rules for building CUDA code: PyTorch's "detected CUDA
 * version mismatches" (an extension build with another toolkit than
 * torch's), nvcc that does not know a GPU architecture, and ptxas older
 * than its PTX; see rules_explain.c. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* Whether toolkit version v is cuda as far as cuda goes ("11.8" is
 * "11.8.89"; "12" is any 12.x). */
static bool
same_cuda(const char *v, const char *cuda)
{
	size_t l = strlen(cuda);

	return v != NULL && strncmp(v, cuda, l) == 0 &&
	    (v[l] == '\0' || v[l] == '.');
}

/* "export CUDA_HOME=ROOT" and PATH for a toolkit here. */
static void
point_at(struct finding *f, const char *root)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "export CUDA_HOME=");
	shquote(&sb, root);
	strv_push_owned(&f->fix, strbuf_take(&sb));
	strv_push(&f->fix, "export PATH=\"$CUDA_HOME/bin:$PATH\"");
}

/* The toolkits here that fit (ok says which), as evidence; fix: point
 * CUDA_HOME at the first. Returns whether one fits. */
static bool
toolkit_here(const struct ctx *c, struct finding *f,
    bool (*ok)(const char *version, const void *arg), const void *arg,
    const char *comment)
{
	const struct toolkit_fact *first = NULL;

	for (size_t i = 0; i < c->facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &c->facts->toolkits.v[i];

		if (!fact_known(&t->version))
			continue;
		strv_pushf(&f->evidence, _("here the toolkit at %s is CUDA %s"),
		    t->root, t->version.value);
		if (first == NULL && t->nvcc != NULL && ok(t->version.value, arg))
			first = t;
	}
	if (first == NULL)
		return false;
	lr_fix_comment(f, comment);
	point_at(f, first->root);
	return true;
}

/* A toolkit of cuda (pin "11.8") or at least min ("12.8") from conda, when
 * the catalogue has one; else the words. */
static void
install_toolkit(const struct ctx *c, struct finding *f, const char *pin,
    const char *min)
{
	char *spec = pin != NULL ? xasprintf("%s.*", pin) : NULL;
	struct fix_want want = { .channel = "nvidia", .package = "cuda-toolkit",
	    .pin = spec, .min = min };

	if (c->m != NULL && fixcmd_install(c->m, f, NULL, &want, 1)) {
		strv_push(&f->fix, "export CUDA_HOME=\"$CONDA_PREFIX\"");
		strv_push(&f->fix, "export PATH=\"$CUDA_HOME/bin:$PATH\"");
	} else {
		strv_pushf(&f->fix, _("# install the CUDA %s%s toolkit from "
		    "https://developer.nvidia.com/cuda-toolkit-archive and point "
		    "CUDA_HOME at it"), pin != NULL ? pin : min,
		    pin != NULL ? "" : _(" or newer"));
	}
	free(spec);
}

static bool
is_cuda(const char *v, const void *arg)
{
	return same_cuda(v, arg);
}

static bool
at_least(const char *v, const void *arg)
{
	return version_cmp_str(v, arg) >= 0;
}

/* PyTorch: the toolkit (found) is not the CUDA torch was built with
 * (wanted). torch refuses a major mismatch and warns about a minor one. */
void
rx_explain_build_cuda(struct ctx *c, const struct explain_match *m)
{
	struct finding *f;
	struct version tk, fw;
	bool major;
	char mm[16], *idx;
	struct fix_want want = { .channel = "pip", .package = "torch" };

	if (!version_parse(m->found, &tk) || !version_parse(m->wanted, &fw))
		return;
	major = tk.part[0] != fw.part[0];
	f = finding_add(c->out, FINDING_NVCC_RUNTIME_MISMATCH,
	    _("The CUDA toolkit that builds the extension (nvcc from CUDA_HOME, "
	    "else PATH) is CUDA %s, but PyTorch was built with CUDA %s. %s"),
	    m->found, m->wanted, major ?
	    _("torch.utils.cpp_extension refuses to build across CUDA majors: "
	    "flash-attn, xformers, apex, DeepSpeed ops and every other "
	    "extension build stop here.") :
	    _("Within one CUDA major this is a warning and the build usually "
	    "works."));
	f->severity = major ? SEV_ERROR : SEV_INFO;
	rx_message_evidence(f, m);
	lr_fix_comment(f, _("either build with a toolkit of PyTorch's CUDA:"));
	if (!toolkit_here(c, f, is_cuda, m->wanted,
	    _("a toolkit of that CUDA is here; build with it:")))
		install_toolkit(c, f, m->wanted, NULL);
	lr_fix_comment(f, _("or install a PyTorch built for the toolkit's CUDA:"));
	snprintf(mm, sizeof mm, "%u%u", tk.part[0], tk.part[1]);
	idx = xasprintf("https://download.pytorch.org/whl/cu%s", mm);
	want.index_url = idx;
	if (c->m == NULL || !fixcmd_install(c->m, f, NULL, &want, 1))
		strv_pushf(&f->fix, _("# no PyTorch build for CUDA %s is published; "
		    "use the first way"), m->found);
	free(idx);
	finding_evidence_cap(f, EVIDENCE_MAX);
}

/* nvcc does not know the architecture asked for: the toolkit predates it. */
void
rx_explain_toolkit_arch(struct ctx *c, const struct explain_match *m)
{
	const struct matrix_architecture *a = c->m != NULL ?
	    matrix_architecture(c->m, m->cc) : NULL;
	const char *name = m->ccs.n > 0 ? m->ccs.v[0] : m->cc;
	struct finding *f;

	if (a != NULL && a->first_cuda != NULL) {
		f = finding_add(c->out, FINDING_TOOLKIT_TOO_OLD,
		    _("The nvcc that ran does not know %s (compute capability %s, "
		    "%s): CUDA %s is the first toolkit that builds for it."),
		    name, m->cc, a->name != NULL ? a->name : "?", a->first_cuda);
	} else {
		f = finding_add(c->out, FINDING_TOOLKIT_TOO_OLD,
		    _("The nvcc that ran does not know %s (compute capability %s); "
		    "the compatibility data does not know it either, so it needs "
		    "a newer toolkit than any listed there."), name, m->cc);
	}
	rx_message_evidence(f, m);
	if (a != NULL && a->first_cuda != NULL) {
		if (!toolkit_here(c, f, at_least, a->first_cuda,
		    _("a toolkit here builds for it; use it:"))) {
			lr_fix_comment(f, _("install a toolkit that builds for it:"));
			install_toolkit(c, f, NULL, a->first_cuda);
		}
	}
	lr_fix_comment(f, _("or build only for architectures this toolkit knows "
	    "(TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES, nvcc -arch)"));
	finding_evidence_cap(f, EVIDENCE_MAX);
}

/* The CUDA release that introduced PTX ISA isa, or NULL. */
static const char *
ptx_isa_cuda(const char *isa)
{
	static const char *const map[][2] = {
		{ "6.0", "9.0" }, { "6.1", "9.1" }, { "6.2", "9.2" },
		{ "6.3", "10.0" }, { "6.4", "10.1" }, { "6.5", "10.2" },
		{ "7.0", "11.0" }, { "7.1", "11.1" }, { "7.2", "11.2" },
		{ "7.3", "11.3" }, { "7.4", "11.4" }, { "7.5", "11.5" },
		{ "7.6", "11.6" }, { "7.7", "11.7" }, { "7.8", "11.8" },
		{ "8.0", "12.0" }, { "8.1", "12.1" }, { "8.2", "12.2" },
		{ "8.3", "12.3" }, { "8.4", "12.4" }, { "8.5", "12.5" },
		{ "8.7", "12.8" }, { "8.8", "12.9" }, { "9.0", "13.0" },
	};

	for (size_t i = 0; isa != NULL && i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i][0], isa) == 0)
			return map[i][1];
	return NULL;
}

/* ptxas is older than the PTX it reads: the PTX came from a newer nvcc or
 * from Triton, which writes PTX for the newest ISA it knows. */
void
rx_explain_ptxas(struct ctx *c, const struct explain_match *m)
{
	const char *need = ptx_isa_cuda(m->found);
	const char *have = ptx_isa_cuda(m->wanted);
	struct finding *f;

	f = finding_add(c->out, FINDING_TOOLKIT_TOO_OLD,
	    _("ptxas reads PTX ISA up to %s%s%s%s, but the PTX it was given is "
	    "ISA %s%s%s%s: a newer compiler (nvcc, or Triton's own) wrote it."),
	    m->wanted != NULL ? m->wanted : "?",
	    have != NULL ? _(" (CUDA ") : "", have != NULL ? have : "",
	    have != NULL ? ")" : "", m->found,
	    need != NULL ? _(" (CUDA ") : "", need != NULL ? need : "",
	    need != NULL ? _(" or newer)") : "");
	rx_message_evidence(f, m);
	if (need != NULL && !toolkit_here(c, f, at_least, need,
	    _("a toolkit here reads that PTX; use it:"))) {
		lr_fix_comment(f, _("install a toolkit whose ptxas reads it:"));
		install_toolkit(c, f, NULL, need);
	}
	lr_fix_comment(f, _("for Triton (torch.compile), point it at that ptxas: "
	    "export TRITON_PTXAS_PATH=/path/to/cuda/bin/ptxas"));
	finding_evidence_cap(f, EVIDENCE_MAX);
}
