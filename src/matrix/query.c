/* The questions callers ask of a matrix; see matrix.h.
 *
 * Rows are few (hundreds) and questions are asked a handful of times a
 * run, so every question is a plain scan of its section; nothing is
 * indexed or cached, and the matrix stays immutable while it is asked. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "matrix/internal.h"
#include "matrix/matrix.h"
#include "util/version.h"

static bool
parse(const char *s, struct version *v)
{
	return s != NULL && version_parse(s, v);
}

static enum matrix_status
weaker(enum matrix_status a, enum matrix_status b)
{
	return a > b ? a : b;
}

static void
set_status(enum matrix_status *out, enum matrix_status st)
{
	if (out != NULL)
		*out = st;
}

/* Compares v with bound on bound's parts only, so a bound of "11.8" ends
 * at every 11.8.x and "12" at every 12.x. */
static int
prefix_cmp(const struct version *v, const struct version *bound)
{
	for (size_t i = 0; i < bound->nparts; i++) {
		unsigned x = i < v->nparts ? v->part[i] : 0;

		if (x != bound->part[i])
			return x < bound->part[i] ? -1 : 1;
	}
	return 0;
}

/* The range rule of data/SCHEMA.md, on parsed versions; lo or hi NULL
 * leaves that side open. */
static bool
holds(const struct version *lo, const struct version *hi, const struct version *v)
{
	return (lo == NULL || version_cmp(v, lo) >= 0) &&
	    (hi == NULL || prefix_cmp(v, hi) <= 0);
}

/* Both ends as strings; NULL is open. False when an end or v is not a
 * version. */
static bool
holds_str(const char *min, const char *max, const struct version *v)
{
	struct version lo, hi;

	if ((min != NULL && !parse(min, &lo)) || (max != NULL && !parse(max, &hi)))
		return false;
	return holds(min != NULL ? &lo : NULL, max != NULL ? &hi : NULL, v);
}

bool
matrix_range_contains(const struct matrix_range *r, const char *version)
{
	struct version v;

	return parse(version, &v) && r->min != NULL && holds_str(r->min, r->max, &v);
}

/* True when a (an upper bound) reaches past b: "12" reaches past "12.8",
 * since it holds every 12.x. */
static bool
bound_above(const char *a, const char *b)
{
	struct version va, vb;
	size_t n;

	if (!parse(a, &va) || !parse(b, &vb))
		return false;
	n = va.nparts < vb.nparts ? va.nparts : vb.nparts;
	for (size_t i = 0; i < n; i++)
		if (va.part[i] != vb.part[i])
			return va.part[i] > vb.part[i];
	return va.nparts < vb.nparts;
}

static bool
same_minor(const struct version *a, const struct version *b)
{
	return a->part[0] == b->part[0] && a->part[1] == b->part[1];
}

static void
major_minor(char *buf, size_t size, const char *version)
{
	struct version v;

	if (parse(version, &v))
		snprintf(buf, size, "%u.%u", v.part[0], v.part[1]);
	else
		buf[0] = '\0';
}

/* Release candidates are labelled as such ("CUDA 11.0.1 RC"); they are
 * not what "CUDA 11.0" means. */
