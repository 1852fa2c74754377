/* The driver probe: the NVIDIA kernel module, the userspace driver
 * libraries, the kernel module files on disk, and the platform around them
 * (WSL, containers, Colab-like runtimes).
 *
 * The files read here are /proc and /sys attributes that hold one short
 * line on a sane machine; on a broken one (or in a fixture tree) they can
 * hold anything, so each read is capped and each value checked before it
 * becomes a fact. What fails becomes a fact's reason and a note. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/envp.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

#define OSRELEASE	"/proc/sys/kernel/osrelease"
#define NV_PROC_DIR	"/proc/driver/nvidia"
#define NV_PROC_VERSION	"/proc/driver/nvidia/version"
#define SYS_MODULE	"/sys/module"
#define NV_SYS_VERSION	"/sys/module/nvidia/version"
#define MODULES_DIR	"/lib/modules"
#define WSL_LIB_DIR	"/usr/lib/wsl/lib"
#define DKMS_DIR	"/var/lib/dkms"
#define GRUBENV		"/boot/grub/grubenv"
/* PID 1's environment: container= is set there by LXC, systemd-nspawn
 * and Podman; a few KiB on a real system. */
#define PID1_ENVIRON	"/proc/1/environ"
/* grubenv is one 1 KiB block. */
#define GRUBENV_CAP	4096
/* Directories of /var/lib/dkms looked at, all levels together: a real
 * one holds a few versions times a few kernels. */
#define DKMS_BUDGET	2000

/* One-line /proc and /sys files; the real ones are well under 1 KiB. */
#define SMALL_CAP	4096
/* modules.dep is a few hundred KiB for a distribution kernel. */
#define MODULES_DEP_CAP	(16 * 1024 * 1024)
/* The bounded search for module files when modules.dep is missing. */
#define WALK_DEPTH	4
#define WALK_BUDGET	20000
/* Linux's own limit for a release string is 64 characters. */
#define RELEASE_MAX	64

/* Searched after the ld.so.conf directories, in this order. */
static const char *const default_lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
	"/usr/lib64",
	"/usr/lib",
	"/lib/x86_64-linux-gnu",
	"/lib64",
	"/lib",
	WSL_LIB_DIR,
	"/usr/lib64-nvidia",
	"/usr/local/nvidia/lib64",
};

/* Where distributions and DKMS put out-of-tree modules. */
static const char *const module_subdirs[] = {
	"updates",
	"extra",
	"misc",
	"kernel/drivers/video",
};

static const char *const ko_suffixes[] = {
	".ko", ".ko.xz", ".ko.zst", ".ko.gz",
};

/* Printable ASCII without spaces: what a kernel release or version is. */
static bool
token_clean(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

/* Drops trailing newlines and blanks; returns the new length. */
static size_t
trim_end(char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' ' ||
	    s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	s[len] = '\0';
	return len;
}

/*
 * Reads a small text file. Returns 0 and the text, or the error: ENOENT
 * and ENOTDIR quietly (the thing is just not there), any other one after
 * noting it. Text holding NUL bytes is refused with EILSEQ, noted.
 */
static int
read_small(struct probe_ctx *ctx, const char *path, char **out, size_t *lenp)
{
	char *data = NULL;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, path, SMALL_CAP, &data, &len);

	if (rc == ENOENT || rc == ENOTDIR)
		return rc;
	if (rc != 0) {
		facts_note(ctx->facts, path, _("cannot read: %s"),
		    sysroot_strerror(rc));
		return rc;
	}
	if (strlen(data) != len) {
		facts_note(ctx->facts, path, _("holds binary data; ignored"));
		free(data);
		return EILSEQ;
	}
	*out = data;
	*lenp = trim_end(data, len);
	return 0;
}

