/* The matrix schema check: a small valid document, then one corruption at
 * a time, each of which matrix_parse must reject with the JSON path of the
 * field that is wrong. The data may arrive over the network, so these are
 * the shapes an attacker or a broken mirror would send. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "matrix/matrix.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char base_doc[] =
"{\n"
" \"schema\": \"cudawiz/matrix/1\",\n"
" \"date\": \"2026-11-22\",\n"
" \"refresh_days\": 90,\n"
" \"cuda_releases\": [\n"
"  {\"version\": \"11.8.0\", \"label\": \"CUDA 11.8 GA\", \"linux_driver\": \"520.61.05\", \"windows_driver\": \"520.06\", \"status\": \"confirmed\"},\n"
"  {\"version\": \"13.0.0\", \"label\": \"CUDA 13.0 GA\", \"linux_driver\": \"580.65.06\", \"windows_driver\": null, \"status\": \"secondary\"}\n"
" ],\n"
" \"cuda_majors\": [\n"
"  {\"major\": 12, \"minor_compat_linux\": \"525.60.13\", \"minor_compat_windows\": \"527.41\", \"max_driver_branch\": \"580\", \"lowest_cc\": \"5.0\", \"highest_cc\": \"12.1\", \"dropped_cc\": [\"3.5\", \"3.7\"], \"status\": \"confirmed\"}\n"
" ],\n"
" \"architectures\": [\n"
"  {\"cc\": \"6.1\", \"name\": \"Pascal\", \"first_cuda\": \"8.0\", \"last_cuda\": \"12.9\", \"status\": \"confirmed\"}\n"
" ],\n"
" \"gpus\": [\n"
"  {\"name\": \"NVIDIA H100\", \"pci_ids\": [\"0x2330\", \"0x2331\"], \"cc\": \"9.0\", \"status\": \"confirmed\"},\n"
"  {\"name\": \"NVIDIA H200\", \"pci_ids\": [\"0x2335\"], \"cc\": \"9.0\", \"status\": \"unconfirmed\"}\n"
" ],\n"
" \"cudnn_releases\": [\n"
"  {\"versions\": {\"min\": \"8.9.7\", \"max\": \"8.9.7\"}, \"cuda\": [{\"min\": \"11.0\", \"max\": \"11.8\"}, {\"min\": \"12.0\", \"max\": \"12\"}], \"driver_linux\": null, \"status\": \"confirmed\"}\n"
" ],\n"
" \"cudnn_libraries\": [\n"
"  {\"major\": 9, \"sonames\": [\"libcudnn.so.9\", \"libcudnn_graph.so.9\"], \"header\": \"cudnn_version.h\", \"windows_dll\": \"cudnn64_9.dll\", \"status\": \"unconfirmed\"}\n"
" ],\n"
" \"sonames\": [\n"
"  {\"library\": \"cudart\", \"cuda\": {\"min\": \"11.0\", \"max\": \"11.8\"}, \"soname\": \"libcudart.so.11.0\", \"windows_dll\": \"cudart64_110.dll\", \"status\": \"confirmed\"},\n"
"  {\"library\": \"cuda\", \"cuda\": {\"min\": \"8.0\", \"max\": null}, \"soname\": \"libcuda.so.1\", \"windows_dll\": null, \"status\": \"confirmed\"}\n"
" ],\n"
" \"wheels\": [\n"
"  {\"package\": \"nvidia-cudnn-cu12\", \"cuda_major\": 12, \"lib_dir\": \"nvidia/cudnn/lib\", \"provides\": [\"libcudnn.so.9\"], \"status\": \"confirmed\"}\n"
" ],\n"
" \"conda_packages\": [\n"
"  {\"name\": \"cudatoolkit\", \"role\": \"CUDA runtime libraries (CUDA 11 and older)\", \"status\": \"derived\"}\n"
" ],\n"
" \"frameworks\": [\n"
"  {\"name\": \"tensorflow\", \"packages\": [\"tensorflow\", \"tensorflow-gpu\"], \"versions\": {\"min\": \"2.5\", \"max\": \"2.11\"},\n"
"   \"builds\": [\n"
"    {\"variant\": null, \"cuda\": \"11.2\", \"cudnn\": \"8.1\", \"sonames\": [\"libcudart.so.11.0\", \"libcudnn.so.8\"], \"loads\": \"dlopen\", \"bundles_cuda\": \"no\", \"ccs\": [\"3.5\", \"8.0\"], \"default\": true},\n"
"    {\"variant\": \"cpu-ish\", \"cuda\": \"11.2\", \"cudnn\": null, \"sonames\": [], \"loads\": \"needed\", \"bundles_cuda\": \"optional\", \"ccs\": [], \"default\": false}\n"
"   ],\n"
"   \"status\": \"derived\"}\n"
" ]\n"
"}\n";

/* The base document with what issue 18 added: driver branches on an
 * architecture and a published[] section. */
