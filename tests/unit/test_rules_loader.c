/* Unit tests for rules_loader and rules_library on library facts built by
 * hand: each finding with its positive and negative cases, the noise
 * rules of doctor's survey against `explain`'s single name, severities,
 * and the exact fix lines. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "loader/resolve.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------- builders */

static struct facts *
new_facts(void)
{
	struct facts *f = facts_new("/", false);

	/* Unknown GPUs unless a test says otherwise. */
	fact_unknown(&f->gpus_state, "not read");
	return f;
}

/* A machine whose driver works: a GPU bound to nvidia, the module loaded. */
static void
gpu_ok(struct facts *f)
{
	struct gpu_fact *g = VEC_PUSH(&f->gpus);

	fact_set(&f->gpus_state, "yes", "/sys/bus/pci/devices");
	g->pci_address = xstrdup("0000:01:00.0");
	g->vendor_id = 0x10de;
	fact_set(&g->kernel_driver, "nvidia", "driver link");
	fact_set(&f->driver.nvidia_loaded, "yes", "/proc/driver/nvidia");
}

static struct lib_fact *
lib(struct facts *f, const char *soname)
{
	struct lib_fact *l = VEC_PUSH(&f->libraries);

	l->soname = xstrdup(soname);
	return l;
}

static struct resolve_step *
step(struct lib_fact *l, enum step_source src, const char *dir,
    const char *path, enum step_result res, const char *detail)
{
	struct resolve_step *s = VEC_PUSH(&l->steps);

	s->source = src;
	s->dir = dir != NULL ? xstrdup(dir) : NULL;
	s->path = path != NULL ? xstrdup(path) : NULL;
	s->result = res;
	s->detail = detail != NULL ? xstrdup(detail) : NULL;
	return s;
}

/* The winner: a FOUND step in dir (NULL for the cache), the real file
 * behind it and the SONAME it carries. */
static void
found(struct lib_fact *l, enum step_source src, enum step_source via,
    const char *path, const char *target, const char *elf_soname)
{
	char *dir = NULL;

	if (src != STEP_CACHE) {
		dir = xstrdup(path);
		*strrchr(dir, '/') = '\0';
	}
	step(l, src, dir, path, STEP_FOUND, NULL);
	free(dir);
	l->resolved = xstrdup(path);
	l->via = via;
	l->target = xstrdup(target != NULL ? target : path);
	l->elf_soname = elf_soname != NULL ? xstrdup(elf_soname) : NULL;
	l->stub = strstr(path, "/stubs/") != NULL ||
	    (target != NULL && strstr(target, "/stubs/") != NULL);
}

