/* conda-meta/NAME-VERSION-BUILD.json records, as probe_python_packages
 * reads them: pypkg.c's read_head with the top-level scanner (js_scan,
 * js_decode's escapes and surrogate pairs), the channel reduced to what
 * users call it (reduce_channel), and a record merged with the site
 * package it is the same install as (match_site, merge_record), through
 * a scratch sysroot.
 *
 * Input: up to three records and a name, cut at "\n---\n" (probefz.h),
 * written to /conda/conda-meta/ as
 *   0  pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json
 *   1  torch-2.1.0-py311_0.json	(torch 2.1.0 is also a dist-info, so a
 *					 record saying so is merged into it)
 *   2  cuda-nvcc-12.1.105-0.json
 *   3  "n" and this is the name of one more file there (pf_entry), a
 *      record with a build and a channel but no name or version, so
 *      split_conda_name's NAME-VERSION-BUILD is what it is called
 * /conda is a conda environment (a fixed python record, which is not
 * read: python is no package cudawiz looks into) named by CONDA_PREFIX.
 *
 * Beyond "no crash" and the JSON check: every package has a name; a
 * record jansson accepts (duplicate keys refused) names the package as
 * jansson reads it, keys in order, up to where the scanner stops (a build
 * and a channel): the scanner and its unescaping against a real parser; a
 * channel, when there is one, is not empty and does not end in '/'; a
 * record merged into the site package leaves one package, not two, so
 * the environment holds one package per record, plus one when the
 * dist-info was merged with none. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probefz.h"

#define META	"conda/conda-meta"
#define SITE	"conda/lib/python3.11/site-packages"

static const char *const files[] = {
	META "/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json",
	META "/torch-2.1.0-py311_0.json",
	META "/cuda-nvcc-12.1.105-0.json",
};

static const char entry_text[] =
    "{\"build\": \"0\", \"channel\": \"conda-forge\"}\n";

/* Arrays: the context takes char *, and string literals are const. */
static char env0[] = "CONDA_PREFIX=/conda";
static char *const envp[] = { env0, NULL };

static void
setup(void)
{
	static const char python[] = "{\"build\": \"h955ad1f_0_cpython\", "
	    "\"channel\": \"https://conda.anaconda.org/conda-forge/linux-64\","
	    " \"name\": \"python\", \"version\": \"3.11.4\"}\n";
	static const char torch[] = "Metadata-Version: 2.1\nName: torch\n"
	    "Version: 2.1.0\nRequires-Dist: nvidia-cudnn-cu12 ==8.9.2.26\n\n";
	if (!pf_scratch())
		return;
	fz_write(META "/python-3.11.4-h955ad1f_0_cpython.json",
	    (const uint8_t *)python, sizeof python - 1);
	fz_write(META "/history", (const uint8_t *)"==> 2024 <==\n", 13);
	fz_write(SITE "/torch-2.1.0.dist-info/METADATA",
	    (const uint8_t *)torch, sizeof torch - 1);
}

static void
check_packages(const struct facts *f, size_t records)
{
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		for (size_t j = 0; j < e->packages.n; j++) {
			const struct py_package *p = &e->packages.v[j];
			const char *ch = p->channel;

			if (p->name == NULL || p->path == NULL)
				abort();
			if (ch != NULL && (*ch == '\0' ||
			    ch[strlen(ch) - 1] == '/'))
				abort();
		}
		/* Only the one dist-info can take a record in. */
		if (strcmp(e->prefix, "/conda") == 0 &&
		    e->packages.n != records && e->packages.n != records + 1)
			abort();
	}
}

/* True when raw holds "key" as written, so the scanner, which compares
 * keys as written, can have seen it (an escaped key it cannot). */
static bool
raw_has_key(const struct pf_part *raw, const char *key)
{
	char quoted[32];
	int n = snprintf(quoted, sizeof quoted, "\"%s\"", key);

	return n > 0 && (size_t)n < sizeof quoted &&
	    memmem(raw->p, raw->n, quoted, (size_t)n) != NULL;
}

/* Record 0 against jansson: the name and version the scanner must find. */
static void
check_with_jansson(const struct facts *f, const struct pf_part *raw)
{
	static const char path[] =
	    "/" META "/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json";
	const char *name = NULL, *version = NULL, *key;
	bool build = false, channel = false;
	const struct py_package *p = NULL;
	json_error_t jerr;
	json_t *doc, *v;

	doc = json_loadb((const char *)raw->p, raw->n, JSON_REJECT_DUPLICATES,
	    &jerr);
	if (doc == NULL)
		return;
	if (!json_is_object(doc))
		goto out;
	/* jansson keeps an object's keys in the order read. */
	json_object_foreach(doc, key, v) {
		bool str = json_is_string(v);

		if ((strcmp(key, "name") == 0 || strcmp(key, "version") == 0 ||
		    strcmp(key, "build") == 0 || strcmp(key, "build_string") == 0
		    || strcmp(key, "channel") == 0 ||
		    strcmp(key, "schannel") == 0) && !raw_has_key(raw, key))
			goto out;	/* written escaped: not comparable */
		if (str && strcmp(key, "name") == 0)
			name = json_string_value(v);
		else if (str && strcmp(key, "version") == 0)
			version = json_string_value(v);
		else if (str && (strcmp(key, "build") == 0 ||
		    strcmp(key, "build_string") == 0))
			build = true;
		else if (str && (strcmp(key, "channel") == 0 ||
		    strcmp(key, "schannel") == 0))
			channel = true;
		if (build && channel)
			break;
	}
	for (size_t i = 0; i < f->python_envs.n && p == NULL; i++)
		for (size_t j = 0; j < f->python_envs.v[i].packages.n; j++)
			if (strcmp(f->python_envs.v[i].packages.v[j].path,
			    path) == 0)
				p = &f->python_envs.v[i].packages.v[j];
	if (p == NULL)
		abort();
	if (strcmp(p->name, name != NULL && *name != '\0' ? name :
	    "pytorch") != 0 || p->version == NULL ||
	    strcmp(p->version, version != NULL && *version != '\0' ?
	    version : "2.1.0") != 0) {
		fprintf(stderr, "fuzz: scanner %s %s, jansson %s %s\n",
		    p->name, p->version != NULL ? p->version : "(null)",
		    name != NULL ? name : "(null)",
		    version != NULL ? version : "(null)");
		abort();
	}
out:
	json_decref(doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *last;
	struct probe_ctx ctx;
	struct pf_part name, first;
	const uint8_t *sep;
	size_t n, records;

	setup();
	n = pf_place_more(files, sizeof files / sizeof files[0], data, size,
	    &name, 1);
	/* Record 0 as pf_place cut it. */
	sep = memmem(data, size, PF_SEP, PF_SEP_LEN);
	first.p = data;
	first.n = sep != NULL ? (size_t)(sep - data) : size;
	pf_entry(META, &name, NULL, 0, entry_text, &last);
	ctx = pf_ctx(envp);
	probe_python_envs(&ctx);
	probe_python_packages(&ctx);
	/* The fuzzed records, python's, and the named one when it is a
	 * record (a .json). */
	records = (n < 3 ? n : 3) + 1;
	if (last != NULL && strlen(last) > 5 &&
	    strcmp(last + strlen(last) - 5, ".json") == 0)
		records++;
	check_packages(ctx.facts, records);
	check_with_jansson(ctx.facts, &first);
	pf_check_report(ctx.facts);
	facts_free(ctx.facts);
	return 0;
}
