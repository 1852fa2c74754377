/* Unit tests for src/diagnose/rules_gpu.c: facts built by hand, the GPU
 * rules run over them, codes and severities checked. Most of it is the
 * CUDA_VISIBLE_DEVICES parsing, which has the most cases. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "util/xalloc.h"

#define UUID0 "GPU-5b5a8f0e-3c2d-4b1a-9e8f-7d6c5b4a3f21"
#define UUID1 "GPU-0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5"

static struct gpu_fact *
add_gpu(struct facts *f, const char *addr, const char *driver, const char *uuid)
{
	struct gpu_fact *g = VEC_PUSH(&f->gpus);
	char *path = xasprintf("/sys/bus/pci/devices/%s/driver", addr);

	g->pci_address = xstrdup(addr);
	g->vendor_id = 0x10de;
	g->device_id = 0x2330;
	g->class_code = 0x030200;
	if (driver != NULL)
		fact_set(&g->kernel_driver, driver, path);
	else
		fact_absent(&g->kernel_driver, path);
	fact_set(&g->name, "GH100 [H100 SXM5 80GB]", "/usr/share/misc/pci.ids");
	if (uuid != NULL)
		fact_set(&g->uuid, uuid, "/proc/driver/nvidia/gpus/x/information");
	else
		fact_unknown(&g->uuid, "no information file");
	free(path);
	return g;
}

static void
add_lib(struct facts *f, const char *path, const char *name,
    const char *version, bool wsl)
{
	struct driver_lib *l = VEC_PUSH(&f->driver.libs);

	l->path = xstrdup(path);
	l->name = xstrdup(name);
	l->version = version != NULL ? xstrdup(version) : NULL;
	l->wsl = wsl;
}

static void
add_module(struct facts *f, const char *kernel, const char *path)
{
	struct kernel_module_file *m = VEC_PUSH(&f->driver.module_files);

	m->kernel = xstrdup(kernel);
	m->path = xstrdup(path);
}

/* A healthy machine with n GPUs bound to nvidia, UUIDs known. */
static struct facts *
healthy(size_t n)
{
	static const char *const uuids[] = { UUID0, UUID1,
	    "GPU-11111111-2222-3333-4444-555555555555",
	    "GPU-66666666-7777-8888-9999-000000000000" };
	struct facts *f = facts_new("/", false);
	struct driver_facts *d = &f->driver;

	fact_set(&f->gpus_state, "read", "/sys/bus/pci/devices");
	for (size_t i = 0; i < n && i < 4; i++) {
		char addr[32];

		snprintf(addr, sizeof addr, "0000:%02zx:00.0", i + 1);
		add_gpu(f, addr, "nvidia", uuids[i]);
	}
	fact_set(&d->kernel_release, "6.1.0-13-amd64", "/proc/sys/kernel/osrelease");
	fact_set(&d->module_version, "535.104.05", "/proc/driver/nvidia/version");
	fact_set(&d->sys_module_version, "535.104.05", "/sys/module/nvidia/version");
	fact_set(&d->nvidia_loaded, "yes", "/sys/module/nvidia");
	fact_set(&d->nouveau_loaded, "no", "/sys/module/nouveau");
	fact_set(&d->modules_for_running, "yes", "/lib/modules/6.1.0-13-amd64");
	add_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "libcuda",
	    "535.104.05", false);
	add_lib(f, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05",
	    "libnvidia-ml", "535.104.05", false);
	add_module(f, "6.1.0-13-amd64",
	    "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko");
	strv_push(&d->kernels, "6.1.0-13-amd64");
	return f;
}

static void
set_cvd(struct facts *f, const char *value)
{
	struct env_var *v = &f->env.var[ENV_CUDA_VISIBLE_DEVICES];

	FREE(&v->value);
	v->set = value != NULL;
	v->value = value != NULL ? xstrdup(value) : NULL;
}

/* Runs the GPU rules; returns the number of findings. */
static size_t
run(const struct facts *f, struct findings *out)
{
	findings_free(out);
	rules_gpu(f, out);
	return out->n;
}

