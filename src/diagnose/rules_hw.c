/* Hardware evidence that needs no working driver: each GPU's PCIe link,
 * Secure Boot refusing the nvidia module, and the driver's Xid reports in
 * the kernel log.
 *
 * Pure, like every rule: what the probes could not read gives no
 * finding. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/subject.h"
#include "diagnose/fixdriver.h"
#include "diagnose/xid.h"
#include "i18n.h"
#include "util/shquote.h"
#include "util/xalloc.h"

#define EVIDENCE_MAX	10
/* Xid findings past this many (GPU, code) groups are left out. */
#define XID_FINDINGS_MAX	8

static bool
is_value(const struct fact_str *f, const char *value)
{
	return fact_known(f) && strcmp(f->value, value) == 0;
}

static void
fix_comment(struct finding *f, const char *text)
{
	strv_pushf(&f->fix, "# %s", text);
}

/* ------------------------------------------------------ PCIE_LINK_DEGRADED */

/* A width ("16", "x16"), or 0 when it is none. */
static unsigned
link_width(const struct fact_str *f)
{
	const char *s;
	char *end;
	unsigned long w;

	if (!fact_known(f))
		return 0;
	s = f->value[0] == 'x' ? f->value + 1 : f->value;
	w = strtoul(s, &end, 10);
	return end != s && *end == '\0' && w <= 64 ? (unsigned)w : 0;
}

/* "x4 of x16, at 8.0 GT/s PCIe of 16.0 GT/s PCIe" */
static char *
link_text(const struct gpu_fact *g)
{
	return xasprintf(_("%s: link x%u of x%u, at %s (up to %s)"),
	    g->pci_address, link_width(&g->link_width),
	    link_width(&g->max_link_width),
	    fact_known(&g->link_speed) ? g->link_speed.value : "?",
	    fact_known(&g->max_link_speed) ? g->max_link_speed.value : "?");
}

/*
 * Width is the signal: a GPU keeps its lanes when idle, so fewer lanes
 * than it has means a riser, a slot wired narrower, or a bad contact.
 * Speed is not: GPUs drop the link to 2.5 GT/s when idle to save power,
 * so a low speed alone is normal and gives no finding.
 */
static void
rule_link(const struct facts *facts, struct findings *out)
{
	struct finding *f = NULL;

	for (size_t i = 0; i < facts->gpus.n; i++) {
		const struct gpu_fact *g = &facts->gpus.v[i];
		unsigned cur = link_width(&g->link_width);
		unsigned max = link_width(&g->max_link_width);
		char *q;

		if (cur == 0 || max == 0 || cur >= max)
			continue;
		if (f == NULL) {
			f = finding_add(out, FINDING_PCIE_LINK_DEGRADED,
			    _("A GPU's PCIe link runs with fewer lanes than the "
			    "GPU has (x%u of x%u): data moves between the host "
			    "and the GPU at a fraction of the speed, which slows "
			    "loading data and models. A riser or extension "
			    "cable, a slot wired with fewer lanes, or a card "
			    "not fully seated does this. (A lower link speed "
			    "alone is normal: GPUs slow the link down when idle "
			    "to save power.)"), cur, max);
			subj_gpu(f, facts, g);
		}
		strv_push_owned(&f->evidence, link_text(g));
		q = shquote_new(g->pci_address);
		fix_comment(f, _("the link the GPU and the slot can do (LnkCap) "
		    "and what it runs at (LnkSta):"));
		strv_pushf(&f->fix, "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'",
		    q);
		free(q);
	}
	if (f == NULL)
		return;
	finding_evidence_cap(f, EVIDENCE_MAX);
	fix_comment(f, _("put the card in a slot wired x16 (the manual says "
	    "which; most often the one nearest the CPU), without a riser, "
	    "seated fully; check the firmware's PCIe lane settings"));
}

/* ----------------------------------------------- SECURE_BOOT_BLOCKS_MODULE */

/* The running kernel's nvidia.ko whose signature state was read. */
static const struct kernel_module_file *
running_module(const struct driver_facts *d)
{
	for (size_t i = 0; i < d->module_files.n; i++)
		if (strcmp(d->module_files.v[i].kernel,
		    d->kernel_release.value) == 0 &&
		    d->module_files.v[i].signed_state >= 0)
			return &d->module_files.v[i];
	return NULL;
}

static void
fix_enroll(struct finding *f, const struct facts *facts)
{
	fix_comment(f, _("enroll DKMS's key with the firmware's shim (the "
	    "mokutil package): choose a one-time password, then at the next "
	    "boot the blue MOK manager asks for it: Enroll MOK, Continue, "
	    "Yes"));
	strv_push(&f->fix, "sudo mokutil --import /var/lib/dkms/mok.pub");
	fd_reboot(f, facts);
}

