/* Rules about the GPU, the NVIDIA kernel driver and CUDA_VISIBLE_DEVICES.
 *
 * Pure: reads facts, appends findings, touches nothing else. A fact that is
 * unknown never counts as "no": a rule fires only on what was actually
 * seen, so a fixture tree or a container without /sys gives no finding
 * rather than a wrong one. Fix lines are commands to paste, or comments
 * ("# …") that say when to use the command after them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/subject.h"
#include "diagnose/fixdriver.h"
#include "i18n.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* Evidence lists longer than this end in "… and N more". */
#define EVIDENCE_MAX	10

static bool
is_value(const struct fact_str *f, const char *value)
{
	return fact_known(f) && strcmp(f->value, value) == 0;
}

static bool
bound_to(const struct gpu_fact *g, const char *driver)
{
	return is_value(&g->kernel_driver, driver);
}

static size_t
count_bound(const struct facts *facts, const char *driver)
{
	size_t n = 0;

	for (size_t i = 0; i < facts->gpus.n; i++)
		if (bound_to(&facts->gpus.v[i], driver))
			n++;
	return n;
}

/* Driver libraries of a Linux driver install (WSL's are the Windows one). */
static bool
have_linux_driver_libs(const struct facts *facts)
{
	for (size_t i = 0; i < facts->driver.libs.n; i++)
		if (!facts->driver.libs.v[i].wsl)
			return true;
	return false;
}

/* "0000:01:00.0 GH100 [H100 SXM5 80GB]: kernel driver nouveau" */
static void
gpu_evidence(struct finding *f, const struct gpu_fact *g)
{
	const char *drv;

	if (fact_known(&g->kernel_driver))
		drv = g->kernel_driver.value;
	else if (g->kernel_driver.state == FACT_KNOWN)
		drv = _("none bound");
	else
		drv = _("unknown");
	/* A raw name is the id again: say it once. */
	if (fact_known(&g->name) &&
	    (g->name.source == NULL || strcmp(g->name.source, "raw") != 0))
		strv_pushf(&f->evidence, _("%s %s [%04x:%04x]: kernel driver %s"),
		    g->pci_address, g->name.value, g->vendor_id, g->device_id,
		    drv);
	else
		strv_pushf(&f->evidence, _("%s [%04x:%04x]: kernel driver %s"),
		    g->pci_address, g->vendor_id, g->device_id, drv);
}

static void
fix_comment(struct finding *f, const char *text)
{
	strv_pushf(&f->fix, "# %s", text);
}

static void
fix_install_driver(struct finding *f, const struct facts *facts)
{
	if (fd_place(facts) == FD_HOST)
		fix_comment(f, _("no NVIDIA driver is installed; install it first."));
	fd_install(f, facts, NULL, NULL, NULL);
}

/* ------------------------------------------------------------ NO_NVIDIA_GPU */

static void
rule_no_gpu(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	struct finding *f;

	/* Inside WSL no GPU is on the PCI bus, and that is normal. An
	 * unreadable bus says nothing about the GPUs on it. */
	if (facts->gpus_state.state != FACT_KNOWN || facts->gpus.n > 0 ||
	    d->is_wsl)
		return;
	f = finding_add(out, FINDING_NO_NVIDIA_GPU,
	    _("No NVIDIA display device is on the PCI bus, so CUDA has no GPU to "
	    "use: programs fall back to the CPU or fail with \"no CUDA-capable "
	    "device is detected\" (cudaErrorNoDevice, 100)."));
	strv_pushf(&f->evidence, _("%s: no NVIDIA (0x10de) display device"),
	    facts->gpus_state.source != NULL ?
	    facts->gpus_state.source : "/sys/bus/pci/devices");
	for (size_t i = 0; i < d->libs.n; i++)
		strv_pushf(&f->evidence, _("driver library installed anyway: %s"),
		    d->libs.v[i].path);
	fd_place_evidence(f, facts);
	finding_evidence_cap(f, EVIDENCE_MAX);
	fix_comment(f, _("NVIDIA devices on the machine; no output means none:"));
	strv_push(&f->fix, "lspci -nn -d 10de:");
	if (fd_place(facts) == FD_CONTAINER) {
		fix_comment(f, _("a container sees GPUs only when started with them:"));
		fd_container_start(f, facts);
	}
	fix_comment(f, _("in a VM or cloud instance, attach a GPU or pick a GPU type"));
}

