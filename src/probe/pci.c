/* The GPU probe: NVIDIA display-class devices on the PCI bus.
 *
 * Reads /sys/bus/pci/devices/<address>/{vendor,device,class,…}, keeps
 * vendor 0x10de with a class of 0x03xxxx (display; the same chips also
 * expose audio and USB functions, which are not GPUs), and names each one
 * from pci.ids, else from the loaded driver's /proc information file, else
 * by its raw id. Every file here can be anything in a fixture tree or on a
 * broken machine, so each read is capped and each value checked before it
 * becomes a fact. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "i18n.h"
#include "probe/gpuarch.h"
#include "probe/gpusupported.h"
#include "probe/pciids.h"
#include "probe/probe.h"
#include "util/strbuf.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define NV_PROC_GPUS	"/proc/driver/nvidia/gpus"
#define NVIDIA_VENDOR	0x10deu

/* sysfs attribute files hold one short line; anything larger is not one. */
#define SYSFS_CAP	4096
/* The driver's information file is a dozen short lines. */
#define INFO_CAP	(16 * 1024)
/* A device name longer than this is not one from a sane database. */
#define NAME_MAX_LEN	256

/*
 * Parses a sysfs hex attribute ("0x10de\n"): optional 0x, 1 to 8 hex
 * digits, optional trailing newline. Returns false on anything else.
 */
static bool
parse_hex(const char *s, size_t len, unsigned *out)
{
	unsigned long v = 0;
	size_t i = 0, digits = 0;

	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	for (; i < len; i++, digits++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (digits == 8)
			return false;
		v = v * 16 + d;
	}
	if (digits == 0)
		return false;
	*out = (unsigned)v;
	return true;
}

/*
 * Reads dir/attr as a hex number. On failure notes why and returns false;
 * a missing file is noted too, because every PCI device directory has
 * these attributes.
 */
static bool
read_hex_attr(struct probe_ctx *ctx, const char *dir, const char *attr,
    unsigned *out)
{
	char *path = xasprintf("%s/%s", dir, attr);
	char *data = NULL;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, path, SYSFS_CAP, &data, &len);
	bool good = false;

	if (rc != 0)
		facts_note(ctx->facts, path, _("cannot read: %s"),
		    sysroot_strerror(rc));
	else if (!parse_hex(data, len, out))
		facts_note(ctx->facts, path, _("not a hexadecimal PCI id"));
	else
		good = true;
	free(data);
	free(path);
	return good;
}

/* The bound driver: the basename of the "driver" link. */
static void
probe_kernel_driver(struct probe_ctx *ctx, const char *dir, struct gpu_fact *g)
{
	char *path = xasprintf("%s/driver", dir);
	char *target = NULL;
	const char *base;
	struct stat st;
	int rc = sysroot_readlink(ctx->sr, path, &target);

	if (rc == ENOENT) {
		fact_absent(&g->kernel_driver, path);
		goto out;
	}
	if (rc != 0) {
		/* EINVAL: something that is not a link sits there. */
		fact_unreadable(&g->kernel_driver, _("%s: %s"), path,
		    sysroot_strerror(rc));
		facts_note(ctx->facts, path, _("cannot read the link: %s"),
		    sysroot_strerror(rc));
		goto out;
	}
	base = strrchr(target, '/');
	base = base != NULL ? base + 1 : target;
	if (*base == '\0' || strlen(base) > 64 || !text_is_clean(base, strlen(base)) ||
	    strchr(base, ' ') != NULL) {
		fact_unreadable(&g->kernel_driver, _("%s: not a driver name"), path);
		facts_note(ctx->facts, path, _("the link target is not a driver name"));
		goto out;
	}
	/*
	 * The kernel names the driver in the link; where it leads only has to
	 * exist on a real sysfs. A link that leads nowhere is noted but still
	 * names the driver; a loop or worse names nothing reliable.
	 */
	rc = sysroot_stat(ctx->sr, path, &st);
	if (rc != 0 && rc != ENOENT) {
		fact_unreadable(&g->kernel_driver, _("%s -> %s: %s"), path,
		    target, sysroot_strerror(rc));
		facts_note(ctx->facts, path, _("cannot follow the link to %s: %s"),
		    target, sysroot_strerror(rc));
		goto out;
	}
	if (rc == ENOENT)
		facts_note(ctx->facts, path, _("the link to %s is broken: %s"),
		    target, sysroot_strerror(rc));
	fact_set(&g->kernel_driver, base, path);
out:
	free(target);
	free(path);
}

/* One PCIe link attribute ("16.0 GT/s PCIe", "16"), as the kernel
 * writes it. Absent on a bus that is not PCIe, so unknown, not a note. */
