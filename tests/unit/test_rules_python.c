/* Unit tests for rules_python (rules_python.c, rules_pyenv.c,
 * rules_fwgpu.c, pyrules_fix.c) on Python facts built by hand: each
 * finding where it fires, with its evidence and exact fix lines, and the
 * near misses where it must not; a GPU-ready framework and an environment
 * without frameworks give nothing; without the matrix the rules still
 * say what they can. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "loader/resolve.h"
#include "matrix/matrix.h"
#include "util/xalloc.h"

#define VENV	"/home/u/venv"
#define PY	VENV "/bin/python"
#define SITE	VENV "/lib/python3.10/site-packages"
#define CONDA	"/opt/conda/envs/ml"
#define CPY	CONDA "/bin/python"

static struct matrix *mx;
static struct findings fs;

/* ------------------------------------------------------------- builders */

/* A GPU bound to nvidia with compute capability cc, and the driver
 * version the matrix turns into what it runs. */
static void
machine(struct facts *f, const char *cc, const char *driver)
{
	struct gpu_fact *g = VEC_PUSH(&f->gpus);

	fact_set(&f->gpus_state, "yes", "/sys/bus/pci/devices");
	g->pci_address = xstrdup("0000:01:00.0");
	g->vendor_id = 0x10de;
	fact_set(&g->kernel_driver, "nvidia", "driver link");
	fact_set(&g->name, "NVIDIA Test GPU", "raw");
	fact_set(&f->driver.nvidia_loaded, "yes", "/proc/driver/nvidia");
	if (driver != NULL) {
		fact_set(&f->driver.module_version, driver, "/proc/driver/nvidia/version");
		diagnose_annotate(f, mx);
	}
	if (cc != NULL)
		fact_set(&g->cc, cc, "matrix");
}

static void
no_gpu(struct facts *f)
{
	fact_set(&f->gpus_state, "yes", "/sys/bus/pci/devices");
}

static struct py_env *
env(struct facts *f, enum pyenv_kind kind, const char *prefix)
{
	struct py_env *e = VEC_PUSH(&f->python_envs);

	e->prefix = xstrdup(prefix);
	e->kind = kind;
	e->python = xasprintf("%s/bin/python", prefix);
	strv_pushf(&e->site_dirs, "%s/lib/python3.10/site-packages", prefix);
	if (kind == PYENV_CONDA) {
		e->name = xstrdup("ml");
		e->lib_dir = xasprintf("%s/lib", prefix);
	}
	return e;
}

/* A fresh machine (a GPU of compute capability cc, the driver) with one
 * environment on it. Facts start with the GPUs unknown. */
static struct py_env *
setup(struct facts **fp, const char *cc, const char *driver,
    enum pyenv_kind kind)
{
	*fp = facts_new("/", false);
	machine(*fp, cc, driver);
	return env(*fp, kind, kind == PYENV_CONDA ? CONDA : VENV);
}

static struct py_package *
pkg(struct py_env *e, const char *name, const char *version)
{
	struct py_package *p = VEC_PUSH(&e->packages);

	p->name = xstrdup(name);
	p->version = xstrdup(version);
	p->source = PYPKG_DIST_INFO;
	p->site = e->site_dirs.v[0];
	p->path = xasprintf("%s/%s-%s.dist-info", p->site, name, version);
	p->metadata_read = true;
	return p;
}

static struct py_package *
conda_pkg(struct py_env *e, const char *name, const char *version,
    const char *build)
{
	struct py_package *p = VEC_PUSH(&e->packages);

	p->name = xstrdup(name);
	p->version = xstrdup(version);
	p->source = PYPKG_CONDA;
	p->build = build != NULL ? xstrdup(build) : NULL;
	p->channel = xstrdup("conda-forge");
	p->path = xasprintf("%s/conda-meta/%s-%s-%s.json", e->prefix, name,
	    version, build != NULL ? build : "0");
	return p;
}

static struct framework_fact *
fw(struct py_env *e, const char *name, const char *package, const char *version,
    enum fw_gpu gpu, const char *cuda)
{
	struct framework_fact *w = VEC_PUSH(&e->frameworks);
	const char *plus = strchr(version, '+');

	w->name = xstrdup(name);
	w->package = xstrdup(package);
	w->version = xstrdup(version);
	w->variant = plus != NULL ? xstrdup(plus + 1) : NULL;
	w->dir = xasprintf("%s/%s", e->site_dirs.v[0], package);
	w->gpu = gpu;
	if (gpu == FW_GPU_NO)
		w->gpu_why = xasprintf("%s/version.py: cuda = None", w->dir);
	if (cuda != NULL) {
		w->cuda = xstrdup(cuda);
		w->cuda_source = xasprintf("%s/version.py", w->dir);
	}
	return w;
}

static struct resolve_step *
step(struct lib_fact *l, enum step_source src, const char *dir,
    const char *path, enum step_result res)
{
	struct resolve_step *s = VEC_PUSH(&l->steps);

	s->source = src;
	s->dir = dir != NULL ? xstrdup(dir) : NULL;
	s->path = path != NULL ? xstrdup(path) : NULL;
	s->result = res;
	return s;
}

static struct fw_need *
need(struct framework_fact *w, const char *soname, enum fw_need_how how,
    enum fw_need_from from, const char *expected_dir, const char *expected_pkg)
{
	struct fw_need *n = VEC_PUSH(&w->needs);

	n->soname = xstrdup(soname);
	n->how = how;
	n->from = from;
	n->requester = xasprintf("%s/lib/libmain.so", w->dir);
	n->expected_dir = expected_dir != NULL ? xstrdup(expected_dir) : NULL;
	n->expected_pkg = expected_pkg != NULL ? xstrdup(expected_pkg) : NULL;
	n->lib = xcalloc(1, sizeof *n->lib);
	n->lib->soname = xstrdup(soname);
	return n;
}

/* The need resolves to path (the real file target) through step src. */
static void
found(struct fw_need *n, enum step_source src, enum step_source via,
    const char *path, const char *target)
{
	char *dir = xstrdup(path);

	*strrchr(dir, '/') = '\0';
	step(n->lib, src, dir, path, STEP_FOUND);
	free(dir);
	n->lib->resolved = xstrdup(path);
	n->lib->via = via;
	n->lib->target = xstrdup(target != NULL ? target : path);
}