/* ----------------------------------------------------------- NOUVEAU_ACTIVE */

static bool
rule_nouveau(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	size_t bound = count_bound(facts, "nouveau");
	bool loaded = is_value(&d->nouveau_loaded, "yes");
	struct finding *f;

	if (facts->gpus.n == 0 || (bound == 0 && !loaded))
		return false;
	if (bound > 0)
		f = finding_add(out, FINDING_NOUVEAU_ACTIVE, ngettext(
		    "The open-source nouveau driver is bound to %zu NVIDIA GPU. "
		    "CUDA works only with NVIDIA's own driver, and the nvidia "
		    "module cannot take a GPU that nouveau holds.",
		    "The open-source nouveau driver is bound to %zu NVIDIA GPUs. "
		    "CUDA works only with NVIDIA's own driver, and the nvidia "
		    "module cannot take a GPU that nouveau holds.", bound), bound);
	else
		f = finding_add(out, FINDING_NOUVEAU_ACTIVE,
		    _("The open-source nouveau module is loaded on a machine with "
		    "an NVIDIA GPU. It claims the GPU at boot before the nvidia "
		    "module can, and then CUDA finds no device."));
	subj_gpu(f, facts, &facts->gpus.v[0]);
	for (size_t i = 0; i < facts->gpus.n; i++)
		gpu_evidence(f, &facts->gpus.v[i]);
	if (loaded)
		strv_pushf(&f->evidence, _("%s: the nouveau module is loaded"),
		    d->nouveau_loaded.source);
	finding_evidence_cap(f, EVIDENCE_MAX);
	fix_comment(f, _("stop nouveau from loading, rebuild the initramfs, reboot:"));
	strv_push(&f->fix, "printf 'blacklist nouveau\\noptions nouveau "
	    "modeset=0\\n' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf");
	strv_push(&f->fix, "sudo update-initramfs -u");
	fix_comment(f, _("(on Fedora and RHEL: sudo dracut --force)"));
	fd_reboot(f, facts);
	if (!have_linux_driver_libs(facts))
		fix_install_driver(f, facts);
	return true;
}

/* ------------------------------------------------------ DKMS_MODULE_MISSING */

static bool
rule_dkms(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	const char *running = d->kernel_release.value;
	struct strv others = STRV_INIT;
	struct finding *f;
	bool gpu_wants_nvidia;

	/* WSL has no Linux kernel module; a loaded module needs no file. */
	if (d->is_wsl || !is_value(&d->nvidia_loaded, "no") ||
	    !is_value(&d->modules_for_running, "no") ||
	    !fact_known(&d->kernel_release))
		return false;
	/* GPUs all passed through to VMs need no nvidia module here. */
	gpu_wants_nvidia = facts->gpus.n > count_bound(facts, "vfio-pci");
	if (!gpu_wants_nvidia && !have_linux_driver_libs(facts))
		return false;
	for (size_t i = 0; i < d->module_files.n; i++) {
		const char *k = d->module_files.v[i].kernel;

		if (strcmp(k, running) != 0 && !strv_contains(&others, k))
			strv_push(&others, k);
	}
	if (others.n > 0) {
		struct strbuf list = STRBUF_INIT;

		for (size_t i = 0; i < others.n; i++) {
			if (i > 0)
				strbuf_puts(&list, ", ");
			strbuf_puts(&list, others.v[i]);
		}
		f = finding_add(out, FINDING_DKMS_MODULE_MISSING,
		    _("The NVIDIA kernel module is built for %s but not for the "
		    "running kernel %s. This happens after a kernel update when "
		    "DKMS could not build the module again (most often because "
		    "the new kernel's headers are missing), so the nvidia module "
		    "cannot be loaded."), strbuf_str(&list), running);
		strbuf_free(&list);
	} else {
		f = finding_add(out, FINDING_DKMS_MODULE_MISSING,
		    _("No NVIDIA kernel module is installed for the running kernel "
		    "%s, so the nvidia module cannot be loaded and CUDA finds no "
		    "device."), running);
	}
	/* TRANSLATORS: a finding's subject: "kernel 6.8.0-45-generic". */
	finding_subject(f, _("kernel %s"), running);
	strv_pushf(&f->evidence, _("running kernel: %s (%s)"), running,
	    d->kernel_release.source);
	strv_pushf(&f->evidence, _("%s: no nvidia*.ko"),
	    d->modules_for_running.source);
	for (size_t i = 0; i < d->module_files.n; i++)
		strv_pushf(&f->evidence, _("%s (kernel %s)"),
		    d->module_files.v[i].path, d->module_files.v[i].kernel);
	for (size_t i = 0; i < facts->gpus.n; i++)
		gpu_evidence(f, &facts->gpus.v[i]);
	finding_evidence_cap(f, EVIDENCE_MAX);

	fix_comment(f, _("build the module for the running kernel:"));
	fd_build_module(f, facts, running);
	fd_modprobe(f, facts);
	fix_comment(f, _("what DKMS built, for which kernels:"));
	strv_push(&f->fix, "dkms status");
	fix_comment(f, _("or reinstall the driver's DKMS package, which builds "
	    "it again"));
	fix_comment(f, _("(Debian: nvidia-kernel-dkms, Ubuntu: nvidia-dkms-<branch>)"));
	if (others.n > 0)
		fix_comment(f, _("or boot a kernel that has the module (boot menu)"));
	strv_free(&others);
	return true;
}

