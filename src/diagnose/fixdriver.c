/* Driver advice that fits where it runs; see fixdriver.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixdriver.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/version.h"
#include "util/xalloc.h"

static void
comment(struct finding *f, const char *text)
{
	strv_pushf(&f->fix, "# %s", text);
}

static void
line(struct finding *f, char *owned)
{
	if (strv_contains(&f->fix, owned))
		free(owned);
	else
		strv_push_owned(&f->fix, owned);
}

static unsigned
branch_num(const char *driver)
{
	return driver != NULL ? version_major_str(driver) : 0;
}

enum fd_place
fd_place(const struct facts *facts)
{
	const struct driver_facts *d = &facts->driver;

	/* A container inside WSL still gets its driver from outside it:
	 * the container comes first. */
	if (d->docker || d->podman || d->kubernetes || d->apptainer ||
	    d->container_env != NULL)
		return FD_CONTAINER;
	if (d->is_wsl)
		return FD_WSL;
	return FD_HOST;
}

void
fd_place_evidence(struct finding *f, const struct facts *facts)
{
	const struct driver_facts *d = &facts->driver;

	if (d->docker)
		strv_push(&f->evidence, _("/.dockerenv: this is a Docker container"));
	if (d->podman)
		strv_push(&f->evidence,
		    _("/run/.containerenv: this is a Podman container"));
	if (d->kubernetes)
		strv_push(&f->evidence, _("KUBERNETES_SERVICE_HOST or "
		    "/var/run/secrets/kubernetes.io: this runs in a Kubernetes pod"));
	if (d->apptainer)
		strv_push(&f->evidence, _("/.singularity.d or APPTAINER_CONTAINER: "
		    "this is an Apptainer/Singularity container"));
	if (d->container_env != NULL)
		strv_pushf(&f->evidence, _("container=%s: this is a container"),
		    d->container_env);
	if (fd_place(facts) == FD_WSL)
		strv_push(&f->evidence, _("this is WSL: the GPU driver is the "
		    "Windows one"));
}

/* How the container must be started to get the host's GPU and driver. */
void
fd_container_start(struct finding *f, const struct facts *facts)
{
	const struct driver_facts *d = &facts->driver;
	bool any = false;

	if (d->kubernetes) {
		comment(f, _("in Kubernetes: request the GPU in the pod's "
		    "resources.limits as nvidia.com/gpu: 1; the cluster needs "
		    "NVIDIA's device plugin or GPU Operator"));
		any = true;
	}
	if (d->apptainer) {
		comment(f, _("start the Apptainer/Singularity container with the "
		    "host's driver bound in:"));
		line(f, xstrdup("apptainer exec --nv IMAGE.sif COMMAND"));
		any = true;
	}
	if (d->podman) {
		comment(f, _("start the Podman container with the GPU (CDI, from "
		    "the NVIDIA Container Toolkit on the host):"));
		line(f, xstrdup("podman run --device nvidia.com/gpu=all IMAGE"));
		any = true;
	}
	if (d->docker || !any) {
		comment(f, _("start the container with the GPU (the NVIDIA "
		    "Container Toolkit on the host provides it):"));
		line(f, xstrdup("docker run --gpus all IMAGE"));
	}
}

static void
container_advice(struct finding *f, const struct facts *facts, const char *min)
{
	if (min != NULL)
		strv_pushf(&f->fix, _("# this is a container: the driver belongs "
		    "on the host, never inside it; install or update the host's "
		    "NVIDIA driver (%s or newer)"), min);
	else
		comment(f, _("this is a container: the driver belongs on the "
		    "host, never inside it; install it there, and check it on the "
		    "host with nvidia-smi"));
	fd_container_start(f, facts);
}

static void
wsl_advice(struct finding *f, const char *min)
{
	if (min != NULL)
		strv_pushf(&f->fix, _("# this is WSL: install or update the NVIDIA "
		    "driver on Windows (%s or newer); it provides /usr/lib/wsl/lib. "
		    "Never install a Linux NVIDIA driver inside WSL"), min);
	else
		comment(f, _("this is WSL: install or update the NVIDIA driver on "
		    "Windows; it provides /usr/lib/wsl/lib. Never install a Linux "
		    "NVIDIA driver inside WSL"));
}