static const char published_doc[] =
"{\n"
" \"schema\": \"cudawiz/matrix/1\",\n"
" \"date\": \"2026-11-22\",\n"
" \"refresh_days\": 90,\n"
" \"cuda_releases\": [],\n"
" \"cuda_majors\": [],\n"
" \"architectures\": [\n"
"  {\"cc\": \"6.1\", \"name\": \"Pascal\", \"first_cuda\": \"8.0\", \"last_cuda\": \"12.9\", \"status\": \"confirmed\", \"last_driver_branch\": \"580\", \"first_driver_branch\": \"367\"}\n"
" ],\n"
" \"gpus\": [],\n"
" \"cudnn_releases\": [],\n"
" \"cudnn_libraries\": [],\n"
" \"sonames\": [],\n"
" \"wheels\": [],\n"
" \"conda_packages\": [],\n"
" \"frameworks\": [],\n"
" \"published\": [\n"
"  {\"channel\": \"pip\", \"package\": \"torch\", \"versions\": [{\"min\": \"2.1\", \"max\": \"2.5\"}], \"cuda_major\": 12, \"index_url\": \"https://download.pytorch.org/whl/cu121\", \"source\": \"https://pypi.org/project/torch/\", \"status\": \"secondary\"},\n"
"  {\"channel\": \"conda-forge\", \"package\": \"cuda-version\", \"source\": \"https://anaconda.org/conda-forge/cuda-version\", \"status\": \"unconfirmed\"},\n"
"  {\"channel\": \"pip\", \"package\": \"jax[cuda12]\", \"versions\": [{\"min\": \"0.4.26\", \"max\": null}], \"cuda_major\": 12, \"source\": \"https://docs.jax.dev/en/latest/installation.html\", \"status\": \"confirmed\"},\n"
"  {\"channel\": \"apt\", \"package\": \"libcudnn9-cuda-12\", \"cuda_major\": 12, \"distros\": [\"ubuntu2204\", \"debian12\"], \"source\": \"https://developer.download.nvidia.com/compute/cuda/repos/\", \"status\": \"unconfirmed\"}\n"
" ]\n"
"}\n";

/* One corruption: the first occurrence of from becomes to. */
struct corruption {
	const char	*what;
	const char	*from;
	const char	*to;
	const char	*path;		/* the error must start with "path:" */
};

