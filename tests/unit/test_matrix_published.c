/* The catalogue of what is published (published[], issue 18): the
 * questions on a small document whose answers are known by construction,
 * then the embedded rows' sanity: every package is named as its channel
 * names packages, tied to the CUDA major its name says, and the facts the
 * issue was filed over hold (no cuDNN 7 wheel, no CUDA 9/10 nvidia-*
 * wheel, cudatoolkit ends at 11.8, each architecture's last driver). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "matrix/matrix.h"

static const char doc[] =
"{\"schema\": \"cudawiz/matrix/1\", \"date\": \"2026-11-22\", \"refresh_days\": 90,\n"
" \"cuda_releases\": [], \"cuda_majors\": [], \"architectures\": [], \"gpus\": [],\n"
" \"cudnn_releases\": [], \"cudnn_libraries\": [], \"sonames\": [], \"wheels\": [],\n"
" \"conda_packages\": [], \"frameworks\": [],\n"
" \"published\": [\n"
"  {\"channel\": \"pip\", \"package\": \"nvidia-cudnn-cu12\", \"versions\": [{\"min\": \"8.9.2.26\", \"max\": \"8.9\"}, {\"min\": \"9.0.0.312\", \"max\": \"9\"}], \"cuda_major\": 12, \"source\": \"https://pypi.org/project/nvidia-cudnn-cu12/\", \"status\": \"secondary\"},\n"
"  {\"channel\": \"pip\", \"package\": \"torch\", \"versions\": [{\"min\": \"2.1\", \"max\": \"2.5\"}], \"cuda_major\": 12, \"index_url\": \"https://download.pytorch.org/whl/cu121\", \"source\": \"https://pytorch.org/get-started/previous-versions/\", \"status\": \"secondary\"},\n"
"  {\"channel\": \"pip\", \"package\": \"jax[cuda12]\", \"versions\": [{\"min\": \"0.4.26\", \"max\": null}], \"cuda_major\": 12, \"source\": \"https://docs.jax.dev/en/latest/installation.html\", \"status\": \"secondary\"},\n"
"  {\"channel\": \"pip\", \"package\": \"tensorflow[and-cuda]\", \"versions\": [{\"min\": \"2.14\", \"max\": \"2.14\"}], \"cuda_major\": 11, \"source\": \"https://www.tensorflow.org/install/pip\", \"status\": \"unconfirmed\"},\n"
"  {\"channel\": \"pip\", \"package\": \"tensorflow[and-cuda]\", \"versions\": [{\"min\": \"2.15\", \"max\": null}], \"cuda_major\": 12, \"source\": \"https://www.tensorflow.org/install/pip\", \"status\": \"secondary\"},\n"
"  {\"channel\": \"conda-forge\", \"package\": \"cudatoolkit\", \"versions\": [{\"min\": \"9.2\", \"max\": \"11.8\"}], \"source\": \"https://anaconda.org/conda-forge/cudatoolkit\", \"status\": \"secondary\"},\n"
"  {\"channel\": \"apt\", \"package\": \"nvidia-driver-550\", \"distros\": [\"ubuntu2204\", \"ubuntu2404\"], \"source\": \"https://packages.ubuntu.com/nvidia-driver-550\", \"status\": \"unconfirmed\"},\n"
"  {\"channel\": \"apt\", \"package\": \"libstdc++6\", \"source\": \"https://packages.debian.org/libstdc++6\", \"status\": \"unconfirmed\"}\n"
" ]}\n";

#define PIP_CUDNN(m, lo, hi) \
	matrix_published_has(m, "pip", "nvidia-cudnn-cu12", NULL, lo, hi)
#define TORCH "https://download.pytorch.org/whl/cu121"

static void
test_has(const struct matrix *m)
{
	/* Ranges: min inclusive, max by prefix, both sides open when NULL. */
	is_int(PIP_CUDNN(m, NULL, NULL), MATRIX_YES, "cudnn-cu12 at any version");
	is_int(PIP_CUDNN(m, "9.1", "9.1"), MATRIX_YES, "cudnn-cu12 9.1.* (==9.1.*)");
	is_int(PIP_CUDNN(m, "8.9.7", "8.9.7"), MATRIX_YES, "cudnn-cu12 8.9.7.*");
	is_int(PIP_CUDNN(m, "7", "7"), MATRIX_NO, "no cuDNN 7 wheel (==7.*)");
	is_int(PIP_CUDNN(m, "7.6.5", "7"), MATRIX_NO, "none in >=7.6.5,<8");
	is_int(PIP_CUDNN(m, "8.5", "8.8"), MATRIX_NO, "none in 8.5-8.8: the gap below 8.9.2.26");
	is_int(PIP_CUDNN(m, NULL, "8"), MATRIX_YES, "some at or below 8.* (8.9.x)");
	is_int(PIP_CUDNN(m, NULL, "8.9.1"), MATRIX_NO, "none at or below 8.9.1.*");
	is_int(PIP_CUDNN(m, "10", NULL), MATRIX_NO, "none from 10 on: 9 is the prefix max");
	is_int(PIP_CUDNN(m, "9.99", NULL), MATRIX_YES, "9.99 is still under the prefix max 9");
	is_int(PIP_CUDNN(m, "9.x", NULL), MATRIX_UNKNOWN, "a min that is no version: unknown");
	is_int(PIP_CUDNN(m, NULL, "$(id)"), MATRIX_UNKNOWN, "a max that is no version: unknown");
	/* Names. */
	is_int(matrix_published_has(m, "pip", "NVIDIA_cudnn.cu12", NULL, NULL, NULL), MATRIX_YES,
	    "pip names compare as pip does");
	is_int(matrix_published_has(m, "pip", "nvidia-cudnn-cu11", NULL, NULL, NULL), MATRIX_NO,
	    "a wheel no row names: no");
	is_int(matrix_published_has(m, "pip", "nvidia-cuda-runtime-cu10", NULL, NULL, NULL), MATRIX_NO,
	    "nvidia-cuda-runtime-cu10: no");
	is_int(matrix_published_has(m, "conda-forge", "nvidia-cudnn-cu12", NULL, NULL, NULL), MATRIX_NO,
	    "a pip name on conda-forge: no");
	is_int(matrix_published_has(m, "apt", "nvidia-driver-550", NULL, NULL, NULL), MATRIX_YES,
	    "apt nvidia-driver-550");
	is_int(matrix_published_has(m, "apt", "nvidia-driver-551", NULL, NULL, NULL), MATRIX_NO,
	    "apt nvidia-driver-551: no");
	is_int(matrix_published_has(m, "apt", "nvidia_driver_550", NULL, NULL, NULL), MATRIX_NO,
	    "apt names are exact");
	is_int(matrix_published_has(m, "apt", "nvidia-driver-550", NULL, "550.54", "550"), MATRIX_YES,
	    "a row that lists no versions holds any");
	is_int(matrix_published_has(m, "apt", "libstdc++6", NULL, NULL, NULL), MATRIX_YES,
	    "an apt name with +");
	is_int(matrix_published_has(m, NULL, "torch", NULL, NULL, NULL), MATRIX_NO, "no channel: no");
	is_int(matrix_published_has(m, "pip", NULL, NULL, NULL, NULL), MATRIX_NO, "no package: no");
	/* Indexes. */
	is_int(matrix_published_has(m, "pip", "torch", TORCH, "2.3.1", "2.3.1"), MATRIX_YES,
	    "torch 2.3.1 on the cu121 index");
	is_int(matrix_published_has(m, "pip", "torch", TORCH "/", "2.3.1", "2.3.1"), MATRIX_YES,
	    "  with a trailing slash too");
	is_int(matrix_published_has(m, "pip", "torch", TORCH, "2.6", "2.6"), MATRIX_NO,
	    "torch 2.6 is not on the cu121 index");
	is_int(matrix_published_has(m, "pip", "torch", "https://download.pytorch.org/whl/cu124",
	    NULL, NULL), MATRIX_NO, "an index no row names: no");
	is_int(matrix_published_has(m, "pip", "torch", NULL, NULL, NULL), MATRIX_NO,
	    "torch from PyPI: not in this document");
	is_int(matrix_published_has(m, "pip", "nvidia-cudnn-cu12", TORCH, NULL, NULL), MATRIX_NO,
	    "a PyPI row is not on another index");
	/* Extras. */
	is_int(matrix_published_has(m, "pip", "jax[cuda12]", NULL, "0.6.2", "0.6.2"), MATRIX_YES,
	    "jax[cuda12] 0.6.2");
	is_int(matrix_published_has(m, "pip", "JAX[cuda12]", NULL, NULL, NULL), MATRIX_YES,
	    "  the name part as pip compares it");
	is_int(matrix_published_has(m, "pip", "jax[cuda12]", NULL, "0.4", "0.4.25"), MATRIX_NO,
	    "jax[cuda12] before 0.4.26: no");
	is_int(matrix_published_has(m, "pip", "jax[cuda13]", NULL, NULL, NULL), MATRIX_NO,
	    "another extra: no");
	is_int(matrix_published_has(m, "pip", "jax", NULL, NULL, NULL), MATRIX_NO,
	    "no extra is another package");
	is_int(matrix_published_has(m, "pip", "tensorflow[and-cuda]", NULL, "2.13", "2.13"), MATRIX_NO,
	    "tensorflow[and-cuda] 2.13: no");
	is_int(matrix_published_has(m, "pip", "tensorflow[and-cuda]", NULL, "2.16", "2.16"), MATRIX_YES,
	    "tensorflow[and-cuda] 2.16, from the second row");
	/* Conda. */
	is_int(matrix_published_has(m, "conda-forge", "cudatoolkit", NULL, "11.8", "11.8"), MATRIX_YES,
	    "cudatoolkit 11.8");
	is_int(matrix_published_has(m, "conda-forge", "cudatoolkit", NULL, "12.0", NULL), MATRIX_NO,
	    "no cudatoolkit from 12.0 on");
}