static void
missing(struct fw_need *n)
{
	step(n->lib, STEP_RUNPATH, SITE "/torch/lib", NULL, STEP_NOT_FOUND);
	step(n->lib, STEP_CACHE, NULL, NULL, STEP_NOT_FOUND);
	step(n->lib, STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu", NULL, STEP_NOT_FOUND);
	n->lib->error = xasprintf("%s: cannot open shared object file: No such "
	    "file or directory", n->soname);
}

static struct lib_copy *
copy(struct fw_need *n, const char *path, const char *target,
    enum step_source reached_via)
{
	struct lib_copy *c = VEC_PUSH(&n->lib->copies);

	c->path = xstrdup(path);
	c->target = xstrdup(target != NULL ? target : path);
	c->soname = xstrdup(n->soname);
	c->loadable = true;
	c->reached_via = reached_via;
	return c;
}

static struct lib_fact *
syslib(struct facts *f, const char *soname, const char *path, const char *target)
{
	struct lib_fact *l = VEC_PUSH(&f->libraries);
	char *dir = xstrdup(path);

	*strrchr(dir, '/') = '\0';
	l->soname = xstrdup(soname);
	step(l, STEP_CACHE, NULL, path, STEP_FOUND);
	l->resolved = xstrdup(path);
	l->via = STEP_CACHE;
	l->target = xstrdup(target);
	free(dir);
	return l;
}

/* LD_LIBRARY_PATH as the probe records it, every entry an existing
 * directory. */
static void
llp(struct facts *f, const char *value)
{
	struct path_var *pv = &f->env.ld_library_path;
	struct strv dirs = STRV_INIT;

	pv->set = true;
	pv->raw = xstrdup(value);
	strv_split(&dirs, value, ":");
	for (size_t i = 0; i < dirs.n; i++) {
		struct path_entry *pe = VEC_PUSH(&pv->entries);

		pe->value = dirs.v[i];
		pe->exists = 1;
		pe->is_dir = true;
		pe->duplicate_of = -1;
	}
	free(dirs.v);
}

static void
sass(struct framework_fact *w, const char *const *sm, const char *const *ptx)
{
	w->archs.read = true;
	w->archs.source = xasprintf("%s/lib/libtorch_cuda.so", w->dir);
	for (size_t i = 0; sm[i] != NULL; i++)
		strv_push(&w->archs.sass, sm[i]);
	for (size_t i = 0; ptx[i] != NULL; i++)
		strv_push(&w->archs.ptx, ptx[i]);
}

/* -------------------------------------------------------------- running */

static void
run_with(const struct facts *f, const struct matrix *m)
{
	struct diagnose_input in = { f, m, 0, 0 };

	findings_free(&fs);
	rules_python(&in, &fs);
}

static void
run(const struct facts *f)
{
	run_with(f, mx);
}

#define get(code)	findings_find(&fs, (code))

/* How many findings of code the last run gave. */
static size_t
count(enum finding_code code)
{
	size_t n = 0;

	for (const struct finding *p = fs.v; p < fs.v + fs.n; p++)
		n += p->code == code;
	return n;
}

static bool
has_line(const struct strv *sv, const char *s)
{
	for (size_t i = 0; sv != NULL && i < sv->n; i++)
		if (strstr(sv->v[i], s) != NULL)
			return true;
	return false;
}

#define EVID(fd, s) ((fd) != NULL && has_line(&(fd)->evidence, (s)))
#define FIX(fd, s) ((fd) != NULL && has_line(&(fd)->fix, (s)))
#define DETAIL(fd, s) ((fd) != NULL && strstr((fd)->detail, (s)) != NULL)

static bool
fix_is(const struct finding *fd, const char *line)
{
	return fd != NULL && strv_contains(&fd->fix, line);
}

static int
sev(const struct finding *fd)
{
	return fd != NULL ? (int)fd->severity : -1;
}

static void
dump(void)
{
	for (size_t i = 0; i < fs.n; i++) {
		printf("#   %s (%s): %s\n", finding_code_name(fs.v[i].code),
		    severity_name(fs.v[i].severity), fs.v[i].detail);
		for (size_t k = 0; k < fs.v[i].evidence.n; k++)
			printf("#     ev: %s\n", fs.v[i].evidence.v[k]);
		for (size_t k = 0; k < fs.v[i].fix.n; k++)
			printf("#     fix: %s\n", fs.v[i].fix.v[k]);
	}
}

/* A GPU-ready torch 2.5.1+cu124 in a venv: its wheels where it expects
 * them, the pins met, code for the GPU. */
static struct framework_fact *
healthy_torch(struct py_env *e)
{
	static const char *const sm[] = { "sm_50", "sm_60", "sm_70", "sm_75",
	    "sm_80", "sm_86", "sm_90", NULL };
	static const char *const ptx[] = { "compute_90", NULL };
	struct py_package *t = pkg(e, "torch", "2.5.1+cu124");
	struct framework_fact *w;
	struct fw_need *n;

	strv_push(&t->requires, "nvidia-cuda-runtime-cu12==12.4.127; "
	    "platform_system == \"Linux\" and platform_machine == \"x86_64\"");
	strv_push(&t->requires, "nvidia-cudnn-cu12==9.1.0.70; "
	    "platform_system == \"Linux\" and platform_machine == \"x86_64\"");
	pkg(e, "nvidia-cuda-runtime-cu12", "12.4.127");
	pkg(e, "nvidia-cudnn-cu12", "9.1.0.70");
	w = fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	w->cudnn = xstrdup("9.1");
	n = need(w, "libcudart.so.12", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cuda_runtime/lib", "nvidia-cuda-runtime-cu12");
	found(n, STEP_RUNPATH, STEP_RUNPATH, SITE "/nvidia/cuda_runtime/lib/libcudart.so.12",
	    NULL);
	n = need(w, "libcudnn.so.9", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cudnn/lib", "nvidia-cudnn-cu12");
	found(n, STEP_RUNPATH, STEP_RUNPATH, SITE "/nvidia/cudnn/lib/libcudnn.so.9", NULL);
	n = need(w, "libnvinfer.so.10", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL);
	n->optional = true;
	missing(n);
	sass(w, sm, ptx);
	return w;
}

/* ---------------------------------------------------------------- tests */

static void
test_nothing(void)
{
	struct facts *f;
	struct py_env *e;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	run(f);
	is_int(fs.n, 0, "no environments: nothing");
	pkg(e, "numpy", "1.26.4");
	pkg(e, "requests", "2.31.0");
	run(f);
	is_int(fs.n, 0, "an environment without frameworks: nothing");
	is_str(fs.n > 0 ? finding_code_name(fs.v[0].code) : NULL, NULL,
	    "... not even information");
	facts_free(f);
}

static void
test_healthy(void)
{
	struct facts *f;
	struct py_env *e;
	struct framework_fact *w;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	w = healthy_torch(e);
	ok(framework_gpu_ready(w), "the healthy torch is GPU-ready by the contract");
	run(f);
	is_int(fs.n, 0, "a GPU-ready framework gives no finding at all");
	if (fs.n > 0)
		dump();
	run_with(f, NULL);
	is_int(fs.n, 0, "... without the matrix either");
	facts_free(f);

	/* A GPU on which the build has machine code through an older SASS
	 * minor (sm_86 on 8.9), and the whole doctor run. */
	e = setup(&f, "8.9", "550.54.15", PYENV_VENV);
	healthy_torch(e);
	run(f);
	is_int(count(FINDING_GPU_ARCH_UNSUPPORTED), 0, "sm_86 SASS runs on an 8.9 GPU");
	{
		struct diagnose_input in = { f, mx, 0, 0 };

		findings_free(&fs);
		diagnose(&in, &fs);
		is_int(findings_count(&fs, SEV_ERROR), 0,
		    "doctor on the healthy environment: no error finding");
		if (findings_count(&fs, SEV_ERROR) > 0)
			dump();
	}
	facts_free(f);
}

static void
test_cpu_only(void)
{
	struct facts *f;
	struct py_env *e;
	const struct finding *fd;

	e = setup(&f, "8.6", "535.104.05", PYENV_VENV);
	pkg(e, "torch", "2.5.1+cpu");
	pkg(e, "torchvision", "0.20.1+cpu");
	fw(e, "pytorch", "torch", "2.5.1+cpu", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fd != NULL && sev(fd) == SEV_WARNING,
	    "torch +cpu on a machine with a GPU: FRAMEWORK_CPU_ONLY, a warning");
	ok(DETAIL(fd, "torch 2.5.1+cpu in the virtual environment " VENV
	    " is a CPU-only build") && DETAIL(fd, "torch.cuda.is_available() returns False"),
	    "the detail names the build, the environment and what the user sees");
	ok(EVID(fd, "CPU-only: " SITE "/torch/version.py: cuda = None"),
	    "the evidence says what says it is CPU-only");
	ok(EVID(fd, "GPU 0000:01:00.0: NVIDIA Test GPU, compute capability 8.6"),
	    "and names the GPU");
	ok(fix_is(fd, PY " -m pip uninstall -y torch"),
	    "the fix removes the CPU build first (pip takes ==2.5.1 as met by +cpu)");
	ok(fix_is(fd, PY " -m pip install torch==2.5.1 torchvision --index-url "
	    "https://download.pytorch.org/whl/cu124"),
	    "and installs the newest CUDA build driver 535 runs (cu124), with torchvision");
	is_int(fs.n, 1, "and nothing else");

	/* An older driver: CUDA 11 is all it runs. */
	facts_free(f);
	e = setup(&f, "8.6", "470.82.01", PYENV_VENV);
	pkg(e, "torch", "2.5.1+cpu");
	fw(e, "pytorch", "torch", "2.5.1+cpu", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fix_is(fd, PY " -m pip install torch==2.5.1 --index-url "
	    "https://download.pytorch.org/whl/cu118"),
	    "driver 470 runs CUDA 11.x: the cu118 build");
	ok(!FIX(fd, "nvidia-driver"), "no driver update is needed for it");
	facts_free(f);

	/* A driver too old for every build: the nearest, and the driver. */
	e = setup(&f, "8.6", "418.39", PYENV_VENV);
	pkg(e, "torch", "2.5.1+cpu");
	fw(e, "pytorch", "torch", "2.5.1+cpu", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(FIX(fd, "whl/cu118") && fix_is(fd, "sudo apt-get install nvidia-driver-520"),
	    "driver 418 runs none: the cu118 build and driver 520 (CUDA 11.8's minimum)");
	ok(FIX(fd, "CUDA 11.8 needs driver 520.61.05 or newer"),
	    "the driver line says why");
	/* Without the matrix: PyPI's Linux torch is a CUDA build. */
	run_with(f, NULL);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fix_is(fd, PY " -m pip install torch==2.5.1") && !FIX(fd, "--index-url"),
	    "without the matrix: plain PyPI torch, no index URL to guess");
	facts_free(f);

	/* No GPU on the machine: nothing; GPUs unknown: a note. */
	f = facts_new("/", false);
	no_gpu(f);
	e = env(f, PYENV_VENV, VENV);
	pkg(e, "torch", "2.5.1+cpu");
	fw(e, "pytorch", "torch", "2.5.1+cpu", FW_GPU_NO, NULL);
	run(f);
	is_int(fs.n, 0, "a CPU build on a machine with no GPU: nothing");
	fact_unknown(&f->gpus_state, "no /sys");
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(sev(fd) == SEV_INFO, "GPUs not known: information only");
	facts_free(f);

	/* tensorflow-cpu: the package itself is the CPU build. */
	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "tensorflow-cpu", "2.15.0");
	fw(e, "tensorflow", "tensorflow-cpu", "2.15.0", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fix_is(fd, PY " -m pip uninstall -y tensorflow-cpu") &&
	    fix_is(fd, PY " -m pip install 'tensorflow[and-cuda]==2.15.0'"),
	    "tensorflow-cpu: remove it, install tensorflow[and-cuda] of the same version");
	ok(DETAIL(fd, "tf.config.list_physical_devices('GPU') is empty"),
	    "TensorFlow's symptom");
	ok(FIX(fd, "# install the GPU build of tensorflow for CUDA 12.2, which this driver runs:"),
	    "the comment names the package to install and its CUDA");
	facts_free(f);

	/* A CPU build conda installed: conda-forge's CUDA build. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "pytorch", "2.5.1", "cpu_generic_py310h1234_0");
	fw(e, "pytorch", "pytorch", "2.5.1", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fix_is(fd, "conda install -p " CONDA " -c conda-forge 'pytorch=2.5.1=cuda*' "
	    "cuda-version=12.4"),
	    "conda's CPU pytorch: the conda-forge CUDA build for CUDA 12.4");
	ok(DETAIL(fd, "the conda environment ml (" CONDA ")"), "the environment by name");
	facts_free(f);

	/* A CUDA build: not this rule's. */
	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "torch", "2.5.1+cu124");
	fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	fw(e, "numba", "numba", "0.60.0", FW_GPU_NO, NULL);
	run(f);
	is_int(count(FINDING_FRAMEWORK_CPU_ONLY), 0,
	    "a CUDA build, and plain numba (a CPU compiler): no FRAMEWORK_CPU_ONLY");
	facts_free(f);
}

static void
test_spacy(void)
{
	struct facts *f;
	struct py_env *e;
	struct py_package *sp;
	struct framework_fact *w;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	sp = pkg(e, "spacy", "3.7.2");
	strv_push(&sp->extras, "cuda11x");
	strv_push(&sp->extras, "cuda12x");
	w = fw(e, "spacy", "spacy", "3.7.2", FW_GPU_UNKNOWN, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fd != NULL && sev(fd) == SEV_WARNING, "spaCy without CuPy: FRAMEWORK_CPU_ONLY");
	ok(DETAIL(fd, "spaCy will silently run on the CPU"), "spaCy silently runs on the CPU");
	ok(fix_is(fd, PY " -m pip install 'spacy[cuda12x]==3.7.2'"),
	    "the fix installs spaCy's CUDA 12 extra for this driver");
	w->gpu_through = xstrdup("cupy");
	run(f);
	is_int(count(FINDING_FRAMEWORK_CPU_ONLY), 0, "spaCy on CuPy: not CPU-only");
	facts_free(f);
}

/* Issue 18: the install lines of these rules come from the catalogue.
 * tensorflow-gpu was published from 1.5: a 1.4 build gets words, never
 * the command (and its CPU build is not removed for nothing). */
static void
test_published_only(void)
{
	struct facts *f;
	struct py_env *e;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "tensorflow", "1.4.0");
	fw(e, "tensorflow", "tensorflow", "1.4.0", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fd != NULL, "tensorflow 1.4 CPU-only on a GPU machine: FRAMEWORK_CPU_ONLY");
	ok(!FIX(fd, PY " -m pip install tensorflow-gpu==1.4.0"),
	    "no tensorflow-gpu 1.4.0 line: it was never published");
	ok(FIX(fd, "# no tensorflow-gpu 1.4.0 was published: pick a "
	    "release at https://www.tensorflow.org/install/pip"),
	    "the fix says so in words");
	facts_free(f);

	/* jax[cuda12] starts at 0.4.26: pinned where published, else the
	 * newest, said so. */
	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "jax", "0.4.30");
	fw(e, "jax", "jax", "0.4.30", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(FIX(fd, PY " -m pip install --upgrade 'jax[cuda12]==0.4.30'"),
	    "jax 0.4.30: its own release's CUDA 12 extra");
	facts_free(f);
	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "jax", "0.4.20");
	fw(e, "jax", "jax", "0.4.20", FW_GPU_NO, NULL);
	run(f);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(!FIX(fd, PY " -m pip install --upgrade 'jax[cuda12]==0.4.20'") &&
	    FIX(fd, PY " -m pip install --upgrade 'jax[cuda12]'"),
	    "jax 0.4.20: no jax[cuda12]==0.4.20 (never published), the extra unpinned");
	run_with(f, NULL);
	fd = get(FINDING_FRAMEWORK_CPU_ONLY);
	ok(fd != NULL && !FIX(fd, PY " -m pip install --upgrade 'jax[cuda12]==0.4.20'"),
	    "without the run's matrix the built-in catalogue still decides");
	facts_free(f);
}