static const struct corruption cases[] = {
	/* Types. */
	{ "refresh_days as a string", "\"refresh_days\": 90", "\"refresh_days\": \"90\"", "refresh_days" },
	{ "refresh_days of 0", "\"refresh_days\": 90", "\"refresh_days\": 0", "refresh_days" },
	{ "refresh_days past ten years", "\"refresh_days\": 90", "\"refresh_days\": 3651", "refresh_days" },
	{ "refresh_days beyond any integer", "\"refresh_days\": 90",
	  "\"refresh_days\": 99999999999999999999999999", "refresh_days" },
	{ "a version as a number", "\"version\": \"11.8.0\"", "\"version\": 11.8", "cuda_releases[0].version" },
	{ "a shell command for a version", "\"version\": \"11.8.0\"",
	  "\"version\": \"11.8; rm -rf ~\"", "cuda_releases[0].version" },
	{ "a version of five parts", "\"version\": \"11.8.0\"", "\"version\": \"11.8.0.1.2\"",
	  "cuda_releases[0].version" },
	{ "an empty version", "\"version\": \"11.8.0\"", "\"version\": \"\"", "cuda_releases[0].version" },
	{ "a driver \"abc\"", "\"linux_driver\": \"520.61.05\"", "\"linux_driver\": \"abc\"",
	  "cuda_releases[0].linux_driver" },
	{ "a driver of two digits", "\"linux_driver\": \"520.61.05\"", "\"linux_driver\": \"52.61\"",
	  "cuda_releases[0].linux_driver" },
	{ "a driver of four parts", "\"linux_driver\": \"520.61.05\"", "\"linux_driver\": \"520.61.05.1\"",
	  "cuda_releases[0].linux_driver" },
	{ "a driver with a trailing space", "\"linux_driver\": \"520.61.05\"",
	  "\"linux_driver\": \"520.61.05 \"", "cuda_releases[0].linux_driver" },
	{ "a driver as an array", "\"windows_driver\": \"520.06\"", "\"windows_driver\": [\"520.06\"]",
	  "cuda_releases[0].windows_driver" },
	{ "null where null is not allowed", "\"label\": \"CUDA 11.8 GA\"", "\"label\": null",
	  "cuda_releases[0].label" },
	{ "a status \"maybe\"", "\"status\": \"confirmed\"", "\"status\": \"maybe\"", "cuda_releases[0].status" },
	{ "a status in capitals", "\"status\": \"secondary\"", "\"status\": \"Secondary\"",
	  "cuda_releases[1].status" },
	{ "a negative major", "\"major\": 12", "\"major\": -12", "cuda_majors[0].major" },
	{ "a major with a fraction", "\"major\": 12", "\"major\": 12.0", "cuda_majors[0].major" },
	{ "a major as a string", "\"major\": 12", "\"major\": \"12\"", "cuda_majors[0].major" },
	{ "a cc of two decimals", "\"cc\": \"6.1\"", "\"cc\": \"6.10\"", "architectures[0].cc" },
	{ "a compiler name for a cc", "[\"3.5\", \"3.7\"]", "[\"3.5\", \"sm_37\"]", "cuda_majors[0].dropped_cc[1]" },
	{ "lowest_cc above highest_cc", "\"lowest_cc\": \"5.0\"", "\"lowest_cc\": \"12.2\"", "cuda_majors[0]" },
	{ "first_cuda after last_cuda", "\"first_cuda\": \"8.0\"", "\"first_cuda\": \"13.0\"", "architectures[0]" },
	{ "a date 2026-02-30", "\"date\": \"2026-11-22\"", "\"date\": \"2026-02-30\"", "date" },
	{ "a date 2025-02-29 (no leap year)", "\"date\": \"2026-11-22\"", "\"date\": \"2025-02-29\"", "date" },
	{ "month 13", "\"date\": \"2026-11-22\"", "\"date\": \"2026-13-01\"", "date" },
	{ "a two-digit year", "\"date\": \"2026-11-22\"", "\"date\": \"26-11-22\"", "date" },
	{ "a date with a time", "\"date\": \"2026-11-22\"", "\"date\": \"2026-11-22T00:00\"", "date" },
	{ "a PCI id in capitals", "\"0x2330\"", "\"0X2330\"", "gpus[0].pci_ids[0]" },
	{ "a PCI id of three digits", "\"0x2331\"", "\"0x233\"", "gpus[0].pci_ids[1]" },
	{ "a PCI id twice", "\"0x2335\"", "\"0x2331\"", "gpus[1].pci_ids[0]" },
	{ "an escape sequence in a name", "\"NVIDIA H100\"", "\"NVIDIA\\u001b[31m H100\"", "gpus[0].name" },
	{ "a newline in a name", "\"NVIDIA H100\"", "\"NVIDIA\\nH100\"", "gpus[0].name" },
	{ "a bidi override in a name", "\"NVIDIA H100\"", "\"NVIDIA \\u202eH100\"", "gpus[0].name" },
	{ "a C1 control in a name", "\"NVIDIA H100\"", "\"NVIDIA \\u009bH100\"", "gpus[0].name" },
	{ "an empty name", "\"NVIDIA H100\"", "\"\"", "gpus[0].name" },
	{ "a soname with a slash", "\"libcudart.so.11.0\", \"windows_dll\"",
	  "\"../lib/libcudart.so.11.0\", \"windows_dll\"", "sonames[0].soname" },
	{ "a soname without lib", "\"libcudart.so.11.0\", \"windows_dll\"",
	  "\"cudart.so.11.0\", \"windows_dll\"", "sonames[0].soname" },
	{ "a soname with letters after .so", "\"libcuda.so.1\"", "\"libcuda.so.1a\"", "sonames[1].soname" },
	{ "a soname with a space", "\"libcudnn_graph.so.9\"", "\"libcudnn graph.so.9\"",
	  "cudnn_libraries[0].sonames[1]" },
	{ "a DLL with a command", "\"cudart64_110.dll\"", "\"cudart64_110.dll & calc.exe\"", "sonames[0].windows_dll" },
	{ "a DLL with a path", "\"cudnn64_9.dll\"", "\"..\\\\cudnn64_9.dll\"", "cudnn_libraries[0].windows_dll" },
	{ "a relpath with ..", "\"nvidia/cudnn/lib\"", "\"nvidia/../../etc\"", "wheels[0].lib_dir" },
	{ "an absolute relpath", "\"nvidia/cudnn/lib\"", "\"/usr/lib\"", "wheels[0].lib_dir" },
	{ "a relpath with a trailing slash", "\"nvidia/cudnn/lib\"", "\"nvidia/cudnn/\"", "wheels[0].lib_dir" },
	{ "a package in capitals", "\"nvidia-cudnn-cu12\"", "\"NVIDIA-cudnn-cu12\"", "wheels[0].package" },
	{ "a package with a space", "\"nvidia-cudnn-cu12\"", "\"nvidia-cudnn-cu12 --pre\"", "wheels[0].package" },
	{ "a wheel for CUDA 0", "\"cuda_major\": 12", "\"cuda_major\": 0", "wheels[0].cuda_major" },
	{ "a range whose min is above its max", "{\"min\": \"2.5\", \"max\": \"2.11\"}",
	  "{\"min\": \"2.12\", \"max\": \"2.11\"}", "frameworks[0].versions" },
	{ "a range without min", "{\"min\": \"2.5\", \"max\": \"2.11\"}", "{\"max\": \"2.11\"}",
	  "frameworks[0].versions.min" },
	{ "an array where an object belongs", "\"versions\": {\"min\": \"8.9.7\", \"max\": \"8.9.7\"}",
	  "\"versions\": [{\"min\": \"8.9.7\", \"max\": \"8.9.7\"}]", "cudnn_releases[0].versions" },
	{ "a nested array in a list of ranges", "[{\"min\": \"11.0\", \"max\": \"11.8\"}, ",
	  "[[\"11.0\", \"11.8\"], ", "cudnn_releases[0].cuda[0]" },
	{ "an array for a row", "{\"name\": \"NVIDIA H100\"", "[1], {\"name\": \"NVIDIA H100\"", "gpus[0]" },
	{ "an object for a section", "\"conda_packages\": [\n  {\"name\": \"cudatoolkit\", \"role\": \"CUDA runtime libraries (CUDA 11 and older)\", \"status\": \"derived\"}\n ]",
	  "\"conda_packages\": {}", "conda_packages" },
	{ "loads \"exec\"", "\"loads\": \"dlopen\"", "\"loads\": \"exec\"", "frameworks[0].builds[0].loads" },
	{ "bundles_cuda as a boolean", "\"bundles_cuda\": \"no\"", "\"bundles_cuda\": false",
	  "frameworks[0].builds[0].bundles_cuda" },
	{ "default as a string", "\"default\": true", "\"default\": \"yes\"", "frameworks[0].builds[0].default" },
	{ "two default builds", "\"default\": false", "\"default\": true", "frameworks[0].builds" },
	{ "a command substitution for a CUDA version", "\"cuda\": \"11.2\"", "\"cuda\": \"$(reboot)\"",
	  "frameworks[0].builds[0].cuda" },
	/* Unknown keys are ignored (test_forward), but a misspelt
	 * required key leaves the real one missing. */
	{ "a misspelt key", "\"label\": \"CUDA 11.8 GA\"", "\"lable\": \"CUDA 11.8 GA\"",
	  "cuda_releases[0].label" },
	{ "a missing key", "\"label\": \"CUDA 11.8 GA\", ", "", "cuda_releases[0].label" },
	{ "a missing status", ", \"status\": \"unconfirmed\"}\n ],\n \"cudnn_releases\"",
	  "}\n ],\n \"cudnn_releases\"", "gpus[1].status" },
	{ "a missing section", " \"wheels\": [\n", " \"wheelz\": [\n", "wheels" },
	{ "a duplicate key", "\"label\": \"CUDA 11.8 GA\"", "\"label\": \"CUDA 11.8 GA\", \"label\": \"again\"",
	  "cuda_releases[0].label" },
	{ "a duplicate top-level key", "\"date\": \"2026-11-22\"",
	  "\"date\": \"2026-11-22\", \"date\": \"2026-11-23\"", "date" },
	{ "a release listed twice", "\"version\": \"13.0.0\"", "\"version\": \"11.8\"", "cuda_releases[1].version" },
	{ "another schema", "\"cudawiz/matrix/1\"", "\"cudawiz/matrix/2\"", "schema" },
	{ "no schema", "\"schema\": \"cudawiz/matrix/1\",", "", "schema" },
	{ "a NUL in a string", "\"CUDA 11.8 GA\"", "\"CUDA\\u0000 11.8 GA\"", "cuda_releases[0].label" },
	{ "a bad escape in a string", "\"CUDA 11.8 GA\"", "\"CUDA \\q 11.8 GA\"", "cuda_releases[0].label" },
	{ "a trailing comma", "\"status\": \"derived\"}\n ]\n}", "\"status\": \"derived\"},\n ]\n}", "frameworks" },
	{ "garbage after the document", "]\n}\n", "]\n} x\n", "document" },
	{ "a top-level array", NULL, "[]", "document" },
	{ "a top-level string", NULL, "\"cudawiz/matrix/1\"", "document" },
	{ "an empty document", NULL, "", "document" },
	{ "only white space", NULL, " \n\t ", "document" },
};