static bool
is_rc(const char *label)
{
	for (const char *p = label; (p = strstr(p, "RC")) != NULL; p += 2) {
		bool start = p == label || p[-1] == ' ' || p[-1] == '(';
		bool end = p[2] == '\0' || p[2] == ' ' || p[2] == ')' || (p[2] >= '0' && p[2] <= '9');

		if (start && end)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------- CUDA */

const struct matrix_cuda_release *
matrix_cuda_release(const struct matrix *m, const char *cuda)
{
	const struct matrix_cuda_release *oldest = NULL, *ga = NULL, *below = NULL;
	struct version q, vo = { { 0 }, 0 }, vg = { { 0 }, 0 }, vb = { { 0 }, 0 };

	if (!parse(cuda, &q) || q.nparts < 2)
		return NULL;
	for (size_t i = 0; i < m->cuda_releases.n; i++) {
		const struct matrix_cuda_release *r = &m->cuda_releases.v[i];
		struct version v;

		if (!parse(r->version, &v) || !same_minor(&v, &q))
			continue;
		if (version_cmp(&v, &q) == 0)
			return r;
		if (oldest == NULL || version_cmp(&v, &vo) < 0) {
			oldest = r;
			vo = v;
		}
		if (!is_rc(r->label) && (ga == NULL || version_cmp(&v, &vg) < 0)) {
			ga = r;
			vg = v;
		}
		if (version_cmp(&v, &q) < 0 && (below == NULL || version_cmp(&v, &vb) > 0)) {
			below = r;
			vb = v;
		}
	}
	if (q.nparts == 2)
		return ga != NULL ? ga : oldest;
	return below != NULL ? below : oldest;
}

const char *
matrix_cuda_min_driver(const struct matrix *m, const char *cuda,
    enum matrix_os os, enum matrix_status *status)
{
	const struct matrix_cuda_release *r = matrix_cuda_release(m, cuda);

	if (r == NULL)
		return NULL;
	set_status(status, r->status);
	return os == MATRIX_WINDOWS ? r->windows_driver : r->linux_driver;
}

/* The newest release row of major (0: of any major). */
static const struct matrix_cuda_release *
newest_of(const struct matrix *m, unsigned major)
{
	const struct matrix_cuda_release *best = NULL;
	struct version vb = { { 0 }, 0 };

	for (size_t i = 0; i < m->cuda_releases.n; i++) {
		struct version v;

		if (!parse(m->cuda_releases.v[i].version, &v) ||
		    (major != 0 && v.part[0] != major))
			continue;
		if (best == NULL || version_cmp(&v, &vb) > 0) {
			best = &m->cuda_releases.v[i];
			vb = v;
		}
	}
	return best;
}

const struct matrix_cuda_release *
matrix_newest_cuda(const struct matrix *m)
{
	return newest_of(m, 0);
}

const struct matrix_cuda_major *
matrix_cuda_major(const struct matrix *m, unsigned major)
{
	for (size_t i = 0; i < m->cuda_majors.n; i++)
		if (m->cuda_majors.v[i].major == major)
			return &m->cuda_majors.v[i];
	return NULL;
}

const char *
matrix_minor_compat_floor(const struct matrix *m, unsigned major,
    enum matrix_os os, enum matrix_status *status)
{
	const struct matrix_cuda_major *mj = matrix_cuda_major(m, major);
	const char *floor;

	if (mj == NULL)
		return NULL;
	floor = os == MATRIX_WINDOWS ? mj->minor_compat_windows : mj->minor_compat_linux;
	if (floor != NULL)
		set_status(status, mj->status);
	return floor;
}

bool
matrix_driver_reach(const struct matrix *m, const char *driver,
    enum matrix_os os, struct matrix_driver_reach *out)
{
	struct version d, best = { { 0 }, 0 };
	const struct matrix_cuda_major *cm = NULL;

	memset(out, 0, sizeof *out);
	if (!parse(driver, &d))
		return false;

	/* The toolkit minimums: the newest release whose own driver this
	 * one meets. */
	for (size_t i = 0; i < m->cuda_releases.n; i++) {
		const struct matrix_cuda_release *r = &m->cuda_releases.v[i];
		const char *need = os == MATRIX_WINDOWS ? r->windows_driver : r->linux_driver;
		struct version vn, v;

		if (!parse(need, &vn) || version_cmp(&vn, &d) > 0 || !parse(r->version, &v))
			continue;
		if (out->release == NULL || version_cmp(&v, &best) > 0) {
			out->release = r;
			best = v;
		}
	}
	if (out->release != NULL) {
		major_minor(out->release_cuda, sizeof out->release_cuda, out->release->version);
		out->release_status = out->release->status;
	}

	/* Minor-version compatibility: the highest major whose family floor
	 * the driver meets runs every minor of that major. */
	for (size_t i = 0; i < m->cuda_majors.n; i++) {
		const struct matrix_cuda_major *mj = &m->cuda_majors.v[i];
		const char *floor = os == MATRIX_WINDOWS ? mj->minor_compat_windows :
		    mj->minor_compat_linux;
		struct version vf;

		if (!parse(floor, &vf) || version_cmp(&vf, &d) > 0)
			continue;
		if (cm == NULL || mj->major > cm->major)
			cm = mj;
	}
	if (cm != NULL) {
		const struct matrix_cuda_release *top = newest_of(m, cm->major);

		out->compat_major = cm->major;
		out->compat_status = cm->status;
		if (top != NULL) {
			major_minor(out->compat_cuda, sizeof out->compat_cuda, top->version);
			out->compat_status = weaker(cm->status, top->status);
		} else {
			snprintf(out->compat_cuda, sizeof out->compat_cuda, "%u", cm->major);
		}
	}

	if (out->release_cuda[0] != '\0' && (out->compat_cuda[0] == '\0' ||
	    !bound_above(out->compat_cuda, out->release_cuda))) {
		out->basis = MATRIX_BASIS_RELEASE;
		memcpy(out->highest, out->release_cuda, sizeof out->highest);
	} else if (out->compat_cuda[0] != '\0') {
		out->basis = MATRIX_BASIS_MINOR_COMPAT;
		memcpy(out->highest, out->compat_cuda, sizeof out->highest);
	}
	return true;
}

/* ---------------------------------------------------------- sonames */

bool
matrix_soname_cuda(const struct matrix *m, const char *name,
    struct matrix_range *range, const char **library, enum matrix_status *status)
{
	const struct matrix_soname *first = NULL;
	enum matrix_status st = MATRIX_CONFIRMED;
	struct matrix_range u = { NULL, NULL };
	struct version lo, ulo = { { 0 }, 0 };

	if (name == NULL)
		return false;
	for (size_t i = 0; i < m->sonames.n; i++) {
		const struct matrix_soname *s = &m->sonames.v[i];

		/* Windows does not care about the case of a file name. */
		if (strcmp(s->soname, name) != 0 &&
		    (s->windows_dll == NULL || strcasecmp(s->windows_dll, name) != 0))
			continue;
		if (!parse(s->cuda.min, &lo))
			continue;
		if (first == NULL) {
			first = s;
			u = s->cuda;
			ulo = lo;
		} else {
			if (version_cmp(&lo, &ulo) < 0) {
				u.min = s->cuda.min;
				ulo = lo;
			}
			if (u.max != NULL && (s->cuda.max == NULL || bound_above(s->cuda.max, u.max)))
				u.max = s->cuda.max;
		}
		st = weaker(st, s->status);
	}
	if (first == NULL)
		return false;
	if (range != NULL)
		*range = u;
	if (library != NULL)
		*library = first->library;
	set_status(status, st);
	return true;
}

const struct matrix_soname *
matrix_soname_for(const struct matrix *m, const char *library, const char *cuda)
{
	struct version v;

	if (library == NULL || !parse(cuda, &v))
		return NULL;
	for (size_t i = 0; i < m->sonames.n; i++) {
		const struct matrix_soname *s = &m->sonames.v[i];

		if (strcasecmp(s->library, library) == 0 &&
		    holds_str(s->cuda.min, s->cuda.max, &v))
			return s;
	}
	return NULL;
}

/* -------------------------------------------------- compute capability */

/* "8.6", or the names compilers use: "sm_86", "sm_90a", "compute_120". */
static bool
parse_cc(const char *s, struct version *v)
{
	const char *p = NULL;
	char *end;
	unsigned long n;

	if (s == NULL)
		return false;
	if (strncmp(s, "sm_", 3) == 0)
		p = s + 3;
	else if (strncmp(s, "compute_", 8) == 0)
		p = s + 8;
	if (p == NULL)
		return version_parse(s, v) && v->nparts == 2;
	if (*p < '0' || *p > '9')
		return false;
	n = strtoul(p, &end, 10);
	if (end - p < 2 || end - p > 3 || (*end != '\0' && strcmp(end, "a") != 0 &&
	    strcmp(end, "f") != 0))
		return false;
	memset(v, 0, sizeof *v);
	v->part[0] = (unsigned)(n / 10);
	v->part[1] = (unsigned)(n % 10);
	v->nparts = 2;
	return true;
}

const struct matrix_architecture *
matrix_architecture(const struct matrix *m, const char *cc)
{
	struct version q;

	if (!parse_cc(cc, &q))
		return NULL;
	for (size_t i = 0; i < m->architectures.n; i++) {
		struct version v;

		if (parse(m->architectures.v[i].cc, &v) && version_cmp(&v, &q) == 0)
			return &m->architectures.v[i];
	}
	return NULL;
}

static bool
arch_builds_for(const struct matrix_architecture *a, const struct version *cuda)
{
	return holds_str(a->first_cuda, a->last_cuda, cuda);
}

enum matrix_answer
matrix_cuda_supports_cc(const struct matrix *m, const char *cuda,
    const char *cc, enum matrix_status *status)
{
	const struct matrix_architecture *a = matrix_architecture(m, cc);
	struct version q;
	size_t yes = 0, no = 0;

	if (a == NULL || !parse(cuda, &q))
		return MATRIX_UNKNOWN;
	set_status(status, a->status);
	for (size_t i = 0; i < m->cuda_releases.n; i++) {
		struct version v;

		if (!parse(m->cuda_releases.v[i].version, &v))
			continue;
		if (q.nparts >= 3) {
			/* A full version is judged itself, once its minor is
			 * one the matrix knows (a future one may drop
			 * anything). */
			if (same_minor(&v, &q))
				return arch_builds_for(a, &q) ? MATRIX_YES : MATRIX_NO;
		} else if (prefix_cmp(&v, &q) == 0) {
			if (arch_builds_for(a, &v))
				yes++;
			else
				no++;
		}
	}
	if (yes > 0 && no == 0)
		return MATRIX_YES;
	if (no > 0 && yes == 0)
		return MATRIX_NO;
	return MATRIX_UNKNOWN;
}

/* ----------------------------------------------------------------- GPUs */

const struct matrix_gpu *
matrix_gpu_by_pci(const struct matrix *m, unsigned device_id)
{
	for (size_t i = 0; i < m->gpus.n; i++) {
		const struct strv *ids = &m->gpus.v[i].pci_ids;

		for (size_t k = 0; k < ids->n; k++)
			if (strtoul(ids->v[k], NULL, 16) == device_id)
				return &m->gpus.v[i];
	}
	return NULL;
}

/* Skips what names put in front of the model: "NVIDIA ", "Tesla ". */
static const char *
model_name(const char *s, size_t *len)
{
	static const char *const lead[] = { "NVIDIA ", "Tesla " };
	bool again = true;

	while (*len > 0 && *s == ' ') {
		s++;
		(*len)--;
	}
	while (again) {
		again = false;
		for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++) {
			size_t n = strlen(lead[i]);

			if (*len > n && strncasecmp(s, lead[i], n) == 0) {
				s += n;
				*len -= n;
				again = true;
			}
		}
	}
	while (*len > 0 && s[*len - 1] == ' ')
		(*len)--;
	return s;
}

const struct matrix_gpu *
matrix_gpu_by_name(const struct matrix *m, const char *name)
{
	const struct matrix_gpu *best = NULL;
	const char *q, *open, *close;
	size_t qlen, bestlen = 0;

	if (name == NULL)
		return NULL;
	/* pci.ids: "GH100 [H100 SXM5 80GB]"; the chip is not the product. */
	open = strchr(name, '[');
	close = open != NULL ? strchr(open, ']') : NULL;
	if (close != NULL) {
		q = open + 1;
		qlen = (size_t)(close - q);
	} else {
		q = name;
		qlen = strlen(name);
	}
	q = model_name(q, &qlen);
	for (size_t i = 0; i < m->gpus.n; i++) {
		size_t rlen = strlen(m->gpus.v[i].name);
		const char *r = model_name(m->gpus.v[i].name, &rlen);

		/* The row's name is the whole model or its first words:
		 * "H100" names "H100 SXM5 80GB" and nvidia-smi's
		 * "A100-SXM4-40GB", but "A10" does not name "A100". */
		if (rlen == 0 || rlen > qlen || strncasecmp(q, r, rlen) != 0)
			continue;
		if (rlen < qlen && q[rlen] != ' ' && q[rlen] != '-' && q[rlen] != '/' &&
		    q[rlen] != ',')
			continue;
		if (rlen > bestlen) {
			best = &m->gpus.v[i];
			bestlen = rlen;
		}
	}
	return best;
}

/* ---------------------------------------------------------------- cuDNN */

const struct matrix_cudnn_release *
matrix_cudnn_release(const struct matrix *m, const char *cudnn)
{
	struct version v;

	if (!parse(cudnn, &v))
		return NULL;
	for (size_t i = 0; i < m->cudnn_releases.n; i++) {
		const struct matrix_range *r = &m->cudnn_releases.v[i].versions;

		if (holds_str(r->min, r->max, &v))
			return &m->cudnn_releases.v[i];
	}
	return NULL;
}

enum matrix_answer
matrix_cudnn_supports_cuda(const struct matrix *m, const char *cudnn,
    const char *cuda, enum matrix_status *status)
{
	struct version vd, vc;
	bool found = false;
	enum matrix_status st = MATRIX_CONFIRMED;

	if (!parse(cudnn, &vd) || !parse(cuda, &vc))
		return MATRIX_UNKNOWN;
	for (size_t i = 0; i < m->cudnn_releases.n; i++) {
		const struct matrix_cudnn_release *r = &m->cudnn_releases.v[i];

		if (!holds_str(r->versions.min, r->versions.max, &vd))
			continue;
		found = true;
		st = weaker(st, r->status);
		for (size_t k = 0; k < r->cuda.n; k++) {
			if (holds_str(r->cuda.v[k].min, r->cuda.v[k].max, &vc)) {
				set_status(status, r->status);
				return MATRIX_YES;
			}
		}
	}
	if (!found)
		return MATRIX_UNKNOWN;
	set_status(status, st);
	return MATRIX_NO;
}

const struct matrix_cudnn_library *
matrix_cudnn_library(const struct matrix *m, unsigned major)
{
	for (size_t i = 0; i < m->cudnn_libraries.n; i++)
		if (m->cudnn_libraries.v[i].major == major)
			return &m->cudnn_libraries.v[i];
	return NULL;
}

const char *
matrix_newest_cudnn(const struct matrix *m, enum matrix_status *status)
{
	const char *best = NULL;
	enum matrix_status st = MATRIX_CONFIRMED;

	for (size_t i = 0; i < m->cudnn_releases.n; i++) {
		const struct matrix_cudnn_release *r = &m->cudnn_releases.v[i];
		const char *top = r->versions.max != NULL ? r->versions.max : r->versions.min;
		struct version a, b;

		if (!parse(top, &a))
			continue;
		if (best == NULL || (parse(best, &b) && version_cmp(&a, &b) > 0)) {
			best = top;
			st = r->status;
		}
	}
	if (best != NULL)
		set_status(status, st);
	return best;
}

/* ----------------------------------------------------------- packages */

const struct matrix_framework *
matrix_framework(const struct matrix *m, const char *name, const char *version)
{
	struct version v;

	if (name == NULL || !parse(version, &v))
		return NULL;
	for (size_t i = 0; i < m->frameworks.n; i++) {
		const struct matrix_framework *fw = &m->frameworks.v[i];
		bool named = pkg_name_eq(fw->name, name);

		for (size_t k = 0; k < fw->packages.n && !named; k++)
			named = pkg_name_eq(fw->packages.v[k], name);
		if (named && holds_str(fw->versions.min, fw->versions.max, &v))
			return fw;
	}
	return NULL;
}

const struct matrix_build *
matrix_framework_build(const struct matrix_framework *fw, const char *variant)
{
	if (fw == NULL || fw->builds.n == 0)
		return NULL;
	for (size_t i = 0; i < fw->builds.n; i++) {
		const struct matrix_build *b = &fw->builds.v[i];

		if (variant == NULL ? b->is_default :
		    (b->variant != NULL && strcasecmp(b->variant, variant) == 0))
			return b;
	}
	/* A row with one build needs no default to say which it is. */
	return variant == NULL && fw->builds.n == 1 ? &fw->builds.v[0] : NULL;
}

const struct matrix_fw_check *
matrix_framework_check(const struct matrix *m, const char *name,
    const char *package, const char *version, const char *library,
    const char *when)
{
	struct version v;

	if (name == NULL || package == NULL || !parse(version, &v))
		return NULL;
	for (size_t i = 0; i < m->frameworks.n; i++) {
		const struct matrix_framework *fw = &m->frameworks.v[i];

		if (!pkg_name_eq(fw->name, name))
			continue;
		for (size_t k = 0; k < fw->checks.n; k++) {
			const struct matrix_fw_check *ck = &fw->checks.v[k];

			if (pkg_name_eq(ck->package, package) &&
			    strcmp(ck->when, when) == 0 &&
			    (library == NULL || strcmp(ck->library, library) == 0) &&
			    holds_str(ck->versions.min, ck->versions.max, &v))
				return ck;
		}
	}
	return NULL;
}

const struct matrix_wheel *
matrix_wheel(const struct matrix *m, const char *package)
{
	if (package == NULL)
		return NULL;
	for (size_t i = 0; i < m->wheels.n; i++)
		if (pkg_name_eq(m->wheels.v[i].package, package))
			return &m->wheels.v[i];
	return NULL;
}

const struct matrix_conda_package *
matrix_conda_package(const struct matrix *m, const char *name)
{
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < m->conda_packages.n; i++)
		if (pkg_name_eq(m->conda_packages.v[i].name, name))
			return &m->conda_packages.v[i];
	return NULL;
}

