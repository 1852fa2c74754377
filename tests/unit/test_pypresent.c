/* The Python part of the reports, from facts built by hand: the JSON
 * shape of environments, packages and frameworks (needs, steps, archs),
 * and the text section's lines for every framework state. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "loader/resolve.h"
#include "present/json.h"
#include "present/text.h"
#include "facts/facts.h"
#include "util/xalloc.h"

static struct lib_fact *
lib_resolved(const char *soname, const char *path, enum step_source via)
{
	struct lib_fact *l = xcalloc(1, sizeof *l);
	struct resolve_step *s;

	l->soname = xstrdup(soname);
	if (path != NULL) {
		l->resolved = xstrdup(path);
		l->via = via;
		l->target = xstrdup(path);
		s = VEC_PUSH(&l->steps);
		s->source = STEP_LD_LIBRARY_PATH;
		s->dir = xstrdup("/usr/local/cuda/lib64");
		s->path = xstrdup(path);
		s->result = STEP_FOUND;
	} else {
		l->error = xasprintf("%s: cannot open shared object file", soname);
	}
	return l;
}

static void
add_need(struct framework_fact *fw, const char *soname, struct lib_fact *l,
    enum step_source shadowed)
{
	struct fw_need *n = VEC_PUSH(&fw->needs);

	n->soname = xstrdup(soname);
	n->how = FW_NEED_LINKED;
	n->from = FW_FROM_WHEEL;
	n->requester = xstrdup("/e/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so");
	n->expected_dir = xstrdup("/e/lib/python3.10/site-packages/nvidia/cublas/lib");
	n->expected_pkg = xstrdup("nvidia-cublas-cu12");
	n->lib = l;
	n->shadowed_via = shadowed;
}

static struct framework_fact *
add_fw(struct py_env *e, const char *pkg, const char *ver, enum fw_gpu gpu)
{
	struct framework_fact *fw = VEC_PUSH(&e->frameworks);

	fw->name = xstrdup("pytorch");
	fw->package = xstrdup(pkg);
	fw->version = xstrdup(ver);
	fw->gpu = gpu;
	if (gpu == FW_GPU_YES) {
		fw->cuda = xstrdup("12.1");
		fw->cudnn = xstrdup("8.9");
	}
	return fw;
}

static char *
text_of(const struct facts *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	text_print_python(fp, f, false);
	fclose(fp);
	return buf;
}

static bool
has_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
		p++;
	}
	return false;
}

static bool
fits(const char *text, int width)
{
	int col = 0;

	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '\n') {
			col = 0;
			continue;
		}
		if (((unsigned char)*p & 0xc0) != 0x80 && ++col > width)
			return false;
	}
	return true;
}

static const char *
jget(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

int
main(void)
{
	struct facts *f = facts_new("/", true);
	struct py_env *e;
	struct py_package *p;
	struct framework_fact *fw;
	json_t *a, *je, *jp, *jf, *jn;
	char *text;

	/* Not probed: null and "not looked for". */
	a = python_envs_json(f);
	ok(json_is_null(a), "python_envs is null before the probe ran");
	json_decref(a);
	text = text_of(f);
	ok(strstr(text, "not looked for") != NULL, "the text says it was not looked for");
	free(text);

	fact_set(&f->python_state, "probed", NULL);
	a = python_envs_json(f);
	ok(json_is_array(a) && json_array_size(a) == 0, "probed, none: an empty array");
	json_decref(a);
	text = text_of(f);
	ok(has_line(text, "  none found"), "the text says none were found");
	free(text);

	e = VEC_PUSH(&f->python_envs);
	e->prefix = xstrdup("/e");
	e->kind = PYENV_CONDA;
	e->name = xstrdup("torch");
	e->active = true;
	strv_push(&e->found_via, "CONDA_PREFIX");
	strv_push(&e->found_via, "environments.txt");
	e->python = xstrdup("/e/bin/python3.10");
	e->python_version = xstrdup("3.10");
	strv_push(&e->site_dirs, "/e/lib/python3.10/site-packages");
	e->lib_dir = xstrdup("/e/lib");
	p = VEC_PUSH(&e->packages);
	p->name = xstrdup("numpy");
	p->version = xstrdup("1.26.0");
	p->path = xstrdup("/e/lib/python3.10/site-packages/numpy-1.26.0.dist-info");
	p->site = e->site_dirs.v[0];
	p = VEC_PUSH(&e->packages);
	p->name = xstrdup("torch");
	p->version = xstrdup("2.1.0+cu121");
	p->source = PYPKG_CONDA;
	p->path = xstrdup("/e/conda-meta/torch-2.1.0-py310_0.json");
	p->site = e->site_dirs.v[0];
	p->build = xstrdup("py310_0");
	p->channel = xstrdup("pytorch");
	strv_push(&p->requires, "nvidia-cublas-cu12==12.1.3.1; platform_system == \"Linux\"");
	strv_push(&p->extras, "opt-einsum");
	p->metadata_read = true;
	p->cared_about = true;

	fw = add_fw(e, "torch", "2.1.0+cu121", FW_GPU_YES);
	fw->variant = xstrdup("cu121");
	add_need(fw, "libcublas.so.12",
	    lib_resolved("libcublas.so.12", "/usr/local/cuda/lib64/libcublas.so.12",
	    STEP_LD_LIBRARY_PATH), STEP_LD_LIBRARY_PATH);
	strv_push(&fw->archs.sass, "sm_50");
	strv_push(&fw->archs.sass, "sm_80");
	strv_push(&fw->archs.sass, "sm_90");
	strv_push(&fw->archs.ptx, "compute_90");
	fw->archs.read = true;
	fw->archs.source = xstrdup("/e/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so");

	fw = add_fw(e, "cupy-cuda11x", "12.0.0", FW_GPU_YES);
	add_need(fw, "libcudart.so.11.0", lib_resolved("libcudart.so.11.0", NULL, STEP_NONE), STEP_NONE);
	fw->archs.error = xstrdup("no .nv_fatbin section");

	fw = add_fw(e, "jaxlib", "0.4.20", FW_GPU_YES);
	add_need(fw, "libcudnn.so.8", lib_resolved("libcudnn.so.8",
	    "/e/lib/libcudnn.so.8", STEP_RUNPATH), STEP_NONE);
	fw->archs.read = true;

	fw = add_fw(e, "tensorflow-cpu", "2.15.0", FW_GPU_NO);
	fw = add_fw(e, "spacy", "3.7.2", FW_GPU_UNKNOWN);
	fw->gpu_through = xstrdup("cupy");

	e = VEC_PUSH(&f->python_envs);
	e->prefix = xstrdup("/usr");
	e->kind = PYENV_SYSTEM;
	strv_push(&e->found_via, "system");

	/* ---- JSON */
	a = python_envs_json(f);
	ok(json_is_array(a) && json_array_size(a) == 2, "two environments");
	je = json_array_get(a, 0);
	is_str(jget(je, "prefix"), "/e", "prefix");
	is_str(jget(je, "kind"), "conda", "kind");
	is_str(jget(je, "name"), "torch", "name");
	ok(json_is_true(json_object_get(je, "active")), "active");
	is_int(json_array_size(json_object_get(je, "found_via")), 2, "found_via");
	is_str(jget(je, "python"), "/e/bin/python3.10", "python");
	is_str(jget(je, "python_version"), "3.10", "python_version");
	ok(json_is_null(json_object_get(je, "base_prefix")), "base_prefix null");
	ok(json_is_false(json_object_get(je, "system_site_packages")), "system_site_packages");
	is_str(json_string_value(json_array_get(json_object_get(je, "site_packages"), 0)),
	    "/e/lib/python3.10/site-packages", "site_packages");
	is_str(jget(je, "lib_dir"), "/e/lib", "lib_dir");
	is_int(json_integer_value(json_object_get(je, "package_count")), 2,
	    "package_count counts every package");
	is_int(json_array_size(json_object_get(je, "packages")), 1,
	    "packages lists only those cared about");
	is_int(json_object_size(je), 15, "an environment has exactly 15 keys");
	ok(json_is_array(json_object_get(je, "cuda_libs")),
	    "cuda_libs: an array, empty outside conda");
	jp = json_array_get(json_object_get(je, "packages"), 0);
	is_str(jget(jp, "name"), "torch", "package name");
	is_str(jget(jp, "source"), "conda", "package source");
	is_str(jget(jp, "build"), "py310_0", "package build");
	is_str(jget(jp, "channel"), "pytorch", "package channel");
	is_str(json_string_value(json_array_get(json_object_get(jp, "requires"), 0)),
	    "nvidia-cublas-cu12==12.1.3.1; platform_system == \"Linux\"", "requires");
	is_str(json_string_value(json_array_get(json_object_get(jp, "extras"), 0)),
	    "opt-einsum", "extras");
	ok(json_is_null(json_object_get(jp, "metadata_error")), "metadata_error null");
	is_int(json_object_size(jp), 10, "a package has exactly 10 keys");

	jf = json_array_get(json_object_get(je, "frameworks"), 0);
	is_str(jget(jf, "name"), "pytorch", "framework name");
	is_str(jget(jf, "package"), "torch", "framework package");
	is_str(jget(jf, "variant"), "cu121", "framework variant");
	is_str(jget(jf, "gpu"), "yes", "framework gpu");
	is_str(jget(jf, "cuda"), "12.1", "framework cuda");
	ok(json_is_true(json_object_get(jf, "loads")), "a shadowed framework loads");
	ok(json_is_false(json_object_get(jf, "gpu_ready")), "... but is not GPU-ready");
	is_int(json_object_size(jf), 16, "a framework has exactly 16 keys");
	jn = json_array_get(json_object_get(jf, "needs"), 0);
	is_str(jget(jn, "soname"), "libcublas.so.12", "need soname");
	is_str(jget(jn, "how"), "linked", "need how");
	is_str(jget(jn, "from"), "wheel", "need from");
	is_str(jget(jn, "expected_package"), "nvidia-cublas-cu12", "need expected_package");
	is_str(jget(jn, "resolved"), "/usr/local/cuda/lib64/libcublas.so.12", "need resolved");
	is_str(jget(jn, "via"), "ld_library_path", "need via");
	is_str(jget(jn, "shadowed_via"), "ld_library_path", "need shadowed_via");
	is_str(jget(json_array_get(json_object_get(jn, "steps"), 0), "source"),
	    "ld_library_path", "need steps, as why prints them");
	ok(json_is_array(json_object_get(jn, "other_copies")), "need other_copies");
	is_int(json_object_size(jn), 14, "a need has exactly 14 keys");
	jn = json_object_get(jf, "archs");
	ok(json_is_true(json_object_get(jn, "read")), "archs read");
	is_int(json_array_size(json_object_get(jn, "sass")), 3, "archs sass");
	is_str(json_string_value(json_array_get(json_object_get(jn, "ptx"), 0)),
	    "compute_90", "archs ptx");
	jf = json_array_get(json_object_get(je, "frameworks"), 1);
	ok(json_is_false(json_object_get(jf, "loads")), "a framework missing a need does not load");
	jn = json_array_get(json_object_get(jf, "needs"), 0);
	ok(json_is_null(json_object_get(jn, "resolved")), "an unresolved need: resolved null");
	ok(jget(jn, "error") != NULL, "... with the loader's error");
	is_str(jget(json_object_get(jf, "archs"), "error"), "no .nv_fatbin section", "archs error");
	jf = json_array_get(json_object_get(je, "frameworks"), 2);
	ok(json_is_true(json_object_get(jf, "gpu_ready")), "a resolved GPU build is GPU-ready");
	je = json_array_get(a, 1);
	ok(json_is_null(json_object_get(je, "name")), "a system env has a null name");
	ok(json_is_array(json_object_get(je, "packages")) &&
	    json_is_array(json_object_get(je, "frameworks")), "empty lists are arrays");
	json_decref(a);

	/* ---- text */
	text = text_of(f);
	ok(strstr(text, "Python environments") != NULL, "the section has its heading");
	ok(has_line(text, "  conda torch  /e  active  Python 3.10  2 packages"),
	    "the env line: kind, name, prefix, active, version, count");
	ok(has_line(text, "      torch 2.1.0+cu121  CUDA 12.1, cuDNN 8.9  GPU build\n"
	    "        libcublas.so.12 shadowed via LD_LIBRARY_PATH"),
	    "a shadowed need is named (wrapped below the framework)");
	ok(has_line(text, "        GPU code:  sm_50…sm_90 + compute_90  (libtorch_cuda.so)"),
	    "the archs as a range and the PTX, and the library read");
	ok(has_line(text, "      cupy-cuda11x 12.0.0  CUDA 12.1, cuDNN 8.9  GPU build\n"
	    "        libcudart.so.11.0 not found"), "a missing need is named");
	ok(has_line(text, "        GPU code:  not checked (no .nv_fatbin section)"),
	    "an archs error");
	ok(has_line(text, "      jaxlib 0.4.20  CUDA 12.1, cuDNN 8.9  GPU build  GPU-ready"),
	    "a GPU-ready framework");
	ok(has_line(text, "        GPU code:  none found"), "archs read, none found");
	ok(has_line(text, "      tensorflow-cpu 2.15.0  CPU-only build  loads"),
	    "a CPU-only framework loads");
	ok(has_line(text, "      spacy 3.7.2  GPU support unknown  (GPU through cupy)  loads"),
	    "GPU through another framework");
	ok(has_line(text, "  system  /usr  0 packages"), "a system env line");
	ok(fits(text, 80), "the section fits 80 columns");
	/* PYPRESENT_SHOW=1 prints the section, to look at it by eye. */
	if (getenv("PYPRESENT_SHOW") != NULL)
		fputs(text, stderr);
	free(text);

	/* Many plain environments are cut; long prefixes wrap. */
	for (int i = 0; i < 30; i++) {
		e = VEC_PUSH(&f->python_envs);
		e->prefix = xasprintf("/very/long/path/to/a/directory/of/environments/"
		    "that/goes/on/and/on/env%02d", i);
		e->kind = PYENV_VENV;
		e->name = xasprintf("env%02d", i);
	}
	text = text_of(f);
	ok(strstr(text, "… and 15 more (see --json)") != NULL,
	    "plain environments past 16 are counted, not shown");
	ok(fits(text, 80), "long prefixes wrap within 80 columns");
	free(text);

	facts_free(f);
	return done_testing();
}