/* A string TEXT_MAX + 1 and far more characters long. */
static char *
long_string(size_t n)
{
	char *s = xmalloc(n + 1);

	memset(s, 'x', n);
	s[n] = '\0';
	return s;
}

static char *
corrupt(const char *doc, const struct corruption *c)
{
	const char *at;
	struct strbuf sb = STRBUF_INIT;

	if (c->from == NULL)
		return xstrdup(c->to);
	at = strstr(doc, c->from);
	if (at == NULL)
		return NULL;
	strbuf_add(&sb, doc, (size_t)(at - doc));
	strbuf_puts(&sb, c->to);
	strbuf_puts(&sb, at + strlen(c->from));
	return strbuf_take(&sb);
}

/* Whether s holds what must never reach a terminal from the network: C0
 * controls, DEL, C1 controls (U+0080-U+009F) or bidirectional overrides
 * and isolates (U+202A-U+202E, U+2066-U+2069). */
static bool
has_control(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	for (; *s != '\0'; s++) {
		if (*s < 0x20 || *s == 0x7f)
			return true;
		if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
			return true;
		if (s[0] == 0xe2 && ((s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae) ||
		    (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)))
			return true;
	}
	return false;
}

/* Parses doc, which must fail with an error at path; the error must also
 * be one line of reasonable length (it is shown to a user). */