/* spaCy on cupy-cuda11x on a machine with only CUDA 12 runtimes. */
static void
test_cupy11_on_cuda12(void)
{
	struct facts *f = facts_new("/", false);
	struct py_env *e;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	machine(f, "8.6", "550.54.15");
	syslib(f, "libcudart.so.12", "/usr/local/cuda-12.4/lib64/libcudart.so.12",
	    "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127");
	e = env(f, PYENV_VENV, VENV);
	pkg(e, "spacy", "3.7.2");
	pkg(e, "cupy-cuda11x", "12.3.0");
	/* The probe gives spaCy CuPy's needs (and its CUDA) as well. */
	w = fw(e, "spacy", "spacy", "3.7.2", FW_GPU_YES, "11.2");
	w->gpu_through = xstrdup("cupy");
	missing(need(w, "libcudart.so.11.0", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL));
	w = fw(e, "cupy", "cupy-cuda11x", "12.3.0", FW_GPU_YES, "11.2");
	n = need(w, "libcudart.so.11.0", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL);
	missing(n);
	n = need(w, "libcudart.so.11.0", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL);
	free(n->requester);
	n->requester = xstrdup(SITE "/cupy_backends/cuda/api/runtime.so");
	missing(n);
	run(f);
	is_int(count(FINDING_SONAME_NOT_FOUND), 1,
	    "one SONAME_NOT_FOUND for the soname, however many files need it");
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(sev(fd) == SEV_ERROR, "an error");
	ok(DETAIL(fd, "cupy-cuda11x 12.3.0 in the virtual environment " VENV
	    " needs libcudart.so.11.0"), "the detail names the framework, the environment, the soname");
	ok(DETAIL(fd, "silently runs on the CPU") &&
	    DETAIL(fd, "spaCy 3.7.2 runs its GPU work on it"),
	    "dlopen: it goes on on the CPU, and so does spaCy");
	ok(DETAIL(fd, "It is a CUDA 11 library, and this machine has it only for CUDA 12."),
	    "it says the machine has only CUDA 12 runtimes");
	ok(!DETAIL(fd, "spacy 3.7.2, ") && !EVID(fd, "(spacy 3.7.2)"),
	    "spaCy, which rides on CuPy, is said once, as the consequence");
	ok(EVID(fd, SITE "/cupy-cuda11x/lib/libmain.so (cupy-cuda11x 12.3.0) loads it with dlopen()") &&
	    EVID(fd, SITE "/cupy_backends/cuda/api/runtime.so (cupy-cuda11x 12.3.0) loads it with dlopen()"),
	    "both requesters are in the evidence");
	ok(EVID(fd, "libcudart.so.12 resolves to /usr/local/cuda-12.4/lib64/libcudart.so.12"),
	    "and the CUDA 12 runtime that is there");
	ok(EVID(fd, "the loader's error: libcudart.so.11.0: cannot open shared object file"),
	    "and the loader's error");
	ok(fix_is(fd, PY " -m pip install 'nvidia-cuda-runtime-cu11>=11.2,<12'"),
	    "fix: the CUDA 11 runtime wheel, into this environment");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=" SITE "/nvidia/cuda_runtime/lib"
	    "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "CuPy takes it from the search path: the wheel's directory goes on it");
	ok(fix_is(fd, PY " -m pip uninstall -y cupy-cuda11x") &&
	    fix_is(fd, PY " -m pip install cupy-cuda12x==12.3.0"),
	    "or CuPy's build for the CUDA 12 that is here");
	ok(get(FINDING_FRAMEWORK_CUDA_MISMATCH) == NULL && get(FINDING_FRAMEWORK_CPU_ONLY) == NULL,
	    "one finding for the root cause: no mismatch, no CPU-only beside it");

	run_with(f, NULL);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(fd != NULL && fix_is(fd, "# install CUDA 11.2's libraries from NVIDIA's "
	    "repository, and put their directory on LD_LIBRARY_PATH:") &&
	    !fix_is(fd, "sudo apt-get install cuda-libraries-11-2"),
	    "without the matrix: still the finding, and CUDA 11.2's libraries in "
	    "words, with no package name the catalogue could not check");

	/* With no GPU a framework going on without one is as it should be. */
	f->gpus.n = 0;
	run(f);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(sev(fd) == SEV_INFO, "no GPU on the machine: information");
	f->gpus.n = 1;
	facts_free(f);
}

