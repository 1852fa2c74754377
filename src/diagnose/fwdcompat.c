/* FORWARD_COMPAT_UNSUPPORTED in doctor: the libcuda.so.1 the loader picks
 * is a CUDA forward-compatibility library (cuda-compat-X-Y), which then
 * is the driver every program talks to.
 *
 * NVIDIA's "CUDA Compatibility" guide, Forward Compatibility
 * (https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html):
 * it "is applicable only for systems with NVIDIA Data Center GPUs, select
 * NGC Server Ready SKUs of RTX cards, Jetson boards". On any other GPU
 * cuInit() returns CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804). The
 * package is built from one driver release and works only over older
 * kernel modules of the branches it lists; over a newer module, or one
 * older than those branches, it returns CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
 * (803). Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/fixcmd.h"
#include "diagnose/fixdriver.h"
#include "diagnose/fwdcompat.h"
#include "diagnose/rules_loader_int.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

enum gpu_class { GPU_UNKNOWN = 0, GPU_DATACENTER, GPU_PRO, GPU_CONSUMER };

/* Data-center model names as pci.ids and the driver write them ("GH100
 * [H100 SXM5 80GB]", "NVIDIA A100-SXM4-40GB", "AD104GL [L4]"), matched
 * as whole words. */
static const char *const dc_models[] = {
	"A2", "A10", "A10G", "A16", "A30", "A40", "A100", "A800", "B100",
	"B200", "B300", "GB200", "GH200", "H20", "H100", "H200", "H800",
	"K40", "K80", "L2", "L4", "L20", "L40", "L40S", "M40", "M60", "P4",
	"P40", "P100", "T4", "V100",
};

/* Where the name is not known: PCI device ids of common boards. */
static const struct {
	unsigned	 id;
	enum gpu_class	 cls;
} by_id[] = {
	{ 0x1db1, GPU_DATACENTER }, { 0x1db4, GPU_DATACENTER },	/* V100 */
	{ 0x1db5, GPU_DATACENTER }, { 0x1db6, GPU_DATACENTER },
	{ 0x1eb8, GPU_DATACENTER },				/* T4 */
	{ 0x20b0, GPU_DATACENTER }, { 0x20b2, GPU_DATACENTER },	/* A100 */
	{ 0x20b5, GPU_DATACENTER }, { 0x20f1, GPU_DATACENTER },
	{ 0x20b7, GPU_DATACENTER },				/* A30 */
	{ 0x2235, GPU_DATACENTER }, { 0x2236, GPU_DATACENTER },	/* A40, A10 */
	{ 0x2322, GPU_DATACENTER }, { 0x2324, GPU_DATACENTER },	/* H800 */
	{ 0x2330, GPU_DATACENTER }, { 0x2331, GPU_DATACENTER },	/* H100 */
	{ 0x2335, GPU_DATACENTER },				/* H200 */
	{ 0x26b5, GPU_DATACENTER }, { 0x26b9, GPU_DATACENTER },	/* L40, L40S */
	{ 0x27b8, GPU_DATACENTER },				/* L4 */
	{ 0x2204, GPU_CONSUMER }, { 0x2206, GPU_CONSUMER },	/* RTX 3090, 3080 */
	{ 0x2684, GPU_CONSUMER }, { 0x2704, GPU_CONSUMER },	/* RTX 4090, 4080 */
	{ 0x2782, GPU_CONSUMER }, { 0x2b85, GPU_CONSUMER },	/* RTX 4070 Ti, 5090 */
};

/* Whether word appears in s as a whole word ('[', ']', ' ', '-', '/'
 * and the ends bound it). */
static bool
has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(s, word); p != NULL; p = strstr(p + 1, word)) {
		char b = p == s ? ' ' : p[-1], a = p[n];

		if (strchr(" [-/", b) != NULL && (a == '\0' || strchr(" ]-/", a) != NULL))
			return true;
	}
	return false;
}