static void
not_found(struct lib_fact *l)
{
	step(l, STEP_CACHE, NULL, NULL, STEP_NOT_FOUND, NULL);
	step(l, STEP_DEFAULT, "/lib/x86_64-linux-gnu", NULL, STEP_NOT_FOUND, NULL);
	step(l, STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu", NULL, STEP_NOT_FOUND, NULL);
	l->error = xasprintf("%s: cannot open shared object file: No such file "
	    "or directory", l->soname);
}

static struct lib_copy *
copy(struct lib_fact *l, const char *path, const char *target,
    const char *soname, enum step_source reached_via)
{
	struct lib_copy *c = VEC_PUSH(&l->copies);

	c->path = xstrdup(path);
	c->target = xstrdup(target != NULL ? target : path);
	c->soname = soname != NULL ? xstrdup(soname) : NULL;
	c->loadable = true;
	c->reached_via = reached_via;
	c->stub = strstr(path, "/stubs/") != NULL;
	return c;
}

static void
llp(struct facts *f, const char *const *dirs)
{
	struct path_var *pv = &f->env.ld_library_path;
	struct strbuf sb = STRBUF_INIT;

	pv->set = true;
	for (size_t i = 0; dirs[i] != NULL; i++) {
		struct path_entry *e = VEC_PUSH(&pv->entries);

		e->value = xstrdup(dirs[i]);
		e->exists = 1;
		e->is_dir = true;
		e->duplicate_of = -1;
		if (i > 0)
			strbuf_putc(&sb, ':');
		strbuf_puts(&sb, dirs[i]);
	}
	pv->raw = strbuf_take(&sb);
}

static void
ldconf(struct facts *f, const char *dir, const char *from)
{
	struct ldconf_dir *d = VEC_PUSH(&f->env.ldconf);

	d->dir = xstrdup(dir);
	d->from = xstrdup(from);
	d->exists = 1;
}

static void
driver_lib(struct facts *f, const char *path, const char *version, bool wsl)
{
	struct driver_lib *d = VEC_PUSH(&f->driver.libs);

	d->path = xstrdup(path);
	d->name = xstrdup("libcuda");
	d->version = version != NULL ? xstrdup(version) : NULL;
	d->wsl = wsl;
}

/* A healthy libcuda.so.1 through the cache. */
static void
libcuda_ok(struct facts *f)
{
	struct lib_fact *l = lib(f, "libcuda.so.1");

	found(l, STEP_CACHE, STEP_CACHE, "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	    "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "libcuda.so.1");
}

/* -------------------------------------------------------------- running */

static struct findings fs;

static void
run_all(const struct facts *f)
{
	struct diagnose_input in = { f, NULL, 0, 0 };

	findings_free(&fs);
	rules_loader(&in, &fs);
}

static void
run_one(const struct facts *f, const struct lib_fact *l)
{
	struct diagnose_input in = { f, NULL, 0, 0 };

	findings_free(&fs);
	rules_library(&in, l, &fs);
}

static const struct finding *
get(enum finding_code code)
{
	return findings_find(&fs, code);
}

static size_t
count(enum finding_code code)
{
	size_t n = 0;

	for (size_t i = 0; i < fs.n; i++)
		if (fs.v[i].code == code)
			n++;
	return n;
}

static bool
has_line(const struct finding *fd, const struct strv *sv, const char *s)
{
	if (fd == NULL)
		return false;
	for (size_t i = 0; i < sv->n; i++)
		if (strstr(sv->v[i], s) != NULL)
			return true;
	return false;
}

#define EVID(fd, s) has_line((fd), (fd) != NULL ? &(fd)->evidence : NULL, (s))
#define FIX(fd, s) has_line((fd), (fd) != NULL ? &(fd)->fix : NULL, (s))

static bool
fix_is(const struct finding *fd, const char *line)
{
	if (fd == NULL)
		return false;
	return strv_contains(&fd->fix, line);
}

static int
sev(const struct finding *fd)
{
	return fd != NULL ? (int)fd->severity : -1;
}

static void
codes_diag(void)
{
	for (size_t i = 0; i < fs.n; i++)
		printf("#   %s: %s\n", finding_code_name(fs.v[i].code),
		    fs.v[i].detail);
}

/* ---------------------------------------------------------------- tests */

static void
test_healthy(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;

	gpu_ok(f);
	libcuda_ok(f);
	ldconf(f, "/usr/local/cuda-13.0/targets/x86_64-linux/lib",
	    "/etc/ld.so.conf.d/cuda.conf");
	l = lib(f, "libnvidia-ml.so.1");
	found(l, STEP_CACHE, STEP_CACHE,
	    "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
	    "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.65.06",
	    "libnvidia-ml.so.1");
	l = lib(f, "libcuda.so");
	l->optional = true;
	not_found(l);
	copy(l, "/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs/libcuda.so",
	    NULL, "libcuda.so.1", STEP_NONE);
	l = lib(f, "libcudart.so.13");
	found(l, STEP_CACHE, STEP_CACHE,
	    "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13",
	    "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13.0.96",
	    "libcudart.so.13");
	strv_push(&l->elf_verdefs, "libcudart.so.13");
	l = lib(f, "libnvinfer.so.10");
	l->optional = true;
	not_found(l);
	run_all(f);
	is_int(fs.n, 0, "a healthy set of libraries gives no finding");
	is_str(fs.n > 0 ? finding_code_name(fs.v[0].code) : NULL, NULL,
	    "... not even information");
	if (fs.n > 0)
		codes_diag();
	facts_free(f);
}

static void
test_libcuda_not_found(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	gpu_ok(f);
	l = lib(f, "libcuda.so.1");
	not_found(l);
	copy(l, "/usr/lib64-nvidia/libcuda.so.1", "/usr/lib64-nvidia/libcuda.so.535.104.05",
	    "libcuda.so.1", STEP_NONE);
	run_all(f);
	fd = get(FINDING_LIBCUDA_NOT_FOUND);
	ok(fd != NULL && sev(fd) == SEV_ERROR,
	    "libcuda.so.1 off the search path with a loaded driver: LIBCUDA_NOT_FOUND, an error");
	ok(EVID(fd, "/usr/lib64-nvidia/libcuda.so.1 exists, off the search path"),
	    "the evidence names the copy");
	ok(EVID(fd, "the nvidia module is loaded"), "and the loaded module");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/usr/lib64-nvidia\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "the fix prepends its directory to LD_LIBRARY_PATH");
	ok(fix_is(fd, "printf '%s\\n' /usr/lib64-nvidia | sudo tee /etc/ld.so.conf.d/usr-lib64-nvidia.conf"),
	    "or writes an ld.so.conf.d file");
	ok(fix_is(fd, "sudo ldconfig"), "and runs ldconfig");
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) == NULL,
	    "no SONAME_OFF_SEARCH_PATH besides it");

	/* The module not loaded: rules_gpu.c's DRIVER_NOT_LOADED says it. */
	fact_set(&f->driver.nvidia_loaded, "no", "/sys/module/nvidia");
	run_all(f);
	ok(get(FINDING_LIBCUDA_NOT_FOUND) == NULL,
	    "not when the nvidia module is known not to be loaded");
	fact_unknown(&f->driver.nvidia_loaded, "no /sys");
	fact_set(&f->gpus.v[0].kernel_driver, "vfio-pci", "driver link");
	run_all(f);
	ok(get(FINDING_LIBCUDA_NOT_FOUND) == NULL,
	    "not when nothing shows a driver (GPU not bound to nvidia, module unknown)");
	f->gpus.n = 0;	/* hidden, not freed: restored before facts_free */
	fact_set(&f->gpus_state, "yes", "/sys/bus/pci/devices");
	driver_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "535.104.05", false);
	run_all(f);
	ok(get(FINDING_LIBCUDA_NOT_FOUND) == NULL,
	    "not on a machine with no GPU (NO_NVIDIA_GPU's)");
	f->gpus.n = 1;
	facts_free(f);

	/* The driver's real file is there, the libcuda.so.1 link is not. */
	f = new_facts();
	gpu_ok(f);
	ldconf(f, "/usr/lib/x86_64-linux-gnu", "/etc/ld.so.conf.d/x86_64-linux-gnu.conf");
	driver_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "580.65.06", false);
	l = lib(f, "libcuda.so.1");
	not_found(l);
	run_all(f);
	fd = get(FINDING_LIBCUDA_NOT_FOUND);
	ok(EVID(fd, "driver library: /usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06 (version 580.65.06)"),
	    "a driver file without its link: the evidence names it");
	ok(fix_is(fd, "sudo ldconfig") && !FIX(fd, "ln -s"),
	    "in a directory ldconfig scans, the fix is ldconfig");
	facts_free(f);

	f = new_facts();
	gpu_ok(f);
	driver_lib(f, "/opt/nvidia/lib/libcuda.so.580.65.06", "580.65.06", false);
	l = lib(f, "libcuda.so.1");
	not_found(l);
	run_all(f);
	fd = get(FINDING_LIBCUDA_NOT_FOUND);
	ok(fix_is(fd, "sudo ln -s libcuda.so.580.65.06 /opt/nvidia/lib/libcuda.so.1"),
	    "elsewhere the fix makes the link");
	ok(FIX(fd, "/etc/ld.so.conf.d/opt-nvidia-lib.conf"),
	    "and lists the directory for ldconfig");
	facts_free(f);

	/* Only the toolkit's stub on disk. */
	f = new_facts();
	gpu_ok(f);
	l = lib(f, "libcuda.so.1");
	not_found(l);
	copy(l, "/usr/local/cuda/lib64/stubs/libcuda.so.1", NULL, "libcuda.so.1", STEP_NONE);
	run_all(f);
	fd = get(FINDING_LIBCUDA_NOT_FOUND);
	ok(EVID(fd, "/usr/local/cuda/lib64/stubs/libcuda.so.1 is the toolkit's stub"),
	    "a stub is named as a stub, never offered as the fix");
	ok(!FIX(fd, "LD_LIBRARY_PATH") && FIX(fd, "apt-get install nvidia-driver"),
	    "the fix installs the driver");
	f->driver.docker = true;
	run_all(f);
	fd = get(FINDING_LIBCUDA_NOT_FOUND);
	ok(FIX(fd, "docker run --gpus all"), "in a container, the fix is --gpus");
	facts_free(f);
}