static void
test_linked_not_found(void)
{
	struct facts *f;
	struct py_env *e;
	struct py_package *t;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	t = pkg(e, "torch", "2.1.0+cu121");
	strv_push(&t->requires, "nvidia-cudnn-cu12==8.9.2.26; platform_system == "
	    "\"Linux\" and platform_machine == \"x86_64\"");
	w = fw(e, "pytorch", "torch", "2.1.0+cu121", FW_GPU_YES, "12.1");
	n = need(w, "libcudnn.so.8", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cudnn/lib", "nvidia-cudnn-cu12");
	missing(n);
	run(f);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(sev(fd) == SEV_ERROR && DETAIL(fd, "Importing it fails with \"libcudnn.so.8: "
	    "cannot open shared object file"), "a linked need: importing torch fails");
	ok(EVID(fd, "expected in " SITE "/nvidia/cudnn/lib (nvidia-cudnn-cu12)") &&
	    EVID(fd, "nvidia-cudnn-cu12 is not installed in this environment"),
	    "the evidence says where torch expects it and that the wheel is absent");
	ok(EVID(fd, "not in DT_RUNPATH: " SITE "/torch/lib"), "and where the loader looked");
	ok(fix_is(fd, PY " -m pip install nvidia-cudnn-cu12==8.9.2.26"),
	    "fix: the wheel torch pins, with its pin");
	ok(!FIX(fd, "LD_LIBRARY_PATH"), "torch reaches its wheels itself: no LD_LIBRARY_PATH");
	/* Not this machine's GPU question: still an error with no GPU. */
	f->gpus.n = 0;
	run(f);
	ok(sev(get(FINDING_SONAME_NOT_FOUND)) == SEV_ERROR,
	    "a linked need fails the import even without a GPU: still an error");
	f->gpus.n = 1;

	/* A copy on the machine, off the search. */
	copy(n, "/opt/cudnn-8.9/lib/libcudnn.so.8", "/opt/cudnn-8.9/lib/libcudnn.so.8.9.2",
	    STEP_NONE);
	run(f);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(EVID(fd, "a copy exists where this search does not look: /opt/cudnn-8.9/lib/libcudnn.so.8"),
	    "the copy is named");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/opt/cudnn-8.9/lib\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"") &&
	    FIX(fd, "sudo tee /etc/ld.so.conf.d/opt-cudnn-8.9-lib.conf"),
	    "and the fix makes it reachable");
	facts_free(f);

	/* TensorFlow 2.15 without its CUDA wheels: the one it pins, or all
	 * of them through its extra. */
	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	t = pkg(e, "tensorflow", "2.15.0");
	strv_push(&t->requires, "nvidia-cuda-runtime-cu12==12.2.140; extra == \"and-cuda\"");
	w = fw(e, "tensorflow", "tensorflow", "2.15.0", FW_GPU_YES, "12.2");
	missing(need(w, "libcudart.so.12", FW_NEED_DLOPEN, FW_FROM_WHEEL,
	    SITE "/nvidia/cuda_runtime/lib", "nvidia-cuda-runtime-cu12"));
	run(f);
	fd = get(FINDING_SONAME_NOT_FOUND);
	ok(fix_is(fd, PY " -m pip install nvidia-cuda-runtime-cu12==12.2.140") &&
	    fix_is(fd, PY " -m pip install 'tensorflow[and-cuda]==2.15.0'"),
	    "TensorFlow 2.15: the wheel it pins, or tensorflow[and-cuda] of its version");
	ok(!FIX(fd, "LD_LIBRARY_PATH"), "it finds its wheels itself: no LD_LIBRARY_PATH");
	facts_free(f);

	/* In a conda environment, a need on the env's lib/: conda packages. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	pkg(e, "tensorflow", "2.10.0");
	w = fw(e, "tensorflow", "tensorflow", "2.10.0", FW_GPU_YES, "11.2");
	w->cudnn = xstrdup("8.1");
	n = need(w, "libcudnn.so.8", FW_NEED_DLOPEN, FW_FROM_CONDA, CONDA "/lib", NULL);
	missing(n);
	n = need(w, "libcudart.so.11.0", FW_NEED_DLOPEN, FW_FROM_CONDA, CONDA "/lib", NULL);
	missing(n);
	run(f);
	is_int(count(FINDING_SONAME_NOT_FOUND), 2, "two sonames, two findings");
	ok(fix_is(&fs.v[0], "conda install -p " CONDA " -c conda-forge cudnn=8.1") ||
	    fix_is(&fs.v[1], "conda install -p " CONDA " -c conda-forge cudnn=8.1"),
	    "cuDNN into the conda environment, the version TensorFlow was built with");
	ok(fix_is(&fs.v[0], "conda install -p " CONDA " -c conda-forge cudatoolkit=11.2") ||
	    fix_is(&fs.v[1], "conda install -p " CONDA " -c conda-forge cudatoolkit=11.2"),
	    "and the CUDA 11.2 runtime");
	facts_free(f);
}

static void
test_pins(void)
{
	struct facts *f;
	struct py_env *e;
	struct py_package *t, *d;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	t = pkg(e, "torch", "2.5.1+cu124");
	strv_push(&t->requires, "nvidia-cudnn-cu12==9.1.0.70; platform_system == "
	    "\"Linux\" and platform_machine == \"x86_64\"");
	strv_push(&t->requires, "nvidia-cublas-cu12 (==12.4.5.8) ; platform_system == \"Windows\"");
	d = pkg(e, "nvidia-cudnn-cu12", "8.9.2.26");
	pkg(e, "nvidia-cublas-cu12", "12.1.3.1");
	w = fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	n = need(w, "libcudnn.so.9", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cudnn/lib", "nvidia-cudnn-cu12");
	missing(n);
	run(f);
	fd = get(FINDING_PIP_CUDA_WHEELS_MIXED);
	ok(fd != NULL && sev(fd) == SEV_ERROR, "a pin the installed wheel breaks: an error");
	ok(EVID(fd, "torch requires nvidia-cudnn-cu12==9.1.0.70") &&
	    EVID(fd, "installed: nvidia-cudnn-cu12 8.9.2.26 (" SITE
	    "/nvidia-cudnn-cu12-8.9.2.26.dist-info)"), "the evidence names the pin and the install");
	ok(EVID(fd, "so libcudnn.so.9 is not found"), "and the need it leaves unresolved");
	ok(fix_is(fd, PY " -m pip install nvidia-cudnn-cu12==9.1.0.70"),
	    "the fix installs the pinned version");
	ok(!EVID(fd, "nvidia-cublas-cu12"), "a pin for Windows is not held against Linux");
	is_int(count(FINDING_SONAME_NOT_FOUND), 0,
	    "the missing libcudnn.so.9 is the pin's finding, not a second one");

	free(d->version);
	d->version = xstrdup("9.1.0.70");
	run(f);
	is_int(count(FINDING_PIP_CUDA_WHEELS_MIXED), 0, "the pinned version installed: no pin finding");
	ok(get(FINDING_SONAME_NOT_FOUND) != NULL,
	    "(and a need still unresolved is SONAME_NOT_FOUND again)");
	ok(fix_is(get(FINDING_SONAME_NOT_FOUND), PY " -m pip install --force-reinstall "
	    "--no-deps nvidia-cudnn-cu12==9.1.0.70"),
	    "installed and still missing: the wheel is reinstalled");

	/* Range pins. */
	free(t->requires.v[0]);
	t->requires.v[0] = xstrdup("nvidia-cudnn-cu12>=9.1,<10");
	run(f);
	is_int(count(FINDING_PIP_CUDA_WHEELS_MIXED), 0, "9.1.0.70 meets >=9.1,<10");
	free(d->version);
	d->version = xstrdup("10.0.0");
	run(f);
	ok(get(FINDING_PIP_CUDA_WHEELS_MIXED) != NULL, "10.0.0 does not meet <10");
	free(t->requires.v[0]);
	t->requires.v[0] = xstrdup("nvidia-cudnn-cu12~=10.0");
	run(f);
	is_int(count(FINDING_PIP_CUDA_WHEELS_MIXED), 0, "10.0.0 meets ~=10.0");
	free(t->requires.v[0]);
	t->requires.v[0] = xstrdup("nvidia-cudnn-cu12==9.*");
	run(f);
	ok(get(FINDING_PIP_CUDA_WHEELS_MIXED) != NULL, "10.0.0 does not meet ==9.*");
	facts_free(f);

	/* Extras name a package once per CUDA major; pip keeps no record of
	 * which was installed. The H200 machine of bench/gpu (2026-11-27),
	 * healthy, had these three told to install CUDA 12 packages. */
	e = setup(&f, "9.0", "580.159.04", PYENV_VENV);
	t = pkg(e, "cuda-core", "1.2.0");
	strv_push(&t->requires, "cuda-bindings==12.*; extra == \"cu12\"");
	strv_push(&t->requires, "cuda-bindings==13.*; extra == \"cu13\"");
	strv_push(&t->requires, "cuda-toolkit==12.*; extra == \"cu12\"");
	strv_push(&t->requires, "cuda-toolkit==13.*; extra == \"cu13\"");
	t = pkg(e, "jax", "0.11.2");
	strv_push(&t->requires, "jaxlib<=0.11.2,>=0.11.1");
	strv_push(&t->requires, "jaxlib==0.11.1; extra == \"minimum-jaxlib\"");
	pkg(e, "cuda-bindings", "13.3.1");
	pkg(e, "cuda-toolkit", "13.0.2");
	d = pkg(e, "jaxlib", "0.11.2");
	run(f);
	is_int(count(FINDING_PIP_CUDA_WHEELS_MIXED), 0,
	    "an extra for the other CUDA major, and an extra beside a plain pin that "
	    "holds: no finding");
	/* Neither extra holds: the first is told, once per package. */
	free(e->packages.v[2].version);
	e->packages.v[2].version = xstrdup("11.8.3");
	run(f);
	fd = get(FINDING_PIP_CUDA_WHEELS_MIXED);
	ok(fd != NULL && EVID(fd, "cuda-core requires cuda-bindings==12.*") &&
	    !EVID(fd, "cuda-core requires cuda-bindings==13.*"),
	    "no extra of cuda-core holds for cuda-bindings 11.8.3: told once");
	ok(fix_is(fd, PY " -m pip install 'cuda-bindings==12.*'"),
	    "... one specifier in the fix, not two that exclude each other");
	/* A lone extra (TensorFlow's and-cuda) still binds. */
	free(d->version);
	d->version = xstrdup("0.11.2");
	t = pkg(e, "tensorflow", "2.15.0");
	strv_push(&t->requires, "nvidia-cuda-runtime-cu12==12.2.140; extra == \"and-cuda\"");
	pkg(e, "nvidia-cuda-runtime-cu12", "12.4.127");
	run(f);
	ok(count(FINDING_PIP_CUDA_WHEELS_MIXED) == 2 &&
	    (EVID(&fs.v[0], "tensorflow requires nvidia-cuda-runtime-cu12==12.2.140") ||
	    EVID(&fs.v[1], "tensorflow requires nvidia-cuda-runtime-cu12==12.2.140")),
	    "the only requirement on a package, under an extra, that fails: told");
	facts_free(f);
}