static bool
has_nocase(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, word, n) == 0)
			return true;
	return false;
}

static enum gpu_class
classify(const struct gpu_fact *g)
{
	if (fact_known(&g->name)) {
		const char *nm = g->name.value;

		if (has_nocase(nm, "GeForce") || has_nocase(nm, "TITAN"))
			return GPU_CONSUMER;
		if (has_nocase(nm, "Tesla") || has_nocase(nm, "Data Center"))
			return GPU_DATACENTER;
		for (size_t i = 0; i < sizeof dc_models / sizeof *dc_models; i++)
			if (has_word(nm, dc_models[i]))
				return GPU_DATACENTER;
		if (has_nocase(nm, "Quadro") || has_nocase(nm, "RTX"))
			return GPU_PRO;
	}
	for (size_t i = 0; i < sizeof by_id / sizeof *by_id; i++)
		if (g->vendor_id == 0x10de && by_id[i].id == g->device_id)
			return by_id[i].cls;
	return GPU_UNKNOWN;
}

/* The oldest kernel module each CUDA major's compat package runs over:
 * the first branch the guide's forward-compatibility table lists for it
 * (R418 for 11.x, R470 for 12.x, R535 for 13.x). */
static const struct {
	unsigned	 major;
	const char	*min_module;
} min_module[] = {
	{ 11, "418.40.04" },
	{ 12, "470.57.02" },
	{ 13, "535.54.03" },
};

/* The kernel module's version: the module's own, else (a container) the
 * driver library that is not the compat one, which the driver probe lists
 * too when ld.so.conf names its directory. */
static const char *
module_version(const struct facts *facts, const char **src)
{
	const struct driver_facts *d = &facts->driver;
	const char *v = diagnose_driver_version(facts, src);

	if (v == NULL || !lr_streq(*src, d->libcuda.path))
		return v;
	for (size_t i = 0; i < d->libs.n; i++) {
		const struct driver_lib *l = &d->libs.v[i];

		if (!l->wsl && l->version != NULL && version_valid(l->version) &&
		    lr_streq(l->name, "libcuda") && !lr_streq(l->path, *src)) {
			*src = l->path;
			return l->version;
		}
	}
	return NULL;
}

const char *
fc_cuda(const struct facts *facts, const struct matrix *m, char *buf, size_t size)
{
	const struct loaded_libcuda *lc = &facts->driver.libcuda;
	struct matrix_driver_reach reach;

	if (lc->compat_cuda != NULL)
		return lc->compat_cuda;
	if (lc->version == NULL || m == NULL ||
	    !matrix_driver_reach(m, lc->version, MATRIX_LINUX, &reach) ||
	    reach.release_cuda[0] == '\0')
		return NULL;
	snprintf(buf, size, "%s", reach.release_cuda);
	return buf;
}

/* Why the module does not fit (a static reason), NULL when it does. */
static const char *
module_misfit(const struct facts *facts, const struct matrix *m,
    const char **mod, const char **min)
{
	const struct loaded_libcuda *lc = &facts->driver.libcuda;
	const char *src, *cuda;
	char buf[MATRIX_VERSION_MAX];

	*min = NULL;
	*mod = module_version(facts, &src);
	if (*mod == NULL || lc->version == NULL)
		return NULL;
	if (version_cmp_str(*mod, lc->version) > 0)
		return "newer";
	cuda = fc_cuda(facts, m, buf, sizeof buf);
	for (size_t i = 0; cuda != NULL && i < sizeof min_module / sizeof *min_module; i++)
		if (min_module[i].major == version_major_str(cuda) &&
		    version_cmp_str(*mod, min_module[i].min_module) < 0) {
			*min = min_module[i].min_module;
			return "older";
		}
	return NULL;
}