static void
test_find(const struct matrix *m)
{
	const struct matrix_published *p;

	is_int(matrix_published_count(m), 8, "eight rows");
	ok(matrix_published_at(m, 8) == NULL, "no row 8");
	p = matrix_published_find(m, "pip", "tensorflow[and-cuda]", NULL);
	ok(p != NULL && p->cuda_major == 11, "find gives the first of two rows");
	p = matrix_published_find_cuda(m, "pip", "tensorflow[and-cuda]", NULL, 12);
	ok(p != NULL && p->cuda_major == 12 && strcmp(p->versions.v[0].min, "2.15") == 0,
	    "find_cuda picks the CUDA 12 one");
	ok(matrix_published_find_cuda(m, "pip", "tensorflow[and-cuda]", NULL, 13) == NULL,
	    "  and none for 13");
	p = matrix_published_find_cuda(m, "conda-forge", "cudatoolkit", NULL, 0);
	ok(p != NULL && p->status == MATRIX_SECONDARY, "find_cuda 0: the row tied to no major");
	p = matrix_published_find(m, "pip", "torch", TORCH);
	ok(p != NULL && strcmp(p->index_url, TORCH) == 0 &&
	    strcmp(p->source, "https://pytorch.org/get-started/previous-versions/") == 0,
	    "torch's cu121 row and its source");
	ok(matrix_published_find(m, "pip", "torch", NULL) == NULL, "  not the default index");
	p = matrix_published_find(m, "apt", "nvidia-driver-550", NULL);
	ok(p != NULL && p->distros.n == 2 && strcmp(p->distros.v[0], "ubuntu2204") == 0,
	    "nvidia-driver-550's distros");
	ok(matrix_published_find(m, "apt", NULL, NULL) == NULL, "no package: NULL");
}

