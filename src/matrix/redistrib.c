/* NVIDIA redistrib manifests; see redistrib.h.
 *
 * Two shapes of cuDNN manifest exist (../shared/compat-facts.md §8a): 9.x
 * lists its CUDA majors in "cuda_variant" and nests one archive per major
 * under each platform; 8.9.x is one file per CUDA major and says which only
 * in release_product ("cudnn-v8-9-cuda-12"). Both are read. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* A CUDA major as NVIDIA writes it in cuda_variant: "11", "12". */
#define MAJOR_MAX_DIGITS 2
/* More variants than this is not a manifest NVIDIA would write. */
#define MAX_VARIANTS 8
/* How much of a rejected value an error message shows. */
#define SHOW_MAX 48

/* A value as it may appear in a one-line error: JSON-encoded (so control
 * characters and quotes are escaped), ASCII only, cut short. */
static char *
show(const json_t *v)
{
	char *s, *out;

	if (v == NULL)
		return xstrdup(_("nothing"));
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
	if (s == NULL)
		return xstrdup("?");
	if (strlen(s) > SHOW_MAX)
		out = xasprintf("%.*s…", SHOW_MAX, s);
	else
		out = xstrdup(s);
	free(s);
	return out;
}

static int
fail(char **err, const char *path, const json_t *v, const char *what)
{
	char *shown = show(v);

	/* TRANSLATORS: "release_label: "1.x" is not a version". */
	*err = xasprintf(_("%s: %s %s"), path, shown, what);
	free(shown);
	return -1;
}

static bool
all_digits(const char *s, size_t min, size_t max)
{
	size_t n = strspn(s, "0123456789");

	return s[n] == '\0' && n >= min && n <= max;
}

/* The schema's driver pattern: ^[0-9]{3}(\.[0-9]{1,3}){0,2}$. */
static bool
is_driver(const char *s)
{
	size_t n = strspn(s, "0123456789"), parts = 0;

	if (n != 3)
		return false;
	s += n;
	while (*s == '.') {
		s++;
		n = strspn(s, "0123456789");
		if (n < 1 || n > 3 || ++parts > 2)
			return false;
		s += n;
	}
	return *s == '\0';
}

/* ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ and a real calendar date. */
static bool
is_date(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = atoi(s);
	m = atoi(s + 5);
	d = atoi(s + 8);
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	return true;
}

/* release_product: lower-case words joined by '-'. */
static bool
is_product(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-");

	return s[n] == '\0' && n >= 1 && n <= 64;
}

/* A string member that must match a pattern. Returns it, or NULL with
 * *err set; a missing member is an error only when required. */
static const char *
get_str(const json_t *obj, const char *key, const char *path,
    bool (*valid)(const char *), const char *what, bool required,
    char **err)
{
	const json_t *v = json_object_get(obj, key);

	if (v == NULL) {
		if (required)
			*err = xasprintf(_("%s: missing"), path);
		return NULL;
	}
	if (!json_is_string(v)) {
		fail(err, path, v, _("is not a string"));
		return NULL;
	}
	/* An embedded NUL would let the checked prefix differ from what
	 * the JSON says. */
	if (strlen(json_string_value(v)) != json_string_length(v) ||
	    !valid(json_string_value(v))) {
		fail(err, path, v, what);
		return NULL;
	}
	return json_string_value(v);
}

/* An object member that must be an object when present. */
static const json_t *
get_obj(const json_t *obj, const char *key, bool required, char **err)
{
	const json_t *v = json_object_get(obj, key);

	if (v == NULL) {
		if (required)
			*err = xasprintf(_("%s: missing"), key);
		return NULL;
	}
	if (!json_is_object(v)) {
		fail(err, key, v, _("is not an object"));
		return NULL;
	}
	return v;
}

static bool
valid_version(const char *s)
{
	return version_valid(s);
}