/* The first GPU of the worst class for forward compatibility. */
static enum gpu_class
worst_gpu(const struct facts *facts, const struct gpu_fact **which)
{
	enum gpu_class worst = GPU_DATACENTER;

	*which = NULL;
	for (size_t i = 0; i < facts->gpus.n; i++) {
		enum gpu_class c = classify(&facts->gpus.v[i]);
		int rank = c == GPU_CONSUMER ? 3 : c == GPU_UNKNOWN ? 2 :
		    c == GPU_PRO ? 1 : 0;
		int wrank = worst == GPU_CONSUMER ? 3 : worst == GPU_UNKNOWN ? 2 :
		    worst == GPU_PRO ? 1 : 0;

		if (*which == NULL || rank > wrank) {
			worst = c;
			*which = &facts->gpus.v[i];
		}
	}
	return worst;
}

enum fc_verdict
fc_verdict(const struct facts *facts, const struct matrix *m)
{
	const struct gpu_fact *g;
	const char *mod, *min;
	enum gpu_class c;

	if (!facts->driver.libcuda.fwd_compat)
		return FC_NONE;
	c = worst_gpu(facts, &g);
	if (g != NULL && c == GPU_CONSUMER)
		return FC_GPU;
	if (module_misfit(facts, m, &mod, &min) != NULL)
		return FC_MODULE;
	if (g != NULL && c != GPU_DATACENTER)
		return FC_GPU_MAYBE;
	return FC_WORKS;
}

static char *
gpu_words(const struct gpu_fact *g)
{
	return xasprintf("%s (%04x:%04x)", fact_known(&g->name) ? g->name.value :
	    _("unnamed GPU"), g->vendor_id, g->device_id);
}

/* Takes the compat directory out of the search: the step that reached
 * it, and the package that put it there. */
static void
removal_fix(struct finding *f, const struct diagnose_input *in,
    const struct lib_fact *lib)
{
	const struct facts *facts = in->facts;
	const struct loaded_libcuda *lc = &facts->driver.libcuda;
	char *dir = path_dirname(lib->resolved);
	const char *conf;

	if (lib->via == STEP_LD_LIBRARY_PATH) {
		struct strv drop = STRV_INIT;

		strv_push(&drop, dir);
		lr_fix_comment(f, _("take the forward-compatibility directory "
		    "out of LD_LIBRARY_PATH:"));
		strv_push_owned(&f->fix, lr_llp_without(facts, &drop, false));
		strv_free(&drop);
	} else if (lib->via == STEP_CACHE &&
	    (conf = lr_ldconf_file_of(facts, dir)) != NULL) {
		lr_fix_comment(f, _("take the forward-compatibility directory "
		    "out of the loader's configuration:"));
		lr_fix_ldconf_drop(f, dir, conf);
		fd_ldconfig(f);
	} else {
		strv_pushf(&f->fix, "# %s", _("take the forward-compatibility "
		    "directory out of the search (the program's RPATH or "
		    "the environment that adds it)"));
	}
	if (lc->compat_package != NULL) {
		struct fix_want w = { .channel = "apt", .package = lc->compat_package };

		if (fixcmd_published(in->matrix, &w) == MATRIX_YES) {
			lr_fix_comment(f, _("or remove the package that installed it:"));
			strv_pushf(&f->fix, "sudo apt-get remove %s", lc->compat_package);
		} else {
			strv_pushf(&f->fix, "# %s %s", _("or remove the package "
			    "that installed it with the system's package manager:"),
			    lc->compat_package);
		}
	}
	free(dir);
}