/* ------------------------------------------------ the embedded rows */

static bool
lower_word(const char *s, size_t n, const char *also)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (!(ch >= 'a' && ch <= 'z') && !(ch >= '0' && ch <= '9') &&
		    strchr(also, ch) == NULL)
			return false;
	}
	return true;
}

/* The CUDA major a name states: "-cu12" at the end of an nvidia-* wheel,
 * "cupy-cuda11x"/"cupy-cuda102", "cuda-toolkit-12-4", "libcudnn9-cuda-13";
 * 0 when it states none. */
static unsigned
named_major(const char *channel, const char *pkg)
{
	size_t n = strlen(pkg);
	const char *p;

	if (strcmp(channel, "pip") == 0 && strncmp(pkg, "nvidia-", 7) == 0) {
		const char *last = NULL;

		/* The last "-cu": "nvidia-cuda-runtime-cu12" has two. */
		for (p = strstr(pkg, "-cu"); p != NULL; p = strstr(p + 1, "-cu"))
			last = p;
		if (last != NULL && last[3] >= '0' && last[3] <= '9' && n > 0)
			return (unsigned)strtoul(last + 3, NULL, 10);
		return 0;
	}
	if (strncmp(pkg, "cupy-cuda", 9) == 0) {
		/* 80, 92, 102, 117, 11x: the major is all but the last char. */
		char buf[8] = { 0 };
		size_t k = strlen(pkg + 9);

		if (k < 2 || k > 4)
			return 0;
		memcpy(buf, pkg + 9, k - 1);
		return (unsigned)strtoul(buf, NULL, 10);
	}
	if (strcmp(channel, "apt") == 0) {
		static const char *const pre[] = { "cuda-toolkit-", "cuda-cudart-",
		    "cuda-libraries-", "cuda-compat-" };

		for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
			if (strncmp(pkg, pre[i], strlen(pre[i])) == 0)
				return (unsigned)strtoul(pkg + strlen(pre[i]), NULL, 10);
		if ((p = strstr(pkg, "-cuda-")) != NULL)
			return (unsigned)strtoul(p + 6, NULL, 10);
	}
	return 0;
}