/* True when any line of sv contains needle. */
static bool
lines_have(const struct strv *sv, const char *needle)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strstr(sv->v[i], needle) != NULL)
			return true;
	return false;
}

static void
test_healthy(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(2);

	is_int(run(f, &out), 0, "a healthy machine gives no GPU finding");
	set_cvd(f, "0,1");
	is_int(run(f, &out), 0, "CUDA_VISIBLE_DEVICES=0,1 with two GPUs is fine");
	findings_free(&out);
	facts_free(f);
}

static void
test_no_gpu(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(0);
	const struct finding *fd;

	run(f, &out);
	fd = findings_find(&out, FINDING_NO_NVIDIA_GPU);
	ok(fd != NULL && fd->severity == SEV_ERROR, "no GPU on a read bus: NO_NVIDIA_GPU error");
	ok(fd != NULL && lines_have(&fd->evidence, "/sys/bus/pci/devices"),
	    "evidence names the bus directory");
	ok(fd != NULL && lines_have(&fd->fix, "lspci -nn -d 10de:"),
	    "the fix lists NVIDIA devices");
	is_int(out.n, 1, "and nothing else (the module is loaded)");

	fact_unreadable(&f->gpus_state, "/sys/bus/pci/devices: Permission denied");
	run(f, &out);
	ok(findings_find(&out, FINDING_NO_NVIDIA_GPU) == NULL,
	    "an unreadable bus never gives NO_NVIDIA_GPU");
	fact_unknown(&f->gpus_state, "/sys/bus/pci/devices does not exist");
	run(f, &out);
	ok(findings_find(&out, FINDING_NO_NVIDIA_GPU) == NULL,
	    "a missing bus never gives NO_NVIDIA_GPU");

	fact_set(&f->gpus_state, "read", "/sys/bus/pci/devices");
	f->driver.is_wsl = true;
	run(f, &out);
	ok(findings_find(&out, FINDING_NO_NVIDIA_GPU) == NULL,
	    "inside WSL an empty bus is normal");
	findings_free(&out);
	facts_free(f);
}

static void
test_not_loaded(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(1);
	const struct finding *fd;

	fact_absent(&f->driver.module_version, "/proc/driver/nvidia/version");
	fact_absent(&f->driver.sys_module_version, "/sys/module/nvidia/version");
	fact_set(&f->driver.nvidia_loaded, "no", "/sys/module/nvidia");
	FREE(&f->gpus.v[0].kernel_driver.value);
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_NOT_LOADED);
	ok(fd != NULL && fd->severity == SEV_ERROR, "GPU present, module not loaded: error");
	ok(fd != NULL && lines_have(&fd->fix, "sudo modprobe nvidia"),
	    "the fix loads the module");
	ok(fd != NULL && !lines_have(&fd->fix, "apt-get install nvidia-driver"),
	    "no install hint while the driver's libraries are there");
	is_int(out.n, 1, "only DRIVER_NOT_LOADED");

	/* No libraries: install first. */
	for (size_t i = 0; i < f->driver.libs.n; i++) {
		free(f->driver.libs.v[i].path);
		free(f->driver.libs.v[i].name);
		free(f->driver.libs.v[i].version);
	}
	f->driver.libs.n = 0;
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_NOT_LOADED);
	ok(fd != NULL && lines_have(&fd->fix, "sudo apt-get install nvidia-driver"),
	    "with no libcuda the fix installs the driver");

	/* Unknown "loaded": no finding. */
	fact_unknown(&f->driver.nvidia_loaded, "/sys/module does not exist");
	run(f, &out);
	ok(findings_find(&out, FINDING_DRIVER_NOT_LOADED) == NULL,
	    "an unknown module state gives no DRIVER_NOT_LOADED");

	/* vfio-pci: passthrough, a warning. */
	fact_set(&f->driver.nvidia_loaded, "no", "/sys/module/nvidia");
	fact_set(&f->gpus.v[0].kernel_driver, "vfio-pci", "x");
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_NOT_LOADED);
	ok(fd != NULL && fd->severity == SEV_WARNING, "a GPU on vfio-pci: warning");
	ok(fd != NULL && strstr(fd->detail, "virtual machine") != NULL,
	    "the detail says passthrough to a virtual machine");
	ok(fd != NULL && !lines_have(&fd->fix, "modprobe nvidia"),
	    "no modprobe for a passed-through GPU");

	/* One of two on vfio: still an error for the other. */
	add_gpu(f, "0000:02:00.0", NULL, NULL);
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_NOT_LOADED);
	ok(fd != NULL && fd->severity == SEV_ERROR,
	    "one GPU on vfio-pci and one unbound: error");

	/* WSL: no kernel module to load there. */
	f->driver.is_wsl = true;
	run(f, &out);
	ok(findings_find(&out, FINDING_DRIVER_NOT_LOADED) == NULL,
	    "no DRIVER_NOT_LOADED inside WSL");
	findings_free(&out);
	facts_free(f);
}