/* ------------------------------------------------- what is published */

size_t
matrix_published_count(const struct matrix *m)
{
	return m->published.n;
}

const struct matrix_published *
matrix_published_at(const struct matrix *m, size_t i)
{
	return i < m->published.n ? &m->published.v[i] : NULL;
}

/* pip names compare as pip does ("nvidia_cudnn_cu12" is
 * "nvidia-cudnn-cu12"), their extras case aside; other channels' names
 * exactly. */
static bool
published_name_eq(const char *channel, const char *a, const char *b)
{
	const char *ea, *eb;
	char ba[128], bb[128];
	size_t la, lb;

	if (strcmp(channel, "pip") != 0)
		return strcmp(a, b) == 0;
	ea = strchr(a, '[');
	eb = strchr(b, '[');
	la = ea != NULL ? (size_t)(ea - a) : strlen(a);
	lb = eb != NULL ? (size_t)(eb - b) : strlen(b);
	if (la >= sizeof ba || lb >= sizeof bb)
		return false;
	if ((ea == NULL) != (eb == NULL) || (ea != NULL && strcasecmp(ea, eb) != 0))
		return false;
	memcpy(ba, a, la);
	ba[la] = '\0';
	memcpy(bb, b, lb);
	bb[lb] = '\0';
	return pkg_name_eq(ba, bb);
}