/* Why row p is badly named for its channel, or NULL. */
static const char *
naming_problem(const struct matrix_published *p)
{
	const char *br = strchr(p->package, '[');
	size_t base = br != NULL ? (size_t)(br - p->package) : strlen(p->package);
	bool pip = strcmp(p->channel, "pip") == 0, apt = strcmp(p->channel, "apt") == 0;
	bool conda = strcmp(p->channel, "conda-forge") == 0 || strcmp(p->channel, "nvidia") == 0;
	unsigned nm = named_major(p->channel, p->package);

	if (!pip && !apt && !conda)
		return "a channel cudawiz does not print commands for";
	if (strncmp(p->source, "https://", 8) != 0)
		return "a source that is not https";
	if (br != NULL && !pip)
		return "extras outside pip";
	if (p->index_url != NULL && !pip)
		return "an index URL outside pip";
	if (p->distros.n > 0 && !apt)
		return "distros outside apt";
	if (pip && (!lower_word(p->package, base, "-._") || p->package[base - 1] == '-'))
		return "not a pip name";
	if (conda && !lower_word(p->package, base, "-._"))
		return "not a conda name";
	/* Debian policy: lowercase, digits, + - . and at least two characters. */
	if (apt && (base < 2 || !lower_word(p->package, base, "+-.")))
		return "not a Debian package name";
	if (nm != 0 && nm != p->cuda_major)
		return "its name says another CUDA major";
	if (pip && strncmp(p->package, "nvidia-", 7) == 0 && p->cuda_major < 11)
		return "an nvidia-* wheel for CUDA 10 or older (none were published)";
	if (p->index_url != NULL &&
	    strncmp(p->index_url, "https://download.pytorch.org/whl/cu", 35) == 0) {
		const char *tag = p->index_url + 35;
		unsigned want = (unsigned)strtoul(tag, NULL, 10);

		/* cu80 → 8, cu118 → 11: all digits but the last. */
		want /= 10;
		if (want != p->cuda_major)
			return "a PyTorch index for another CUDA major";
	}
	if (apt && strncmp(p->package, "nvidia-driver-", 14) == 0) {
		const char *b = p->package + 14;

		if (strlen(b) < 3 || !lower_word(b, 3, "") || (b[3] != '\0' && b[3] != '-'))
			return "an Ubuntu driver package without a branch";
	}
	for (size_t i = 0; i < p->distros.n; i++)
		if (strncmp(p->distros.v[i], "ubuntu", 6) != 0 &&
		    strncmp(p->distros.v[i], "debian", 6) != 0)
			return "a distro that is neither ubuntuYYMM nor debianN";
	return NULL;
}