/* One GPU's last branch: the installed driver's supported-gpus.json
 * (legacy_branch) first, it knows the exact GPU; else the catalogue's row
 * of its architecture, by compute capability. */
static const char *
gpu_last_branch(const struct gpu_fact *g, const struct matrix *m)
{
	const struct matrix_architecture *a;

	if (fact_known(&g->legacy_branch))
		return g->legacy_branch.value;
	if (!fact_known(&g->cc) || m == NULL)
		return NULL;
	a = matrix_architecture(m, g->cc.value);
	return a != NULL ? a->last_driver_branch : NULL;
}

const char *
fd_gpu_last_branch(const struct facts *facts, const struct matrix *m,
    const struct gpu_fact **which)
{
	const char *best = NULL;

	if (which != NULL)
		*which = NULL;
	for (size_t i = 0; i < facts->gpus.n; i++) {
		const char *b = gpu_last_branch(&facts->gpus.v[i], m);

		/* Several GPUs: the oldest one bounds the driver. */
		if (b != NULL && (best == NULL || branch_num(b) < branch_num(best))) {
			best = b;
			if (which != NULL)
				*which = &facts->gpus.v[i];
		}
	}
	return best;
}

/* Whether an apt row is for Ubuntu (or names no distribution). */
static bool
on_ubuntu(const struct matrix_published *p)
{
	if (p->distros.n == 0)
		return true;
	for (size_t i = 0; i < p->distros.n; i++)
		if (strncmp(p->distros.v[i], "ubuntu", 6) == 0)
			return true;
	return false;
}

/* The lowest branch at or above need and at or below last (0: no bound)
 * whose Ubuntu package nvidia-driver-NNN the catalogue holds; 0 when
 * none does. The -open and -server flavours are left out: the plain
 * package is the one every branch has. */
static unsigned
ubuntu_branch(const struct matrix *m, unsigned need, unsigned last)
{
	unsigned best = 0;

	for (size_t i = 0; i < matrix_published_count(m); i++) {
		const struct matrix_published *p = matrix_published_at(m, i);
		unsigned b;
		char tail;

		if (strcmp(p->channel, "apt") != 0 || !on_ubuntu(p) ||
		    sscanf(p->package, "nvidia-driver-%u%c", &b, &tail) != 1)
			continue;
		if (b >= need && (last == 0 || b <= last) &&
		    (best == 0 || b < best))
			best = b;
	}
	return best;
}

static bool
linux_driver_installed(const struct facts *facts)
{
	for (size_t i = 0; i < facts->driver.libs.n; i++)
		if (!facts->driver.libs.v[i].wsl)
			return true;
	return false;
}

static const char *userspace_version(const struct facts *facts);

bool
fd_would_install(const struct facts *facts, const char *min)
{
	const char *src, *drv = diagnose_driver_version(facts, &src);
	struct version dv, mv;

	if (drv == NULL)
		return true;
	if (min == NULL)
		return !linux_driver_installed(facts);
	return !(version_parse(drv, &dv) && version_parse(min, &mv) &&
	    version_cmp(&dv, &mv) >= 0);
}