static void
expect_reject(const char *what, const char *doc, size_t len, const char *path)
{
	char *err = NULL;
	struct matrix *m = matrix_parse(doc, len, &err);
	size_t plen = strlen(path);
	bool at = err != NULL && strncmp(err, path, plen) == 0 && err[plen] == ':';

	ok(m == NULL && at, "rejects %s at %s", what, path);
	if (getenv("SHOW_ERRORS") != NULL)
		printf("#   %s\n", err);
	if (!at)
		printf("#   error: %s\n", err != NULL ? err : "(none)");
	ok(err != NULL && !has_control(err) && strlen(err) < 300,
	    "  its error is one line of %zu bytes", err != NULL ? strlen(err) : 0);
	matrix_free(m);
	free(err);
}

static void
test_base(void)
{
	char *err = NULL, *json;
	struct matrix *m = matrix_parse(base_doc, strlen(base_doc), &err);
	struct matrix *m2;

	ok(m != NULL, "the base document parses");
	if (m == NULL) {
		printf("#   error: %s\n", err);
		free(err);
		return;
	}
	ok(err == NULL, "no error is set on success");
	is_int(matrix_count(m, MATRIX_SEC_GPUS), 2, "two GPUs");
	is_str(matrix_date(m), "2026-11-22", "the date");
	is_int(matrix_refresh_days(m), 90, "refresh_days");
	ok(matrix_gpu_by_pci(m, 0x2331) != NULL &&
	    strcmp(matrix_gpu_by_pci(m, 0x2331)->name, "NVIDIA H100") == 0,
	    "PCI 0x2331 is the H100");
	ok(matrix_gpu_by_pci(m, 0x2335) != NULL &&
	    matrix_gpu_by_pci(m, 0x2335)->status == MATRIX_UNCONFIRMED,
	    "PCI 0x2335 is the unconfirmed H200");
	ok(matrix_gpu_by_pci(m, 0x1234) == NULL, "an unknown PCI id finds nothing");
	json = matrix_to_json(m);
	m2 = matrix_parse(json, strlen(json), &err);
	ok(m2 != NULL, "its JSON parses again");
	if (m2 != NULL) {
		char *json2 = matrix_to_json(m2);

		is_str(json2, json, "and gives the same JSON");
		free(json2);
	}
	free(json);
	matrix_free(m2);
	matrix_free(m);
}

static void
test_corruptions(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *doc = corrupt(base_doc, &cases[i]);

		if (doc == NULL) {
			ok(0, "case \"%s\": its text is not in the base document", cases[i].what);
			continue;
		}
		expect_reject(cases[i].what, doc, strlen(doc), cases[i].path);
		free(doc);
	}
}

static void
test_special(void)
{
	struct corruption c = { "", "\"CUDA 11.8 GA\"", NULL, "" };
	char *big = long_string(100000), *quoted = xasprintf("\"%s\"", big);
	char *doc, *err = NULL;
	struct strbuf deep = STRBUF_INIT;
	struct matrix *m;

	/* A huge string: rejected, and the error shows only its start. */
	c.to = quoted;
	doc = corrupt(base_doc, &c);
	expect_reject("a 100000-character label", doc, strlen(doc), "cuda_releases[0].label");
	free(doc);
	free(quoted);
	quoted = xasprintf("\"%.*s\"", 201, big);
	c.to = quoted;
	doc = corrupt(base_doc, &c);
	expect_reject("a label of 201 characters", doc, strlen(doc), "cuda_releases[0].label");
	free(doc);
	free(quoted);
	quoted = xasprintf("\"%.*s\"", 200, big);
	c.to = quoted;
	doc = corrupt(base_doc, &c);
	m = matrix_parse(doc, strlen(doc), &err);
	ok(m != NULL, "a label of exactly 200 characters is accepted");
	matrix_free(m);
	free(err);
	free(doc);
	free(quoted);
	free(big);

	/* Truncated anywhere: always rejected, never a crash. */
	{
		size_t n = strlen(base_doc), bad = 0;

		for (size_t cut = 0; cut < n - 1; cut++) {
			err = NULL;
			m = matrix_parse(base_doc, cut, &err);
			if (m != NULL || err == NULL || has_control(err))
				bad++;
			matrix_free(m);
			free(err);
		}
		is_int(bad, 0, "every truncation of the document is rejected cleanly");
		expect_reject("a document cut inside a row", base_doc,
		    (size_t)(strstr(base_doc, "\"520.06\"") - base_doc),
		    "cuda_releases[0].windows_driver");
	}

	/* Nesting far deeper than the schema: jansson's limit, then a path. */
	strbuf_puts(&deep, "{\"gpus\": ");
	for (int i = 0; i < 5000; i++)
		strbuf_putc(&deep, '[');
	err = NULL;
	m = matrix_parse(strbuf_str(&deep), deep.len, &err);
	ok(m == NULL && err != NULL && strncmp(err, "gpus[0][0]", 10) == 0,
	    "deep nesting is rejected inside gpus");
	ok(err != NULL && strlen(err) < 300, "  with a path cut short (%zu bytes)",
	    err != NULL ? strlen(err) : 0);
	matrix_free(m);
	free(err);
	strbuf_free(&deep);

	/* A raw escape byte, which JSON forbids inside a string: jansson's
	 * message quotes it back, and that must not reach the terminal. */
	doc = xstrdup(base_doc);
	*strstr(doc, "Pascal") = '\033';
	expect_reject("a raw escape byte", doc, strlen(doc), "architectures[0].name");
	free(doc);

	/* Bytes that are not UTF-8. */
	doc = xstrdup(base_doc);
	*strstr(doc, "Pascal") = (char)0xff;
	expect_reject("a byte that is not UTF-8", doc, strlen(doc), "architectures[0].name");
	free(doc);

	/* A NUL byte inside the data: len, not the NUL, ends the document. */
	doc = xstrdup(base_doc);
	expect_reject("a raw NUL byte", doc, strlen(doc) + 1, "document");
	free(doc);
}