/* Whether kernel's module tree has an nvidia module; a DKMS build not
 * installed there cannot be loaded by name, so it does not count. */
static bool
kernel_has_module(const struct driver_facts *d, const char *kernel)
{
	for (size_t i = 0; i < d->module_files.n; i++)
		if (strcmp(d->module_files.v[i].kernel, kernel) == 0)
			return true;
	return false;
}

/*
 * The kernel the next boot runs has no nvidia module while the running
 * one works: after the reboot (an unattended upgrade's kernel becomes the
 * default) the GPU is gone. Only when the boot kernel is known from its
 * own /lib/modules tree, so a fixture without one says nothing.
 */
static bool
rule_dkms_next_boot(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	const struct fact_str *bk = &d->boot_kernel;
	const char *running = d->kernel_release.value;
	struct finding *f;

	if (d->is_wsl || fd_place(facts) != FD_HOST || !fact_known(bk) ||
	    !fact_known(&d->kernel_release) || strcmp(bk->value, running) == 0 ||
	    !strv_contains(&d->kernels, bk->value) ||
	    kernel_has_module(d, bk->value))
		return false;
	/* Only when this kernel's module is in use or installed: otherwise
	 * the running-kernel rule speaks, or there is no driver at all. */
	if (!is_value(&d->nvidia_loaded, "yes") &&
	    !is_value(&d->modules_for_running, "yes"))
		return false;
	f = finding_add(out, FINDING_DKMS_MODULE_MISSING,
	    _("The kernel the next boot runs (%s) has no NVIDIA kernel module, "
	    "though the running kernel %s has one: after the next reboot the "
	    "nvidia module cannot be loaded and CUDA finds no device. DKMS "
	    "did not build it when that kernel was installed, most often "
	    "because its headers were missing."), bk->value, running);
	f->severity = SEV_WARNING;
	finding_subject(f, _("kernel %s"), bk->value);
	strv_pushf(&f->evidence, _("next boot: %s (%s)"), bk->value, bk->source);
	strv_pushf(&f->evidence, _("%s/%s: no nvidia*.ko"), "/lib/modules",
	    bk->value);
	strv_pushf(&f->evidence, _("running kernel: %s (%s)"), running,
	    d->kernel_release.source);
	for (size_t i = 0; i < d->module_files.n; i++)
		strv_pushf(&f->evidence, _("%s (kernel %s)"),
		    d->module_files.v[i].path, d->module_files.v[i].kernel);
	for (size_t i = 0; i < d->dkms.n; i++)
		strv_pushf(&f->evidence, _("DKMS: %s/%s for %s (%s)"),
		    d->dkms.v[i].module, d->dkms.v[i].version, d->dkms.v[i].kernel,
		    d->dkms.v[i].installed ? _("installed") : _("built"));
	finding_evidence_cap(f, EVIDENCE_MAX);
	fix_comment(f, _("build the module for the kernel the next boot runs, "
	    "before rebooting:"));
	fd_build_module(f, facts, bk->value);
	fix_comment(f, _("what DKMS built, for which kernels:"));
	strv_push(&f->fix, "dkms status");
	return true;
}

