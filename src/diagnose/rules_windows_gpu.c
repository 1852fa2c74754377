/* The Windows rules on the display adapters the registry lists
 * (winfacts.h's gpus): NO_NVIDIA_GPU when there are adapters, each of a
 * known vendor and none NVIDIA's, DRIVER_LIBRARY_MISMATCH when nvcuda.dll is another driver
 * than the NVIDIA adapter's installed one. Pure. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/rules_windows_int.h"
#include "i18n.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "winload/winname.h"

#define RWG_EVIDENCE_MAX	8

static void
gpu_evidence(struct finding *f, const struct win_gpu *g)
{
	strv_pushf(&f->evidence, _("display adapter: %s (PCI %04x:%04x, %s, "
	    "driver %s)"), g->name != NULL ? g->name : "?", g->vendor,
	    g->device, g->provider != NULL ? g->provider : "?",
	    g->file_version != NULL ? g->file_version : "?");
}

static void
rule_no_nvidia(const struct win_facts *wf, struct findings *out)
{
	struct finding *f;
	size_t i;

	if (!wf->gpus_read || wf->gpus.n == 0)
		return;
	/* An adapter without a vendor (Microsoft Basic Display Adapter's
	 * PCI\CC_0300, which also drives an NVIDIA GPU without its driver)
	 * may be NVIDIA's: then nothing is said. */
	for (i = 0; i < wf->gpus.n; i++)
		if (wf->gpus.v[i].vendor == WIN_PCI_VENDOR_NVIDIA ||
		    wf->gpus.v[i].vendor == 0)
			return;
	f = finding_add(out, FINDING_NO_NVIDIA_GPU,
	    _("Windows lists display adapters, none of them NVIDIA's, so CUDA "
	    "has no GPU to use: programs fall back to the CPU or fail with "
	    "\"no CUDA-capable device is detected\" (cudaErrorNoDevice, 100)."));
	strv_push(&f->evidence, _("registry: HKLM\\SYSTEM\\CurrentControlSet\\"
	    "Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318} has no "
	    "NVIDIA (VEN_10DE) adapter"));
	for (i = 0; i < wf->gpus.n && i < RWG_EVIDENCE_MAX; i++)
		gpu_evidence(f, &wf->gpus.v[i]);
	if (wf->driver.nvcuda.path != NULL) {
		char *w = winname_windows_path(wf->drive, wf->driver.nvcuda.path);

		strv_pushf(&f->evidence, _("driver library installed anyway: %s"),
		    w);
		free(w);
	}
	rw_comment_owned(f, xstrdup(_("PowerShell: the display adapters "
	    "Windows sees")));
	strv_push(&f->fix, "Get-CimInstance Win32_VideoController | "
	    "Select-Object Name, PNPDeviceID, DriverVersion");
	rw_comment_owned(f, xstrdup(_("an NVIDIA GPU that is not listed: "
	    "check it is seated and powered, or enabled in the firmware; in "
	    "a VM or cloud instance, attach a GPU or pick a GPU type")));
}

static void
rule_mismatch(const struct win_facts *wf, struct findings *out)
{
	const struct win_driver *d = &wf->driver;
	struct finding *f;

	if (!wf->gpus_read || d->state != WIN_NVCUDA_NVIDIA ||
	    d->version == NULL)
		return;
	for (size_t i = 0; i < wf->gpus.n; i++) {
		const struct win_gpu *g = &wf->gpus.v[i];

		if (g->vendor != WIN_PCI_VENDOR_NVIDIA || g->version == NULL ||
		    strcmp(g->version, d->version) == 0)
			continue;
		f = finding_add(out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The installed driver of %s is version %s, but the "
		    "user-mode driver in System32 (nvcuda.dll) is version %s: a "
		    "driver update that did not finish. CUDA may fail with "
		    "cudaErrorSystemDriverMismatch (803) or crash in the "
		    "driver."), g->name != NULL ? g->name : "?", g->version,
		    d->version);
		finding_subject(f, "nvcuda.dll");
		gpu_evidence(f, g);
		strv_pushf(&f->evidence, _("nvcuda.dll: driver %s (file version %s)"),
		    d->version, d->nvcuda.file_version != NULL ?
		    d->nvcuda.file_version : "?");
		rw_comment_owned(f, xstrdup(_("reinstall NVIDIA's driver (a clean "
		    "install: https://www.nvidia.com/Download/index.aspx), then "
		    "restart Windows")));
		return;	/* one is enough: the fix is the same */
	}
}

void
rules_windows_gpus(const struct win_facts *wf, struct findings *out)
{
	rule_no_nvidia(wf, out);
	rule_mismatch(wf, out);
}
