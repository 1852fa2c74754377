/* Findings from the Windows verify runs (rules_windows_verify.h). */
#include "config.h"

#include <string.h>

#include "diagnose/rules_windows_verify.h"
#include "i18n.h"
#include "util/strv.h"

const char *
wv_kind_name(enum wv_kind kind)
{
	switch (kind) {
	case WV_DRIVER:
		return "driver";
	case WV_RUNTIME:
		return "runtime";
	case WV_CUDNN:
		return "cudnn";
	}
	return "?";
}

/* Who is to blame for a DLL that crashes or hangs: the driver's
 * installer for nvcuda.dll, the toolkit's or cuDNN's for the others. */
static void
hint(struct finding *f, const struct wv_run *r)
{
	switch (r->kind) {
	case WV_DRIVER:
		strv_pushf(&f->fix, "# %s", _("reinstall or update the NVIDIA "
		    "driver (nvcuda.dll is the driver's): "
		    "https://www.nvidia.com/Download/index.aspx"));
		break;
	case WV_RUNTIME:
		strv_pushf(&f->fix, "# %s", _("reinstall or update the CUDA "
		    "toolkit this cudart belongs to, or the NVIDIA driver it "
		    "needs"));
		break;
	case WV_CUDNN:
		strv_pushf(&f->fix, "# %s", _("reinstall cuDNN for this "
		    "toolkit, or update the NVIDIA driver"));
		break;
	}
}

static bool
kernel_step(const char *check)
{
	return check != NULL && (strcmp(check, "ptx_jit") == 0 ||
	    strcmp(check, "saxpy") == 0 || strcmp(check, "memory") == 0 ||
	    strcmp(check, "fma") == 0 || strcmp(check, "bandwidth") == 0);
}

static void
rule_run(const struct wv_run *r, struct findings *out)
{
	const char *step = r->last_step != NULL ? r->last_step :
	    _("loading the DLL");
	const char *msg = r->message != NULL ? r->message : "?";
	struct finding *f = NULL;

	switch (r->how) {
	case WV_WORKS:
		return;
	case WV_NOSTART:
		f = finding_add(out, FINDING_VERIFY_CRASHED,
		    _("The verification helper for %s could not be started "
		    "(Windows error %lu). Nothing was checked live."), r->lib,
		    r->code);
		f->severity = SEV_WARNING;
		strv_pushf(&f->fix, "# %s", _("cudawiz-verify.exe belongs "
		    "beside cudawiz.exe, or name it with CUDAWIZ_HELPER"));
		break;
	case WV_CRASHED:
		f = finding_add(out, FINDING_VERIFY_CRASHED,
		    _("Checking %s crashed: the helper process died of %s "
		    "(0x%08lx) in %s. A program that loads this DLL the same way "
		    "crashes too; cudawiz survived because the check ran in a "
		    "separate process."), r->lib, r->status_name != NULL ?
		    r->status_name : _("an unknown NTSTATUS"), r->code, step);
		hint(f, r);
		break;
	case WV_EXITED:
		f = finding_add(out, FINDING_VERIFY_CRASHED,
		    _("Checking %s ended early: the helper exited with code %lu in "
		    "%s without finishing. A DLL it loaded ended the process, "
		    "which ends any program that loads it the same way."), r->lib,
		    r->code, step);
		hint(f, r);
		break;
	case WV_TIMEOUT:
		f = finding_add(out, FINDING_VERIFY_TIMEOUT,
		    _("Checking %s did not finish within %g seconds and was "
		    "stopped; it was in %s. A program doing the same hangs."),
		    r->lib, r->timeout_s, step);
		hint(f, r);
		strv_pushf(&f->fix, "# %s", _("or give a slow machine more "
		    "time:"));
		strv_pushf(&f->fix, "cudawiz.exe verify --timeout %g",
		    r->timeout_s * 4);
		break;
	case WV_FAILED:
		if (r->kind == WV_CUDNN) {
			f = finding_add(out, FINDING_CUDNN_FAILED,
			    _("cuDNN %s failed at %s: %s"), r->lib,
			    r->failed_check, msg);
		} else if (r->kind == WV_DRIVER &&
		    kernel_step(r->failed_check)) {
			f = finding_add(out, FINDING_KERNEL_FAILED,
			    _("The driver %s initialised, but the check failed "
			    "at %s: %s"), r->lib, r->failed_check, msg);
		} else {
			f = finding_add(out, FINDING_RUNTIME_INIT_FAILED,
			    _("%s failed at %s: %s"), r->lib,
			    r->failed_check != NULL ? r->failed_check : "?", msg);
		}
		break;
	}
	if (r->last_step != NULL)
		strv_pushf(&f->evidence, _("last step: %s"), r->last_step);
	strv_pushf(&f->fix, "# %s", _("run the same check alone:"));
	strv_pushf(&f->fix, "cudawiz-verify.exe %s --lib \"%s\"",
	    wv_kind_name(r->kind), r->lib);
}

void
rules_windows_verify(const struct wv_run *runs, size_t n,
    struct findings *out)
{
	for (size_t i = 0; i < n; i++)
		rule_run(&runs[i], out);
}