static void
test_stub(void)
{
	static const char *const dirs[] = { "/usr/local/cuda/lib64/stubs",
	    "/usr/local/cuda/lib64", NULL };
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	gpu_ok(f);
	llp(f, dirs);
	l = lib(f, "libcuda.so.1");
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda/lib64/stubs/libcuda.so.1",
	    "/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs/libcuda.so",
	    "libcuda.so.1");
	l = lib(f, "libcuda.so");
	l->optional = true;
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda/lib64/stubs/libcuda.so",
	    "/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs/libcuda.so",
	    "libcuda.so.1");
	run_all(f);
	fd = get(FINDING_STUB_LIBCUDA);
	is_int(count(FINDING_STUB_LIBCUDA), 1, "one STUB_LIBCUDA for both names and the directory");
	ok(sev(fd) == SEV_ERROR, "the stub winning libcuda.so.1 is an error");
	ok(EVID(fd, "libcuda.so.1 resolves to /usr/local/cuda/lib64/stubs/libcuda.so.1 "
	    "(LD_LIBRARY_PATH entry /usr/local/cuda/lib64/stubs)"),
	    "the evidence names the step and the file");
	ok(EVID(fd, "LD_LIBRARY_PATH entry 1 is a stubs directory"),
	    "and the LD_LIBRARY_PATH entry");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/usr/local/cuda/lib64"),
	    "the fix is LD_LIBRARY_PATH without the stubs directory");
	ok(get(FINDING_SONAME_SPOOF_SYMLINK) == NULL &&
	    get(FINDING_LIB_SHADOWED) == NULL,
	    "the unversioned libcuda.so is no spoof");
	facts_free(f);

	/* The stubs directory is on the path, the driver's libcuda still wins. */
	f = new_facts();
	gpu_ok(f);
	llp(f, dirs);
	libcuda_ok(f);
	run_all(f);
	fd = get(FINDING_STUB_LIBCUDA);
	ok(sev(fd) == SEV_WARNING,
	    "a stubs directory on LD_LIBRARY_PATH that wins nothing yet: a warning");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/usr/local/cuda/lib64"),
	    "with the same fix");
	facts_free(f);

	/* Only the unversioned name gets the stub. */
	f = new_facts();
	gpu_ok(f);
	libcuda_ok(f);
	l = lib(f, "libcuda.so");
	l->optional = true;
	found(l, STEP_DEFAULT, STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu/libcuda.so",
	    "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so",
	    "libcuda.so.1");
	run_all(f);
	fd = get(FINDING_STUB_LIBCUDA);
	ok(sev(fd) == SEV_WARNING, "libcuda.so linked to the stub: a warning");
	ok(fix_is(fd, "sudo rm -- /usr/lib/x86_64-linux-gnu/libcuda.so"),
	    "a link made by hand into the stubs is removed");
	facts_free(f);

	/* ld.so.conf lists the stubs directory. */
	f = new_facts();
	gpu_ok(f);
	ldconf(f, "/usr/local/cuda-12.4/lib64/stubs", "/etc/ld.so.conf.d/cuda.conf");
	l = lib(f, "libcuda.so.1");
	found(l, STEP_CACHE, STEP_CACHE, "/usr/local/cuda-12.4/lib64/stubs/libcuda.so.1",
	    "/usr/local/cuda-12.4/lib64/stubs/libcuda.so", "libcuda.so.1");
	run_all(f);
	fd = get(FINDING_STUB_LIBCUDA);
	ok(sev(fd) == SEV_ERROR, "a stub filed in the cache as libcuda.so.1: an error");
	ok(fix_is(fd, "sudo sed -i '\\|^[[:space:]]*/usr/local/cuda-12\\.4/lib64/stubs/*[[:space:]]*$|d' /etc/ld.so.conf.d/cuda.conf"),
	    "the fix drops the line from the ld.so.conf file, dots escaped");
	ok(fix_is(fd, "sudo ldconfig"), "then runs ldconfig");
	ok(FIX(fd, "apt-get install nvidia-driver"),
	    "and says to install the driver when none is installed");
	facts_free(f);

	/* No stubs anywhere. */
	f = new_facts();
	gpu_ok(f);
	libcuda_ok(f);
	ldconf(f, "/usr/local/cuda/lib64", "/etc/ld.so.conf.d/cuda.conf");
	run_all(f);
	ok(get(FINDING_STUB_LIBCUDA) == NULL, "no stubs directory, no STUB_LIBCUDA");
	facts_free(f);
}