static void
install(struct finding *f, const struct facts *facts,
    const struct matrix *m, const char *min, const char *cuda)
{
	const char *src, *drv = diagnose_driver_version(facts, &src);
	const struct gpu_fact *g = NULL;
	const char *last = fd_gpu_last_branch(facts, m, &g);
	unsigned need = branch_num(min), pick;

	switch (fd_place(facts)) {
	case FD_CONTAINER:
		container_advice(f, facts, min);
		return;
	case FD_WSL:
		wsl_advice(f, min);
		return;
	case FD_HOST:
		break;
	}
	if (!fd_would_install(facts, min)) {
		strv_pushf(&f->fix, _("# the installed driver (%s) already runs "
		    "it: nothing to install"), drv);
		return;
	}
	if (last != NULL && need > branch_num(last)) {
		const struct matrix_architecture *a = fact_known(&g->cc) &&
		    m != NULL ? matrix_architecture(m, g->cc.value) : NULL;
		const char *arch = fact_known(&g->arch) ? g->arch.value :
		    a != NULL && a->name != NULL ? a->name : "?";
		char *what = cuda != NULL ? xasprintf(" (CUDA %s)", cuda) :
		    xstrdup("");

		strv_pushf(&f->fix, _("# old GPU: %s (%s, compute capability %s) "
		    "is supported by driver branches up to %s only, and what is "
		    "asked for needs driver %s or newer%s: no driver runs both. "
		    "Use a framework build for the older CUDA that branch %s "
		    "runs, or newer hardware"),
		    fact_known(&g->name) ? g->name.value : g->pci_address,
		    arch, fact_known(&g->cc) ? g->cc.value : "?", last,
		    min, what, last);
		free(what);
		return;
	}
	/* No minimum: name a branch only when the GPU limits it. */
	pick = need > 0 ? ubuntu_branch(m, need, branch_num(last)) :
	    last != NULL ? ubuntu_branch(m, branch_num(last), branch_num(last)) : 0;
	if (last != NULL)
		strv_pushf(&f->fix, _("# this GPU's last driver branch is %s: "
		    "newer drivers do not run it"), last);
	if (pick != 0) {
		comment(f, _("install a driver that runs it (Ubuntu; then reboot):"));
		line(f, xasprintf("sudo apt-get install nvidia-driver-%u", pick));
	} else if (need > 0) {
		/* No package of that branch is known: words, not a guess. */
		strv_pushf(&f->fix, _("# it needs driver %s or newer (branch %u); "
		    "no Ubuntu package of that branch is known to cudawiz: take it "
		    "from NVIDIA (https://www.nvidia.com/Download/index.aspx) or "
		    "your distribution's newest driver, then reboot"), min, need);
	}
	if (last == NULL) {
		char *floor = xasprintf("%u", need);

		comment(f, _("or let Ubuntu pick the recommended one:"));
		line(f, xstrdup("sudo ubuntu-drivers install"));
		/* Debian's one package is as old as its release: only where
		 * some release's is new enough. */
		if (matrix_published_has(m, "apt", "nvidia-driver", NULL,
		    need > 0 ? floor : NULL, NULL) == MATRIX_YES) {
			comment(f, _("Debian (contrib and non-free enabled) has one "
			    "driver package per release:"));
			line(f, xstrdup("sudo apt-get install nvidia-driver"));
		}
		free(floor);
	}
}

void
fd_install(struct finding *f, const struct facts *facts,
    const struct matrix *m, const char *min, const char *cuda)
{
	/* Rules that run without the run's matrix still name only packages
	 * the catalogue holds: the built-in one's. */
	struct matrix *builtin = m == NULL ? matrix_embedded() : NULL;

	install(f, facts, m != NULL ? m : builtin, min, cuda);
	matrix_free(builtin);
}

void
fd_reinstall(struct finding *f, const struct facts *facts,
    const struct matrix *m, const char *version)
{
	const char *drv = version != NULL ? version : userspace_version(facts);

	switch (fd_place(facts)) {
	case FD_CONTAINER:
		container_advice(f, facts, NULL);
		return;
	case FD_WSL:
		wsl_advice(f, NULL);
		return;
	case FD_HOST:
		break;
	}
	if (drv != NULL && m != NULL &&
	    ubuntu_branch(m, branch_num(drv), 0) == branch_num(drv)) {
		comment(f, _("reinstall the driver's packages (Ubuntu):"));
		line(f, xasprintf("sudo apt-get install --reinstall "
		    "nvidia-driver-%u", branch_num(drv)));
	}
	comment(f, _("Debian:"));
	line(f, xstrdup("sudo apt-get install --reinstall nvidia-driver"));
}