static void
test_mixed_majors(void)
{
	struct facts *f;
	struct py_env *e;
	struct py_package *t;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	t = pkg(e, "torch", "2.5.1+cu124");
	strv_push(&t->requires, "nvidia-cudnn-cu12==9.1.0.70");
	pkg(e, "nvidia-cudnn-cu12", "9.1.0.70");
	pkg(e, "nvidia-cuda-runtime-cu12", "12.4.127");
	pkg(e, "nvidia-cublas-cu11", "11.11.3.6");
	pkg(e, "nvidia-ml-py", "12.535.133");
	fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	run(f);
	fd = get(FINDING_PIP_CUDA_WHEELS_MIXED);
	ok(fd != NULL && sev(fd) == SEV_WARNING, "wheels of CUDA 11 and 12: a warning");
	ok(DETAIL(fd, "nvidia-* wheels of 2 CUDA majors (12, 11)"), "the detail counts the majors");
	ok(EVID(fd, "nvidia-cublas-cu11 11.11.3.6: CUDA 11") &&
	    !EVID(fd, "nvidia-ml-py"), "the evidence lists the wheels and their majors, not NVML's");
	ok(fix_is(fd, PY " -m pip uninstall -y nvidia-cublas-cu11"),
	    "torch asks for CUDA 12: the CUDA 11 wheel goes");
	ok(!FIX(fd, "--force-reinstall"), "different libraries: nothing to reinstall");

	/* One library for two majors: one directory, files overwritten. */
	pkg(e, "nvidia-cudnn-cu11", "8.9.5.29");
	run(f);
	fd = get(FINDING_PIP_CUDA_WHEELS_MIXED);
	ok(sev(fd) == SEV_ERROR && EVID(fd, "nvidia-cudnn-cu12 and nvidia-cudnn-cu11 both "
	    "install into site-packages/nvidia/cudnn/lib"),
	    "nvidia-cudnn-cu11 beside -cu12: an error, one directory");
	ok(fix_is(fd, PY " -m pip uninstall -y nvidia-cublas-cu11 nvidia-cudnn-cu11") &&
	    fix_is(fd, PY " -m pip install --force-reinstall --no-deps nvidia-cudnn-cu12==9.1.0.70"),
	    "remove the CUDA 11 wheels, reinstall the overwritten CUDA 12 one");
	facts_free(f);

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "nvidia-cudnn-cu12", "9.1.0.70");
	pkg(e, "nvidia-cublas-cu12", "12.4.5.8");
	pkg(e, "nvidia-cuda-runtime", "13.0.96");
	run(f);
	fd = get(FINDING_PIP_CUDA_WHEELS_MIXED);
	ok(fd != NULL && EVID(fd, "nvidia-cuda-runtime 13.0.96: CUDA 13"),
	    "CUDA 13's suffixless wheels are known by the matrix");
	ok(fix_is(fd, PY " -m pip uninstall -y nvidia-cuda-runtime"),
	    "no framework: keep the newest major the driver runs (550: CUDA 12)");
	facts_free(f);

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	pkg(e, "nvidia-cudnn-cu12", "9.1.0.70");
	pkg(e, "nvidia-cublas-cu12", "12.4.5.8");
	run(f);
	is_int(fs.n, 0, "one CUDA major: nothing");
	facts_free(f);
}