/* -------------------------------------------------------- DRIVER_NOT_LOADED */

static void
rule_not_loaded(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	size_t vfio = count_bound(facts, "vfio-pci");
	struct finding *f;

	if (facts->gpus.n == 0 || d->is_wsl || !is_value(&d->nvidia_loaded, "no"))
		return;
	if (vfio == facts->gpus.n) {
		f = finding_add(out, FINDING_DRIVER_NOT_LOADED, ngettext(
		    "The NVIDIA GPU is bound to vfio-pci: it is passed through to "
		    "a virtual machine, so CUDA on this host cannot use it. That "
		    "is right on a VM host; to use the GPU here, give it back to "
		    "the nvidia driver.",
		    "All %zu NVIDIA GPUs are bound to vfio-pci: they are passed "
		    "through to virtual machines, so CUDA on this host cannot use "
		    "them. That is right on a VM host; to use a GPU here, give it "
		    "back to the nvidia driver.", vfio), vfio);
		f->severity = SEV_WARNING;
	} else if (vfio > 0) {
		f = finding_add(out, FINDING_DRIVER_NOT_LOADED, ngettext(
		    "NVIDIA GPUs are present but the nvidia kernel module is not "
		    "loaded, so CUDA finds no device (nvidia-smi: \"couldn't "
		    "communicate with the NVIDIA driver\"). %zu of them is bound "
		    "to vfio-pci, passed through to a virtual machine.",
		    "NVIDIA GPUs are present but the nvidia kernel module is not "
		    "loaded, so CUDA finds no device (nvidia-smi: \"couldn't "
		    "communicate with the NVIDIA driver\"). %zu of them are bound "
		    "to vfio-pci, passed through to virtual machines.", vfio), vfio);
	} else {
		f = finding_add(out, FINDING_DRIVER_NOT_LOADED,
		    _("An NVIDIA GPU is present but the nvidia kernel module is "
		    "not loaded, so CUDA finds no device (nvidia-smi: \"couldn't "
		    "communicate with the NVIDIA driver\")."));
	}
	subj_gpu(f, facts, &facts->gpus.v[0]);
	for (size_t i = 0; i < facts->gpus.n; i++)
		gpu_evidence(f, &facts->gpus.v[i]);
	strv_pushf(&f->evidence, _("%s: the nvidia module is not loaded"),
	    d->nvidia_loaded.source);
	if (!have_linux_driver_libs(facts))
		strv_push(&f->evidence, _("no libcuda or libnvidia-ml found: "
		    "the driver is not installed"));
	finding_evidence_cap(f, EVIDENCE_MAX);

	if (vfio == facts->gpus.n) {
		fix_comment(f, _("which driver holds each GPU (\"Kernel driver in "
		    "use\"):"));
		strv_push(&f->fix, "lspci -nnk -d 10de:");
		fix_comment(f, _("to use a GPU here, drop its ids from vfio-pci.ids="));
		fix_comment(f, _("on the kernel command line and in /etc/modprobe.d, "
		    "then:"));
		strv_push(&f->fix, "sudo update-initramfs -u");
		fd_reboot(f, facts);
		return;
	}
	fd_place_evidence(f, facts);
	if (fd_place(facts) != FD_HOST) {
		/* The module and the driver are the host's business. */
		fd_install(f, facts, NULL, NULL, NULL);
		return;
	}
	if (!have_linux_driver_libs(facts))
		fix_install_driver(f, facts);
	fd_modprobe(f, facts);
	fix_comment(f, _("if that fails, the kernel log says why:"));
	strv_push(&f->fix, "sudo dmesg | grep -i -E 'nvrm|nvidia'");
}

/* -------------------------------------------------- DRIVER_LIBRARY_MISMATCH */