/* Index URLs: NULL is the default index; one trailing '/' aside. */
static bool
index_eq(const char *a, const char *b)
{
	size_t la, lb;

	if (a == NULL || b == NULL)
		return a == b;
	la = strlen(a);
	lb = strlen(b);
	if (la > 0 && a[la - 1] == '/')
		la--;
	if (lb > 0 && b[lb - 1] == '/')
		lb--;
	return la == lb && strncmp(a, b, la) == 0;
}

static bool
published_matches(const struct matrix_published *p, const char *channel,
    const char *package, const char *index_url)
{
	return strcmp(p->channel, channel) == 0 &&
	    published_name_eq(channel, p->package, package) &&
	    index_eq(p->index_url, index_url);
}

const struct matrix_published *
matrix_published_find_cuda(const struct matrix *m, const char *channel,
    const char *package, const char *index_url, unsigned cuda_major)
{
	if (channel == NULL || package == NULL)
		return NULL;
	for (size_t i = 0; i < m->published.n; i++) {
		const struct matrix_published *p = &m->published.v[i];

		if (p->cuda_major == cuda_major &&
		    published_matches(p, channel, package, index_url))
			return p;
	}
	return NULL;
}

const struct matrix_published *
matrix_published_find(const struct matrix *m, const char *channel,
    const char *package, const char *index_url)
{
	if (channel == NULL || package == NULL)
		return NULL;
	for (size_t i = 0; i < m->published.n; i++)
		if (published_matches(&m->published.v[i], channel, package, index_url))
			return &m->published.v[i];
	return NULL;
}