/* The version of the installed userspace driver, for DKMS. */
static const char *
userspace_version(const struct facts *facts)
{
	for (size_t i = 0; i < facts->driver.libs.n; i++) {
		const struct driver_lib *l = &facts->driver.libs.v[i];

		if (!l->wsl && l->version != NULL && strcmp(l->name, "libcuda") == 0 &&
		    version_valid(l->version))
			return l->version;
	}
	return NULL;
}

/*
 * Whether kernel has an nvidia module of the installed driver: a module
 * file under /lib/modules/KERNEL, and, where DKMS built modules for it,
 * one built from the userspace version. Unknown counts as yes: a fix is
 * only added for what was seen to be missing.
 */
static bool
kernel_ready(const struct facts *facts, const char *kernel)
{
	const struct driver_facts *d = &facts->driver;
	const char *ver = userspace_version(facts);
	bool file = false, dkms_any = false, dkms_ver = false;

	if (kernel == NULL || !strv_contains(&d->kernels, kernel))
		return true;
	for (size_t i = 0; i < d->module_files.n; i++)
		if (strcmp(d->module_files.v[i].kernel, kernel) == 0)
			file = true;
	for (size_t i = 0; i < d->dkms.n; i++) {
		if (strcmp(d->dkms.v[i].kernel, kernel) != 0)
			continue;
		dkms_any = true;
		if (ver != NULL && strcmp(d->dkms.v[i].version, ver) == 0)
			dkms_ver = true;
	}
	if (!file && !dkms_any)
		return false;
	return ver == NULL || !dkms_any || dkms_ver;
}

void
fd_build_module(struct finding *f, const struct facts *facts,
    const char *kernel)
{
	const struct driver_facts *d = &facts->driver;
	const char *ver = userspace_version(facts), *module = NULL;
	char *qk = shquote_new(kernel);

	for (size_t i = 0; i < d->dkms.n && ver != NULL && module == NULL; i++)
		if (strcmp(d->dkms.v[i].version, ver) == 0)
			module = d->dkms.v[i].module;
	line(f, xasprintf("sudo apt-get install linux-headers-%s", qk));
	if (module != NULL)
		line(f, xasprintf("sudo dkms install %s/%s -k %s", module, ver, qk));
	else
		line(f, xasprintf("sudo dkms autoinstall -k %s", qk));
	free(qk);
}

/* Whether the fix already builds the module for kernel. */
static bool
builds_for(const struct finding *f, const char *kernel)
{
	char *qk = shquote_new(kernel);
	char *l = xasprintf("sudo apt-get install linux-headers-%s", qk);
	bool has = strv_contains(&f->fix, l);

	free(l);
	free(qk);
	return has;
}

void
fd_reboot(struct finding *f, const struct facts *facts)
{
	const struct fact_str *bk = &facts->driver.boot_kernel;

	switch (fd_place(facts)) {
	case FD_CONTAINER:
		comment(f, _("this is a container: reboot the host, not the "
		    "container"));
		return;
	case FD_WSL:
		comment(f, _("this is WSL: restart it from Windows (PowerShell):"));
		line(f, xstrdup("wsl.exe --shutdown"));
		return;
	case FD_HOST:
		break;
	}
	if (fact_known(bk) && !kernel_ready(facts, bk->value) &&
	    !builds_for(f, bk->value)) {
		const char *ver = userspace_version(facts);

		strv_pushf(&f->fix, _("# the kernel the next boot runs (%s, from "
		    "%s) has no nvidia module of driver %s: build it first, or "
		    "the reboot comes up without a driver:"), bk->value,
		    bk->source, ver != NULL ? ver : "?");
		fd_build_module(f, facts, bk->value);
	}
	line(f, xstrdup("sudo reboot"));
}

void
fd_modprobe(struct finding *f, const struct facts *facts)
{
	const struct fact_str *rk = &facts->driver.kernel_release;

	switch (fd_place(facts)) {
	case FD_CONTAINER:
		comment(f, _("this is a container: the nvidia module is loaded "
		    "on the host (sudo modprobe nvidia there), never inside"));
		fd_container_start(f, facts);
		return;
	case FD_WSL:
		comment(f, _("this is WSL: there is no Linux nvidia module to "
		    "load; the Windows driver serves the GPU"));
		return;
	case FD_HOST:
		break;
	}
	if (fact_known(rk) && !kernel_ready(facts, rk->value) &&
	    !builds_for(f, rk->value)) {
		strv_pushf(&f->fix, _("# the running kernel (%s) has no nvidia "
		    "module of the installed driver: build it first:"), rk->value);
		fd_build_module(f, facts, rk->value);
	}
	line(f, xstrdup("sudo modprobe nvidia"));
}