static void
rule_mismatch(const struct facts *facts, struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	const struct fact_str *mv;
	const struct driver_lib *first = NULL;
	struct version kv, lv;
	size_t matching = 0;
	struct finding *f;

	mv = fact_known(&d->module_version) ? &d->module_version :
	    fact_known(&d->sys_module_version) ? &d->sys_module_version : NULL;
	if (mv == NULL || !version_parse(mv->value, &kv))
		return;
	for (size_t i = 0; i < d->libs.n; i++) {
		const struct driver_lib *l = &d->libs.v[i];

		/* WSL's libraries carry no driver version to compare. */
		if (l->wsl || l->version == NULL || !version_parse(l->version, &lv))
			continue;
		if (version_cmp(&kv, &lv) == 0) {
			matching++;
		} else if (first == NULL) {
			first = l;
		}
	}
	if (first == NULL)
		return;
	if (matching > 0)
		f = finding_add(out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The loaded nvidia kernel module is version %s, and so is one "
		    "copy of the driver libraries, but %s is version %s: a "
		    "leftover of another driver install. A program that loads it "
		    "fails: NVML with \"Driver/library version mismatch\", CUDA "
		    "with cudaErrorSystemDriverMismatch (803)."),
		    mv->value, first->path, first->version);
	else
		f = finding_add(out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The loaded nvidia kernel module is version %s but the "
		    "userspace driver (%s) is version %s: the driver was upgraded "
		    "and the old module is still running. NVML fails with "
		    "\"Failed to initialize NVML: Driver/library version "
		    "mismatch\" and CUDA with cudaErrorSystemDriverMismatch (803)."),
		    mv->value, first->name, first->version);
	finding_subject(f, "%s", first->path);
	strv_pushf(&f->evidence, "%s: %s", mv->source, mv->value);
	for (size_t i = 0; i < d->libs.n; i++) {
		const struct driver_lib *l = &d->libs.v[i];

		if (!l->wsl && l->version != NULL)
			strv_pushf(&f->evidence, "%s: %s", l->path, l->version);
	}
	finding_evidence_cap(f, EVIDENCE_MAX);

	if (matching > 0) {
		fix_comment(f, _("which package owns each mismatching copy? Remove"));
		fix_comment(f, _("the ones no package owns (runfile leftovers):"));
		for (size_t i = 0; i < d->libs.n; i++) {
			const struct driver_lib *l = &d->libs.v[i];
			char *q;

			if (l->wsl || l->version == NULL ||
			    !version_parse(l->version, &lv) ||
			    version_cmp(&kv, &lv) == 0)
				continue;
			q = shquote_new(l->path);
			strv_pushf(&f->fix, "dpkg -S %s", q);
			strv_pushf(&f->fix, "#   sudo rm -- %s", q);
			free(q);
		}
		fd_ldconfig(f);
		return;
	}
	if (fd_place(facts) == FD_CONTAINER) {
		/* The module is the host's; libraries of another version in
		 * the container came with the image. */
		fd_place_evidence(f, facts);
		fix_comment(f, _("the container's image carries driver libraries "
		    "of another version than the host's module: remove them from "
		    "the image and let the NVIDIA Container Toolkit mount the "
		    "host's"));
		fd_modprobe(f, facts);
		return;
	}
	fix_comment(f, _("load the new module by rebooting:"));
	fd_reboot(f, facts);
	fix_comment(f, _("or reload it once no program uses the GPU (on a"));
	fix_comment(f, _("desktop, stop the display manager first):"));
	fd_reload(f, facts, false);
}

/* ------------------------------------------------------- NO_VISIBLE_DEVICES */

/* What CUDA would make of CUDA_VISIBLE_DEVICES. */
struct visible {
	struct strv	 entries;	/* the value split at ',' and trimmed */
	size_t		 cut;		/* first invalid entry; entries.n when none */
	char		*why;		/* why entries[cut] is invalid */
	bool		 count_known;
	size_t		 count;		/* GPUs CUDA could see: bound to nvidia */
};

/* Blanks around an entry are dropped before judging it: whether CUDA
 * accepts them is not documented, and a finding must not guess. */