static void
test_wsl(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	f->driver.is_wsl = f->driver.wsl_lib_dir = true;
	l = lib(f, "libcuda.so.1");
	not_found(l);
	copy(l, "/usr/lib/wsl/lib/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1.1",
	    NULL, STEP_NONE);
	run_all(f);
	fd = get(FINDING_WSL_LIBCUDA);
	ok(sev(fd) == SEV_ERROR, "WSL without /usr/lib/wsl/lib in the search: an error");
	ok(EVID(fd, "/usr/lib/wsl/lib/libcuda.so.1 exists, off the search path"),
	    "the evidence names WSL's copy");
	ok(fix_is(fd, "printf '%s\\n' /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf"),
	    "the fix writes ld.wsl.conf");
	ok(get(FINDING_LIBCUDA_NOT_FOUND) == NULL, "and LIBCUDA_NOT_FOUND is not said too");

	/* WSL without its library directory. */
	f->libraries.v[0].copies.n = 0;
	free(f->libraries.v[0].copies.v[0].path);
	free(f->libraries.v[0].copies.v[0].target);
	f->driver.wsl_lib_dir = false;
	run_all(f);
	fd = get(FINDING_WSL_LIBCUDA);
	ok(EVID(fd, "/usr/lib/wsl/lib does not exist") && FIX(fd, "wsl.exe --update"),
	    "no /usr/lib/wsl/lib: GPU support is not set up, fixed from Windows");
	facts_free(f);

	/* A Linux driver's libcuda shadows WSL's. */
	f = new_facts();
	f->driver.is_wsl = f->driver.wsl_lib_dir = true;
	driver_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "535.104.05", false);
	l = lib(f, "libcuda.so.1");
	found(l, STEP_CACHE, STEP_CACHE, "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	    "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "libcuda.so.1");
	copy(l, "/usr/lib/wsl/lib/libcuda.so.1", NULL, NULL, STEP_DEFAULT);
	run_all(f);
	fd = get(FINDING_WSL_LIBCUDA);
	ok(sev(fd) == SEV_ERROR && EVID(fd, "shadowed: /usr/lib/wsl/lib/libcuda.so.1"),
	    "another libcuda first in WSL: an error naming the shadowed copy");
	ok(EVID(fd, "a Linux driver library inside WSL: /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"),
	    "the Linux driver is named");
	ok(fix_is(fd, "dpkg -S /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"),
	    "the fix finds its package");
	ok(get(FINDING_LIB_SHADOWED) == NULL, "not LIB_SHADOWED as well");
	facts_free(f);

	/* WSL's libcuda wins, a Linux driver lies around. */
	f = new_facts();
	f->driver.is_wsl = f->driver.wsl_lib_dir = true;
	driver_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "535.104.05", false);
	driver_lib(f, "/usr/lib/wsl/lib/libcuda.so.1.1", NULL, true);
	l = lib(f, "libcuda.so.1");
	found(l, STEP_CACHE, STEP_CACHE, "/usr/lib/wsl/lib/libcuda.so.1",
	    "/usr/lib/wsl/lib/libcuda.so.1.1", NULL);
	run_all(f);
	fd = get(FINDING_WSL_LIBCUDA);
	ok(sev(fd) == SEV_WARNING, "a Linux driver inside WSL that does not win yet: a warning");
	f->driver.libs.v[0].wsl = true;
	run_all(f);
	ok(get(FINDING_WSL_LIBCUDA) == NULL && fs.n == 0,
	    "WSL done right: no finding (and libcuda.so.1 -> libcuda.so.1.1 is no spoof)");
	if (fs.n > 0)
		codes_diag();
	facts_free(f);
}