static void
probe_kernel_release(struct probe_ctx *ctx)
{
	struct fact_str *f = &ctx->facts->driver.kernel_release;
	char *s = NULL;
	size_t len = 0;
	int rc = read_small(ctx, OSRELEASE, &s, &len);

	if (rc == ENOENT || rc == ENOTDIR) {
		fact_unknown(f, _("%s does not exist"), OSRELEASE);
		return;
	}
	if (rc != 0) {
		fact_unreadable(f, _("%s: %s"), OSRELEASE, rc == EILSEQ ?
		    _("holds binary data") : sysroot_strerror(rc));
		return;
	}
	/* It becomes a path component (/lib/modules/<release>), so a slash
	 * or a dot-dot must not get through. */
	if (len == 0 || len > RELEASE_MAX || !token_clean(s, len) ||
	    strchr(s, '/') != NULL || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
		fact_unreadable(f, _("%s: not a kernel release"), OSRELEASE);
		facts_note(ctx->facts, OSRELEASE,
		    _("not a kernel release (empty, too long, or holding spaces, "
		    "slashes or control characters); ignored"));
		free(s);
		return;
	}
	fact_set_owned(f, s, OSRELEASE);
}

/*
 * The version in the "NVRM version:" line, in any of its spellings:
 *   NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug …
 *   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.104.05  Release Build …
 *   NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  …
 * The first dotted number after "Kernel Module" is it; the date after it
 * holds no dotted number.
 */