static char *
trimmed(const char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

/*
 * The GPU count is known when the bus was read outside WSL and every
 * GPU's driver binding is known; only GPUs bound to nvidia count, since
 * CUDA cannot see the others. With none bound, other rules speak.
 */
static void
visible_count(const struct facts *facts, struct visible *vis)
{
	vis->count_known = false;
	if (facts->gpus_state.state != FACT_KNOWN || facts->driver.is_wsl)
		return;
	for (size_t i = 0; i < facts->gpus.n; i++)
		if (facts->gpus.v[i].kernel_driver.state != FACT_KNOWN)
			return;
	vis->count = count_bound(facts, "nvidia");
	vis->count_known = vis->count > 0;
}

/*
 * The GPU (index into facts->gpus) that a GPU-… entry names: -1 when none
 * does, -2 when more than one does, -3 when UUIDs are not all known.
 */
static long
uuid_match(const struct facts *facts, const char *entry)
{
	size_t n = strlen(entry);
	long found = -1;

	for (size_t i = 0; i < facts->gpus.n; i++) {
		const struct gpu_fact *g = &facts->gpus.v[i];

		if (!bound_to(g, "nvidia"))
			continue;
		if (!fact_known(&g->uuid))
			return -3;
		if (strncasecmp(g->uuid.value, entry, n) == 0)
			found = found == -1 ? (long)i : -2;
	}
	return found;
}

/* A plain index: 1 to 9 decimal digits (longer ones count as huge). */
static bool
parse_index(const char *e, unsigned long *idx)
{
	size_t n = strlen(e);

	if (n == 0 || strspn(e, "0123456789") != n)
		return false;
	*idx = n > 9 ? (unsigned long)-1 : strtoul(e, NULL, 10);
	return true;
}

/* Sets vis->why for the entry at i, or leaves it NULL when valid. */
static void
judge_entry(const struct facts *facts, struct visible *vis, size_t i,
    bool *seen_gpu)
{
	const char *e = vis->entries.v[i];
	size_t n = strlen(e);
	unsigned long idx, prev;

	if (n == 0) {
		vis->why = xstrdup(_("empty"));
	} else if (parse_index(e, &idx)) {
		for (size_t j = 0; j < i && vis->why == NULL; j++)
			if (parse_index(vis->entries.v[j], &prev) && prev == idx)
				vis->why = xstrdup(_("a repeat of an earlier entry"));
		if (vis->why == NULL && vis->count_known && idx >= vis->count)
			vis->why = xasprintf(_("past the last GPU (the last index "
			    "is %zu)"), vis->count - 1);
	} else if (e[0] == '-' && n > 1 && strspn(e + 1, "0123456789") == n - 1) {
		vis->why = xstrdup(_("a negative index"));
	} else if (strncasecmp(e, "GPU-", 4) == 0) {
		long m = uuid_match(facts, e);

		if (m == -1)
			vis->why = xstrdup(_("a UUID that matches no GPU here"));
		else if (m == -2)
			vis->why = xstrdup(_("a UUID prefix that matches more than "
			    "one GPU"));
		else if (m >= 0 && seen_gpu[m])
			vis->why = xstrdup(_("a repeat of an earlier entry"));
		else if (m >= 0)
			seen_gpu[m] = true;
	} else if (strncasecmp(e, "MIG-", 4) != 0) {
		vis->why = xstrdup(_("not an index, a GPU- UUID or a MIG- UUID"));
	}
}

static void
visible_parse(const struct facts *facts, const char *value, struct visible *vis)
{
	struct strv raw = STRV_INIT;
	bool *seen_gpu = xcalloc(facts->gpus.n + 1, sizeof *seen_gpu);

	visible_count(facts, vis);
	strv_split(&raw, value, ",");
	for (size_t i = 0; i < raw.n; i++)
		strv_push_owned(&vis->entries, trimmed(raw.v[i]));
	strv_free(&raw);
	vis->cut = vis->entries.n;
	for (size_t i = 0; i < vis->entries.n; i++) {
		judge_entry(facts, vis, i, seen_gpu);
		if (vis->why != NULL) {
			vis->cut = i;
			break;
		}
	}
	free(seen_gpu);
}

/* The entries before the cut, joined with ',' and quoted for the shell. */
static char *
visible_prefix(const struct visible *vis)
{
	struct strbuf sb = STRBUF_INIT;
	char *q;

	for (size_t i = 0; i < vis->cut; i++) {
		if (i > 0)
			strbuf_putc(&sb, ',');
		strbuf_puts(&sb, vis->entries.v[i]);
	}
	q = shquote_new(strbuf_str(&sb));
	strbuf_free(&sb);
	return q;
}

static void
rule_visible(const struct facts *facts, struct findings *out)
{
	const struct env_var *var = &facts->env.var[ENV_CUDA_VISIBLE_DEVICES];
	struct visible vis = { STRV_INIT, 0, NULL, false, 0 };
	struct finding *f;
	char *qval, *qent;

	if (!var->set || var->value == NULL)
		return;
	visible_parse(facts, var->value, &vis);
	if (vis.why == NULL)
		goto out;
	qval = shquote_new(var->value);
	qent = shquote_new(vis.entries.v[vis.cut]);
	if (var->value[0] == '\0') {
		f = finding_add(out, FINDING_NO_VISIBLE_DEVICES,
		    _("CUDA_VISIBLE_DEVICES is set but empty, which hides every "
		    "GPU: CUDA programs see no device (\"no CUDA-capable device "
		    "is detected\", cudaErrorNoDevice)."));
	} else if (vis.cut == 0) {
		f = finding_add(out, FINDING_NO_VISIBLE_DEVICES,
		    _("CUDA_VISIBLE_DEVICES=%s hides every GPU: its first entry "
		    "(%s) is %s, and CUDA ignores everything from the first "
		    "invalid entry on, so programs see no device (\"no "
		    "CUDA-capable device is detected\")."), qval, qent, vis.why);
	} else {
		f = finding_add(out, FINDING_NO_VISIBLE_DEVICES, ngettext(
		    "CUDA_VISIBLE_DEVICES=%s: entry %zu (%s) is %s, so CUDA ignores "
		    "it and every entry after it; only %zu GPU remains visible.",
		    "CUDA_VISIBLE_DEVICES=%s: entry %zu (%s) is %s, so CUDA ignores "
		    "it and every entry after it; only %zu GPUs remain visible.",
		    vis.cut), qval, vis.cut + 1, qent, vis.why, vis.cut);
		f->severity = SEV_WARNING;
	}
	finding_subject(f, "CUDA_VISIBLE_DEVICES=%s", qval);
	strv_pushf(&f->evidence, "CUDA_VISIBLE_DEVICES=%s", qval);
	if (vis.count_known)
		strv_pushf(&f->evidence, ngettext(
		    "%zu NVIDIA GPU bound to the nvidia driver",
		    "%zu NVIDIA GPUs bound to the nvidia driver", vis.count),
		    vis.count);
	for (size_t i = 0; i < facts->gpus.n; i++)
		if (fact_known(&facts->gpus.v[i].uuid))
			strv_pushf(&f->evidence, "%s: %s",
			    facts->gpus.v[i].pci_address,
			    facts->gpus.v[i].uuid.value);
	finding_evidence_cap(f, EVIDENCE_MAX);

	fix_comment(f, _("make every GPU visible:"));
	strv_push(&f->fix, "unset CUDA_VISIBLE_DEVICES");
	if (vis.cut > 0) {
		char *prefix = visible_prefix(&vis);

		fix_comment(f, _("or keep only the entries CUDA accepts:"));
		strv_pushf(&f->fix, "export CUDA_VISIBLE_DEVICES=%s", prefix);
		free(prefix);
	} else {
		struct strbuf all = STRBUF_INIT;
		size_t n = vis.count_known ? vis.count : 1;

		for (size_t i = 0; i < n; i++)
			strbuf_printf(&all, i > 0 ? ",%zu" : "%zu", i);
		fix_comment(f, _("or choose GPUs by index, or by UUID (nvidia-smi -L):"));
		strv_pushf(&f->fix, "export CUDA_VISIBLE_DEVICES=%s",
		    strbuf_str(&all));
		strbuf_free(&all);
	}
	fix_comment(f, _("set by a scheduler (Slurm, Kubernetes)? Ask it for GPUs"));
	free(qval);
	free(qent);
out:
	strv_free(&vis.entries);
	free(vis.why);
}

void
rules_gpu(const struct facts *facts, struct findings *out)
{
	bool nouveau, dkms, secure_boot;

	rule_no_gpu(facts, out);
	nouveau = rule_nouveau(facts, out);
	dkms = rule_dkms(facts, out);
	if (!dkms)
		rule_dkms_next_boot(facts, out);
	secure_boot = rules_hw_secure_boot(facts, out);
	/* nouveau holding the GPU, no module to load, or Secure Boot refusing
	 * it is the cause to fix; "not loaded" would only repeat it with a
	 * fix that fails. */
	if (!nouveau && !dkms && !secure_boot)
		rule_not_loaded(facts, out);
	rule_mismatch(facts, out);
	rule_visible(facts, out);
}