void
fd_reload(struct finding *f, const struct facts *facts, bool uvm_only)
{
	const struct fact_str *rk = &facts->driver.kernel_release;

	if (fd_place(facts) != FD_HOST) {
		fd_modprobe(f, facts);
		return;
	}
	if (fact_known(rk) && !kernel_ready(facts, rk->value) &&
	    !builds_for(f, rk->value)) {
		strv_pushf(&f->fix, _("# the running kernel (%s) has no nvidia "
		    "module of the installed driver: build it first:"), rk->value);
		fd_build_module(f, facts, rk->value);
	}
	line(f, xstrdup(uvm_only ?
	    "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm" :
	    "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && "
	    "sudo modprobe nvidia"));
}

void
fd_ldconfig(struct finding *f)
{
	/* Once after the change it follows; an ldconfig earlier in the fix
	 * ran before this change and does not count. */
	if (f->fix.n > 0 && strcmp(f->fix.v[f->fix.n - 1], "sudo ldconfig") == 0)
		return;
	strv_push(&f->fix, "sudo ldconfig");
}

bool
fd_ldconfig_caches(const char *name)
{
	const char *so = name != NULL ? strstr(name, ".so.") : NULL;

	return so != NULL && so[4] >= '0' && so[4] <= '9';
}

/* The newest change ldconfig would read for copy: the link, its file,
 * its directory, and the ld.so.conf file that lists the directory. */
static long long
ldc_changed(const struct facts *facts, const struct lib_copy *copy)
{
	long long t = copy->changed;
	char *dir = path_dirname(copy->path);

	for (size_t i = 0; i < facts->env.ldconf.n; i++) {
		const struct ldconf_dir *d = &facts->env.ldconf.v[i];

		if (path_same(d->dir, dir) && d->from_mtime > t)
			t = d->from_mtime;
	}
	free(dir);
	return t;
}

enum fd_ldc
fd_ldconfig_effect(const struct facts *facts, const char *name,
    const struct lib_copy *copy)
{
	if (!fd_ldconfig_caches(name))
		return FD_LDC_NEVER;
	if (copy == NULL)
		return FD_LDC_CHANGES;
	/* ldconfig files a library under its own SONAME, whatever the
	 * file or link is called. */
	if (copy->soname != NULL && strcmp(copy->soname, name) != 0)
		return FD_LDC_NEVER;
	if (copy->cached && copy->changed > 0 &&
	    facts->env.ldcache_mtime > 0 &&
	    facts->env.ldcache_mtime >= ldc_changed(facts, copy))
		return FD_LDC_CURRENT;
	return FD_LDC_CHANGES;
}

bool
fd_ldconfig_for(struct finding *f, const struct facts *facts,
    const char *name, const struct lib_copy *copy)
{
	switch (fd_ldconfig_effect(facts, name, copy)) {
	case FD_LDC_CHANGES:
		fd_ldconfig(f);
		return true;
	case FD_LDC_CURRENT:
		strv_pushf(&f->fix, _("# the cache already lists %s as %s and is "
		    "newer than it: running ldconfig changes nothing"), name,
		    copy->path);
		return false;
	case FD_LDC_NEVER:
		if (copy != NULL && copy->soname != NULL &&
		    fd_ldconfig_caches(name))
			strv_pushf(&f->fix, _("# ldconfig files %s under its SONAME "
			    "%s, never as %s: running it changes nothing"),
			    copy->path, copy->soname, name);
		else
			strv_pushf(&f->fix, _("# ldconfig never puts %s (a name "
			    "without a version) in its cache, so running it "
			    "changes nothing"), name);
		return false;
	}
	return false;
}