bool
rules_hw_secure_boot(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	const struct kernel_module_file *m;
	bool unsigned_mod, not_enrolled;
	struct finding *f;

	if (d->is_wsl || !is_value(&d->secure_boot, "yes") ||
	    !is_value(&d->nvidia_loaded, "no") ||
	    !fact_known(&d->kernel_release) || fd_place(facts) != FD_HOST ||
	    (m = running_module(d)) == NULL)
		return false;
	unsigned_mod = m->signed_state == 0;
	/* A signed module whose key, DKMS's, the firmware was never told. */
	not_enrolled = m->signed_state == 1 && is_value(&d->dkms_mok, "yes") &&
	    is_value(&d->mok_enrolled, "no");
	if (!unsigned_mod && !not_enrolled)
		return false;
	if (unsigned_mod)
		f = finding_add(out, FINDING_SECURE_BOOT_BLOCKS_MODULE,
		    _("Secure Boot is on and the nvidia module for the running "
		    "kernel carries no signature, so the kernel refuses to load "
		    "it (modprobe: \"Key was rejected by service\") and CUDA "
		    "finds no device."));
	else
		f = finding_add(out, FINDING_SECURE_BOOT_BLOCKS_MODULE,
		    _("Secure Boot is on and the nvidia module is signed with "
		    "DKMS's key, but that key was never enrolled, so the kernel "
		    "refuses to load the module (modprobe: \"Key was rejected by "
		    "service\") and CUDA finds no device."));
	finding_subject(f, "%s", m->path);
	strv_pushf(&f->evidence, _("Secure Boot: on (%s)"), d->secure_boot.source);
	strv_pushf(&f->evidence, unsigned_mod ? _("%s: no signature appended") :
	    _("%s: signed"), m->path);
	if (not_enrolled)
		strv_pushf(&f->evidence, _("/var/lib/dkms/mok.pub is not in %s"),
		    d->mok_enrolled.source);
	strv_pushf(&f->evidence, _("%s: the nvidia module is not loaded"),
	    d->nvidia_loaded.source);
	if (fact_known(&d->tainted))
		strv_pushf(&f->evidence, "%s: %s", d->tainted.source,
		    d->tainted.value);
	fix_comment(f, _("check: Secure Boot's state and the refusal"));
	strv_push(&f->fix, "mokutil --sb-state");
	strv_push(&f->fix, "sudo dmesg | grep -i -E 'module verification|key was rejected'");
	if (unsigned_mod) {
		fix_comment(f, _("rebuild the module with DKMS, which signs it "
		    "with its key (/var/lib/dkms/mok.key, made on first use):"));
		fd_build_module(f, facts, d->kernel_release.value);
	}
	fix_enroll(f, facts);
	fix_comment(f, _("or turn Secure Boot off in the firmware setup"));
	return true;
}

/* ----------------------------------------------------------- GPU_XID_ERRORS */

/* The GPU an Xid address ("0000:01:00", no function) belongs to. */
static const struct gpu_fact *
xid_gpu(const struct facts *facts, const char *pci)
{
	size_t n = strlen(pci);

	for (size_t i = 0; i < facts->gpus.n; i++)
		if (strncasecmp(facts->gpus.v[i].pci_address, pci, n) == 0)
			return &facts->gpus.v[i];
	return NULL;
}

static void
rule_xid(const struct facts *facts, struct findings *out)
{
	size_t shown = 0;

	for (size_t i = 0; i < facts->xids.n; i++) {
		const struct xid_group *x = &facts->xids.v[i];
		const struct xid_info *info = xid_lookup(x->code);
		const struct gpu_fact *g = xid_gpu(facts, x->pci);
		const char *name = g != NULL && fact_known(&g->name) ?
		    g->name.value : NULL;
		struct finding *f;

		if (shown++ == XID_FINDINGS_MAX)
			break;
		f = finding_add(out, FINDING_GPU_XID_ERRORS, ngettext(
		    "The kernel log holds %zu NVIDIA Xid %u report for the GPU at "
		    "%s: %s.",
		    "The kernel log holds %zu NVIDIA Xid %u reports for the GPU at "
		    "%s: %s.", x->count), x->count, x->code, x->pci,
		    info != NULL ? _(info->meaning) :
		    _("a code this table does not explain (see NVIDIA's Xid "
		    "catalogue)"));
		f->severity = info != NULL ? info->severity : SEV_WARNING;
		finding_subject(f, "Xid %u: %s", x->code, name != NULL ? name :
		    x->pci);
		if (name != NULL)
			strv_pushf(&f->evidence, "%s: %s", g->pci_address, name);
		strv_pushf(&f->evidence, ngettext("%s: %zu line, the last:",
		    "%s: %zu lines, the last:", x->count),
		    facts->kmsg_state.source != NULL ?
		    facts->kmsg_state.source : "/dev/kmsg", x->count);
		strv_push(&f->evidence, x->last);
		if (info != NULL)
			fix_comment(f, _(info->action));
		fix_comment(f, _("every Xid line, with the ones around it:"));
		strv_push(&f->fix, "sudo dmesg -T | grep -E 'NVRM|Xid'");
		fix_comment(f, _("what each code means: "
		    "https://docs.nvidia.com/deploy/xid-errors/"));
	}
}

void
rules_hw(const struct facts *facts, struct findings *out)
{
	rule_link(facts, out);
	rule_xid(facts, out);
}