static void
read_link_attr(struct probe_ctx *ctx, const char *dir, const char *attr,
    struct fact_str *f)
{
	char *path = xasprintf("%s/%s", dir, attr), *data = NULL;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, path, SYSFS_CAP, &data, &len);

	if (rc != 0) {
		fact_unknown(f, _("%s: %s"), path, sysroot_strerror(rc));
	} else {
		while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == ' '))
			data[--len] = '\0';
		if (len == 0 || len > 32 || strlen(data) != len ||
		    !text_is_clean(data, len))
			fact_unreadable(f, _("%s: not a link speed or width"), path);
		else
			fact_set(f, data, path);
	}
	free(data);
	free(path);
}

static void
probe_link(struct probe_ctx *ctx, const char *dir, struct gpu_fact *g)
{
	read_link_attr(ctx, dir, "current_link_speed", &g->link_speed);
	read_link_attr(ctx, dir, "current_link_width", &g->link_width);
	read_link_attr(ctx, dir, "max_link_speed", &g->max_link_speed);
	read_link_attr(ctx, dir, "max_link_width", &g->max_link_width);
}

/* The value of "Key: value" in the information file, or NULL. */
static char *
info_value(const char *data, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = data; line != NULL && *line != '\0';) {
		const char *nl = strchr(line, '\n');
		const char *eol = nl != NULL ? nl : line + strlen(line);

		if ((size_t)(eol - line) > klen && strncmp(line, key, klen) == 0 &&
		    line[klen] == ':') {
			const char *v = line + klen + 1;
			size_t n;

			while (v < eol && (*v == ' ' || *v == '\t'))
				v++;
			n = (size_t)(eol - v);
			while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' ||
			    v[n - 1] == '\r'))
				n--;
			if (n == 0 || n > NAME_MAX_LEN || !text_is_clean(v, n))
				return NULL;
			return xstrndup(v, n);
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	return NULL;
}

/* "GPU-" and 36 characters of hex digits and dashes. */
static bool
uuid_valid(const char *s)
{
	size_t n;

	if (strncmp(s, "GPU-", 4) != 0)
		return false;
	n = strlen(s + 4);
	return n == 36 && strspn(s + 4, "0123456789abcdefABCDEF-") == n;
}

/*
 * The loaded driver's view of one GPU: model name and UUID. Missing when
 * the nvidia module is not loaded, which is not a problem to note.
 */
static void
probe_nvidia_info(struct probe_ctx *ctx, struct gpu_fact *g, char **model,
    char **model_src)
{
	char *path = xasprintf("%s/%s/information", NV_PROC_GPUS, g->pci_address);
	char *data = NULL, *uuid;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, path, INFO_CAP, &data, &len);

	if (rc == ENOENT || rc == ENOTDIR) {
		fact_unknown(&g->uuid, _("%s does not exist (the nvidia module "
		    "reports UUIDs there)"), path);
		free(path);
		return;
	}
	if (rc != 0) {
		fact_unreadable(&g->uuid, _("%s: %s"), path, sysroot_strerror(rc));
		facts_note(ctx->facts, path, _("cannot read: %s"),
		    sysroot_strerror(rc));
		free(path);
		return;
	}
	if (strlen(data) != len) {
		fact_unreadable(&g->uuid, _("%s: holds binary data"), path);
		facts_note(ctx->facts, path, _("holds binary data; ignored"));
		free(data);
		free(path);
		return;
	}
	uuid = info_value(data, "GPU UUID");
	if (uuid != NULL && uuid_valid(uuid)) {
		fact_set_owned(&g->uuid, uuid, path);
	} else {
		fact_unknown(&g->uuid, _("%s has no valid \"GPU UUID:\" line"),
		    path);
		free(uuid);
	}
	*model = info_value(data, "Model");
	if (*model != NULL)
		*model_src = xstrdup(path);
	free(data);
	free(path);
}

/* What the driver's /proc file says of each GPU, until naming. */
struct seen {
	char	*model, *model_src;
};

static void
probe_one(struct probe_ctx *ctx, const char *addr, struct seen **seen,
    size_t *nseen)
{
	char *dir = xasprintf("%s/%s", PCI_DEVICES, addr);
	unsigned vendor, class_code, device;
	struct gpu_fact *g;
	struct seen *s;

	/* Vendor first: most devices stop here after one small read. */
	if (!read_hex_attr(ctx, dir, "vendor", &vendor) || vendor != NVIDIA_VENDOR)
		goto out;
	if (!read_hex_attr(ctx, dir, "class", &class_code) ||
	    (class_code >> 16) != 0x03)
		goto out;
	if (!read_hex_attr(ctx, dir, "device", &device))
		goto out;
	g = VEC_PUSH(&ctx->facts->gpus);
	g->pci_address = xstrdup(addr);
	g->vendor_id = vendor;
	g->device_id = device;
	g->class_code = class_code;
	/* Subsystem ids only describe the board; a bad one keeps the GPU. */
	if (!read_hex_attr(ctx, dir, "subsystem_vendor", &g->subsys_vendor_id))
		g->subsys_vendor_id = 0;
	if (!read_hex_attr(ctx, dir, "subsystem_device", &g->subsys_device_id))
		g->subsys_device_id = 0;
	probe_kernel_driver(ctx, dir, g);
	probe_link(ctx, dir, g);
	*seen = xreallocarray(*seen, *nseen + 1, sizeof **seen);
	s = &(*seen)[(*nseen)++];
	s->model = s->model_src = NULL;
	probe_nvidia_info(ctx, g, &s->model, &s->model_src);
out:
	free(dir);
}