static void
test_not_found_off_path(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	l = lib(f, "libcudart.so.11.0");
	not_found(l);
	run_one(f, l);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(sev(fd) == SEV_ERROR, "a name that exists nowhere: SONAME_NOT_FOUND, an error");
	ok(EVID(fd, "not in default directories: /lib/x86_64-linux-gnu, /usr/lib/x86_64-linux-gnu"),
	    "the evidence says where the loader looked");
	ok(EVID(fd, "the ld.so.cache has no entry for libcudart.so.11.0"), "and the cache");
	ok(EVID(fd, "the loader's error: libcudart.so.11.0: cannot open shared object file"),
	    "and glibc's error");
	ok(fix_is(fd, "find / -xdev -name 'libcudart.so.11.0*' 2>/dev/null"),
	    "the fix looks for it, the pattern quoted");
	ok(!fix_is(fd, "pip install nvidia-cuda-runtime-cu11"),
	    "without the catalogue (no matrix here), no wheel line it cannot check");
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) == NULL, "not OFF_SEARCH_PATH");

	copy(l, "/usr/local/cuda-11.8/lib64/libcudart.so.11.0",
	    "/usr/local/cuda-11.8/targets/x86_64-linux/lib/libcudart.so.11.8.89",
	    "libcudart.so.11.0", STEP_NONE);
	run_one(f, l);
	fd = get(FINDING_SONAME_OFF_SEARCH_PATH);
	ok(sev(fd) == SEV_WARNING && get(FINDING_SONAME_NOT_FOUND) == NULL,
	    "a copy no step reaches: SONAME_OFF_SEARCH_PATH, a warning, and not NOT_FOUND");
	ok(fd != NULL && strstr(fd->detail, "exists in /usr/local/cuda-11.8/lib64") != NULL,
	    "the detail names the directory");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "the fix prepends it to LD_LIBRARY_PATH");
	ok(fix_is(fd, "printf '%s\\n' /usr/local/cuda-11.8/lib64 | sudo tee /etc/ld.so.conf.d/usr-local-cuda-11.8-lib64.conf"),
	    "or lists it in ld.so.conf.d");

	/* A copy the loader passed over is no fix. */
	l->copies.v[0].loadable = false;
	l->copies.v[0].problem = xstrdup("wrong ELF class: ELFCLASS32");
	run_one(f, l);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(EVID(fd, "exists but cannot be loaded: wrong ELF class: ELFCLASS32"),
	    "an unloadable copy is evidence, not a fix");
	l->copies.v[0].loadable = true;
	FREE(&l->copies.v[0].problem);

	/* Listed in ld.so.conf but not in the cache: ldconfig is enough. */
	ldconf(f, "/usr/local/cuda-11.8/lib64", "/etc/ld.so.conf.d/cuda-11-8.conf");
	run_one(f, l);
	fd = get(FINDING_SONAME_OFF_SEARCH_PATH);
	ok(fix_is(fd, "sudo ldconfig") && !FIX(fd, "LD_LIBRARY_PATH"),
	    "a directory ldconfig scans: the cache is stale, rebuild it");

	/* The facts' ages decide (fd_ldconfig_effect): a cache that maps
	 * the name to this copy and is newer than the copy, its directory
	 * and the conf file makes ldconfig pointless; older, it updates. */
	l->copies.v[0].cached = true;
	l->copies.v[0].changed = 1000;
	f->env.ldconf.v[f->env.ldconf.n - 1].from_mtime = 900;
	f->env.ldcache_mtime = 2000;
	run_one(f, l);
	fd = get(FINDING_SONAME_OFF_SEARCH_PATH);
	ok(fd != NULL && !fix_is(fd, "sudo ldconfig") &&
	    FIX(fd, "# the cache already lists libcudart.so.11.0 as /usr/local/cuda-11.8/lib64/libcudart.so.11.0 and is newer than it"),
	    "the cache lists it and is newer: no ldconfig, a comment says why");
	f->env.ldconf.v[f->env.ldconf.n - 1].from_mtime = 3000;
	run_one(f, l);
	ok(fix_is(get(FINDING_SONAME_OFF_SEARCH_PATH), "sudo ldconfig"),
	    "the conf file changed after the cache: ldconfig again");
	f->env.ldconf.v[f->env.ldconf.n - 1].from_mtime = 900;
	f->env.ldcache_mtime = 500;
	run_one(f, l);
	ok(fix_is(get(FINDING_SONAME_OFF_SEARCH_PATH), "sudo ldconfig"),
	    "the cache older than the copy: ldconfig");
	f->env.ldcache_mtime = 0;
	l->copies.v[0].cached = false;
	l->copies.v[0].changed = 0;
	FREE(&l->copies.v[0].soname);
	l->copies.v[0].soname = xstrdup("libcudart.so.11.8");
	run_one(f, l);
	fd = get(FINDING_SONAME_OFF_SEARCH_PATH);
	ok(fd != NULL && !fix_is(fd, "sudo ldconfig") &&
	    FIX(fd, "under its SONAME libcudart.so.11.8, never as libcudart.so.11.0") &&
	    FIX(fd, "export LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64"),
	    "a file of another SONAME: no ldconfig, the directory on LD_LIBRARY_PATH");
	FREE(&l->copies.v[0].soname);
	l->copies.v[0].soname = xstrdup("libcudart.so.11.0");

	/* Survey: another major resolves. */
	l = lib(f, "libcudart.so.13");
	found(l, STEP_CACHE, STEP_CACHE, "/usr/local/cuda-13.0/lib64/libcudart.so.13",
	    "/usr/local/cuda-13.0/lib64/libcudart.so.13.0.96", "libcudart.so.13");
	run_all(f);
	fd = get(FINDING_SONAME_OFF_SEARCH_PATH);
	ok(sev(fd) == SEV_INFO && EVID(fd, "libcudart.so.13 resolves"),
	    "in doctor's survey, a second toolkit's runtime off the path is information");
	run_one(f, &f->libraries.v[0]);
	ok(sev(get(FINDING_SONAME_OFF_SEARCH_PATH)) == SEV_WARNING,
	    "asked for by name (explain), it stays a warning");
	facts_free(f);

	/* Survey: wheels are reached by the framework's RPATH. */
	f = new_facts();
	l = lib(f, "libcudart.so.12");
	not_found(l);
	copy(l, "/home/u/.venv/lib/python3.11/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12",
	    NULL, "libcudart.so.12", STEP_NONE);
	run_all(f);
	ok(fs.n == 0, "a runtime only a wheel carries: nothing in the survey");
	run_one(f, l);
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) != NULL, "but explain names it");
	facts_free(f);

	/* Survey: the active conda environment's lib/ is reached by RPATH. */
	f = new_facts();
	l = lib(f, "libcudart.so.12");
	not_found(l);
	copy(l, "/home/u/miniconda3/envs/ml/lib/libcudart.so.12",
	    "/home/u/miniconda3/envs/ml/lib/libcudart.so.12.4.127", "libcudart.so.12", STEP_NONE);
	run_all(f);
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) != NULL,
	    "a runtime in some directory off the path: reported");
	{
		struct path_entry *e = VEC_PUSH(&f->env.path.entries);

		e->value = xstrdup("/home/u/miniconda3/envs/ml/lib/");
		e->exists = 1;
		e->is_dir = true;
		e->duplicate_of = -1;
		e->has_cuda_libs = true;
	}
	run_all(f);
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) == NULL,
	    "its directory on PATH: LIBDIR_ON_PATH (rules_env.c) says it, not this rule");
	f->env.path.entries.v[0].has_cuda_libs = false;
	run_all(f);
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) != NULL,
	    "a PATH entry without CUDA libraries changes nothing");
	f->env.var[ENV_CONDA_PREFIX].set = true;
	f->env.var[ENV_CONDA_PREFIX].value = xstrdup("/home/u/miniconda3/envs/ml");
	run_all(f);
	ok(fs.n == 0, "in the active conda environment: nothing in the survey");
	facts_free(f);
}

