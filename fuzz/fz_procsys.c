/* The /proc and /sys files (and the few system files beside them) the
 * GPU and driver probes read, through a scratch sysroot:
 * probe_gpus (pci.c: the hex attributes of a PCI device, the nvidia
 * driver's information file, the NVIDIA block of pci.ids) and
 * probe_driver (driver.c: the NVRM version line, the module's sysfs
 * version, the kernel release that names /lib/modules/RELEASE, that
 * kernel's modules.dep). ld.so.conf, whose directories the driver's
 * libraries are looked for in, is fixed here (fz_ldconf.c fuzzes it: its
 * lines cost a stat each, and made this target five times slower).
 *
 * Input: up to twelve files, cut at "\n---\n" (probefz.h):
 *   0  /proc/driver/nvidia/version
 *   1  /sys/module/nvidia/version
 *   2  /proc/sys/kernel/osrelease
 *   3  /proc/driver/nvidia/gpus/0000:01:00.0/information
 *   4  /sys/bus/pci/devices/0000:01:00.0/vendor
 *   5  /sys/bus/pci/devices/0000:01:00.0/device
 *   6  /sys/bus/pci/devices/0000:01:00.0/class
 *   7  /sys/bus/pci/devices/0000:01:00.0/subsystem_vendor
 *   8  /sys/bus/pci/devices/0000:01:00.0/subsystem_device
 *   9  /usr/share/misc/pci.ids
 *  10  /lib/modules/6.1.0-13-amd64/modules.dep
 *  11  the driver's supported-gpus.json (gpusupported.c)
 * The fixed tree: the device's driver link to nvidia, an Intel device
 * beside it, nvidia.ko under updates/dkms of that kernel, an ld.so.conf
 * naming /usr/lib/x86_64-linux-gnu, which holds a libcuda.
 *
 * Beyond "no crash" and the JSON check, what driver.c and pci.c promise
 * of a value they keep: a module version is a dotted version; a kernel
 * release is one clean token that cannot climb out of /lib/modules; a
 * GPU is an NVIDIA display device; a UUID is GPU- and 36 characters; a
 * name or driver holds no control character; module files lie under
 * /lib/modules; a chip is a letters-and-digits token, a compute
 * capability a dotted version, a legacy branch digits and dots. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probefz.h"
#include "util/version.h"

#define DEV	"sys/bus/pci/devices/0000:01:00.0"
#define KREL	"6.1.0-13-amd64"

static const char *const files[] = {
	"proc/driver/nvidia/version",
	"sys/module/nvidia/version",
	"proc/sys/kernel/osrelease",
	"proc/driver/nvidia/gpus/0000:01:00.0/information",
	DEV "/vendor",
	DEV "/device",
	DEV "/class",
	DEV "/subsystem_vendor",
	DEV "/subsystem_device",
	"usr/share/misc/pci.ids",
	"lib/modules/" KREL "/modules.dep",
	"usr/share/doc/NVIDIA_GLX-1.0/supported-gpus/supported-gpus.json",
};

static char *const envp[] = { NULL };

static void
setup(void)
{
	if (!pf_scratch())
		return;
	fz_put("sys/bus/pci/drivers/nvidia/.keep", "");
	/* Made before the link, so fz_write's parents exist. */
	fz_put(DEV "/enable", "1\n");
	pf_symlink("../../drivers/nvidia", DEV "/driver");
	fz_put("sys/bus/pci/devices/0000:00:02.0/vendor", "0x8086\n");
	fz_put("sys/bus/pci/devices/0000:00:02.0/class", "0x030000\n");
	fz_put("sys/bus/pci/devices/0000:00:02.0/device", "0x4680\n");
	fz_put("lib/modules/" KREL "/updates/dkms/nvidia.ko", "");
	fz_put("lib/modules/" KREL "/updates/dkms/nvidia-uvm.ko", "");
	fz_put("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
	fz_put("etc/ld.so.conf.d/x86_64-linux-gnu.conf",
	    "# multiarch support\n/usr/lib/x86_64-linux-gnu\n");
	fz_put("usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "");
}

static bool
clean(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static void
check_driver(const struct driver_facts *d)
{
	const struct fact_str *r = &d->kernel_release;

	if (fact_known(&d->module_version) &&
	    (!version_valid(d->module_version.value) ||
	    strchr(d->module_version.value, '.') == NULL))
		abort();
	if (fact_known(&d->sys_module_version) &&
	    !version_valid(d->sys_module_version.value))
		abort();
	if (fact_known(r) && (r->value[0] == '\0' || strlen(r->value) > 64 ||
	    strchr(r->value, '/') != NULL || strchr(r->value, ' ') != NULL ||
	    !clean(r->value) || strcmp(r->value, ".") == 0 ||
	    strcmp(r->value, "..") == 0))
		abort();
	for (size_t i = 0; i < d->module_files.n; i++)
		if (strncmp(d->module_files.v[i].path, "/lib/modules/", 13) != 0)
			abort();
}

static void
check_gpus(const struct facts *f)
{
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct gpu_fact *g = &f->gpus.v[i];

		if (g->vendor_id != 0x10de || (g->class_code >> 16) != 0x03)
			abort();
		if (fact_known(&g->uuid) && (strncmp(g->uuid.value, "GPU-", 4)
		    != 0 || strlen(g->uuid.value) != 40))
			abort();
		if (fact_known(&g->name) && (g->name.value[0] == '\0' ||
		    !clean(g->name.value)))
			abort();
		if (fact_known(&g->chip) && (g->chip.value[0] == '\0' ||
		    strspn(g->chip.value, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789") !=
		    strlen(g->chip.value)))
			abort();
		if (fact_known(&g->cc) && !version_valid(g->cc.value))
			abort();
		if (fact_known(&g->legacy_branch) &&
		    (g->legacy_branch.value[0] == '\0' ||
		    strspn(g->legacy_branch.value, "0123456789.") !=
		    strlen(g->legacy_branch.value)))
			abort();
		if (fact_known(&g->kernel_driver) &&
		    (strchr(g->kernel_driver.value, '/') != NULL ||
		    !clean(g->kernel_driver.value)))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_ctx ctx;

	setup();
	pf_place(files, sizeof files / sizeof files[0], data, size);
	ctx = pf_ctx(envp);
	probe_environ(&ctx);
	probe_gpus(&ctx);
	probe_driver(&ctx);
	check_driver(&ctx.facts->driver);
	check_gpus(ctx.facts);
	pf_check_report(ctx.facts);
	facts_free(ctx.facts);
	return 0;
}
