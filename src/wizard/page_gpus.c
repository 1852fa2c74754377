/* GPUs and driver: every NVIDIA device, the kernel module and the
 * userspace libraries, the platform, and the findings about them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"
#include "wizard/pagefacts.h"

static const enum finding_code related[] = {
	FINDING_NO_NVIDIA_GPU, FINDING_DRIVER_NOT_LOADED, FINDING_NOUVEAU_ACTIVE,
	FINDING_DRIVER_LIBRARY_MISMATCH, FINDING_DKMS_MODULE_MISSING,
	FINDING_LIBCUDA_NOT_FOUND, FINDING_STUB_LIBCUDA, FINDING_WSL_LIBCUDA,
	FINDING_DRIVER_TOO_OLD, FINDING_FORWARD_COMPAT_UNSUPPORTED,
	FINDING_NO_VISIBLE_DEVICES, FINDING_GPU_ARCH_UNSUPPORTED,
	FINDING_SECURE_BOOT_BLOCKS_MODULE, FINDING_PCIE_LINK_DEGRADED,
	FINDING_GPU_XID_ERRORS,
};

/* The value column: the driver's labels (indent 2) and the GPUs'
 * (indent 4) line up, sized for the longest in the language shown, so
 * "compute capability" or "Compute Capability" never wraps. */
static int
label_width(const struct wpage_ctx *c)
{
	const struct driver_facts *dr = &c->r->facts->driver;
	static const char *const driver_labels[] = {
		N_("PCI bus"), N_("kernel"), N_("nvidia module"), N_("runs CUDA"),
		N_("nouveau module"), N_("libraries"), N_("module files"),
		N_("platform"),
	};
	static const char *const gpu_labels[] = {
		N_("PCI address"), N_("bound to"), N_("compute capability"),
		N_("UUID"),
	};
	int w = 0, gw = 0;

	for (size_t i = 0; i < sizeof driver_labels / sizeof driver_labels[0]; i++)
		w = wlabel_fit(w, _(driver_labels[i]));
	for (size_t i = 0; i < dr->libs.n; i++)
		w = wlabel_fit(w, dr->libs.v[i].name);
	for (size_t i = 0; i < sizeof gpu_labels / sizeof gpu_labels[0]; i++)
		gw = wlabel_fit(gw, _(gpu_labels[i]));
	return wlabel_done(gw + 2 > w ? gw + 2 : w, c->body.cols);
}

/* A driver row a finding about the driver names (both sides of a
 * version mismatch): its glyph and colour, never a plain row. */
static void
driver_row(const struct wpage_ctx *c, struct wdoc *d, int lw,
    const char *label, const char *path, const char *value)
{
	const struct finding *f = wfinding_naming(&c->r->findings, related,
	    sizeof related / sizeof related[0], path, WN_PATH);
	char *v;

	if (f == NULL) {
		wdoc_kv(d, 2, lw, label, WS_NORMAL, value);
		return;
	}
	v = xasprintf("%s %s", wsev_glyph(c->g, f->severity), value);
	wdoc_kv(d, 2, lw, label, wsev_slot(f->severity), v);
	free(v);
}

static void
gpus(const struct wpage_ctx *c, struct wdoc *d, int lw)
{
	const struct facts *f = c->r->facts;

	wdoc_heading(d, _("GPUs"));
	if (f->gpus_state.state != FACT_KNOWN) {
		wdoc_fact(d, 2, lw, _("PCI bus"), &f->gpus_state, "");
		return;
	}
	if (f->gpus.n == 0)
		wdoc_text(d, 2, 4, f->driver.is_wsl ? WS_NORMAL : WS_WARNING,
		    f->driver.is_wsl ?
		    _("none on the PCI bus (normal inside WSL: the GPU is reached through /dev/dxg)") :
		    _("no NVIDIA device on the PCI bus"));
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct gpu_fact *g = &f->gpus.v[i];
		char *v;

		wdoc_textf(d, 2, 4, WS_NORMAL, "%s %s [%04x:%04x]", c->g->bullet,
		    wfact_text(&g->name, "?"), g->vendor_id, g->device_id);
		wdoc_kv(d, 4, lw - 2, _("PCI address"), WS_NORMAL, g->pci_address);
		v = xstrdup(wfact_text(&g->kernel_driver, _("none")));
		wdoc_kv(d, 4, lw - 2, _("bound to"),
		    g->kernel_driver.state == FACT_KNOWN &&
		    g->kernel_driver.value != NULL &&
		    strcmp(g->kernel_driver.value, "nvidia") == 0 ?
		    WS_NORMAL : WS_WARNING, v);
		free(v);
		if (fact_known(&g->cc))
			wdoc_kv(d, 4, lw - 2, _("compute capability"), WS_NORMAL,
			    g->cc.value);
		if (fact_known(&g->uuid))
			wdoc_kv(d, 4, lw - 2, _("UUID"), WS_NORMAL, g->uuid.value);
	}
}