static void
test_nvml_and_optional(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	l = lib(f, "libnvidia-ml.so.1");
	not_found(l);
	copy(l, "/opt/nv/libnvidia-ml.so.1", NULL, "libnvidia-ml.so.1", STEP_NONE);
	run_all(f);
	ok(fs.n == 0, "NVML off the path without a driver: nothing");
	gpu_ok(f);
	libcuda_ok(f);
	run_all(f);
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) != NULL,
	    "NVML off the path while the driver works: SONAME_OFF_SEARCH_PATH");
	facts_free(f);

	f = new_facts();
	l = lib(f, "libnvinfer.so.8");
	l->optional = true;
	not_found(l);
	run_all(f);
	ok(fs.n == 0, "TensorRT absent everywhere: nothing in the survey");
	run_one(f, l);
	fd = get(FINDING_OPTIONAL_LIB_MISSING);
	ok(sev(fd) == SEV_INFO, "explain on libnvinfer.so.8: OPTIONAL_LIB_MISSING, information");
	ok(get(FINDING_SONAME_NOT_FOUND) == NULL, "never SONAME_NOT_FOUND");
	copy(l, "/opt/TensorRT-8.6/lib/libnvinfer.so.8", "/opt/TensorRT-8.6/lib/libnvinfer.so.8.6.1",
	    "libnvinfer.so.8", STEP_NONE);
	run_all(f);
	fd = get(FINDING_OPTIONAL_LIB_MISSING);
	ok(sev(fd) == SEV_INFO && fix_is(fd,
	    "export LD_LIBRARY_PATH=/opt/TensorRT-8.6/lib\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "installed off the path: information with the fix that reaches it");
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) == NULL, "not OFF_SEARCH_PATH");
	facts_free(f);
}