static char *
nvrm_version(const char *data)
{
	static const char key[] = "NVRM version:";
	const char *line = NULL, *p, *eol;
	char *copy, *from, *tok, *save = NULL, *found = NULL;

	for (p = data; p != NULL && *p != '\0';) {
		if (strncmp(p, key, sizeof key - 1) == 0) {
			line = p + sizeof key - 1;
			break;
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	if (line == NULL)
		return NULL;
	eol = strchr(line, '\n');
	copy = eol != NULL ? xstrndup(line, (size_t)(eol - line)) : xstrdup(line);
	from = strstr(copy, "Kernel Module");
	from = from != NULL ? from + strlen("Kernel Module") : copy;
	for (tok = strtok_r(from, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		if (strchr(tok, '.') != NULL && version_valid(tok)) {
			found = xstrdup(tok);
			break;
		}
	}
	free(copy);
	return found;
}

static void
probe_module_version(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;
	char *s = NULL, *v;
	size_t len = 0;
	int rc = read_small(ctx, NV_PROC_VERSION, &s, &len);

	if (rc == ENOENT || rc == ENOTDIR) {
		fact_absent(&d->module_version, NV_PROC_VERSION);
	} else if (rc != 0) {
		fact_unreadable(&d->module_version, _("%s: %s"), NV_PROC_VERSION,
		    rc == EILSEQ ? _("holds binary data") : sysroot_strerror(rc));
	} else if ((v = nvrm_version(s)) == NULL) {
		fact_unreadable(&d->module_version,
		    _("%s: no version in an \"NVRM version:\" line"),
		    NV_PROC_VERSION);
		facts_note(ctx->facts, NV_PROC_VERSION,
		    _("no version in an \"NVRM version:\" line; ignored"));
	} else {
		fact_set_owned(&d->module_version, v, NV_PROC_VERSION);
	}
	free(s);

	s = NULL;
	rc = read_small(ctx, NV_SYS_VERSION, &s, &len);
	if (rc == ENOENT || rc == ENOTDIR) {
		fact_absent(&d->sys_module_version, NV_SYS_VERSION);
	} else if (rc != 0) {
		fact_unreadable(&d->sys_module_version, _("%s: %s"),
		    NV_SYS_VERSION, rc == EILSEQ ? _("holds binary data") :
		    sysroot_strerror(rc));
	} else if (!version_valid(s)) {
		fact_unreadable(&d->sys_module_version, _("%s: not a version"),
		    NV_SYS_VERSION);
		facts_note(ctx->facts, NV_SYS_VERSION, _("not a version; ignored"));
	} else {
		fact_set(&d->sys_module_version, s, NV_SYS_VERSION);
	}
	free(s);
}

/*
 * Whether a kernel module is loaded: its /sys/module directory (or the
 * driver's /proc directory) exists. Without /sys/module at all there is no
 * telling, which is not the same as "no".
 */
static void
probe_loaded(struct probe_ctx *ctx, struct fact_str *f, const char *module,
    const char *procdir)
{
	char *sys = xasprintf("%s/%s", SYS_MODULE, module);

	if (sysroot_exists(ctx->sr, sys))
		fact_set(f, "yes", sys);
	else if (procdir != NULL && sysroot_exists(ctx->sr, procdir))
		fact_set(f, "yes", procdir);
	else if (sysroot_is_dir(ctx->sr, SYS_MODULE))
		fact_set(f, "no", sys);
	else
		fact_unknown(f, _("%s does not exist"), SYS_MODULE);
	free(sys);
}

/*
 * One answer to "is the module loaded": a module whose /sys/module
 * directory exists is loaded, even when /proc/driver/nvidia/version is
 * missing (a container that mounts /sys but not /proc/driver, a module
 * still initialising). Its version is then unknown, with why, rather
 * than absent, which every view would read as "not loaded".
 */
static void
settle_module_version(struct driver_facts *d)
{
	if (!fact_known(&d->nvidia_loaded) ||
	    strcmp(d->nvidia_loaded.value, "yes") != 0 ||
	    d->module_version.state != FACT_KNOWN ||
	    d->module_version.value != NULL)
		return;
	fact_unknown(&d->module_version, _("the nvidia module is loaded (%s), "
	    "but %s does not exist"), d->nvidia_loaded.source, NV_PROC_VERSION);
}

/* True when path has a component named name ("…/lib64/stubs/…"). */
static bool
has_component(const char *path, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = path; (p = strstr(p, name)) != NULL; p += n)
		if ((p == path || p[-1] == '/') && (p[n] == '/' || p[n] == '\0'))
			return true;
	return false;
}

static void
add_lib(struct driver_facts *d, const char *dir, const char *file,
    const char *name, const char *version, bool wsl)
{
	struct driver_lib *l = VEC_PUSH(&d->libs);

	l->path = xasprintf("%s/%s", dir, file);
	l->name = xstrdup(name);
	l->version = version != NULL ? xstrdup(version) : NULL;
	l->wsl = wsl;
}

/*
 * Records the driver libraries in one directory (canonical). Outside WSL
 * the real file carries the driver version in its name. WSL's copies are
 * named libcuda.so.1.1 and libnvidia-ml.so.1, with no driver version: the
 * longest name of each is the real file there.
 */
static void
scan_lib_dir(struct probe_ctx *ctx, const char *dir)
{
	static const char *const libs[] = { "libcuda", "libnvidia-ml" };
	struct driver_facts *d = &ctx->facts->driver;
	struct strv names = STRV_INIT;
	bool wsl = path_under(dir, "/usr/lib/wsl");
	int rc = sysroot_list_dir(ctx->sr, dir, &names);

	if (rc != 0) {
		if (rc != ENOENT && rc != ENOTDIR)
			facts_note(ctx->facts, dir, _("cannot list: %s"),
			    sysroot_strerror(rc));
		strv_free(&names);
		return;
	}
	for (size_t k = 0; k < sizeof libs / sizeof libs[0]; k++) {
		char *prefix = xasprintf("%s.so.", libs[k]);
		size_t plen = strlen(prefix);
		const char *longest = NULL;

		for (size_t i = 0; i < names.n; i++) {
			const char *nm = names.v[i], *ver = nm + plen;
			struct version v;

			if (strncmp(nm, prefix, plen) != 0)
				continue;
			if (wsl) {
				if (longest == NULL || strlen(nm) > strlen(longest))
					longest = nm;
				continue;
			}
			/* "libcuda.so.1" is the soname link, not a version. */
			if (!version_parse(ver, &v) || v.nparts < 2)
				continue;
			/* Driver majors have had three digits since 2007; a
			 * smaller one is a WSL-style name with no driver
			 * version in it. */
			add_lib(d, dir, nm, libs[k], v.part[0] >= 100 ? ver : NULL,
			    false);
		}
		if (longest != NULL)
			add_lib(d, dir, longest, libs[k], NULL, true);
		free(prefix);
	}
	strv_free(&names);
}

/* One search directory: skipped when it is a stubs directory (the
 * toolkit's link-time stand-in for libcuda, not a driver) or one already
 * searched under another name. */
static void
search_lib_dir(struct probe_ctx *ctx, const char *dir, struct strv *seen)
{
	char *canon = NULL;
	int rc;

	if (dir == NULL || dir[0] != '/' || has_component(dir, "stubs"))
		return;
	rc = sysroot_realpath(ctx->sr, dir, &canon);
	if (rc != 0) {
		if (rc != ENOENT && rc != ENOTDIR)
			facts_note(ctx->facts, dir, _("cannot resolve: %s"),
			    sysroot_strerror(rc));
		return;
	}
	if (has_component(canon, "stubs") || strv_contains(seen, canon)) {
		free(canon);
		return;
	}
	strv_push_owned(seen, canon);
	scan_lib_dir(ctx, canon);
}

static void
probe_libs(struct probe_ctx *ctx)
{
	const struct env_facts *env = &ctx->facts->env;
	struct strv seen = STRV_INIT;

	for (size_t i = 0; i < env->ldconf.n; i++)
		search_lib_dir(ctx, env->ldconf.v[i].dir, &seen);
	for (size_t i = 0; i < sizeof default_lib_dirs / sizeof default_lib_dirs[0]; i++)
		search_lib_dir(ctx, default_lib_dirs[i], &seen);
	strv_free(&seen);
}

/* nvidia.ko, nvidia-uvm.ko.xz, nvidia-current.ko.zst (Debian's name) … */
static bool
is_nvidia_ko(const char *name)
{
	size_t n = strlen(name);

	if (strncmp(name, "nvidia", 6) != 0)
		return false;
	for (size_t i = 0; i < sizeof ko_suffixes / sizeof ko_suffixes[0]; i++) {
		size_t sl = strlen(ko_suffixes[i]);

		if (n > sl && strcmp(name + n - sl, ko_suffixes[i]) == 0)
			return true;
	}
	return false;
}

static void
add_module(struct driver_facts *d, const char *kernel, char *path)
{
	struct kernel_module_file *m = VEC_PUSH(&d->module_files);

	m->path = path;
	m->kernel = xstrdup(kernel);
	m->signed_state = -1;
}

/*
 * The nvidia modules modules.dep lists for one kernel, when it can be
 * read: what modprobe itself would find. Returns false when it cannot.
 * Entries whose file is gone (a stale modules.dep) are left out.
 */
static bool
modules_from_dep(struct probe_ctx *ctx, const char *rel)
{
	char *dep = xasprintf("%s/%s/modules.dep", MODULES_DIR, rel);
	char *data = NULL;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, dep, MODULES_DEP_CAP, &data, &len);

	if (rc != 0) {
		if (rc != ENOENT && rc != ENOTDIR)
			facts_note(ctx->facts, dep,
			    _("cannot read: %s; searching the module directories "
			    "instead"), sysroot_strerror(rc));
		free(dep);
		return false;
	}
	if (strlen(data) != len) {
		facts_note(ctx->facts, dep, _("holds binary data; searching the "
		    "module directories instead"));
		free(data);
		free(dep);
		return false;
	}
	for (char *line = data; line != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n'), *colon, *base, *path;

		if (nl != NULL)
			*nl = '\0';
		colon = strchr(line, ':');
		if (colon != NULL) {
			*colon = '\0';
			base = strrchr(line, '/');
			base = base != NULL ? base + 1 : line;
			if (is_nvidia_ko(base) && token_clean(line, strlen(line))) {
				/* Old module-init-tools wrote absolute paths. */
				path = line[0] == '/' ? xstrdup(line) :
				    xasprintf("%s/%s/%s", MODULES_DIR, rel, line);
				if (sysroot_exists(ctx->sr, path))
					add_module(&ctx->facts->driver, rel, path);
				else
					free(path);
			}
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	free(data);
	free(dep);
	return true;
}

/*
 * Walks dir for nvidia*.ko files, not following symlinked directories (a
 * loop would never end) and no deeper than WALK_DEPTH. Returns false when
 * part of it could not be searched.
 */
static bool
walk_modules(struct probe_ctx *ctx, const char *rel, const char *dir,
    int depth, size_t *budget)
{
	struct strv names = STRV_INIT;
	bool complete = true;
	int rc = sysroot_list_dir(ctx->sr, dir, &names);

	if (rc != 0) {
		strv_free(&names);
		if (rc == ENOENT || rc == ENOTDIR)
			return true;
		facts_note(ctx->facts, dir, _("cannot list: %s"),
		    sysroot_strerror(rc));
		return false;
	}
	for (size_t i = 0; i < names.n; i++) {
		char *path;
		struct stat st;

		if (*budget == 0) {
			facts_note(ctx->facts, dir, _("too many entries; the "
			    "search for NVIDIA modules stopped here"));
			complete = false;
			break;
		}
		(*budget)--;
		path = xasprintf("%s/%s", dir, names.v[i]);
		rc = sysroot_lstat(ctx->sr, path, &st);
		if (rc != 0) {
			facts_note(ctx->facts, path, _("cannot examine: %s"),
			    sysroot_strerror(rc));
			complete = false;
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < WALK_DEPTH && !walk_modules(ctx, rel, path,
			    depth + 1, budget))
				complete = false;
		} else if (is_nvidia_ko(names.v[i])) {
			add_module(&ctx->facts->driver, rel, path);
			path = NULL;
		}
		free(path);
	}
	strv_free(&names);
	return complete;
}

/* Returns false when the search for this kernel was incomplete. */
static bool
find_modules(struct probe_ctx *ctx, const char *rel)
{
	struct strv names = STRV_INIT;
	size_t budget = WALK_BUDGET;
	bool complete = true;
	char *kdir;
	int rc;

	if (modules_from_dep(ctx, rel))
		return true;
	for (size_t i = 0; i < sizeof module_subdirs / sizeof module_subdirs[0]; i++) {
		char *dir = xasprintf("%s/%s/%s", MODULES_DIR, rel,
		    module_subdirs[i]);

		if (!walk_modules(ctx, rel, dir, 0, &budget))
			complete = false;
		free(dir);
	}
	/* Ubuntu's prebuilt modules: kernel/nvidia-535/, kernel/nvidia-550srv/. */
	kdir = xasprintf("%s/%s/kernel", MODULES_DIR, rel);
	rc = sysroot_list_dir(ctx->sr, kdir, &names);
	if (rc != 0 && rc != ENOENT && rc != ENOTDIR) {
		facts_note(ctx->facts, kdir, _("cannot list: %s"),
		    sysroot_strerror(rc));
		complete = false;
	}
	for (size_t i = 0; rc == 0 && i < names.n; i++) {
		char *dir;

		if (strncmp(names.v[i], "nvidia", 6) != 0)
			continue;
		dir = xasprintf("%s/%s", kdir, names.v[i]);
		if (!walk_modules(ctx, rel, dir, 0, &budget))
			complete = false;
		free(dir);
	}
	strv_free(&names);
	free(kdir);
	return complete;
}

static void
probe_modules(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;
	struct strv names = STRV_INIT;
	const char *running = fact_known(&d->kernel_release) ?
	    d->kernel_release.value : NULL;
	bool running_present = false, running_complete = true, found = false;
	char *src;
	int rc = sysroot_list_dir(ctx->sr, MODULES_DIR, &names);

	if (rc != 0 && rc != ENOENT && rc != ENOTDIR)
		facts_note(ctx->facts, MODULES_DIR, _("cannot list: %s"),
		    sysroot_strerror(rc));
	for (size_t i = 0; rc == 0 && i < names.n; i++) {
		const char *rel = names.v[i];
		char *dir;
		bool complete, is_dir;

		if (!token_clean(rel, strlen(rel)) || strlen(rel) > RELEASE_MAX)
			continue;
		dir = xasprintf("%s/%s", MODULES_DIR, rel);
		is_dir = sysroot_is_dir(ctx->sr, dir);
		free(dir);
		if (!is_dir)
			continue;
		strv_push(&d->kernels, rel);
		complete = find_modules(ctx, rel);
		if (running != NULL && strcmp(rel, running) == 0) {
			running_present = true;
			running_complete = complete;
		}
	}
	strv_free(&names);

	if (running == NULL) {
		fact_unknown(&d->modules_for_running,
		    _("the running kernel's release is unknown"));
		return;
	}
	if (!running_present) {
		fact_unknown(&d->modules_for_running, _("%s/%s does not exist"),
		    MODULES_DIR, running);
		return;
	}
	for (size_t i = 0; i < d->module_files.n; i++)
		if (strcmp(d->module_files.v[i].kernel, running) == 0)
			found = true;
	if (!found && !running_complete) {
		fact_unreadable(&d->modules_for_running,
		    _("part of %s/%s could not be searched"), MODULES_DIR, running);
		return;
	}
	src = xasprintf("%s/%s", MODULES_DIR, running);
	fact_set(&d->modules_for_running, found ? "yes" : "no", src);
	free(src);
}

/* Case-insensitive: "5.15.90.1-microsoft-standard-WSL2", "4.4.0-19041-Microsoft". */
static bool
release_is_wsl(const char *rel)
{
	return strcasestr(rel, "microsoft") != NULL || strcasestr(rel, "wsl") != NULL;
}

/* container= from PID 1's NUL-separated environment, or NULL. Most
 * often unreadable (only root may read it): that is no finding. */
static char *
pid1_container(struct probe_ctx *ctx)
{
	char *data = NULL, *val = NULL;
	size_t len = 0;

	if (sysroot_read_file(ctx->sr, PID1_ENVIRON, SMALL_CAP * 4, &data,
	    &len) != 0)
		return NULL;
	for (size_t off = 0; off < len && val == NULL;) {
		const char *e = data + off;
		size_t n = strnlen(e, len - off);

		if (n > 10 && strncmp(e, "container=", 10) == 0 &&
		    token_clean(e + 10, n - 10) && n - 10 <= 64)
			val = xstrndup(e + 10, n - 10);
		off += n + 1;
	}
	free(data);
	return val;
}

static void
probe_containers(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;
	const char *c = envp_get(ctx->envp, "container");

	d->docker = sysroot_exists(ctx->sr, "/.dockerenv");
	d->podman = sysroot_exists(ctx->sr, "/run/.containerenv");
	d->kubernetes = envp_get(ctx->envp, "KUBERNETES_SERVICE_HOST") != NULL ||
	    sysroot_is_dir(ctx->sr, "/var/run/secrets/kubernetes.io");
	d->apptainer = envp_get(ctx->envp, "APPTAINER_CONTAINER") != NULL ||
	    envp_get(ctx->envp, "SINGULARITY_CONTAINER") != NULL ||
	    sysroot_is_dir(ctx->sr, "/.singularity.d");
	if (c != NULL && c[0] != '\0' && strlen(c) <= 64 &&
	    token_clean(c, strlen(c)))
		d->container_env = xstrdup(c);
	else
		d->container_env = pid1_container(ctx);
}

static void
probe_platform(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;
	const char *colab = envp_get(ctx->envp, "COLAB_RELEASE_TAG");

	d->wsl_kernel = fact_known(&d->kernel_release) &&
	    release_is_wsl(d->kernel_release.value);
	d->wsl_dxg = sysroot_exists(ctx->sr, "/dev/dxg");
	d->wsl_lib_dir = sysroot_is_dir(ctx->sr, WSL_LIB_DIR);
	d->is_wsl = d->wsl_kernel || d->wsl_dxg || d->wsl_lib_dir;
	probe_containers(ctx);
	d->lib64_nvidia = sysroot_is_dir(ctx->sr, "/usr/lib64-nvidia");
	if (colab != NULL) {
		/* Shown as is in the report, so no control characters. */
		if (strlen(colab) <= 256 && token_clean(colab, strlen(colab)))
			d->colab_release = xstrdup(colab);
		else
			facts_note(ctx->facts, "COLAB_RELEASE_TAG",
			    _("not a release tag (too long, or holding spaces or "
			    "control characters); ignored"));
	}
}

/* The nvidia*.ko* of one DKMS build directory
 * (/var/lib/dkms/MODULE/VERSION/KERNEL/ARCH/module), or NULL. */
static char *
dkms_ko(struct probe_ctx *ctx, const char *dir)
{
	struct strv names = STRV_INIT;
	char *found = NULL;

	if (sysroot_list_dir(ctx->sr, dir, &names) != 0) {
		strv_free(&names);
		return NULL;
	}
	for (size_t i = 0; i < names.n && found == NULL; i++)
		if (is_nvidia_ko(names.v[i]) && (strcmp(names.v[i], "nvidia.ko") == 0 ||
		    strncmp(names.v[i], "nvidia.ko.", 10) == 0 ||
		    strncmp(names.v[i], "nvidia-current.ko", 17) == 0))
			found = xasprintf("%s/%s", dir, names.v[i]);
	strv_free(&names);
	return found;
}

/* Lists DIR into names; false (and a note unless it is absent) when it
 * cannot, or when the budget is spent. */
static bool
dkms_list(struct probe_ctx *ctx, const char *dir, struct strv *names,
    size_t *budget)
{
	int rc;

	if (*budget == 0)
		return false;
	(*budget)--;
	rc = sysroot_list_dir(ctx->sr, dir, names);
	if (rc != 0 && rc != ENOENT && rc != ENOTDIR)
		facts_note(ctx->facts, dir, _("cannot list: %s"),
		    sysroot_strerror(rc));
	return rc == 0;
}

static void
dkms_version(struct probe_ctx *ctx, const char *module, const char *ver,
    size_t *budget)
{
	struct strv kernels = STRV_INIT;
	char *vdir = xasprintf("%s/%s/%s", DKMS_DIR, module, ver);

	if (dkms_list(ctx, vdir, &kernels, budget)) {
		for (size_t k = 0; k < kernels.n; k++) {
			struct strv arches = STRV_INIT;
			char *kdir;

			/* "source" is the link to the sources, not a kernel. */
			if (strcmp(kernels.v[k], "source") == 0 ||
			    strlen(kernels.v[k]) > RELEASE_MAX ||
			    !token_clean(kernels.v[k], strlen(kernels.v[k])))
				continue;
			kdir = xasprintf("%s/%s", vdir, kernels.v[k]);
			if (dkms_list(ctx, kdir, &arches, budget)) {
				for (size_t a = 0; a < arches.n; a++) {
					char *mdir = xasprintf("%s/%s/module",
					    kdir, arches.v[a]);
					char *ko = dkms_ko(ctx, mdir);

					if (ko != NULL) {
						struct dkms_build *b =
						    VEC_PUSH(&ctx->facts->driver.dkms);

						b->module = xstrdup(module);
						b->version = xstrdup(ver);
						b->kernel = xstrdup(kernels.v[k]);
						b->path = ko;
					}
					free(mdir);
				}
			}
			strv_free(&arches);
			free(kdir);
		}
	}
	strv_free(&kernels);
	free(vdir);
}

/* What DKMS built of the nvidia module, for which driver version and
 * kernel: the tree dkms itself keeps, without running it. */
static void
probe_dkms(struct probe_ctx *ctx)
{
	static const char *const modules[] = { "nvidia", "nvidia-current" };
	size_t budget = DKMS_BUDGET;

	for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++) {
		struct strv vers = STRV_INIT;
		char *mdir = xasprintf("%s/%s", DKMS_DIR, modules[m]);

		if (dkms_list(ctx, mdir, &vers, &budget))
			for (size_t v = 0; v < vers.n; v++)
				if (strlen(vers.v[v]) <= RELEASE_MAX &&
				    token_clean(vers.v[v], strlen(vers.v[v])))
					dkms_version(ctx, modules[m], vers.v[v],
					    &budget);
		strv_free(&vers);
		free(mdir);
	}
	if (budget == 0)
		facts_note(ctx->facts, DKMS_DIR, _("too many entries; the search "
		    "for DKMS builds stopped"));
}

/* The kernel release grubenv's saved_entry names ("gnulinux-advanced-…>
 * gnulinux-6.8.0-45-generic-advanced-…", "Ubuntu, with Linux
 * 6.8.0-45-generic"): the longest release under /lib/modules it holds. */
static const char *
grub_saved_kernel(struct probe_ctx *ctx)
{
	const struct driver_facts *d = &ctx->facts->driver;
	const char *best = NULL;
	char *data = NULL, *entry;
	size_t len = 0;

	if (sysroot_read_file(ctx->sr, GRUBENV, GRUBENV_CAP, &data, &len) != 0)
		return NULL;
	entry = strlen(data) == len ? strstr(data, "saved_entry=") : NULL;
	if (entry != NULL && (entry == data || entry[-1] == '\n')) {
		entry += strlen("saved_entry=");
		entry[strcspn(entry, "\n")] = '\0';
		for (size_t i = 0; i < d->kernels.n; i++)
			if (strstr(entry, d->kernels.v[i]) != NULL &&
			    (best == NULL || strlen(d->kernels.v[i]) > strlen(best)))
				best = d->kernels.v[i];
	}
	free(data);
	return best;
}

/* The next boot's kernel, as far as files say: grub's saved entry, else
 * the newest release (what update-grub makes the default). */
static void
probe_boot_kernel(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;
	const char *k = grub_saved_kernel(ctx);

	if (k != NULL) {
		fact_set(&d->boot_kernel, k, GRUBENV " saved_entry");
		return;
	}
	for (size_t i = 0; i < d->kernels.n; i++)
		if (k == NULL || strverscmp(d->kernels.v[i], k) > 0)
			k = d->kernels.v[i];
	if (k == NULL) {
		fact_unknown(&d->boot_kernel, _("no kernel under %s"), MODULES_DIR);
		return;
	}
	fact_set(&d->boot_kernel, k, _("the newest kernel under /lib/modules"));
}

void
probe_driver(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;

	probe_kernel_release(ctx);
	probe_module_version(ctx);
	probe_loaded(ctx, &d->nvidia_loaded, "nvidia", NV_PROC_DIR);
	probe_loaded(ctx, &d->nouveau_loaded, "nouveau", NULL);
	settle_module_version(d);
	probe_platform(ctx);
	probe_libs(ctx);
	if (!ctx->lean) {
		probe_modules(ctx);
		probe_dkms(ctx);
		probe_boot_kernel(ctx);
		probe_module_files(ctx);
		probe_secure_boot(ctx);
	}
}