static void
driver(const struct wpage_ctx *c, struct wdoc *d, int lw)
{
	const struct driver_facts *dr = &c->r->facts->driver;

	wdoc_heading(d, _("Driver"));
	wdoc_fact(d, 2, lw, _("kernel"), &dr->kernel_release, _("unknown"));
	if (fact_known(&dr->module_version) && dr->module_version.source != NULL) {
		char *v = xasprintf("%s (%s)", dr->module_version.value,
		    dr->module_version.source);

		driver_row(c, d, lw, _("nvidia module"),
		    dr->module_version.source, v);
		free(v);
	} else {
		wdoc_fact(d, 2, lw, _("nvidia module"), &dr->module_version,
		    _("not loaded"));
	}
	if (fact_known(&dr->max_cuda)) {
		char *v = fact_known(&dr->compat_major) ?
		    xasprintf(_("up to %s (every %s.x through minor-version "
		    "compatibility)"), dr->max_cuda.value, dr->compat_major.value) :
		    xasprintf(_("up to %s"), dr->max_cuda.value);

		wdoc_kv(d, 2, lw, _("runs CUDA"), WS_NORMAL, v);
		free(v);
	}
	if (fact_known(&dr->nouveau_loaded) &&
	    strcmp(dr->nouveau_loaded.value, "yes") == 0)
		wdoc_kv(d, 2, lw, _("nouveau module"), WS_WARNING, _("loaded"));
	for (size_t i = 0; i < dr->libs.n; i++) {
		char *v = xasprintf("%s  %s", dr->libs.v[i].version != NULL ?
		    dr->libs.v[i].version : "-", dr->libs.v[i].path);

		driver_row(c, d, lw, dr->libs.v[i].name, dr->libs.v[i].path, v);
		free(v);
	}
	if (dr->libs.n == 0)
		wdoc_kv(d, 2, lw, _("libraries"), WS_WARNING,
		    _("no libcuda or libnvidia-ml in the library directories"));
	if (dr->modules_for_running.state == FACT_KNOWN &&
	    dr->modules_for_running.value != NULL) {
		bool yes = strcmp(dr->modules_for_running.value, "yes") == 0;

		wdoc_kv(d, 2, lw, _("module files"), yes ? WS_NORMAL : WS_WARNING,
		    yes ? _("built for the running kernel") :
		    _("none for the running kernel"));
	}
	if (dr->is_wsl)
		wdoc_kv(d, 2, lw, _("platform"), WS_NORMAL, _("WSL"));
	if (dr->docker || dr->podman)
		wdoc_kv(d, 2, lw, _("platform"), WS_NORMAL, dr->docker ?
		    _("Docker container") : _("Podman container"));
	if (dr->colab_release != NULL || dr->lib64_nvidia)
		wdoc_kv(d, 2, lw, _("platform"), WS_NORMAL, _("Colab-like runtime"));
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	int lw = label_width(c);
	size_t before;

	gpus(c, d, lw);
	driver(c, d, lw);
	wdoc_heading(d, _("Findings about the GPU and driver"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

const struct wpage page_gpus = {
	.title = N_("GPUs and driver"),
	.build = build,
	.hint = N_("j/k: scroll"),
};