static void
test_spoof_and_version(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	l = lib(f, "libcudart.so.10.1");
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH, "/opt/x/libcudart.so.10.1",
	    "/opt/x/libcudart.so.10.2.89", "libcudart.so.10.2");
	copy(l, "/usr/local/cuda-10.1/lib64/libcudart.so.10.1",
	    "/usr/local/cuda-10.1/lib64/libcudart.so.10.1.243", "libcudart.so.10.1", STEP_NONE);
	run_all(f);
	fd = get(FINDING_SONAME_SPOOF_SYMLINK);
	ok(sev(fd) == SEV_WARNING, "libcudart.so.10.1 -> libcudart.so.10.2.89: SONAME_SPOOF_SYMLINK");
	ok(EVID(fd, "/opt/x/libcudart.so.10.2.89 has SONAME libcudart.so.10.2"),
	    "the evidence gives the target's SONAME");
	ok(EVID(fd, "a real libcudart.so.10.1 exists: /usr/local/cuda-10.1/lib64/libcudart.so.10.1"),
	    "and the real copy");
	ok(fix_is(fd, "sudo rm -- /opt/x/libcudart.so.10.1") &&
	    fix_is(fd, "export LD_LIBRARY_PATH=/usr/local/cuda-10.1/lib64\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "the fix removes the link and points at the real copy");
	ok(get(FINDING_SONAME_VERSION_MISMATCH) == NULL, "not VERSION_MISMATCH as well");

	/* Without a SONAME the target's file name says it. */
	FREE(&l->elf_soname);
	run_all(f);
	ok(get(FINDING_SONAME_SPOOF_SYMLINK) != NULL,
	    "no SONAME: the target's file name (10.2.89) betrays the spoof");
	free(l->target);
	l->target = xstrdup("/opt/x/libcudart.so.10.1.243");
	run_all(f);
	ok(get(FINDING_SONAME_SPOOF_SYMLINK) == NULL,
	    "libcudart.so.10.1 -> libcudart.so.10.1.243: no spoof");
	free(l->soname);
	l->soname = xstrdup("libcudart.so.11.0");
	free(l->target);
	l->target = xstrdup("/opt/x/libcudart.so.11.8.89");
	run_all(f);
	ok(get(FINDING_SONAME_SPOOF_SYMLINK) == NULL,
	    "libcudart.so.11.0 -> libcudart.so.11.8.89: the .0 claims no minor");
	free(l->target);
	l->target = xstrdup("/opt/x/libcudart.so.12.4.127");
	run_all(f);
	ok(get(FINDING_SONAME_SPOOF_SYMLINK) != NULL,
	    "libcudart.so.11.0 -> libcudart.so.12.4.127: a spoof");
	facts_free(f);

	f = new_facts();
	l = lib(f, "libcudnn.so.9");
	found(l, STEP_CACHE, STEP_CACHE, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9",
	    "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0", "libcudnn.so.9");
	strv_push(&l->elf_verdefs, "libcudnn.so.9");
	run_all(f);
	ok(fs.n == 0, "a right library with its own version definition: nothing");

	/* A regular file whose SONAME is another version. */
	free(l->target);
	l->target = xstrdup(l->resolved);
	free(l->elf_soname);
	l->elf_soname = xstrdup("libcudnn.so.8");
	run_all(f);
	fd = get(FINDING_SONAME_VERSION_MISMATCH);
	ok(sev(fd) == SEV_ERROR && get(FINDING_SONAME_SPOOF_SYMLINK) == NULL,
	    "a file named libcudnn.so.9 that is libcudnn.so.8: VERSION_MISMATCH, no spoof");
	ok(EVID(fd, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9 has SONAME libcudnn.so.8"),
	    "the evidence gives the SONAME");

	/* The SONAME is right, the version definitions are not. */
	free(l->elf_soname);
	l->elf_soname = xstrdup("libcudnn.so.9");
	strv_free(&l->elf_verdefs);
	strv_push(&l->elf_verdefs, "libcudnn.so.8");
	run_all(f);
	fd = get(FINDING_SONAME_VERSION_MISMATCH);
	ok(fd != NULL && EVID(fd, "its version definitions: libcudnn.so.8"),
	    "version definitions of another major: VERSION_MISMATCH");
	strv_free(&l->elf_verdefs);
	strv_push(&l->elf_verdefs, "CUDNN_PRIVATE");
	run_all(f);
	ok(get(FINDING_SONAME_VERSION_MISMATCH) == NULL,
	    "version definitions that are not named for the library say nothing");
	facts_free(f);

	/* Driver and unversioned names. */
	f = new_facts();
	libcuda_ok(f);
	l = lib(f, "libcuda.so");
	found(l, STEP_DEFAULT, STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu/libcuda.so",
	    "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "libcuda.so.1");
	FREE(&f->libraries.v[0].elf_soname);
	run_all(f);
	ok(fs.n == 0, "libcuda.so.1 -> libcuda.so.580.65.06 and libcuda.so -> it: no spoof");
	if (fs.n > 0)
		codes_diag();
	facts_free(f);
}

static void
test_broken(void)
{
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	l = lib(f, "libcudart.so.12");
	step(l, STEP_LD_LIBRARY_PATH, "/opt/lfs", "/opt/lfs/libcudart.so.12",
	    STEP_FATAL, "invalid ELF header");
	l->error = xstrdup("/opt/lfs/libcudart.so.12: invalid ELF header");
	copy(l, "/usr/local/cuda-12.4/lib64/libcudart.so.12", NULL, "libcudart.so.12", STEP_NONE);
	run_all(f);
	fd = get(FINDING_BROKEN_LIBRARY);
	ok(sev(fd) == SEV_ERROR, "a file that stops the search: BROKEN_LIBRARY, an error");
	ok(EVID(fd, "/opt/lfs/libcudart.so.12 (LD_LIBRARY_PATH entry /opt/lfs): "
	    "invalid ELF header; the search stops here"), "the evidence names the file and step");
	ok(fix_is(fd, "file -L /opt/lfs/libcudart.so.12") &&
	    fix_is(fd, "sudo rm -- /opt/lfs/libcudart.so.12"),
	    "the fix shows what it is and removes it");
	ok(get(FINDING_SONAME_OFF_SEARCH_PATH) == NULL && get(FINDING_SONAME_NOT_FOUND) == NULL,
	    "the broken file is the cause: nothing else about the name");
	facts_free(f);

	/* A 32-bit copy passed over, a good one found later. */
	f = new_facts();
	l = lib(f, "libcudart.so.12");
	step(l, STEP_LD_LIBRARY_PATH, "/home/u/lib32", "/home/u/lib32/libcudart.so.12",
	    STEP_SKIPPED, "wrong ELF class: ELFCLASS32");
	found(l, STEP_DEFAULT, STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu/libcudart.so.12",
	    "/usr/lib/x86_64-linux-gnu/libcudart.so.12.0.146", "libcudart.so.12");
	run_all(f);
	fd = get(FINDING_BROKEN_LIBRARY);
	ok(sev(fd) == SEV_INFO && EVID(fd, "wrong ELF class: ELFCLASS32; passed over"),
	    "a wrong-class copy passed over before the winner: information");
	ok(fix_is(fd, "rm -- /home/u/lib32/libcudart.so.12"),
	    "a user's directory needs no sudo");

	/* The only copy is the wrong class. */
	l->steps.n = 1;
	free(l->steps.v[1].dir);
	free(l->steps.v[1].path);
	FREE(&l->resolved);
	FREE(&l->target);
	l->via = STEP_NONE;
	FREE(&l->elf_soname);
	run_all(f);
	fd = get(FINDING_BROKEN_LIBRARY);
	ok(sev(fd) == SEV_WARNING, "the only copy of the wrong class: a warning");
	ok(get(FINDING_SONAME_NOT_FOUND) == NULL, "and not SONAME_NOT_FOUND as well");
	facts_free(f);

	/* A dangling link passed over. */
	f = new_facts();
	l = lib(f, "libcuda.so.1");
	found(l, STEP_DEFAULT, STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	    "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "libcuda.so.1");
	{
		struct lib_dangling *d = VEC_PUSH(&l->dangling);

		d->path = xstrdup("/lib64/libcuda.so.1");
		d->link = xstrdup("libcuda.so.535.104.05");
		d->via = STEP_DEFAULT;
	}
	run_all(f);
	fd = get(FINDING_BROKEN_LIBRARY);
	ok(sev(fd) == SEV_INFO && EVID(fd, "/lib64/libcuda.so.1 -> libcuda.so.535.104.05 "
	    "(a default directory): a dangling link, passed over"),
	    "a dangling link: information naming the link");
	ok(fix_is(fd, "sudo rm -- /lib64/libcuda.so.1") && fix_is(fd, "sudo ldconfig"),
	    "the fix removes it and runs ldconfig");
	facts_free(f);

	f = new_facts();
	libcuda_ok(f);
	run_all(f);
	ok(get(FINDING_BROKEN_LIBRARY) == NULL, "nothing broken, no BROKEN_LIBRARY");
	facts_free(f);
}

static void
test_shadowed(void)
{
	static const char *const dirs[] = { "/opt/rt", NULL };
	struct facts *f = new_facts();
	struct lib_fact *l;
	const struct finding *fd;

	llp(f, dirs);
	l = lib(f, "libcudart.so.12");
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH, "/opt/rt/libcudart.so.12",
	    "/opt/rt/libcudart.so.12.0.146", "libcudart.so.12");
	copy(l, "/usr/lib/x86_64-linux-gnu/libcudart.so.12",
	    "/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127", "libcudart.so.12", STEP_DEFAULT);
	run_all(f);
	fd = get(FINDING_LIB_SHADOWED);
	ok(sev(fd) == SEV_WARNING, "an older copy shadows a newer one: LIB_SHADOWED, a warning");
	ok(EVID(fd, "shadowed: /usr/lib/x86_64-linux-gnu/libcudart.so.12 "
	    "(/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127), which a default directory would reach next"),
	    "the evidence names the shadowed copy and the step");
	ok(fix_is(fd, "unset LD_LIBRARY_PATH"),
	    "the fix drops the shadowing directory (the only entry: unset)");

	free(l->target);
	l->target = xstrdup("/opt/rt/libcudart.so.12.8.90");
	run_all(f);
	ok(sev(get(FINDING_LIB_SHADOWED)) == SEV_INFO, "a newer copy first: information");

	free(l->copies.v[0].target);
	l->copies.v[0].target = xstrdup("/usr/lib/x86_64-linux-gnu/libcudart.so.12.8.90");
	run_all(f);
	ok(get(FINDING_LIB_SHADOWED) == NULL, "the same version twice: nothing");

	free(l->copies.v[0].target);
	l->copies.v[0].target = xstrdup("/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127");
	l->copies.v[0].reached_via = STEP_NONE;
	run_all(f);
	ok(get(FINDING_LIB_SHADOWED) == NULL, "a copy no later step reaches is not shadowed");
	facts_free(f);
}

static void
test_mixed(void)
{
	static const char *const dirs[] = { "/usr/local/cuda-11.8/lib64",
	    "/usr/local/cuda-12.4/lib64", NULL };
	struct facts *f = new_facts();
	struct lib_fact *l;
	struct toolkit_fact *t;
	const struct finding *fd;

	llp(f, dirs);
	l = lib(f, "libcudart.so.11.0");
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-11.8/lib64/libcudart.so.11.0",
	    "/usr/local/cuda-11.8/lib64/libcudart.so.11.8.89", "libcudart.so.11.0");
	l = lib(f, "libcudart.so.12");
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-12.4/lib64/libcudart.so.12",
	    "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "libcudart.so.12");
	t = VEC_PUSH(&f->toolkits);
	t->root = xstrdup("/usr/local/cuda-12.4");
	fact_set(&t->version, "12.4.1", "version.json");
	strv_push(&t->found_via, "PATH");
	run_all(f);
	fd = get(FINDING_MIXED_CUDA_VERSIONS);
	ok(sev(fd) == SEV_WARNING, "LD_LIBRARY_PATH with CUDA 11 and 12: a warning");
	ok(EVID(fd, "/usr/local/cuda-11.8/lib64: libcudart.so.11.0 (CUDA 11), via LD_LIBRARY_PATH"),
	    "the evidence names each directory and its runtime");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64"),
	    "the fix keeps the major of the nvcc on PATH");

	/* Side by side through ld.so.conf only. */
	for (size_t i = 0; i < f->libraries.n; i++) {
		f->libraries.v[i].via = STEP_CACHE;
	}
	ldconf(f, "/usr/local/cuda-11.8/lib64", "/etc/ld.so.conf.d/cuda-11-8.conf");
	run_all(f);
	fd = get(FINDING_MIXED_CUDA_VERSIONS);
	ok(sev(fd) == SEV_INFO, "side-by-side toolkits through ld.so.conf: information");
	ok(FIX(fd, "/usr/local/cuda-11.8/lib64 (CUDA 11) is listed in /etc/ld.so.conf.d/cuda-11-8.conf"),
	    "naming the ld.so.conf file of each");
	facts_free(f);

	f = new_facts();
	l = lib(f, "libcudart.so.12");
	found(l, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-12.4/lib64/libcudart.so.12",
	    "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "libcudart.so.12");
	copy(l, "/usr/local/cuda/lib64/libcudart.so.12", "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127",
	    "libcudart.so.12", STEP_CACHE);
	run_all(f);
	ok(get(FINDING_MIXED_CUDA_VERSIONS) == NULL, "one major in two directories: nothing");
	facts_free(f);
}

int
main(void)
{
	test_healthy();
	test_libcuda_not_found();
	test_stub();
	test_wsl();
	test_not_found_off_path();
	test_nvml_and_optional();
	test_spoof_and_version();
	test_broken();
	test_shadowed();
	test_mixed();
	findings_free(&fs);
	return done_testing();
}