static void
test_embedded(void)
{
	struct matrix *m = matrix_embedded();
	size_t n = matrix_published_count(m), bad = 0, kinds[3] = { 0, 0, 0 };
	static const struct {
		const char	*cc, *last;
	} last[] = {
		{ "2.0", "390" }, { "2.1", "390" }, { "3.0", "470" }, { "3.5", "470" },
		{ "3.7", "470" }, { "5.0", "580" }, { "5.2", "580" }, { "6.0", "580" },
		{ "6.1", "580" }, { "7.0", "580" },
	};
	/* Hopper's first branch (515 or 520) is not settled: left NULL. */
	static const char *const current[] = { "7.5", "8.0", "8.6", "8.9", "10.0", "12.0" };

	ok(n >= 200, "the built-in catalogue has %zu rows", n);
	for (size_t i = 0; i < n; i++) {
		const struct matrix_published *p = matrix_published_at(m, i);
		const char *why = naming_problem(p);

		kinds[strcmp(p->channel, "pip") == 0 ? 0 : strcmp(p->channel, "apt") == 0 ? 2 : 1]++;
		if (why != NULL && bad++ < 10)
			printf("#   published[%zu] %s %s: %s\n", i, p->channel, p->package, why);
	}
	is_int(bad, 0, "every row is named as its channel names packages");
	ok(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0,
	    "pip (%zu), conda (%zu) and apt (%zu) rows", kinds[0], kinds[1], kinds[2]);

	/* The facts. */
	for (unsigned cu = 11; cu <= 13; cu++) {
		char name[32];

		snprintf(name, sizeof name, "nvidia-cudnn-cu%u", cu);
		is_int(matrix_published_has(m, "pip", name, NULL, "7", "7"), MATRIX_NO,
		    "no cuDNN 7 wheel: %s==7.*", name);
		is_int(matrix_published_has(m, "pip", name, NULL, "9", "9"), MATRIX_YES,
		    "%s==9.*", name);
	}
	is_int(matrix_published_has(m, "pip", "nvidia-cudnn-cu12", NULL, "8.9", "8.9"), MATRIX_YES,
	    "nvidia-cudnn-cu12==8.9.*");
	is_int(matrix_published_has(m, "pip", "nvidia-cudnn-cu12", NULL, "8.0", "8.8"), MATRIX_NO,
	    "no nvidia-cudnn-cu12 before 8.9");
	is_int(matrix_published_has(m, "pip", "nvidia-cuda-runtime-cu10", NULL, NULL, NULL), MATRIX_NO,
	    "no nvidia-cuda-runtime-cu10");
	is_int(matrix_published_has(m, "pip", "nvidia-cuda-runtime-cu9", NULL, NULL, NULL), MATRIX_NO,
	    "no nvidia-cuda-runtime-cu9");
	is_int(matrix_published_has(m, "pip", "nvidia-cuda-runtime-cu12", NULL, "12.4", "12.4"),
	    MATRIX_YES, "nvidia-cuda-runtime-cu12==12.4.*");
	is_int(matrix_published_has(m, "pip", "nvidia-cuda-runtime", NULL, "13.0", "13.0"),
	    MATRIX_YES, "CUDA 13's runtime wheel is unsuffixed: nvidia-cuda-runtime==13.0.*");
	is_int(matrix_published_has(m, "pip", "nvidia-cuda-runtime-cu13", NULL, NULL, NULL), MATRIX_NO,
	    "nvidia-cuda-runtime-cu13 is only a deprecated stub: no row");
	is_int(matrix_published_has(m, "pip", "nvidia-cudnn-cu11", NULL, "9.20", "9.20"), MATRIX_NO,
	    "no nvidia-cudnn-cu11 after 9.10");
	is_int(matrix_published_has(m, "pip", "nvidia-nvjitlink-cu11", NULL, NULL, NULL), MATRIX_NO,
	    "no nvjitlink for CUDA 11");
	is_int(matrix_published_has(m, "conda-forge", "cudatoolkit", NULL, "11.8", "11.8"), MATRIX_YES,
	    "cudatoolkit=11.8 on conda-forge");
	is_int(matrix_published_has(m, "conda-forge", "cudatoolkit", NULL, "12.0", NULL), MATRIX_NO,
	    "cudatoolkit ends at 11.8");
	is_int(matrix_published_has(m, "conda-forge", "cuda-version", NULL, "12.4", "12.4"), MATRIX_YES,
	    "cuda-version=12.4 on conda-forge");
	is_int(matrix_published_has(m, "pip", "torch", "https://download.pytorch.org/whl/cu121",
	    "2.3.1", "2.3.1"), MATRIX_YES, "torch 2.3.1 from whl/cu121");
	is_int(matrix_published_has(m, "pip", "torch", "https://download.pytorch.org/whl/cu121",
	    "2.6", "2.6"), MATRIX_NO, "torch 2.6 is not on whl/cu121");
	is_int(matrix_published_has(m, "pip", "torch", "https://download.pytorch.org/whl/cu118",
	    "2.7.1", "2.7.1"), MATRIX_YES, "torch 2.7.1 from whl/cu118, its last");
	is_int(matrix_published_has(m, "pip", "tensorflow[and-cuda]", NULL, "2.13", "2.13"), MATRIX_NO,
	    "no and-cuda extra before 2.14");
	is_int(matrix_published_has(m, "pip", "jax[cuda12]", NULL, "0.6.2", "0.6.2"), MATRIX_YES,
	    "jax[cuda12]==0.6.2");
	is_int(matrix_published_has(m, "pip", "cupy-cuda12x", NULL, "13", "13"), MATRIX_YES,
	    "cupy-cuda12x 13.x");
	is_int(matrix_published_has(m, "apt", "nvidia-driver-390", NULL, NULL, NULL), MATRIX_YES,
	    "Ubuntu's nvidia-driver-390, Fermi's last");
	is_int(matrix_published_has(m, "apt", "nvidia-driver-540", NULL, NULL, NULL), MATRIX_NO,
	    "no nvidia-driver-540");
	is_int(matrix_published_has(m, "apt", "libcudnn9-cuda-12", NULL, "9.1", "9.1"), MATRIX_YES,
	    "libcudnn9-cuda-12 9.1");
	is_int(matrix_published_has(m, "apt", "cuda-toolkit-12-4", NULL, NULL, NULL), MATRIX_YES,
	    "cuda-toolkit-12-4");
	is_int(matrix_published_has(m, "apt", "cuda-toolkit-12-7", NULL, NULL, NULL), MATRIX_NO,
	    "no cuda-toolkit-12-7 (there was no CUDA 12.7)");
	for (size_t i = 0; i < sizeof last / sizeof last[0]; i++) {
		const struct matrix_architecture *a = matrix_architecture(m, last[i].cc);

		is_str(a != NULL ? a->last_driver_branch : NULL, last[i].last,
		    "cc %s (%s) ends with branch %s", last[i].cc, a != NULL ? a->name : "?",
		    last[i].last);
	}
	for (size_t i = 0; i < sizeof current / sizeof current[0]; i++) {
		const struct matrix_architecture *a = matrix_architecture(m, current[i]);

		ok(a != NULL && a->last_driver_branch == NULL && a->first_driver_branch != NULL,
		    "cc %s (%s) runs on current branches, from %s", current[i],
		    a != NULL ? a->name : "?",
		    a != NULL && a->first_driver_branch != NULL ? a->first_driver_branch : "?");
	}
	ok(matrix_architecture(m, "9.0") != NULL &&
	    matrix_architecture(m, "9.0")->last_driver_branch == NULL, "Hopper runs on current branches");
	is_int(matrix_ignored_keys(m), 0, "the built-in document has no key this version ignores");
	matrix_free(m);
}

int
main(void)
{
	char *err = NULL;
	struct matrix *m = matrix_parse(doc, sizeof doc - 1, &err);

	ok(m != NULL, "the test document parses");
	if (m == NULL) {
		printf("#   error: %s\n", err);
		free(err);
		return done_testing();
	}
	test_has(m);
	test_find(m);
	matrix_free(m);
	test_embedded();
	return done_testing();
}