static void
test_nouveau(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(1);
	const struct finding *fd;

	fact_absent(&f->driver.module_version, "/proc/driver/nvidia/version");
	fact_absent(&f->driver.sys_module_version, "/sys/module/nvidia/version");
	fact_set(&f->driver.nvidia_loaded, "no", "/sys/module/nvidia");
	fact_set(&f->driver.nouveau_loaded, "yes", "/sys/module/nouveau");
	fact_set(&f->gpus.v[0].kernel_driver, "nouveau", "x");
	run(f, &out);
	fd = findings_find(&out, FINDING_NOUVEAU_ACTIVE);
	ok(fd != NULL && fd->severity == SEV_ERROR, "nouveau bound: NOUVEAU_ACTIVE");
	ok(fd != NULL && lines_have(&fd->fix, "blacklist nouveau") &&
	    lines_have(&fd->fix, "options nouveau modeset=0") &&
	    lines_have(&fd->fix, "sudo update-initramfs -u") &&
	    lines_have(&fd->fix, "sudo reboot"),
	    "the fix blacklists nouveau, rebuilds the initramfs, reboots");
	ok(fd != NULL && lines_have(&fd->evidence, "kernel driver nouveau"),
	    "evidence shows the binding");
	ok(findings_find(&out, FINDING_DRIVER_NOT_LOADED) == NULL,
	    "not DRIVER_NOT_LOADED as well");

	/* Loaded but not bound, GPU bound to nvidia. */
	fact_set(&f->gpus.v[0].kernel_driver, "nvidia", "x");
	fact_set(&f->driver.nvidia_loaded, "yes", "/sys/module/nvidia");
	run(f, &out);
	ok(findings_find(&out, FINDING_NOUVEAU_ACTIVE) != NULL,
	    "nouveau loaded next to an NVIDIA GPU: NOUVEAU_ACTIVE");

	/* nouveau loaded without an NVIDIA GPU is none of our business. */
	facts_free(f);
	f = healthy(0);
	fact_set(&f->driver.nouveau_loaded, "yes", "/sys/module/nouveau");
	f->driver.is_wsl = true;
	run(f, &out);
	ok(findings_find(&out, FINDING_NOUVEAU_ACTIVE) == NULL,
	    "no NOUVEAU_ACTIVE without an NVIDIA GPU");
	findings_free(&out);
	facts_free(f);
}

