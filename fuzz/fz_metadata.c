/* Python core metadata (METADATA of a .dist-info, PKG-INFO of an
 * .egg-info directory, an .egg-info that is itself the file), as
 * probe_python_packages reads it: pypkg.c's read_head (chunks until the
 * header's blank line) and parse_metadata, through a scratch sysroot.
 *
 * Input: up to three files and a name, cut at "\n---\n" (probefz.h):
 *   0  /venv/lib/python3.11/site-packages/torch-2.1.0.dist-info/METADATA
 *   1  /venv/lib/python3.11/site-packages/cupy-13.0.0.egg-info/PKG-INFO
 *   2  /venv/lib/python3.11/site-packages/pycuda-2022.2-py3.11.egg-info
 *   3  "n" and this is the name of one more directory in site-packages
 *      (pf_entry), holding a fixed METADATA and PKG-INFO: the name is
 *      what split_dist_name takes apart ("nvidia_cudnn_cu12-9.1.0.70.
 *      dist-info": the seeds give "vidia_…")
 * all three packages ones cudawiz reads the metadata of. /venv is a venv
 * (a fixed pyvenv.cfg) named by VIRTUAL_ENV.
 *
 * Beyond "no crash" and the JSON check: a metadata value is one header
 * line, so no requirement or extra holds a newline, nor a name or
 * version read from a METADATA (a directory's name may hold one); and
 * a package whose metadata was read without an error has a version. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probefz.h"

#define SITE	"venv/lib/python3.11/site-packages"

static const char *const files[] = {
	SITE "/torch-2.1.0.dist-info/METADATA",
	SITE "/cupy-13.0.0.egg-info/PKG-INFO",
	SITE "/pycuda-2022.2-py3.11.egg-info",
};

static const char *const inner[] = { "METADATA", "PKG-INFO" };
static const char entry_text[] = "Metadata-Version: 2.1\n"
    "Name: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n"
    "Requires-Dist: nvidia-cublas-cu12\n\n";

/* Arrays: the context takes char *, and string literals are const. */
static char env0[] = "VIRTUAL_ENV=/venv";
static char *const envp[] = { env0, NULL };

static void
setup(void)
{
	static const char cfg[] = "home = /usr/bin\n"
	    "include-system-site-packages = false\nversion = 3.11.4\n";
	if (!pf_scratch())
		return;
	fz_write("venv/pyvenv.cfg", (const uint8_t *)cfg, sizeof cfg - 1);
	/* A package that is not looked into, so the listing holds more than
	 * the fuzzed ones. */
	fz_write(SITE "/six-1.16.0.dist-info/METADATA",
	    (const uint8_t *)"Name: six\n", 10);
}

static void
check_line(const char *s)
{
	if (s != NULL && strchr(s, '\n') != NULL)
		abort();
}

static void
check_packages(const struct facts *f)
{
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		for (size_t j = 0; j < e->packages.n; j++) {
			const struct py_package *p = &e->packages.v[j];

			if (p->name == NULL || p->path == NULL)
				abort();
			/* A name and version not read from the metadata come
			 * from the directory's name, which may hold anything
			 * (pf_entry): only the read ones are lines. */
			if (p->metadata_read && p->metadata_error == NULL) {
				check_line(p->name);
				check_line(p->version);
			}
			for (size_t k = 0; k < p->requires.n; k++)
				check_line(p->requires.v[k]);
			for (size_t k = 0; k < p->extras.n; k++)
				check_line(p->extras.v[k]);
			if (p->metadata_read && p->metadata_error == NULL &&
			    p->version == NULL)
				abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *last;
	struct probe_ctx ctx;
	struct pf_part name;

	setup();
	pf_place_more(files, sizeof files / sizeof files[0], data, size,
	    &name, 1);
	pf_entry(SITE, &name, inner, sizeof inner / sizeof inner[0],
	    entry_text, &last);
	ctx = pf_ctx(envp);
	probe_python_envs(&ctx);
	probe_python_packages(&ctx);
	check_packages(ctx.facts);
	pf_check_report(ctx.facts);
	facts_free(ctx.facts);
	return 0;
}