/* What is allowed must stay allowed: the patterns' edge cases. */
static void
test_accepted(void)
{
	static const struct corruption fine[] = {
		{ "a driver of one part", "\"max_driver_branch\": \"580\"", "\"max_driver_branch\": \"580\"", "" },
		{ "a driver of two parts", "\"linux_driver\": \"520.61.05\"", "\"linux_driver\": \"455.23\"", "" },
		{ "a cc of two digits", "\"highest_cc\": \"12.1\"", "\"highest_cc\": \"12.1\"", "" },
		{ "a soname with + and -", "\"libcudnn_graph.so.9\"", "\"libnvidia-ml+x.so.1\"", "" },
		{ "a soname without a version", "\"libcudnn_graph.so.9\"", "\"libcudnn_graph.so\"", "" },
		{ "a soname with dots in its name", "\"libcudnn_graph.so.9\"", "\"libfoo.bar.so.1.2.3\"", "" },
		{ "a leap day", "\"date\": \"2026-11-22\"", "\"date\": \"2024-02-29\"", "" },
		{ "an open range", "{\"min\": \"2.5\", \"max\": \"2.11\"}", "{\"min\": \"2.5\", \"max\": null}", "" },
		{ "a prefix max below its min's length", "{\"min\": \"2.5\", \"max\": \"2.11\"}",
		  "{\"min\": \"2.5.3\", \"max\": \"2\"}", "" },
		{ "UTF-8 text", "\"NVIDIA H100\"", "\"NVIDIA H100 \\u00e9t\\u00e9\"", "" },
		{ "keys in another order", "{\"version\": \"11.8.0\", \"label\": \"CUDA 11.8 GA\"",
		  "{\"label\": \"CUDA 11.8 GA\", \"version\": \"11.8.0\"", "" },
		{ "an empty section", "\"conda_packages\": [\n  {\"name\": \"cudatoolkit\", \"role\": \"CUDA runtime libraries (CUDA 11 and older)\", \"status\": \"derived\"}\n ]",
		  "\"conda_packages\": []", "" },
	};

	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
		char *doc = corrupt(base_doc, &fine[i]), *err = NULL;
		struct matrix *m = doc != NULL ? matrix_parse(doc, strlen(doc), &err) : NULL;

		ok(m != NULL, "accepts %s", fine[i].what);
		if (m == NULL)
			printf("#   error: %s\n", err != NULL ? err : "(case text not found)");
		matrix_free(m);
		free(err);
		free(doc);
	}
}

/* data/SCHEMA.md "Compatibility": a key this version does not know (a
 * field or a section a later cudawiz added) is skipped and counted, so a
 * newer cache still loads; fields added later may be absent. */