static void
test_conda(void)
{
	struct facts *f;
	struct py_env *e;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "cuda-version", "12.1", "h1d6eff3_3");
	conda_pkg(e, "cudatoolkit", "11.8.0", "h4ba93d1_13");
	run(f);
	fd = get(FINDING_CONDA_CUDA_CONFLICT);
	ok(fd != NULL && sev(fd) == SEV_ERROR, "cudatoolkit 11 beside cuda-version 12: an error");
	ok(EVID(fd, "conda package cudatoolkit 11.8.0 is CUDA 11, while cuda-version 12.1 is CUDA 12"),
	    "the evidence names both packages");
	ok(fix_is(fd, "conda remove -p " CONDA " cudatoolkit") &&
	    fix_is(fd, "conda install -p " CONDA " -c conda-forge cuda-runtime cuda-version=12.1"),
	    "no framework to follow: keep cuda-version's 12, remove cudatoolkit, "
	    "install CUDA 12's libraries (cuda-version alone carries none)");
	facts_free(f);

	/* cudatoolkit 11 with nvidia-*-cu12 pip wheels. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "cudatoolkit", "11.8.0", "h4ba93d1_13");
	pkg(e, "nvidia-cublas-cu12", "12.1.3.1");
	pkg(e, "nvidia-cuda-runtime-cu12", "12.1.105");
	run(f);
	fd = get(FINDING_CONDA_CUDA_CONFLICT);
	ok(fd != NULL && sev(fd) == SEV_WARNING, "cudatoolkit 11 and cu12 wheels: a warning");
	ok(EVID(fd, "pip wheel nvidia-cublas-cu12 12.1.3.1 is CUDA 12, beside the "
	    "environment's CUDA 11 packages"), "the evidence names the wheel");
	ok(fix_is(fd, CPY " -m pip uninstall -y nvidia-cublas-cu12 nvidia-cuda-runtime-cu12"), "the fix removes the CUDA 12 wheels");
	is_int(count(FINDING_PIP_CUDA_WHEELS_MIXED), 0, "all pip wheels one major: not mixed among themselves");
	facts_free(f);

	/* cudatoolkit 11 beside a pip torch cu121 and its cu12 wheels (and a
	 * stray cu11 wheel): the frameworks' CUDA 12 stays, so do its wheels;
	 * cudatoolkit and the cu11 wheel go, and nothing is installed. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "cudatoolkit", "11.8.0", "h4ba93d1_13");
	pkg(e, "nvidia-cublas-cu12", "12.1.3.1");
	pkg(e, "nvidia-cuda-runtime-cu12", "12.1.105");
	pkg(e, "nvidia-cublas-cu11", "11.11.3.6");
	fw(e, "pytorch", "torch", "2.4.0+cu121", FW_GPU_YES, "12.1");
	run(f);
	fd = get(FINDING_CONDA_CUDA_CONFLICT);
	ok(fd != NULL && FIX(fd, "keep CUDA 12"), "a pip torch cu121: keep CUDA 12");
	ok(fix_is(fd, "conda remove -p " CONDA " cudatoolkit"), "cudatoolkit 11 goes");
	ok(fix_is(fd, CPY " -m pip uninstall -y nvidia-cublas-cu11"),
	    "the CUDA 11 wheel goes");
	ok(!FIX(fd, "nvidia-cublas-cu12") && !FIX(fd, "nvidia-cuda-runtime-cu12"),
	    "torch's CUDA 12 wheels stay");
	ok(!FIX(fd, "conda install"), "its wheels are its CUDA: no conda install");
	facts_free(f);

	/* A conda framework built for another CUDA than the environment's. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "cuda-version", "12.1", "h1d6eff3_3");
	conda_pkg(e, "pytorch", "2.0.1", "py3.10_cuda11.8_cudnn8.7.0_0");
	fw(e, "pytorch", "pytorch", "2.0.1", FW_GPU_YES, NULL);
	run(f);
	fd = get(FINDING_CONDA_CUDA_CONFLICT);
	ok(sev(fd) == SEV_ERROR && EVID(fd, "pytorch 2.0.1 (build py3.10_cuda11.8_cudnn8.7.0_0) "
	    "is built for CUDA 11.8, but the environment's CUDA packages are CUDA 12"),
	    "the framework's build string says CUDA 11.8: an error");
	ok(fix_is(fd, "conda remove -p " CONDA " cuda-version") &&
	    fix_is(fd, "conda install -p " CONDA " -c conda-forge cudatoolkit=11.8"),
	    "the environment follows the framework: CUDA 11.8");
	facts_free(f);

	/* conda-forge's "cuda120_…" build strings, and two cuDNN installs. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "cuda-version", "12.0", "hffde075_2");
	conda_pkg(e, "pytorch", "2.1.2", "cuda120_py310h327d3bc_301");
	conda_pkg(e, "cudnn", "8.9.7.29", "h092f7fd_3");
	pkg(e, "nvidia-cudnn-cu12", "9.1.0.70");
	fw(e, "pytorch", "pytorch", "2.1.2", FW_GPU_YES, "12.0");
	run(f);
	fd = get(FINDING_CONDA_CUDA_CONFLICT);
	ok(fd != NULL && sev(fd) == SEV_WARNING &&
	    EVID(fd, "two cuDNN installs: conda's cudnn 8.9.7.29 and the pip wheel "
	    "nvidia-cudnn-cu12 9.1.0.70"), "two cuDNN installs: a warning; cuda120 read as 12.0");
	ok(!EVID(fd, "is built for CUDA"), "cuda120 is CUDA 12.0, as the environment");
	ok(fix_is(fd, CPY " -m pip uninstall -y nvidia-cudnn-cu12"),
	    "the pip cuDNN goes");
	ok(!FIX(fd, "keep CUDA") && !FIX(fd, "conda remove"),
	    "the CUDA majors agree: no CUDA package is touched");
	facts_free(f);

	/* Agreeing packages; and a venv is not conda's. */
	e = setup(&f, "8.6", "550.54.15", PYENV_CONDA);
	conda_pkg(e, "cuda-version", "11.8", "h70ddcb2_3");
	conda_pkg(e, "cudatoolkit", "11.8.0", "h4ba93d1_13");
	conda_pkg(e, "pytorch", "2.0.1", "py3.10_cuda11.8_cudnn8.7.0_0");
	run(f);
	is_int(fs.n, 0, "cudatoolkit 11.8, cuda-version 11.8, a CUDA 11.8 build: nothing");
	facts_free(f);
}