/* Whether range r meets [lo, hi] (either NULL: open; hi by prefix):
 * max(r.min, lo) then lies in both, which needs r.min at most hi and lo
 * at most r.max, each on the upper bound's parts. */
static bool
range_meets(const struct matrix_range *r, const struct version *lo,
    const struct version *hi)
{
	struct version rmin, rmax;

	if (!parse(r->min, &rmin) || (r->max != NULL && !parse(r->max, &rmax)))
		return false;
	if (hi != NULL && prefix_cmp(&rmin, hi) > 0)
		return false;
	if (lo != NULL && r->max != NULL && prefix_cmp(lo, &rmax) > 0)
		return false;
	return true;
}

enum matrix_answer
matrix_published_has(const struct matrix *m, const char *channel,
    const char *package, const char *index_url, const char *min, const char *max)
{
	struct version lo, hi;

	if ((min != NULL && !parse(min, &lo)) || (max != NULL && !parse(max, &hi)))
		return MATRIX_UNKNOWN;
	if (channel == NULL || package == NULL)
		return MATRIX_NO;
	for (size_t i = 0; i < m->published.n; i++) {
		const struct matrix_published *p = &m->published.v[i];

		if (!published_matches(p, channel, package, index_url))
			continue;
		if (p->versions.n == 0)
			return MATRIX_YES;
		for (size_t k = 0; k < p->versions.n; k++)
			if (range_meets(&p->versions.v[k], min != NULL ? &lo : NULL,
			    max != NULL ? &hi : NULL))
				return MATRIX_YES;
	}
	return MATRIX_NO;
}