static void
test_dkms(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(1);
	const struct finding *fd;

	fact_absent(&f->driver.module_version, "/proc/driver/nvidia/version");
	fact_absent(&f->driver.sys_module_version, "/sys/module/nvidia/version");
	fact_set(&f->driver.nvidia_loaded, "no", "/sys/module/nvidia");
	FREE(&f->gpus.v[0].kernel_driver.value);
	fact_set(&f->driver.kernel_release, "6.5.0-2-amd64", "/proc/sys/kernel/osrelease");
	fact_set(&f->driver.modules_for_running, "no", "/lib/modules/6.5.0-2-amd64");
	strv_push(&f->driver.kernels, "6.5.0-2-amd64");
	run(f, &out);
	fd = findings_find(&out, FINDING_DKMS_MODULE_MISSING);
	ok(fd != NULL && fd->severity == SEV_ERROR, "no module for the running kernel");
	ok(fd != NULL && strstr(fd->detail, "6.1.0-13-amd64") != NULL &&
	    strstr(fd->detail, "6.5.0-2-amd64") != NULL,
	    "the detail names the kernel with the module and the running one");
	ok(fd != NULL && lines_have(&fd->evidence,
	    "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko"),
	    "evidence lists the other kernel's module");
	ok(fd != NULL && lines_have(&fd->fix, "linux-headers-6.5.0-2-amd64") &&
	    lines_have(&fd->fix, "sudo dkms autoinstall -k 6.5.0-2-amd64") &&
	    lines_have(&fd->fix, "sudo modprobe nvidia"),
	    "the fix installs the running kernel's headers, runs dkms for it, then modprobe");
	ok(findings_find(&out, FINDING_DRIVER_NOT_LOADED) == NULL,
	    "DKMS_MODULE_MISSING replaces DRIVER_NOT_LOADED");

	fact_unknown(&f->driver.modules_for_running, "/lib/modules/6.5.0-2-amd64 does not exist");
	run(f, &out);
	ok(findings_find(&out, FINDING_DKMS_MODULE_MISSING) == NULL &&
	    findings_find(&out, FINDING_DRIVER_NOT_LOADED) != NULL,
	    "unknown module files: DRIVER_NOT_LOADED, not DKMS");

	fact_set(&f->driver.modules_for_running, "no", "/lib/modules/6.5.0-2-amd64");
	fact_set(&f->driver.nvidia_loaded, "yes", "/sys/module/nvidia");
	run(f, &out);
	ok(findings_find(&out, FINDING_DKMS_MODULE_MISSING) == NULL,
	    "a loaded module needs no file: no DKMS finding");
	findings_free(&out);
	facts_free(f);
}

static void
test_mismatch(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(1);
	const struct finding *fd;

	free(f->driver.libs.v[0].version);
	f->driver.libs.v[0].version = xstrdup("550.54.15");
	free(f->driver.libs.v[0].path);
	f->driver.libs.v[0].path = xstrdup("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15");
	free(f->driver.libs.v[1].version);
	f->driver.libs.v[1].version = xstrdup("550.54.15");
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_LIBRARY_MISMATCH);
	ok(fd != NULL, "module 535.104.05, libraries 550.54.15: mismatch");
	ok(fd != NULL && lines_have(&fd->evidence,
	    "/proc/driver/nvidia/version: 535.104.05") &&
	    lines_have(&fd->evidence,
	    "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15: 550.54.15"),
	    "evidence names both versions and their paths");
	ok(fd != NULL && lines_have(&fd->fix, "sudo rmmod nvidia_uvm nvidia_drm "
	    "nvidia_modeset nvidia && sudo modprobe nvidia") &&
	    lines_have(&fd->fix, "sudo reboot"), "the fix reboots or reloads");

	/* A stale copy next to a matching one. */
	free(f->driver.libs.v[1].version);
	f->driver.libs.v[1].version = xstrdup("535.104.05");
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_LIBRARY_MISMATCH);
	ok(fd != NULL && lines_have(&fd->fix,
	    "dpkg -S /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15"),
	    "a leftover copy: the fix finds its owner");

	/* 535.104.5 equals 535.104.05. */
	free(f->driver.libs.v[0].version);
	f->driver.libs.v[0].version = xstrdup("535.104.5");
	run(f, &out);
	ok(findings_find(&out, FINDING_DRIVER_LIBRARY_MISMATCH) == NULL,
	    "versions compare numerically");

	/* WSL libraries and versionless names do not count. */
	add_lib(f, "/usr/lib/wsl/lib/libcuda.so.1.1", "libcuda", NULL, true);
	add_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.1.1", "libcuda", NULL, false);
	run(f, &out);
	ok(findings_find(&out, FINDING_DRIVER_LIBRARY_MISMATCH) == NULL,
	    "versionless and WSL libraries are ignored");

	/* Only the sysfs version known. */
	fact_absent(&f->driver.module_version, "/proc/driver/nvidia/version");
	fact_set(&f->driver.sys_module_version, "550.54.15", "/sys/module/nvidia/version");
	run(f, &out);
	fd = findings_find(&out, FINDING_DRIVER_LIBRARY_MISMATCH);
	ok(fd != NULL && lines_have(&fd->evidence, "/sys/module/nvidia/version: 550.54.15"),
	    "the sysfs version is used when /proc has none");
	findings_free(&out);
	facts_free(f);
}