static void
test_shadowed(void)
{
	struct facts *f;
	struct py_env *e;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	llp(f, "/usr/local/cuda-12.0/lib64:/opt/other/lib");
	pkg(e, "torch", "2.1.0+cu121");
	pkg(e, "nvidia-nvjitlink-cu12", "12.1.105");
	pkg(e, "nvidia-cusparse-cu12", "12.1.0.106");
	w = fw(e, "pytorch", "torch", "2.1.0+cu121", FW_GPU_YES, "12.1");
	n = need(w, "libnvJitLink.so.12", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/nvjitlink/lib", "nvidia-nvjitlink-cu12");
	step(n->lib, STEP_LD_LIBRARY_PATH, "/usr/local/cuda-12.0/lib64",
	    "/usr/local/cuda-12.0/lib64/libnvJitLink.so.12", STEP_FOUND);
	n->lib->resolved = xstrdup("/usr/local/cuda-12.0/lib64/libnvJitLink.so.12");
	n->lib->target = xstrdup("/usr/local/cuda-12.0/lib64/libnvJitLink.so.12.0.140");
	n->lib->via = STEP_LD_LIBRARY_PATH;
	n->shadowed_via = STEP_LD_LIBRARY_PATH;
	copy(n, SITE "/nvidia/nvjitlink/lib/libnvJitLink.so.12", NULL, STEP_RUNPATH);
	n = need(w, "libcusparse.so.12", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cusparse/lib", "nvidia-cusparse-cu12");
	found(n, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-12.0/lib64/libcusparse.so.12",
	    "/usr/local/cuda-12.0/lib64/libcusparse.so.12.0.0.76");
	n->shadowed_via = STEP_LD_LIBRARY_PATH;
	run(f);
	is_int(count(FINDING_LIB_SHADOWED), 1, "one directory shadowing two libraries: one finding");
	fd = get(FINDING_LIB_SHADOWED);
	ok(sev(fd) == SEV_ERROR, "an error");
	ok(DETAIL(fd, ", LD_LIBRARY_PATH entry /usr/local/cuda-12.0/lib64 comes before")
	    && DETAIL(fd, "libnvJitLink.so.12, libcusparse.so.12")
	    && DETAIL(fd, "__nvJitLinkAddData_12_1"),
	    "the detail names the entry, both sonames and the classic symptom");
	ok(EVID(fd, "libnvJitLink.so.12 resolves to /usr/local/cuda-12.0/lib64/libnvJitLink.so.12 "
	    "(LD_LIBRARY_PATH entry /usr/local/cuda-12.0/lib64), the file "
	    "/usr/local/cuda-12.0/lib64/libnvJitLink.so.12.0.140"), "the winner and its step");
	ok(EVID(fd, "torch 2.1.0+cu121 expects it in " SITE "/nvidia/nvjitlink/lib "
	    "(nvidia-nvjitlink-cu12)"), "where torch expects it");
	ok(EVID(fd, "shadowed: " SITE "/nvidia/nvjitlink/lib/libnvJitLink.so.12"),
	    "the framework's own copy");
	ok(!EVID(fd, "libnvJitLink.so.12 (" SITE), "a copy that is its own file is named once");
	ok(EVID(fd, "the copy that wins, libnvJitLink.so.12.0.140, is older than the "
	    "framework's libnvJitLink.so.12"),
	    "the wheel's copy, named without its version, is the wheel's 12.1.105: "
	    "the winner is older");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/opt/other/lib"),
	    "the fix: LD_LIBRARY_PATH without the shadowing entry");
	ok(get(FINDING_FRAMEWORK_CUDA_MISMATCH) == NULL, "no second finding for the same cause");
	facts_free(f);

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	llp(f, "/usr/local/cuda-12.0/lib64");
	w = fw(e, "pytorch", "torch", "2.1.0+cu121", FW_GPU_YES, "12.1");
	n = need(w, "libcusparse.so.12", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cusparse/lib", "nvidia-cusparse-cu12");
	found(n, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-12.0/lib64/libcusparse.so.12",
	    "/usr/local/cuda-12.0/lib64/libcusparse.so.12.1.0.106");
	n->shadowed_via = STEP_LD_LIBRARY_PATH;
	copy(n, SITE "/nvidia/cusparse/lib/libcusparse.so.12",
	    SITE "/nvidia/cusparse/lib/libcusparse.so.12.1.0.106", STEP_RUNPATH);
	run(f);
	fd = get(FINDING_LIB_SHADOWED);
	ok(fix_is(fd, "unset LD_LIBRARY_PATH"), "nothing left: unset LD_LIBRARY_PATH");
	ok(sev(fd) == SEV_WARNING, "the same version on both sides: a warning");
	/* The H200 machine of bench/gpu (2026-11-27): the wheel's copy is
	 * named libcudart.so.13 alone, the ld.so.cache's is 13.0.96. */
	pkg(e, "nvidia-cusparse-cu12", "12.1.0.100");
	free(n->lib->copies.v[0].target);
	n->lib->copies.v[0].target = xstrdup(SITE "/nvidia/cusparse/lib/libcusparse.so.12");
	run(f);
	fd = get(FINDING_LIB_SHADOWED);
	ok(sev(fd) == SEV_WARNING && !EVID(fd, "is older"),
	    "the winner newer than the wheel's version, under the same soname: a warning");
	free(e->packages.v[e->packages.n - 1].version);
	e->packages.v[e->packages.n - 1].version = xstrdup("12.2.0.1");
	run(f);
	ok(sev(get(FINDING_LIB_SHADOWED)) == SEV_ERROR,
	    "the winner older than the wheel's version: an error");
	n->shadowed_via = STEP_CACHE;
	run(f);
	fd = get(FINDING_LIB_SHADOWED);
	ok(fix_is(fd, "export LD_LIBRARY_PATH=" SITE "/nvidia/cusparse/lib"
	    "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"") && !FIX(fd, "--force-reinstall"),
	    "the ld.so.cache's copy first: the wheel's directory first, not a reinstall "
	    "that changes nothing");
	n->shadowed_via = STEP_NONE;
	run(f);
	/* torch 2.1.0+cu121's kernels, unread here, come from the matrix's
	 * list for cu121, which covers 8.6: that note and nothing else. */
	is_int(fs.n - count(FINDING_GPU_ARCH_UNCHECKED), 0,
	    "resolved and not shadowed: nothing");
	facts_free(f);
}

/* TensorFlow built for cuDNN 8.1 finding cuDNN 8.0 first. */
static void
test_cudnn_mismatch(void)
{
	struct facts *f;
	struct py_env *e;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	llp(f, "/opt/cudnn-8.0/lib");
	pkg(e, "tensorflow", "2.10.0");
	w = fw(e, "tensorflow", "tensorflow", "2.10.0", FW_GPU_YES, "11.2");
	w->cudnn = xstrdup("8.1");
	w->cudnn_source = xstrdup(SITE "/tensorflow/python/platform/build_info.py");
	n = need(w, "libcudnn.so.8", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL);
	found(n, STEP_LD_LIBRARY_PATH, STEP_LD_LIBRARY_PATH, "/opt/cudnn-8.0/lib/libcudnn.so.8",
	    "/opt/cudnn-8.0/lib/libcudnn.so.8.0.5");
	copy(n, "/usr/local/cuda-11.2/lib64/libcudnn.so.8",
	    "/usr/local/cuda-11.2/lib64/libcudnn.so.8.1.1", STEP_CACHE);
	run(f);
	fd = get(FINDING_FRAMEWORK_CUDA_MISMATCH);
	ok(fd != NULL && sev(fd) == SEV_ERROR, "cuDNN 8.0.5 for a build of 8.1: FRAMEWORK_CUDA_MISMATCH");
	ok(DETAIL(fd, "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1"),
	    "the detail quotes TensorFlow's message with the real versions");
	ok(EVID(fd, "tensorflow 2.10.0 was built with cuDNN 8.1 (" SITE
	    "/tensorflow/python/platform/build_info.py)"), "what it was built with, and where that is read");
	ok(EVID(fd, "that file is version 8.0.5 (/opt/cudnn-8.0/lib/libcudnn.so.8.0.5)"),
	    "what it loads");
	ok(EVID(fd, "a copy that fits: /usr/local/cuda-11.2/lib64/libcudnn.so.8.1.1"),
	    "and the copy that would do");
	ok(fix_is(fd, "unset LD_LIBRARY_PATH"),
	    "the fix drops the old cuDNN's directory; the cache then finds 8.1.1");
	ok(fix_is(fd, PY " -m pip install 'nvidia-cudnn-cu11>=8.1,<9'") &&
	    fix_is(fd, "export LD_LIBRARY_PATH=" SITE "/nvidia/cudnn/lib"
	    "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "or the cuDNN wheel for CUDA 11, on the search path");

	/* From the cuDNN facts when the file name says nothing. */
	free(n->lib->target);
	n->lib->target = xstrdup("/opt/cudnn-8.0/lib/libcudnn.so.8");
	{
		struct cudnn_fact *d = VEC_PUSH(&f->cudnn);

		d->lib_dir = xstrdup("/opt/cudnn-8.0/lib");
		d->header = xstrdup("/opt/cudnn-8.0/include/cudnn_version.h");
		fact_set(&d->version, "8.0.5", d->header);
	}
	run(f);
	fd = get(FINDING_FRAMEWORK_CUDA_MISMATCH);
	ok(EVID(fd, "that file is version 8.0.5 (/opt/cudnn-8.0/include/cudnn_version.h)"),
	    "the version from cudnn_version.h of its directory");

	/* Near misses: the version built with, or a newer minor. */
	free(n->lib->target);
	n->lib->target = xstrdup("/opt/cudnn-8.0/lib/libcudnn.so.8.1.1");
	run(f);
	is_int(fs.n, 0, "cuDNN 8.1.1 for 8.1: nothing");
	free(n->lib->target);
	n->lib->target = xstrdup("/opt/cudnn-8.0/lib/libcudnn.so.8.9.7");
	run(f);
	is_int(fs.n, 0, "cuDNN 8.9.7 for 8.1 (a newer minor): nothing");
	free(n->lib->target);
	n->lib->target = xstrdup("/opt/cudnn-8.0/lib/libcudnn.so.8.0.5");
	free(w->cudnn);
	w->cudnn = NULL;
	run(f);
	is_int(fs.n, 0, "the build's cuDNN unknown: nothing said");
	facts_free(f);
}

static void
test_arch(void)
{
	static const char *const sm[] = { "sm_50", "sm_60", "sm_70", "sm_75",
	    "sm_80", "sm_86", "sm_90", NULL };
	static const char *const ptx[] = { "compute_90", NULL };
	static const char *const none[] = { NULL };
	static const char *const sm86[] = { "sm_86", NULL };
	static const char *const sm90a[] = { "sm_90a", NULL };
	struct facts *f;
	struct py_env *e;
	struct framework_fact *w;
	const struct finding *fd;

	e = setup(&f, "12.0", "570.124.06", PYENV_VENV);
	pkg(e, "torch", "2.5.1+cu124");
	w = fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	sass(w, sm, ptx);
	run(f);
	fd = get(FINDING_GPU_ARCH_UNSUPPORTED);
	ok(fd != NULL && sev(fd) == SEV_WARNING,
	    "sm_120 with only compute_90 PTX: a warning (it JIT-compiles)");
	ok(DETAIL(fd, "Your sm_120 GPU (compute capability 12.0) has no machine code in "
	    "torch 2.5.1+cu124") && DETAIL(fd, "only PTX (compute_90)") &&
	    DETAIL(fd, "JIT-compiles it at first use"), "the detail says so, with the lists");
	ok(EVID(fd, SITE "/torch/lib/libtorch_cuda.so: SASS sm_50 sm_60 sm_70 sm_75 "
	    "sm_80 sm_86 sm_90; PTX compute_90"), "the evidence lists what the build carries");
	ok(fix_is(fd, PY " -m pip install --upgrade torch --index-url "
	    "https://download.pytorch.org/whl/cu128"),
	    "no 2.5 build has sm_120: a newer torch built with CUDA 12.8");

	strv_free(&w->archs.ptx);
	run(f);
	fd = get(FINDING_GPU_ARCH_UNSUPPORTED);
	ok(sev(fd) == SEV_ERROR && DETAIL(fd, "has no kernels in torch 2.5.1+cu124") &&
	    DETAIL(fd, "PTX for none"), "no PTX either: an error, \"none at all\"");
	facts_free(f);

	/* PTX from a CUDA newer than the driver: no JIT. */
	e = setup(&f, "12.0", "550.54.15", PYENV_VENV);
	pkg(e, "torch", "2.6.0+cu126");
	w = fw(e, "pytorch", "torch", "2.6.0+cu126", FW_GPU_YES, "12.6");
	sass(w, sm, ptx);
	run(f);
	fd = get(FINDING_GPU_ARCH_UNSUPPORTED);
	ok(sev(fd) == SEV_ERROR && DETAIL(fd, "made with CUDA 12.6, which this driver "
	    "(CUDA 12.4) is too old to JIT-compile"),
	    "PTX of CUDA 12.6 on a CUDA 12.4 driver: an error");
	ok(EVID(fd, "driver 550.54.15 runs CUDA releases up to 12.4"), "the driver's reach is evidence");
	facts_free(f);

	/* The build's own row has one with the GPU's code. */
	e = setup(&f, "12.0", "570.124.06", PYENV_VENV);
	pkg(e, "torch", "2.7.0+cu126");
	w = fw(e, "pytorch", "torch", "2.7.0+cu126", FW_GPU_YES, "12.6");
	sass(w, sm, none);
	run(f);
	fd = get(FINDING_GPU_ARCH_UNSUPPORTED);
	ok(fix_is(fd, PY " -m pip install torch==2.7.0 --index-url "
	    "https://download.pytorch.org/whl/cu128"),
	    "torch 2.7's cu128 build carries 12.0: the same version, that build");
	/* Unread files: the matrix's list says it, less surely. */
	w->archs.read = false;
	run(f);
	fd = get(FINDING_GPU_ARCH_UNSUPPORTED);
	ok(sev(fd) == SEV_WARNING && EVID(fd, "the cu126 build of torch carries "
	    "code for 5.0 6.0 7.0 7.5 8.0 8.6 9.0"),
	    "files not read: the matrix's list of the cu126 build, a warning");
	facts_free(f);

	/* Near misses: the rule of SASS minors and "a" builds. */
	e = setup(&f, "9.0", "570.124.06", PYENV_VENV);
	w = fw(e, "pytorch", "torch", "2.7.0+cu128", FW_GPU_YES, "12.8");
	sass(w, sm90a, none);
	run(f);
	is_int(count(FINDING_GPU_ARCH_UNSUPPORTED), 0, "sm_90a runs on 9.0");
	free(f->gpus.v[0].cc.value);
	f->gpus.v[0].cc.value = xstrdup("8.0");
	strv_free(&w->archs.sass);
	strv_push(&w->archs.sass, sm86[0]);
	run(f);
	ok(sev(get(FINDING_GPU_ARCH_UNSUPPORTED)) == SEV_ERROR,
	    "sm_86 SASS does not run on 8.0 (a lower minor)");
	w->gpu = FW_GPU_NO;
	run(f);
	is_int(count(FINDING_GPU_ARCH_UNSUPPORTED), 0, "a CPU build is not asked for kernels");
	facts_free(f);
}

static void
test_driver_too_old(void)
{
	struct facts *f;
	struct py_env *e;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	e = setup(&f, "8.6", "470.82.01", PYENV_VENV);
	pkg(e, "torch", "2.5.1+cu124");
	pkg(e, "nvidia-cuda-runtime-cu12", "12.4.127");
	w = fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	n = need(w, "libcudart.so.12", FW_NEED_LINKED, FW_FROM_WHEEL,
	    SITE "/nvidia/cuda_runtime/lib", "nvidia-cuda-runtime-cu12");
	found(n, STEP_RUNPATH, STEP_RUNPATH, SITE "/nvidia/cuda_runtime/lib/libcudart.so.12",
	    NULL);
	run(f);
	fd = get(FINDING_DRIVER_TOO_OLD);
	ok(fd != NULL && sev(fd) == SEV_ERROR, "a CUDA 12.4 runtime on driver 470: DRIVER_TOO_OLD");
	ok(DETAIL(fd, "torch 2.5.1+cu124 in the virtual environment " VENV " runs on the "
	    "CUDA 12.4 runtime, which needs NVIDIA driver 525.60.13 or newer, but the "
	    "driver in use is 470.82.01"), "the detail: the runtime, the floor, the driver");
	ok(EVID(fd, "the runtime: CUDA 12.4.127 (nvidia-cuda-runtime-cu12 12.4.127, the "
	    "wheel it belongs to)"), "the runtime's version comes from its wheel");
	ok(EVID(fd, "any CUDA 12 runtime runs on a driver >= 525.60.13 through "
	    "minor-version compatibility"), "minor-version compatibility is evidence");
	ok(fix_is(fd, "sudo apt-get install nvidia-driver-550"), "the fix installs CUDA 12.4's driver");
	ok(fix_is(fd, PY " -m pip install torch==2.5.1 --index-url "
	    "https://download.pytorch.org/whl/cu118"),
	    "or the cu118 build this driver runs");

	/* spaCy on CuPy: CuPy's runtime, said once. */
	facts_free(f);
	e = setup(&f, "8.6", "470.82.01", PYENV_VENV);
	w = fw(e, "spacy", "spacy", "3.7.2", FW_GPU_YES, "12.0");
	w->gpu_through = xstrdup("cupy");
	pkg(e, "cupy-cuda12x", "13.3.0");
	fw(e, "cupy", "cupy-cuda12x", "13.3.0", FW_GPU_YES, "12.0");
	run(f);
	is_int(count(FINDING_DRIVER_TOO_OLD), 1, "spaCy and the CuPy it runs on: one DRIVER_TOO_OLD");
	fd = get(FINDING_DRIVER_TOO_OLD);
	ok(DETAIL(fd, "cupy-cuda12x 13.3.0 in") && fix_is(fd, PY " -m pip uninstall -y cupy-cuda12x") &&
	    fix_is(fd, PY " -m pip install cupy-cuda11x==13.3.0"),
	    "it is CuPy's, and the fix offers CuPy's CUDA 11 build for this driver");

	/* A build known by its CUDA major alone (cupy-cuda11x says "11.x"):
	 * the family's floor. */
	facts_free(f);
	e = setup(&f, "8.6", "418.39", PYENV_VENV);
	fw(e, "cupy", "cupy-cuda11x", "12.3.0", FW_GPU_YES, "11");
	run(f);
	fd = get(FINDING_DRIVER_TOO_OLD);
	ok(DETAIL(fd, "runs on the CUDA 11 runtime, which needs NVIDIA driver 450.80.02 or newer"),
	    "CUDA 11 by its major: the driver floor of the CUDA 11 family");
	ok(fix_is(fd, "sudo apt-get install nvidia-driver-450"), "and that branch's driver");

	/* Minor-version compatibility carries a 12.x runtime on 535. */
	facts_free(f);
	e = setup(&f, "8.6", "535.104.05", PYENV_VENV);
	w = fw(e, "pytorch", "torch", "2.5.1+cu124", FW_GPU_YES, "12.4");
	run(f);
	is_int(count(FINDING_DRIVER_TOO_OLD), 0, "CUDA 12.4 on driver 535: minor-version compatibility");
	run_with(f, NULL);
	is_int(count(FINDING_DRIVER_TOO_OLD), 0, "without the matrix: nothing said");
	facts_free(f);

	/* The runtime file's own version, in a container. */
	e = setup(&f, "8.6", "450.80.02", PYENV_VENV);
	f->driver.docker = true;
	w = fw(e, "tensorflow", "tensorflow", "2.15.0", FW_GPU_YES, "12.2");
	n = need(w, "libcudart.so.12", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL);
	found(n, STEP_CACHE, STEP_CACHE, "/usr/local/cuda/lib64/libcudart.so.12",
	    "/usr/local/cuda-12.2/lib64/libcudart.so.12.2.140");
	run(f);
	fd = get(FINDING_DRIVER_TOO_OLD);
	ok(EVID(fd, "the runtime: CUDA 12.2.140 (/usr/local/cuda-12.2/lib64/libcudart.so.12.2.140)"),
	    "the runtime's version from its file name");
	ok(FIX(fd, "this is a container: the driver belongs on the host") &&
	    !FIX(fd, "Debian/Ubuntu") && !FIX(fd, "apt-get"), "in a container: the host's driver, nothing about packages");
	ok(!FIX(fd, "apt-get install nvidia-driver"), "no driver package inside the container");
	facts_free(f);
}

static void
test_optional(void)
{
	struct facts *f;
	struct py_env *e;
	struct framework_fact *w;
	struct fw_need *n;
	const struct finding *fd;

	e = setup(&f, "8.6", "550.54.15", PYENV_VENV);
	w = fw(e, "tensorflow", "tensorflow", "2.15.0", FW_GPU_YES, "12.2");
	n = need(w, "libnvinfer.so.8", FW_NEED_DLOPEN, FW_FROM_ANY, NULL, NULL);
	n->optional = true;
	missing(n);
	run(f);
	is_int(fs.n, 0, "an optional library absent everywhere: nothing");
	copy(n, "/opt/TensorRT-8.6/lib/libnvinfer.so.8", "/opt/TensorRT-8.6/lib/libnvinfer.so.8.6.1",
	    STEP_NONE);
	run(f);
	fd = get(FINDING_OPTIONAL_LIB_MISSING);
	ok(fd != NULL && sev(fd) == SEV_INFO && fs.n == 1,
	    "installed off the search path: OPTIONAL_LIB_MISSING, information only");
	ok(EVID(fd, "tensorflow 2.15.0 in the virtual environment " VENV " probes for it"),
	    "the evidence names the framework");
	ok(fix_is(fd, "export LD_LIBRARY_PATH=/opt/TensorRT-8.6/lib\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""),
	    "the fix makes it reachable");
	facts_free(f);
}

int
main(void)
{
	mx = matrix_embedded();
	test_nothing();
	test_healthy();
	test_cpu_only();
	test_spacy();
	test_cupy11_on_cuda12();
	test_published_only();
	test_linked_not_found();
	test_pins();
	test_mixed_majors();
	test_conda();
	test_shadowed();
	test_cudnn_mismatch();
	test_arch();
	test_driver_too_old();
	test_optional();
	findings_free(&fs);
	matrix_free(mx);
	return done_testing();
}