void
fc_rule(const struct diagnose_input *in, struct findings *out)
{
	const struct facts *facts = in->facts;
	const struct loaded_libcuda *lc = &facts->driver.libcuda;
	const struct lib_fact *lib = facts_library(facts, "libcuda.so.1");
	enum fc_verdict v = fc_verdict(facts, in->matrix);
	const struct gpu_fact *g;
	const char *mod, *min, *cuda, *src = NULL;
	char buf[MATRIX_VERSION_MAX], *gw;
	struct finding *f;

	if (v == FC_NONE || v == FC_WORKS || lib == NULL || lib->resolved == NULL)
		return;
	cuda = fc_cuda(facts, in->matrix, buf, sizeof buf);
	worst_gpu(facts, &g);
	if (v == FC_GPU || v == FC_GPU_MAYBE) {
		gw = gpu_words(g);
		f = finding_add(out, FINDING_FORWARD_COMPAT_UNSUPPORTED, v == FC_GPU ?
		    _("The libcuda.so.1 programs load is a CUDA forward-compatibility "
		    "library (%s), but the GPU %s is a consumer card, and forward "
		    "compatibility works only on data-center GPUs and select "
		    "professional ones. Every CUDA program fails at start-up with "
		    "cudaErrorCompatNotSupportedOnDevice (804), "
		    "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: \"forward "
		    "compatibility was attempted on non supported HW\".") :
		    _("The libcuda.so.1 programs load is a CUDA forward-compatibility "
		    "library (%s). The GPU %s is not a data-center GPU; forward "
		    "compatibility supports only select professional (NGC Server "
		    "Ready) cards besides those. If this one is not among them, "
		    "every CUDA program fails with cudaErrorCompatNotSupportedOnDevice "
		    "(804)."), lc->path, gw);
		if (v == FC_GPU_MAYBE)
			f->severity = SEV_WARNING;
		strv_pushf(&f->evidence, _("GPU %s: %s"), g->pci_address != NULL ?
		    g->pci_address : "?", gw);
		free(gw);
	} else {
		(void)module_misfit(facts, in->matrix, &mod, &min);
		module_version(facts, &src);
		if (min == NULL)
			f = finding_add(out, FINDING_FORWARD_COMPAT_UNSUPPORTED,
			    _("The libcuda.so.1 programs load is a CUDA "
			    "forward-compatibility library of driver %s, older "
			    "than the kernel module in use (%s). A compat library "
			    "works only over an older kernel module; here every "
			    "CUDA program fails with cudaErrorSystemDriverMismatch "
			    "(803), CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: \"system has "
			    "unsupported display driver / cuda driver combination\". "
			    "The installed driver already runs what the compat "
			    "library was for."), lc->version, mod);
		else
			f = finding_add(out, FINDING_FORWARD_COMPAT_UNSUPPORTED,
			    _("The libcuda.so.1 programs load is a CUDA "
			    "forward-compatibility library for CUDA %s (driver %s), "
			    "but the kernel module in use (%s) is older than the "
			    "oldest it works over (%s). Every CUDA program fails "
			    "with cudaErrorSystemDriverMismatch (803), "
			    "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: \"system has "
			    "unsupported display driver / cuda driver "
			    "combination\"."), cuda != NULL ? cuda : "?",
			    lc->version, mod, min);
		strv_pushf(&f->evidence, _("%s: kernel module %s"),
		    src != NULL ? src : "?", mod);
	}
	finding_subject(f, "%s", lc->path != NULL ? lc->path : lib->resolved);
	lr_winner_evidence(f, lib);
	if (cuda != NULL)
		strv_pushf(&f->evidence, _("%s is a forward-compatibility "
		    "library for CUDA %s (%s)"), lc->path, cuda,
		    lc->compat_source != NULL ? lc->compat_source : _("matrix"));
	else
		strv_pushf(&f->evidence, _("%s is a forward-compatibility "
		    "library"), lc->path);
	if (lc->compat_package != NULL)
		strv_pushf(&f->evidence, _("package %s installed it"),
		    lc->compat_package);
	finding_evidence_cap(f, EVIDENCE_MAX);
	removal_fix(f, in, lib);
}

const char *
fc_driver_version(const struct facts *facts, const struct matrix *m,
    const char **source)
{
	const struct loaded_libcuda *lc = &facts->driver.libcuda;

	if (m != NULL && lc->version != NULL && fc_verdict(facts, m) == FC_WORKS) {
		*source = lc->path;
		return lc->version;
	}
	return diagnose_driver_version(facts, source);
}