/* One CUDA_VISIBLE_DEVICES case: the finding's presence and severity. */
static void
cvd_case(struct facts *f, const char *value, int want_sev, const char *what)
{
	struct findings out = { NULL, 0, 0 };
	const struct finding *fd;

	set_cvd(f, value);
	run(f, &out);
	fd = findings_find(&out, FINDING_NO_VISIBLE_DEVICES);
	if (want_sev < 0)
		ok(fd == NULL, "CUDA_VISIBLE_DEVICES=\"%s\": no finding (%s)",
		    value != NULL ? value : "(unset)", what);
	else
		ok(fd != NULL && (int)fd->severity == want_sev,
		    "CUDA_VISIBLE_DEVICES=\"%s\": %s (%s)", value,
		    want_sev == SEV_ERROR ? "error" : "warning", what);
	findings_free(&out);
}

static void
test_visible(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(2);
	const struct finding *fd;

	cvd_case(f, NULL, -1, "unset means all");
	cvd_case(f, "", SEV_ERROR, "empty hides all");
	cvd_case(f, "-1", SEV_ERROR, "the -1 idiom hides all");
	cvd_case(f, "0", -1, "a choice, not a problem");
	cvd_case(f, "1,0", -1, "any order");
	cvd_case(f, " 0 , 1 ", -1, "blanks around entries");
	cvd_case(f, "0,7", SEV_WARNING, "cut at 7, GPU 0 stays");
	cvd_case(f, "7", SEV_ERROR, "index past the last GPU");
	cvd_case(f, "2", SEV_ERROR, "index equal to the count");
	cvd_case(f, "0,-1,1", SEV_WARNING, "cut at -1");
	cvd_case(f, "0,,1", SEV_WARNING, "an empty entry cuts");
	cvd_case(f, "0,0", SEV_WARNING, "a repeated index");
	cvd_case(f, "1,01", SEV_WARNING, "a repeated index written differently");
	cvd_case(f, "abc", SEV_ERROR, "not an index or UUID");
	cvd_case(f, "0,gpu0", SEV_WARNING, "garbage after a valid entry");
	cvd_case(f, UUID0, -1, "a full UUID that matches");
	cvd_case(f, "GPU-5b5a8f0e", -1, "a unique UUID prefix that matches");
	cvd_case(f, "gpu-5B5A8F0E", -1, "UUIDs compare without case");
	cvd_case(f, "GPU-deadbeef", SEV_ERROR, "a UUID that matches no GPU");
	cvd_case(f, UUID1 ",GPU-deadbeef", SEV_WARNING, "a good UUID, then a bad one");
	cvd_case(f, "GPU-", SEV_ERROR, "a prefix that matches every GPU is ambiguous");
	cvd_case(f, UUID0 "," UUID0, SEV_WARNING, "a repeated UUID");
	cvd_case(f, "MIG-0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5", -1,
	    "MIG UUIDs cannot be checked and are accepted");
	cvd_case(f, "99999999999999999999", SEV_ERROR, "a huge index");

	/* The warning says which entries are ignored and what remains. */
	set_cvd(f, "0,7,1");
	run(f, &out);
	fd = findings_find(&out, FINDING_NO_VISIBLE_DEVICES);
	ok(fd != NULL && strstr(fd->detail, "entry 2 (7)") != NULL &&
	    strstr(fd->detail, "only 1 GPU remains visible") != NULL,
	    "the detail names the cut entry and the GPUs left");
	ok(fd != NULL && lines_have(&fd->fix, "unset CUDA_VISIBLE_DEVICES") &&
	    lines_have(&fd->fix, "export CUDA_VISIBLE_DEVICES=0"),
	    "the fix unsets it or keeps the valid entries");
	is_str(fd != NULL && fd->evidence.n > 0 ? fd->evidence.v[0] : NULL,
	    "CUDA_VISIBLE_DEVICES=0,7,1", "evidence starts with the value");

	set_cvd(f, "5");
	run(f, &out);
	fd = findings_find(&out, FINDING_NO_VISIBLE_DEVICES);
	ok(fd != NULL && lines_have(&fd->fix, "export CUDA_VISIBLE_DEVICES=0,1"),
	    "all hidden: the fix lists every GPU's index");
	set_cvd(f, "");
	run(f, &out);
	fd = findings_find(&out, FINDING_NO_VISIBLE_DEVICES);
	ok(fd != NULL && lines_have(&fd->evidence, "CUDA_VISIBLE_DEVICES=''"),
	    "an empty value is shown quoted");
	set_cvd(f, "0,$(reboot)");
	run(f, &out);
	fd = findings_find(&out, FINDING_NO_VISIBLE_DEVICES);
	ok(fd != NULL && lines_have(&fd->evidence, "CUDA_VISIBLE_DEVICES='0,$(reboot)'"),
	    "a value with shell syntax is quoted in evidence");

	/* UUIDs not all known: UUID entries cannot be judged. */
	fact_unknown(&f->gpus.v[1].uuid, "no information file");
	cvd_case(f, "GPU-deadbeef", -1, "UUIDs unknown: accepted");
	cvd_case(f, "7", SEV_ERROR, "the index is still judged");

	/* GPU count unknown: indexes are not judged. */
	fact_unreadable(&f->gpus_state, "/sys/bus/pci/devices: Permission denied");
	cvd_case(f, "7", -1, "bus unreadable: any index may be right");
	cvd_case(f, "-1", SEV_ERROR, "bus unreadable: -1 still hides all");
	cvd_case(f, "", SEV_ERROR, "bus unreadable: empty still hides all");
	fact_set(&f->gpus_state, "read", "/sys/bus/pci/devices");
	f->driver.is_wsl = true;
	cvd_case(f, "3", -1, "WSL: the PCI bus shows no GPUs, any index may be right");
	f->driver.is_wsl = false;

	/* Only GPUs bound to nvidia are visible to CUDA. */
	fact_set(&f->gpus.v[1].kernel_driver, "vfio-pci", "x");
	cvd_case(f, "1", SEV_ERROR, "index 1 is the GPU passed through to a VM");
	cvd_case(f, "0", -1, "index 0 is the one on nvidia");
	findings_free(&out);
	facts_free(f);
}