/* True when the first n parts of a and b agree. */
static bool
same_prefix(const char *a, const char *b, size_t n)
{
	struct version va, vb;

	if (!version_parse(a, &va) || !version_parse(b, &vb))
		return false;
	if (va.nparts < n || vb.nparts < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (va.part[i] != vb.part[i])
			return false;
	return true;
}

static int
cmp_major(const void *a, const void *b)
{
	return atoi(*(char *const *)a) - atoi(*(char *const *)b);
}

static void
add_major(struct strv *majors, const char *digits, size_t n)
{
	char *s = xstrndup(digits, n);

	/* "012" and "12" are one major; keep NVIDIA's spelling minus zeros. */
	while (s[0] == '0' && s[1] != '\0')
		memmove(s, s + 1, strlen(s));
	if (strv_contains(majors, s))
		free(s);
	else
		strv_push_owned(majors, s);
}

/* The 9.x shape: "cuda_variant": ["11", "12"]. */
static int
read_variants(const json_t *cudnn, struct strv *majors, char **err)
{
	const json_t *list = json_object_get(cudnn, "cuda_variant"), *v;
	size_t i;

	if (!json_is_array(list))
		return fail(err, "cudnn.cuda_variant", list,
		    _("is not a list of CUDA majors"));
	if (json_array_size(list) == 0 || json_array_size(list) > MAX_VARIANTS)
		return fail(err, "cudnn.cuda_variant", list,
		    _("does not hold 1 to 8 CUDA majors"));
	json_array_foreach(list, i, v) {
		const char *s = json_string_value(v);

		if (s == NULL || strlen(s) != json_string_length(v) ||
		    !all_digits(s, 1, MAJOR_MAX_DIGITS) || atoi(s) == 0) {
			char *path = xasprintf("cudnn.cuda_variant[%zu]", i);

			fail(err, path, v, _("is not a CUDA major"));
			free(path);
			return -1;
		}
		add_major(majors, s, strlen(s));
	}
	return 0;
}

/* Without cuda_variant: platform objects keyed "cuda11", "cuda12", or the
 * 8.9.x release_product "cudnn-v8-9-cuda-12". */
static void
infer_variants(const json_t *cudnn, const char *product,
    struct strv *majors)
{
	const char *key, *sub, *tail;
	const json_t *plat, *inner;

	json_object_foreach((json_t *)cudnn, key, plat) {
		if (!json_is_object(plat))
			continue;
		json_object_foreach((json_t *)plat, sub, inner) {
			if (strncmp(sub, "cuda", 4) == 0 &&
			    all_digits(sub + 4, 1, MAJOR_MAX_DIGITS) &&
			    atoi(sub + 4) != 0 && json_is_object(inner))
				add_major(majors, sub + 4, strlen(sub + 4));
		}
	}
	if (majors->n > 0 || product == NULL)
		return;
	tail = strstr(product, "-cuda-");
	if (tail != NULL && all_digits(tail + 6, 1, MAJOR_MAX_DIGITS) &&
	    atoi(tail + 6) != 0)
		add_major(majors, tail + 6, strlen(tail + 6));
}

static int
parse_cuda(const json_t *root, struct redistrib *r, char **err)
{
	const json_t *cudart, *driver;
	const char *s;

	cudart = get_obj(root, "cuda_cudart", true, err);
	if (cudart == NULL)
		return -1;
	s = get_str(cudart, "version", "cuda_cudart.version", valid_version,
	    _("is not a version"), true, err);
	if (s == NULL)
		return -1;
	/* The runtime of 12.4.1 is 12.4.x: anything else is not this
	 * release's manifest, whatever the label says. */
	if (!same_prefix(s, r->label, 2))
		return fail(err, "cuda_cudart.version",
		    json_object_get(cudart, "version"),
		    _("does not belong to the release in release_label"));
	r->cudart = xstrdup(s);
	driver = get_obj(root, "nvidia_driver", false, err);
	if (driver == NULL)
		return *err != NULL ? -1 : 0;
	s = get_str(driver, "version", "nvidia_driver.version", is_driver,
	    _("is not a driver version"), true, err);
	if (s == NULL)
		return -1;
	r->driver = xstrdup(s);
	return 0;
}

static int
parse_cudnn(const json_t *root, const char *product, struct redistrib *r,
    char **err)
{
	const json_t *cudnn;
	const char *s;

	cudnn = get_obj(root, "cudnn", true, err);
	if (cudnn == NULL)
		return -1;
	s = get_str(cudnn, "version", "cudnn.version", valid_version,
	    _("is not a version"), true, err);
	if (s == NULL)
		return -1;
	/* release_label "9.10.0" names cudnn.version "9.10.0.56". */
	if (!same_prefix(s, r->label, 3) && strcmp(s, r->label) != 0)
		return fail(err, "cudnn.version", json_object_get(cudnn, "version"),
		    _("does not belong to the release in release_label"));
	r->cudnn = xstrdup(s);
	if (json_object_get(cudnn, "cuda_variant") != NULL) {
		if (read_variants(cudnn, &r->cuda_majors, err) != 0)
			return -1;
	} else {
		infer_variants(cudnn, product, &r->cuda_majors);
	}
	if (r->cuda_majors.n == 0) {
		*err = xasprintf(_("%s: missing, and neither the platforms nor "
		    "release_product name a CUDA major"), "cudnn.cuda_variant");
		return -1;
	}
	qsort(r->cuda_majors.v, r->cuda_majors.n, sizeof *r->cuda_majors.v,
	    cmp_major);
	return 0;
}

static json_t *
load(const char *data, size_t len, char **err)
{
	json_error_t jerr;
	json_t *root;

	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		*err = xasprintf(_("not valid JSON (line %d, column %d: %s)"),
		    jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		*err = xstrdup(_("the document is not a JSON object"));
		json_decref(root);
		return NULL;
	}
	return root;
}

bool
redistrib_is_manifest(const char *data, size_t len)
{
	json_t *root;
	char *err = NULL;
	bool yes;

	root = load(data, len, &err);
	if (root == NULL) {
		free(err);
		return false;
	}
	yes = json_object_get(root, "release_label") != NULL ||
	    json_object_get(root, "release_product") != NULL;
	json_decref(root);
	return yes;
}

int
redistrib_parse(const char *data, size_t len, struct redistrib *r,
    char **err)
{
	json_t *root;
	const char *s, *product;
	int rc = -1;

	memset(r, 0, sizeof *r);
	*err = NULL;
	root = load(data, len, err);
	if (root == NULL)
		return -1;
	s = get_str(root, "release_label", "release_label", valid_version,
	    _("is not a version"), true, err);
	if (s == NULL)
		goto out;
	r->label = xstrdup(s);
	s = get_str(root, "release_date", "release_date", is_date,
	    _("is not a date (YYYY-MM-DD)"), false, err);
	if (*err != NULL)
		goto out;
	r->date = s != NULL ? xstrdup(s) : NULL;
	product = get_str(root, "release_product", "release_product",
	    is_product, _("is not a product name"), false, err);
	if (*err != NULL)
		goto out;
	if (product != NULL && strcmp(product, "cuda") == 0)
		r->kind = REDISTRIB_CUDA;
	else if (product != NULL && strncmp(product, "cudnn", 5) == 0)
		r->kind = REDISTRIB_CUDNN;
	else if (product != NULL) {
		fail(err, "release_product", json_object_get(root,
		    "release_product"), _("is neither cuda nor cudnn"));
		goto out;
	} else if (json_object_get(root, "cuda_cudart") != NULL)
		r->kind = REDISTRIB_CUDA;
	else if (json_object_get(root, "cudnn") != NULL)
		r->kind = REDISTRIB_CUDNN;
	else {
		*err = xstrdup(_("release_product: missing, and there is "
		    "neither a cuda_cudart nor a cudnn component"));
		goto out;
	}
	if (r->kind == REDISTRIB_CUDA)
		rc = parse_cuda(root, r, err);
	else
		rc = parse_cudnn(root, product, r, err);
out:
	json_decref(root);
	if (rc != 0)
		redistrib_free(r);
	return rc;
}

void
redistrib_free(struct redistrib *r)
{
	FREE(&r->label);
	FREE(&r->date);
	FREE(&r->cudart);
	FREE(&r->driver);
	FREE(&r->cudnn);
	strv_free(&r->cuda_majors);
}

int
redistrib_apply(const struct redistrib *r, struct matrix *m, char **err)
{
	*err = NULL;
	if (r->kind == REDISTRIB_CUDA) {
		if (r->driver == NULL)
			return 0;
		if (matrix_add_cuda_release(m, r->label, r->driver, err) != 0)
			return -1;
		return 1;
	}
	if (matrix_add_cudnn_release(m, r->label,
	    (const char *const *)r->cuda_majors.v, r->cuda_majors.n, err) != 0)
		return -1;
	return 1;
}

static int
cmp_newest(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	struct version vx, vy;
	int c;

	/* Both were checked when collected: "redistrib_" + version + ".json". */
	version_parsen(x + 10, strlen(x) - 15, &vx);
	version_parsen(y + 10, strlen(y) - 15, &vy);
	c = version_cmp(&vy, &vx);
	return c != 0 ? c : strcmp(x, y);
}

size_t
redistrib_listing(const char *html, size_t len, struct strv *names)
{
	static const char prefix[] = "redistrib_";
	const size_t plen = sizeof prefix - 1;
	size_t start = names->n, i = 0;

	while (i + plen < len) {
		const char *hit = memmem(html + i, len - i, prefix, plen);
		size_t at, run;

		if (hit == NULL)
			break;
		at = (size_t)(hit - html) + plen;
		run = 0;
		while (at + run < len && ((html[at + run] >= '0' &&
		    html[at + run] <= '9') || html[at + run] == '.'))
			run++;
		i = at;
		/* The run ends with the dot of ".json". */
		if (run < 2 || html[at + run - 1] != '.' ||
		    len - (at + run) < 4 || memcmp(html + at + run, "json", 4) != 0)
			continue;
		if (!version_parsen(html + at, run - 1, NULL))
			continue;
		{
			char *name = xasprintf("redistrib_%.*s.json",
			    (int)(run - 1), html + at);

			if (strv_contains(names, name))
				free(name);
			else
				strv_push_owned(names, name);
		}
		i = at + run;
	}
	if (names->n - start > 1)
		qsort(names->v + start, names->n - start, sizeof *names->v,
		    cmp_newest);
	return names->n - start;
}