static void
test_forward(void)
{
	static const struct corruption skipped[] = {
		{ "an unknown row field", "\"label\": \"CUDA 11.8 GA\"",
		  "\"label\": \"CUDA 11.8 GA\", \"lable\": \"x\"", "" },
		{ "an unknown top-level section", "\"refresh_days\": 90",
		  "\"refresh_days\": 90, \"commands\": [\"rm -rf /\"]", "" },
		{ "an unknown key that is no identifier", "\"label\": \"CUDA 11.8 GA\"",
		  "\"label\": \"CUDA 11.8 GA\", \"a b\": {\"deep\": [1, null]}", "" },
		{ "an unknown key in a range", "{\"min\": \"2.5\", \"max\": \"2.11\"}",
		  "{\"min\": \"2.5\", \"max\": \"2.11\", \"step\": 1}", "" },
		{ "an unknown key in a published row", "\"source\": \"https://pypi.org/project/torch/\"",
		  "\"source\": \"https://pypi.org/project/torch/\", \"sha256\": \"00\"", "" },
	};
	char *err = NULL, *json;
	struct matrix *m;

	for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++) {
		char *doc = corrupt(i == 4 ? published_doc : base_doc, &skipped[i]);

		err = NULL;
		m = doc != NULL ? matrix_parse(doc, strlen(doc), &err) : NULL;
		ok(m != NULL && matrix_ignored_keys(m) == 1,
		    "ignores %s, and counts it (%zu)", skipped[i].what,
		    m != NULL ? matrix_ignored_keys(m) : 0);
		if (m == NULL)
			printf("#   error: %s\n", err != NULL ? err : "(case text not found)");
		if (m != NULL && i == 1) {
			json = matrix_to_json(m);
			ok(strstr(json, "commands") == NULL && strstr(json, "rm -rf") == NULL,
			    "  an ignored section is not written back");
			free(json);
			is_int(matrix_count(m, MATRIX_SEC_WHEELS), 1, "  and the known sections are all read");
		}
		if (m != NULL && i == 0)
			is_str(matrix_cuda_release(m, "11.8")->label, "CUDA 11.8 GA",
			    "  the row's known fields stay");
		matrix_free(m);
		free(err);
		free(doc);
	}
	m = matrix_parse(base_doc, strlen(base_doc), &err);
	ok(m != NULL && matrix_ignored_keys(m) == 0, "a document of known keys ignores none");
	/* The base document predates the driver branches and published[]. */
	ok(m != NULL && matrix_count(m, MATRIX_SEC_PUBLISHED) == 0 &&
	    matrix_published_count(m) == 0, "published[] absent: no rows");
	ok(m != NULL && matrix_architecture(m, "6.1") != NULL &&
	    matrix_architecture(m, "6.1")->last_driver_branch == NULL &&
	    matrix_architecture(m, "6.1")->first_driver_branch == NULL,
	    "driver branches absent: NULL");
	matrix_free(m);
	free(err);
}

/* The fields schema 1 gained for issue 18: read, written back, and their
 * bad values rejected with the path, like every other field. */