/* The chip, architecture and compute capability from the pci.ids name. */
static void
identify(struct gpu_fact *g, const char *pci_name, const char *ids_path)
{
	char token[32];
	const struct gpu_chip *row;
	char *src;

	if (pci_name == NULL || !gpuarch_chip_token(pci_name, token, sizeof token)) {
		const char *why = ids_path == NULL ?
		    _("no pci.ids names this GPU's chip") :
		    pci_name == NULL ? _("pci.ids does not list this PCI id") :
		    _("the pci.ids name starts with no chip name");

		fact_unknown(&g->chip, "%s", why);
		fact_unknown(&g->arch, "%s", why);
		fact_unknown(&g->cc, "%s", why);
		return;
	}
	fact_set(&g->chip, token, ids_path);
	row = gpuarch_lookup(token);
	if (row == NULL) {
		fact_unknown(&g->arch, _("the chip table does not know %s"), token);
		fact_unknown(&g->cc, _("the chip table does not know %s"), token);
		return;
	}
	src = xasprintf(row->uncertain ? _("pci.ids %s + chip table (inferred)") :
	    _("pci.ids %s + chip table"), token);
	fact_set(&g->arch, row->arch, src);
	fact_set(&g->cc, row->cc, src);
	free(src);
}

/*
 * Names every GPU found: the system's pci.ids (one pass for all), else
 * the loaded driver's information file, else the driver's
 * supported-gpus.json, else the built-in pci.ids table, else the raw
 * id; and sets chip, architecture, compute capability and
 * legacy branch.
 */
static void
name_gpus(struct probe_ctx *ctx, struct seen *seen)
{
	struct facts *f = ctx->facts;
	size_t n = f->gpus.n;
	unsigned *ids = xcalloc(n, sizeof *ids);
	char **names = xcalloc(n, sizeof *names);
	char **sg_names = xcalloc(n, sizeof *sg_names);
	char *ids_path, *sg_path;
	bool builtin;

	for (size_t i = 0; i < n; i++)
		ids[i] = f->gpus.v[i].device_id;
	ids_path = pciids_nvidia_names(ctx, ids, n, names);
	sg_path = gpusupported_read(ctx, sg_names);
	/* The built-in table is older than the driver's own files: it
	 * names the chip, and the GPU only where they do not. */
	builtin = ids_path != NULL && strcmp(ids_path, PCIIDS_BUILTIN) == 0;
	for (size_t i = 0; i < n; i++) {
		struct gpu_fact *g = &f->gpus.v[i];

		identify(g, names[i], ids_path);
		if (names[i] != NULL && (!builtin || (seen[i].model == NULL &&
		    sg_names[i] == NULL))) {
			fact_set_owned(&g->name, names[i], ids_path);
			names[i] = NULL;
		} else if (seen[i].model != NULL) {
			fact_set(&g->name, seen[i].model, seen[i].model_src);
		} else if (sg_names[i] != NULL) {
			fact_set(&g->name, sg_names[i], sg_path);
		} else {
			fact_set_owned(&g->name, xasprintf("%04x:%04x",
			    g->vendor_id, g->device_id), "raw");
		}
		free(names[i]);
		free(sg_names[i]);
	}
	free(ids_path);
	free(sg_path);
	free(names);
	free(sg_names);
	free(ids);
}

void
probe_gpus(struct probe_ctx *ctx)
{
	struct strv names = STRV_INIT;
	struct seen *seen = NULL;
	size_t nseen = 0;
	int rc = sysroot_list_dir(ctx->sr, PCI_DEVICES, &names);

	if (rc == ENOENT) {
		/* No sysfs at all: a container without it, or a fixture. */
		fact_unknown(&ctx->facts->gpus_state, _("%s does not exist"),
		    PCI_DEVICES);
		goto out;
	}
	if (rc != 0) {
		fact_unreadable(&ctx->facts->gpus_state, _("%s: %s"), PCI_DEVICES,
		    sysroot_strerror(rc));
		goto out;
	}
	fact_set(&ctx->facts->gpus_state, "read", PCI_DEVICES);
	for (size_t i = 0; i < names.n; i++)
		probe_one(ctx, names.v[i], &seen, &nseen);
	/* No GPU: pci.ids and the driver's list are not read at all. */
	if (ctx->facts->gpus.n > 0)
		name_gpus(ctx, seen);
out:
	for (size_t i = 0; i < nseen; i++) {
		free(seen[i].model);
		free(seen[i].model_src);
	}
	free(seen);
	strv_free(&names);
}