/* Issue 19: PCIe width, Xid severities, Secure Boot, the next boot. */
static size_t
run_hw(const struct facts *f, struct findings *out)
{
	findings_free(out);
	rules_hw(f, out);
	return out->n;
}

static void
test_hw(void)
{
	struct findings out = { NULL, 0, 0 };
	struct facts *f = healthy(1);
	struct gpu_fact *g = &f->gpus.v[0];
	struct driver_facts *d = &f->driver;
	struct xid_group *x;

	fact_set(&g->link_speed, "2.5 GT/s PCIe", "s");
	fact_set(&g->link_width, "16", "s");
	fact_set(&g->max_link_speed, "32.0 GT/s PCIe", "s");
	fact_set(&g->max_link_width, "16", "s");
	is_int(run_hw(f, &out), 0, "Gen1 at full width (idle): no finding");
	fact_set(&g->link_width, "1", "s");
	ok(run_hw(f, &out) == 1 && out.v[0].code == FINDING_PCIE_LINK_DEGRADED &&
	    out.v[0].severity == SEV_WARNING, "x1 of x16: PCIE_LINK_DEGRADED, a warning");
	fact_unknown(&g->max_link_width, "gone");
	is_int(run_hw(f, &out), 0, "an unknown maximum width: no finding");

	x = VEC_PUSH(&f->xids);
	x->pci = xstrdup("0000:01:00");
	x->code = 79;
	x->count = 2;
	x->last = xstrdup("NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.");
	x = VEC_PUSH(&f->xids);
	x->pci = xstrdup("0000:01:00");
	x->code = 13;
	x->count = 1;
	x->last = xstrdup("NVRM: Xid (PCI:0000:01:00): 13, Graphics Exception");
	x = VEC_PUSH(&f->xids);
	x->pci = xstrdup("0000:01:00");
	x->code = 9999;
	x->count = 1;
	x->last = xstrdup("NVRM: Xid (PCI:0000:01:00): 9999, new");
	ok(run_hw(f, &out) == 3 && out.v[0].severity == SEV_ERROR &&
	    out.v[1].severity == SEV_WARNING && out.v[2].severity == SEV_WARNING,
	    "Xid 79 an error, 13 and an unknown code warnings");
	ok(out.n > 0 && lines_have(&out.v[0].evidence, "fallen off the bus"),
	    "the last line is the evidence");

	/* Secure Boot on, module unsigned, nvidia not loaded. */
	fact_set(&d->nvidia_loaded, "no", "/sys/module/nvidia");
	fact_unknown(&d->module_version, "x");
	fact_unknown(&d->sys_module_version, "x");
	d->module_files.v[0].signed_state = 0;
	fact_set(&d->secure_boot, "yes", "efivars");
	ok(run(f, &out) == 1 && out.v[0].code == FINDING_SECURE_BOOT_BLOCKS_MODULE,
	    "Secure Boot + unsigned: SECURE_BOOT_BLOCKS_MODULE instead of DRIVER_NOT_LOADED");
	ok(out.n > 0 && lines_have(&out.v[0].fix, "mokutil --import"),
	    "the fix enrolls the key");
	d->module_files.v[0].signed_state = 1;
	ok(run(f, &out) == 1 && out.v[0].code == FINDING_DRIVER_NOT_LOADED,
	    "signed (key state unknown): just not loaded");
	fact_set(&d->secure_boot, "no", "efivars");
	d->module_files.v[0].signed_state = 0;
	ok(run(f, &out) == 1 && out.v[0].code == FINDING_DRIVER_NOT_LOADED,
	    "Secure Boot off: just not loaded");

	/* The next boot's kernel has no module; the running one has. */
	fact_set(&d->nvidia_loaded, "yes", "/sys/module/nvidia");
	strv_push(&d->kernels, "6.1.0-18-amd64");
	fact_set(&d->boot_kernel, "6.1.0-18-amd64", "newest");
	ok(run(f, &out) == 1 && out.v[0].code == FINDING_DKMS_MODULE_MISSING &&
	    out.v[0].severity == SEV_WARNING,
	    "next boot without a module: DKMS_MODULE_MISSING, a warning");
	ok(out.n > 0 && lines_have(&out.v[0].fix, "linux-headers-6.1.0-18-amd64"),
	    "the fix builds for the next boot's kernel");
	add_module(f, "6.1.0-18-amd64", "/lib/modules/6.1.0-18-amd64/updates/dkms/nvidia.ko");
	is_int(run(f, &out), 0, "with its module: no finding");
	findings_free(&out);
	facts_free(f);
}

int
main(void)
{
	test_healthy();
	test_no_gpu();
	test_not_loaded();
	test_nouveau();
	test_dkms();
	test_mismatch();
	test_visible();
	test_hw();
	return done_testing();
}