static void
test_published(void)
{
	static const struct corruption bad[] = {
		{ "a driver branch that is no version", "\"last_driver_branch\": \"580\"",
		  "\"last_driver_branch\": \"58O\"", "architectures[0].last_driver_branch" },
		{ "a driver branch as a number", "\"first_driver_branch\": \"367\"",
		  "\"first_driver_branch\": 367", "architectures[0].first_driver_branch" },
		{ "a first branch above the last", "\"first_driver_branch\": \"367\"",
		  "\"first_driver_branch\": \"590\"", "architectures[0]" },
		{ "a channel in capitals", "\"channel\": \"pip\"", "\"channel\": \"PIP\"",
		  "published[0].channel" },
		{ "a package with a command", "\"package\": \"torch\"",
		  "\"package\": \"torch; reboot\"", "published[0].package" },
		{ "a package with empty extras", "\"package\": \"jax[cuda12]\"",
		  "\"package\": \"jax[]\"", "published[2].package" },
		{ "a package with an option", "\"package\": \"jax[cuda12]\"",
		  "\"package\": \"jax[cuda12] --pre\"", "published[2].package" },
		{ "an index over plain http", "\"https://download.pytorch.org/whl/cu121\"",
		  "\"http://download.pytorch.org/whl/cu121\"", "published[0].index_url" },
		{ "an index with a space", "\"https://download.pytorch.org/whl/cu121\"",
		  "\"https://download.pytorch.org/whl/cu121 --trusted-host x\"", "published[0].index_url" },
		{ "an index with a query", "\"https://download.pytorch.org/whl/cu121\"",
		  "\"https://download.pytorch.org/whl/cu121?$(id)\"", "published[0].index_url" },
		{ "an index without a host", "\"https://download.pytorch.org/whl/cu121\"",
		  "\"https:///whl\"", "published[0].index_url" },
		{ "a missing source", ", \"source\": \"https://pypi.org/project/torch/\"", "",
		  "published[0].source" },
		{ "a source that is not a URL", "\"source\": \"https://pypi.org/project/torch/\"",
		  "\"source\": \"pypi\"", "published[0].source" },
		{ "a missing status", ", \"status\": \"secondary\"}", "}", "published[0].status" },
		{ "a CUDA major of -1", "\"cuda_major\": 12", "\"cuda_major\": -1", "published[0].cuda_major" },
		{ "versions as one range", "\"versions\": [{\"min\": \"2.1\", \"max\": \"2.5\"}]",
		  "\"versions\": {\"min\": \"2.1\", \"max\": \"2.5\"}", "published[0].versions" },
		{ "a range upside down", "{\"min\": \"2.1\", \"max\": \"2.5\"}",
		  "{\"min\": \"2.6\", \"max\": \"2.5\"}", "published[0].versions[0]" },
		{ "a distro with a slash", "\"ubuntu2204\"", "\"ubuntu/2204\"", "published[3].distros[0]" },
		{ "a row given twice", "\"channel\": \"apt\", \"package\": \"libcudnn9-cuda-12\"",
		  "\"channel\": \"pip\", \"package\": \"jax[cuda12]\"", "published[3].package" },
		{ "published as an object", "\"published\": [\n", "\"published\": {\"rows\": 1}, \"x\": [\n",
		  "published" },
	};
	char *err = NULL, *json = NULL;
	struct matrix *m = matrix_parse(published_doc, strlen(published_doc), &err), *m2;
	const struct matrix_published *p;

	ok(m != NULL, "a document with published[] and driver branches parses");
	if (m == NULL) {
		printf("#   error: %s\n", err);
		free(err);
		return;
	}
	is_int(matrix_published_count(m), 4, "four published rows");
	is_int(matrix_count(m, MATRIX_SEC_PUBLISHED), 4, "  counted as a section");
	is_str(matrix_section_name(MATRIX_SEC_PUBLISHED), "published", "  named published");
	p = matrix_published_at(m, 0);
	ok(p != NULL && strcmp(p->channel, "pip") == 0 && strcmp(p->package, "torch") == 0 &&
	    p->cuda_major == 12 && p->versions.n == 1 && p->distros.n == 0 &&
	    strcmp(p->index_url, "https://download.pytorch.org/whl/cu121") == 0 &&
	    p->status == MATRIX_SECONDARY, "row 0 as written");
	p = matrix_published_at(m, 1);
	ok(p != NULL && p->index_url == NULL && p->cuda_major == 0 && p->versions.n == 0,
	    "row 1: absent fields are NULL, 0 and empty");
	p = matrix_published_at(m, 3);
	ok(p != NULL && p->distros.n == 2 && strcmp(p->distros.v[1], "debian12") == 0,
	    "row 3's distros");
	ok(matrix_published_at(m, 4) == NULL, "no row 4");
	is_str(matrix_architecture(m, "6.1")->last_driver_branch, "580", "Pascal's last branch");
	is_str(matrix_architecture(m, "6.1")->first_driver_branch, "367", "Pascal's first branch");
	json = matrix_to_json(m);
	m2 = matrix_parse(json, strlen(json), &err);
	ok(m2 != NULL && matrix_published_count(m2) == 4, "its JSON parses again");
	if (m2 != NULL) {
		char *json2 = matrix_to_json(m2);

		is_str(json2, json, "and gives the same JSON");
		free(json2);
	}
	free(json);
	matrix_free(m2);
	matrix_free(m);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *doc = corrupt(published_doc, &bad[i]);

		if (doc == NULL) {
			ok(0, "case \"%s\": its text is not in the document", bad[i].what);
			continue;
		}
		expect_reject(bad[i].what, doc, strlen(doc), bad[i].path);
		free(doc);
	}
}

/* A jansson allocator that fails from the (budget+1)th call on. */
static json_malloc_t real_malloc;
static long budget;

static void *
failing_malloc(size_t size)
{
	if (budget <= 0)
		return NULL;
	budget--;
	return real_malloc(size);
}

/* Out of memory inside jansson is reported as that, at every allocation
 * it can happen at: jansson itself calls a failed allocation in its lexer
 * "invalid token" and leaves others with no text and no position. */
static void
test_out_of_memory(void)
{
	json_free_t real_free;
	struct matrix *m = NULL;
	size_t failed = 0, misreported = 0;
	char *err = NULL;
	long k;

	json_get_alloc_funcs(&real_malloc, &real_free);
	/* Bounded by allocations, not time: the small document needs a few
	 * hundred, so 20000 is far past where it parses. */
	for (k = 0; k < 20000 && m == NULL; k++) {
		budget = k;
		json_set_alloc_funcs(failing_malloc, real_free);
		m = matrix_parse(base_doc, strlen(base_doc), &err);
		json_set_alloc_funcs(real_malloc, real_free);
		if (m != NULL)
			break;
		failed++;
		if (err == NULL || strstr(err, "out of memory") == NULL ||
		    strstr(err, "not valid JSON") != NULL) {
			if (misreported++ == 0)
				printf("#   with %ld allocations: %s\n", k, err != NULL ? err : "(no error)");
		}
		FREE(&err);
	}
	ok(m != NULL, "the document parses once jansson has the %ld allocations it needs", k);
	ok(failed > 0 && misreported == 0,
	    "each of the %zu failed allocations before that is reported as out of memory (%zu are not)",
	    failed, misreported);
	matrix_free(m);
	m = matrix_parse(base_doc, strlen(base_doc), &err);
	ok(m != NULL, "  and jansson's own allocator is back afterwards");
	free(err);
	matrix_free(m);
}

int
main(void)
{
	test_out_of_memory();
	test_base();
	test_corruptions();
	test_special();
	test_accepted();
	test_forward();
	test_published();
	return done_testing();
}
