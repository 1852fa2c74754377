/* Listing the packages of each Python environment, from what pip and
 * conda leave on disk: site-packages/NAME-VERSION.dist-info (.egg-info)
 * and conda-meta/NAME-VERSION-BUILD.json. Never by running pip or conda.
 *
 * A machine can hold hundreds of environments of hundreds of packages,
 * and doctor must stay fast, so every package is named from its
 * directory entry alone: one listing per site directory and per
 * conda-meta, no stat per entry. Files are opened only for the packages
 * cudawiz cares about (the table below), and of those only the part that
 * says what is needed: a METADATA's header, a conda record's top-level
 * strings. A conda record is read with a small scanner rather than
 * parsed whole, since PyTorch's lists every file it installed twice and
 * runs to megabytes.
 *
 * Conda installs a Python package's dist-info too; the two are one
 * package (source conda) when name and version agree. When they do not,
 * pip replaced conda's copy, and both are kept: that disagreement is
 * worth seeing. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/condajson_int.h"
#include "probe/condalibs.h"
#include "probe/cudafiles.h"
#include "probe/probe.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/version.h"
#include "util/xalloc.h"

/* A METADATA header is a few kilobytes; the description after it can be
 * large, and is never read. */
#define METADATA_CAP	(1024 * 1024)
/* PyTorch's conda record is about 5 MB; the scanner stops at the keys it
 * wants, which conda writes first (its keys are sorted). */
#define CONDA_JSON_CAP	(64 * 1024 * 1024)
/* What all of one environment's records may cost (two records at the
 * cap), and all environments' together. A real environment reads a few
 * MiB (the scanner stops within a record's first 16 KiB for almost every
 * record); 256 records of each of 32 kinds at 64 MiB each is a generated
 * tree, and reading it took minutes. Past these the records keep what
 * their file names say, as the packages past PYPKG_MAX_CARED do. */
#define CONDA_ENV_BYTES	((size_t)128 * 1024 * 1024)
#define CONDA_RUN_BYTES	((size_t)512 * 1024 * 1024)
#define READ_FIRST	(16 * 1024)
/* A real environment holds a few of the packages each entry of cared[]
 * below matches (conda's CUDA 12 has about a hundred cuda-*); a
 * site-packages of 100,000 nvidia_* entries is a generated tree, and
 * reading and listing them all would take seconds and hundreds of
 * megabytes. Past this many per entry they are only counted, so a flood
 * of one kind does not crowd out torch or jax. */
#define PYPKG_MAX_CARED	256
/* Names noted one by one per site directory; the rest are counted. */
#define PYPKG_NOTES_PER_SITE	10

/* Packages whose metadata is read and which the JSON report lists:
 * frameworks, NVIDIA's wheels and conda's CUDA packages. Names as pip
 * normalises them; a trailing '*' matches any rest. */
static const char *const cared[] = {
	"nvidia-*", "cupy*", "torch", "torchvision", "torchaudio", "pytorch*",
	"triton", "tensorflow*", "tf-nightly*", "jax", "jaxlib", "jax-cuda*",
	"spacy", "thinc*", "onnxruntime*", "paddlepaddle*", "mxnet*",
	"numba*", "cuda-*", "cudatoolkit*", "cudnn", "nccl", "tensorrt*",
	"libcublas*", "libcudnn*", "libcufft*", "libcurand*", "libcusolver*",
	"libcusparse*", "libnvjitlink*", "libnccl*", "pycuda",
};
#define N_CARED	(sizeof cared / sizeof cared[0])

/* The Requires-Dist lines worth keeping: the CUDA wheels a package pins
 * and the frameworks it builds on. */
static const char *const required[] = {
	"nvidia-*", "cupy*", "cuda-*", "tensorflow*", "jax*",
};

/* conda's platform subdirectories, the last part of a channel URL. */
static const char *const subdirs[] = {
	"linux-64", "linux-aarch64", "linux-ppc64le", "linux-s390x",
	"linux-armv7l", "linux-32", "noarch", "osx-64", "osx-arm64", "win-64",
	"win-32", "win-arm64",
};

/* What the conda records of the whole run cost, and which files were
 * read, by identity ("dev:ino"): hard links to one record are one. */
struct condarun {
	size_t		 read;		/* bytes, every environment */
	struct strmap	 seen;
};

struct pkgscan {
	struct probe_ctx	*ctx;
	struct py_env		*env;
	struct condarun		*run;
	struct strv		 norm;	/* normalised name of each package */
	size_t			 cared[N_CARED];	/* read, per entry */
	size_t			 cared_dropped;	/* past PYPKG_MAX_CARED */
	size_t			 conda_read;	/* bytes of this env's records */
	size_t			 conda_unread;	/* records past the byte caps */
	size_t			 conda_links;	/* records already read as another name */
	bool			 conda_run_cut;	/* the run's cap, not the env's */
};

static bool
name_sep(char c)
{
	return c == '-' || c == '_' || c == '.';
}

/* The first n bytes of s as pip compares names (PEP 503): lower case,
 * every run of '-', '_' and '.' one '-'. */
static char *
norm_name(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (name_sep(s[i])) {
			if (o == out || o[-1] != '-')
				*o++ = '-';
			continue;
		}
		*o++ = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') :
		    s[i];
	}
	*o = '\0';
	return out;
}

/* The index of the first entry of table that norm matches, or n. */
static size_t
matching(const char *norm, const char *const *table, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len;

		if (table[i][0] != norm[0])
			continue;
		len = strlen(table[i]);
		if (table[i][len - 1] == '*' ?
		    strncmp(norm, table[i], len - 1) == 0 :
		    strcmp(norm, table[i]) == 0)
			return i;
	}
	return n;
}

static bool
matches(const char *norm, const char *const *table, size_t n)
{
	return matching(norm, table, n) < n;
}

static bool
is_cared(const char *norm)
{
	return matches(norm, cared, N_CARED);
}

/* ------------------------------------------------------------- reading */

/*
 * Reads the start of a regular file: chunks of doubling size until
 * enough() says the bytes so far suffice, the file ends, or cap bytes
 * were read. *whole says whether the file ended. Returns 0 or a sysroot
 * error code; *data is NUL-terminated.
 */
static int
read_head_fd(int fd, size_t cap,
    bool (*enough)(void *, const char *, size_t, bool), void *arg,
    char **data, size_t *lenp, bool *whole)
{
	size_t len = 0, size = READ_FIRST < cap ? READ_FIRST : cap;
	char *buf;
	int rc = 0;

	buf = xmalloc(size + 1);
	*whole = false;
	for (;;) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = errno;
			break;
		}
		len += (size_t)n;
		buf[len] = '\0';
		if (n == 0) {
			*whole = true;
			break;
		}
		if (len < size)
			continue;
		if (enough(arg, buf, len, false) || size >= cap)
			break;
		size = size * 2 < cap ? size * 2 : cap;
		buf = xreallocarray(buf, size + 1, 1);
	}
	if (rc != 0) {
		free(buf);
		return rc;
	}
	*data = buf;
	*lenp = len;
	return 0;
}

static int
read_head(const struct sysroot *sr, const char *path, size_t cap,
    bool (*enough)(void *, const char *, size_t, bool), void *arg,
    char **data, size_t *lenp, bool *whole)
{
	int fd, rc = sysroot_open_file(sr, path, &fd);

	if (rc != 0)
		return rc;
	rc = read_head_fd(fd, cap, enough, arg, data, lenp, whole);
	close(fd);
	return rc;
}

/* ------------------------------------------------------ METADATA, PKG-INFO */

/* The header ends at the first empty line. */
static size_t
header_len(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (i + 1 < len && buf[i + 1] == '\n')
			return i + 1;
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return i + 1;
	}
	return len;
}

static bool
header_done(void *arg, const char *buf, size_t len, bool whole)
{
	(void)arg;
	(void)whole;
	return header_len(buf, len) < len;
}

static char *
trimmed(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r'))
		n--;
	return xstrndup(s, n);
}

/* The project name a requirement starts with, normalised. */
static char *
requirement_name(const char *req)
{
	size_t n = 0;

	while ((req[n] >= 'a' && req[n] <= 'z') ||
	    (req[n] >= 'A' && req[n] <= 'Z') ||
	    (req[n] >= '0' && req[n] <= '9') || name_sep(req[n]))
		n++;
	return norm_name(req, n);
}

/*
 * Name, Version, Requires-Dist and Provides-Extra from the header of a
 * core metadata file (RFC 822 style: "Key: value", continuation lines
 * start with a blank and are not needed here).
 */
static void
parse_metadata(struct py_package *p, const char *md, const char *buf,
    size_t len)
{
	size_t end = header_len(buf, len), pos = 0;
	bool has_version = false;

	if (memchr(buf, '\0', end) != NULL) {
		p->metadata_error = xasprintf(_("%s: binary data, not package "
		    "metadata"), md);
		return;
	}
	while (pos < end) {
		const char *line = buf + pos, *nl, *colon;
		size_t n, klen;
		char *val;

		nl = memchr(line, '\n', end - pos);
		n = nl != NULL ? (size_t)(nl - line) : end - pos;
		pos += n + 1;
		colon = memchr(line, ':', n);
		if (line[0] == ' ' || line[0] == '\t' || colon == NULL)
			continue;
		klen = (size_t)(colon - line);
		val = trimmed(colon + 1, n - klen - 1);
		if (klen == 4 && strncasecmp(line, "Name", 4) == 0 &&
		    *val != '\0') {
			free(p->name);
			p->name = val;
		} else if (klen == 7 && strncasecmp(line, "Version", 7) == 0 &&
		    *val != '\0') {
			free(p->version);
			p->version = val;
			has_version = true;
		} else if (klen == 13 &&
		    strncasecmp(line, "Requires-Dist", 13) == 0) {
			char *rn = requirement_name(val);

			if (matches(rn, required,
			    sizeof required / sizeof required[0]))
				strv_push_owned(&p->requires, val);
			else
				free(val);
			free(rn);
		} else if (klen == 14 &&
		    strncasecmp(line, "Provides-Extra", 14) == 0 &&
		    *val != '\0') {
			strv_push_owned(&p->extras, val);
		} else {
			free(val);
		}
	}
	if (!has_version)
		p->metadata_error = xasprintf(_("%s: no Version in the "
		    "metadata"), md);
}

/* METADATA of a dist-info, PKG-INFO of an egg-info directory, or an
 * egg-info that is itself the file. */
static void
read_metadata(struct pkgscan *ps, struct py_package *p)
{
	const struct sysroot *sr = ps->ctx->sr;
	char *md, *buf;
	size_t len;
	bool whole;
	int rc;

	md = path_join(p->path, p->source == PYPKG_EGG_INFO ? "PKG-INFO" :
	    "METADATA");
	rc = read_head(sr, md, METADATA_CAP, header_done, NULL, &buf, &len,
	    &whole);
	if (rc == ENOTDIR && p->source == PYPKG_EGG_INFO) {
		free(md);
		md = xstrdup(p->path);
		rc = read_head(sr, md, METADATA_CAP, header_done, NULL, &buf,
		    &len, &whole);
	}
	if (rc != 0) {
		p->metadata_error = xasprintf("%s: %s", md,
		    sysroot_strerror(rc));
		free(md);
		return;
	}
	p->metadata_read = true;
	parse_metadata(p, md, buf, len);
	free(buf);
	free(md);
}

/* ----------------------------------------------------------- site dirs */

/*
 * NAME-VERSION of a dist-info or egg-info stem. pip escapes '-' in both
 * parts, so the first '-' before a digit ends the name; an egg-info adds
 * "-pyX.Y". A stem with no '-' has no version.
 */
static void
split_dist_name(const char *stem, size_t len, bool egg, char **name,
    char **version)
{
	const char *dash = NULL, *v, *py, *end = stem + len;

	for (const char *p = stem; p < end; p++)
		if (*p == '-' && p + 1 < end && p[1] >= '0' && p[1] <= '9') {
			dash = p;
			break;
		}
	if (dash == NULL)
		dash = memchr(stem, '-', len);
	if (dash == NULL) {
		*name = xstrndup(stem, len);
		*version = NULL;
		return;
	}
	*name = xstrndup(stem, (size_t)(dash - stem));
	v = dash + 1;
	py = NULL;
	for (const char *p = v; egg && p + 3 <= end && py == NULL; p++)
		if (strncmp(p, "-py", 3) == 0)
			py = p;
	*version = v == end || py == v ? NULL :
	    xstrndup(v, (size_t)((py != NULL ? py : end) - v));
}

/* Whether the package named norm is read and listed: one cudawiz cares
 * about, within the cap of its kind. */
static bool
take_cared(struct pkgscan *ps, const char *norm)
{
	size_t i = matching(norm, cared, N_CARED);

	if (i == N_CARED)
		return false;
	if (ps->cared[i] >= PYPKG_MAX_CARED) {
		ps->cared_dropped++;
		return false;
	}
	ps->cared[i]++;
	return true;
}

/* Takes name, version, path and norm (name normalised; NULL: made here);
 * site is kept as it is: one of the env's site_dirs. */
static struct py_package *
add_package(struct pkgscan *ps, char *name, char *version,
    enum pypkg_source src, char *path, const char *site, char *norm)
{
	struct py_package *p = VEC_PUSH(&ps->env->packages);

	p->name = name;
	p->version = version;
	p->source = src;
	p->path = path;
	p->site = site;
	strv_push_owned(&ps->norm, norm != NULL ? norm :
	    norm_name(name, strlen(name)));
	p->cared_about = is_cared(ps->norm.v[ps->norm.n - 1]);
	return p;
}

static void
scan_site(struct pkgscan *ps, const char *site)
{
	struct strv names = STRV_INIT;
	size_t unversioned = 0;
	int rc = sysroot_list_dir(ps->ctx->sr, site, &names);

	if (rc != 0)
		facts_note(ps->ctx->facts, site,
		    _("cannot list the packages: %s"), sysroot_strerror(rc));
	for (size_t i = 0; i < names.n; i++) {
		const char *n = names.v[i];
		size_t len = strlen(n);
		bool egg;
		char *name, *version;
		struct py_package *p;

		if (cf_ends_with(n, ".dist-info") && len > 10)
			egg = false;
		else if (cf_ends_with(n, ".egg-info") && len > 9)
			egg = true;
		else
			continue;
		split_dist_name(n, len - (egg ? 9 : 10), egg, &name, &version);
		if (version == NULL &&
		    ++unversioned <= PYPKG_NOTES_PER_SITE)
			facts_note(ps->ctx->facts, site, _("%s: no version in "
			    "the name (NAME-VERSION%s expected)"), n,
			    egg ? ".egg-info" : ".dist-info");
		p = add_package(ps, name, version,
		    egg ? PYPKG_EGG_INFO : PYPKG_DIST_INFO, path_join(site, n),
		    site, NULL);
		if (p->cared_about)
			p->cared_about = take_cared(ps,
			    ps->norm.v[ps->norm.n - 1]);
		if (p->cared_about)
			read_metadata(ps, p);
	}
	if (unversioned > PYPKG_NOTES_PER_SITE)
		facts_note(ps->ctx->facts, site, _("%zu more dist-info or "
		    "egg-info names without a version"),
		    unversioned - PYPKG_NOTES_PER_SITE);
	strv_free(&names);
}

/* ----------------------------------------------------------- conda-meta */

static bool
is_subdir(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++)
		if (strlen(subdirs[i]) == n && strncmp(s, subdirs[i], n) == 0)
			return true;
	return false;
}

/*
 * The channel as users name it: "https://conda.anaconda.org/conda-forge/
 * linux-64" is "conda-forge", "https://repo.anaconda.com/pkgs/main/
 * linux-64" and "pkgs/main/linux-64" are "pkgs/main". The host, any
 * user:password and a /t/TOKEN/ part are dropped, so no credential ever
 * reaches a report. file is true for a package URL (ends in the file).
 */
static char *
reduce_channel(const char *ch, bool file)
{
	const char *p = ch, *sep = strstr(ch, "://");
	size_t n, last;

	if (sep != NULL && strncmp(ch, "file://", 7) == 0) {
		p = sep + 3;		/* a local channel: its path */
	} else if (sep != NULL) {
		p = sep + 3;
		p += strcspn(p, "/");	/* the host, with any user:password@ */
		p += strspn(p, "/");
	}
	if (strncmp(p, "t/", 2) == 0) {
		p += 2;
		p += strcspn(p, "/");
		p += strspn(p, "/");
	}
	n = strlen(p);
	if (file)
		while (n > 0 && p[n - 1] != '/')
			n--;
	while (n > 0 && p[n - 1] == '/')
		n--;
	for (last = n; last > 0 && p[last - 1] != '/'; last--)
		;
	if (is_subdir(p + last, n - last))
		n = last;
	while (n > 0 && p[n - 1] == '/')
		n--;
	return n > 0 ? xstrndup(p, n) : NULL;
}

/* Whether the file is in the run's set (read already, under this name
 * or another); adds it when add. */
static bool
inode_seen(struct condarun *run, const struct stat *st, bool add)
{
	char key[64];

	snprintf(key, sizeof key, "%ju:%ju", (uintmax_t)st->st_dev,
	    (uintmax_t)st->st_ino);
	if (strmap_get(&run->seen, key) != NULL)
		return true;
	if (add)
		strmap_put(&run->seen, key, 0);
	return false;
}

/* How much of a record may be read: what is left of the environment's
 * and the run's budgets, and the cap of one record. 0: none. */
static size_t
conda_allowance(struct pkgscan *ps)
{
	size_t env_left = CONDA_ENV_BYTES - ps->conda_read;
	size_t run_left = CONDA_RUN_BYTES - ps->run->read;
	size_t cap = CONDA_JSON_CAP;

	if (env_left < cap)
		cap = env_left;
	if (run_left < cap)
		cap = run_left;
	return cap;
}

/* Opens a record to read: 0 with *fd and the bytes it may take, or a
 * sysroot error code. *skip (fd closed) when it is not read: a hard link
 * to a record read already, or past the byte caps; counted. */
static int
open_record(struct pkgscan *ps, const char *path, int *fd, size_t *cap,
    bool *skip)
{
	struct stat st;
	int rc = sysroot_open_file(ps->ctx->sr, path, fd);

	*skip = false;
	if (rc != 0)
		return rc;
	if (fstat(*fd, &st) != 0) {
		rc = errno;
		close(*fd);
		return rc;
	}
	if (inode_seen(ps->run, &st, false)) {
		close(*fd);
		ps->conda_links++;
		*skip = true;
		return 0;
	}
	*cap = conda_allowance(ps);
	if (*cap == 0) {
		close(*fd);
		ps->conda_unread++;
		if (ps->run->read >= CONDA_RUN_BYTES)
			ps->conda_run_cut = true;
		*skip = true;
		return 0;
	}
	(void)inode_seen(ps->run, &st, true);
	return 0;
}

/* Fills p from its conda record; a record that cannot be read leaves
 * what its file name said. */
static void
read_conda_record(struct pkgscan *ps, struct py_package *p)
{
	struct jscan j = { .state = JS_MORE };
	char *buf;
	size_t len, cap = 0;
	bool whole, skip;
	int fd, rc = open_record(ps, p->path, &fd, &cap, &skip);

	if (rc == 0 && skip)
		return;
	if (rc == 0) {
		rc = read_head_fd(fd, cap, js_enough, &j, &buf, &len, &whole);
		close(fd);
	}
	if (rc != 0) {
		p->metadata_error = xasprintf("%s: %s", p->path,
		    sysroot_strerror(rc));
		js_reset(&j);
		return;
	}
	ps->conda_read += len;
	ps->run->read += len;
	p->metadata_read = true;
	js_scan(&j, buf, len, whole);
	free(buf);
	/* Build and channel read, the depends array cut by a cap: what was
	 * read of it is kept, and nothing is wrong with the record. */
	if (j.state == JS_MORE && (j.val[JK_BUILD] != NULL ||
	    j.val[JK_BUILD_STRING] != NULL) && (j.val[JK_CHANNEL] != NULL ||
	    j.val[JK_SCHANNEL] != NULL))
		j.state = JS_DONE;
	if (j.state == JS_MORE && cap < CONDA_JSON_CAP)
		p->metadata_error = xasprintf(_("%s: read only in part (%zu "
		    "bytes): the records read before it used what cudawiz "
		    "reads of conda records, and no build and channel were in "
		    "that part"), p->path, len);
	else if (j.state == JS_MORE)
		p->metadata_error = xasprintf(_("%s: larger than %d MiB, and "
		    "no build and channel in the part read"), p->path,
		    CONDA_JSON_CAP / (1024 * 1024));
	else if (j.state == JS_BAD)
		p->metadata_error = xasprintf(_("%s: malformed conda record "
		    "(%s at byte %zu)"), p->path, _(j.bad), j.bad_at);
	if (j.val[JK_NAME] != NULL && *j.val[JK_NAME] != '\0') {
		free(p->name);
		p->name = j.val[JK_NAME];
		j.val[JK_NAME] = NULL;
	}
	if (j.val[JK_VERSION] != NULL && *j.val[JK_VERSION] != '\0') {
		free(p->version);
		p->version = j.val[JK_VERSION];
		j.val[JK_VERSION] = NULL;
	}
	if (j.val[JK_BUILD] != NULL || j.val[JK_BUILD_STRING] != NULL) {
		int k = j.val[JK_BUILD] != NULL ? JK_BUILD : JK_BUILD_STRING;

		free(p->build);
		p->build = j.val[k];
		j.val[k] = NULL;
	}
	if (j.val[JK_CHANNEL] != NULL)
		p->channel = reduce_channel(j.val[JK_CHANNEL], false);
	if (p->channel == NULL && j.val[JK_SCHANNEL] != NULL)
		p->channel = reduce_channel(j.val[JK_SCHANNEL], false);
	if (p->channel == NULL && j.val[JK_URL] != NULL)
		p->channel = reduce_channel(j.val[JK_URL], true);
	/* A conda package's requirements are its depends pins. */
	for (size_t i = 0; i < j.deps.n; i++)
		strv_push(&p->requires, j.deps.v[i]);
	js_reset(&j);
}

/* NAME-VERSION-BUILD, split from the right: names hold '-', versions
 * and build strings do not. */
static bool
split_conda_name(const char *stem, char **name, char **version, char **build)
{
	const char *b = strrchr(stem, '-'), *v;

	if (b == NULL || b == stem || b[1] == '\0')
		return false;
	for (v = b - 1; v > stem && *v != '-'; v--)
		;
	if (v == stem || v + 1 == b)
		return false;
	*name = xstrndup(stem, (size_t)(v - stem));
	*version = xstrndup(v + 1, (size_t)(b - v - 1));
	*build = xstrdup(b + 1);
	return true;
}

struct name_idx {
	const char	*norm;
	size_t		 idx;
};

static int
cmp_name_idx(const void *a, const void *b)
{
	const struct name_idx *x = a, *y = b;
	int c = strcmp(x->norm, y->norm);

	if (c != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool
same_version(const char *a, const char *b)
{
	if (a == NULL || b == NULL || strcmp(a, b) == 0)
		return true;
	return version_valid(a) && version_valid(b) &&
	    version_cmp_str(a, b) == 0;
}

/* The site package a conda record is the same install as: same name,
 * same version, not claimed by another record. SIZE_MAX when none. */
static size_t
match_site(struct pkgscan *ps, const struct name_idx *idx, size_t n,
    const char *norm, const char *version)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(idx[mid].norm, norm) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && strcmp(idx[lo].norm, norm) == 0; lo++) {
		const struct py_package *p = &ps->env->packages.v[idx[lo].idx];

		if (p->source != PYPKG_CONDA && same_version(p->version, version))
			return idx[lo].idx;
	}
	return SIZE_MAX;
}

/* Makes the site package at i the conda package rec describes; rec's
 * strings move into it. */
static void
merge_record(struct pkgscan *ps, size_t i, struct py_package *rec)
{
	struct py_package *p = &ps->env->packages.v[i];

	p->source = PYPKG_CONDA;
	free(p->path);
	p->path = rec->path;
	rec->path = NULL;
	free(p->name);
	p->name = rec->name;
	rec->name = NULL;
	if (rec->version != NULL) {
		free(p->version);
		p->version = rec->version;
		rec->version = NULL;
	}
	p->build = rec->build;
	rec->build = NULL;
	for (size_t k = 0; k < rec->requires.n; k++)
		strv_push(&p->requires, rec->requires.v[k]);
	p->channel = rec->channel;
	rec->channel = NULL;
	p->metadata_read |= rec->metadata_read;
	if (rec->metadata_error != NULL) {
		free(p->metadata_error);
		p->metadata_error = rec->metadata_error;
		rec->metadata_error = NULL;
	}
	p->cared_about |= rec->cared_about;
	py_package_free(rec);
}

static void
scan_conda_meta(struct pkgscan *ps)
{
	struct py_env *e = ps->env;
	struct strv names = STRV_INIT;
	char *meta = path_join(e->prefix, "conda-meta");
	size_t nsite = e->packages.n;
	struct name_idx *idx = xcalloc(nsite + 1, sizeof *idx);
	int rc;

	for (size_t i = 0; i < nsite; i++) {
		idx[i].norm = ps->norm.v[i];
		idx[i].idx = i;
	}
	qsort(idx, nsite, sizeof *idx, cmp_name_idx);
	rc = sysroot_list_dir(ps->ctx->sr, meta, &names);
	if (rc != 0)
		facts_note(ps->ctx->facts, meta,
		    _("cannot list the conda package records: %s"),
		    sysroot_strerror(rc));
	for (size_t i = 0; i < names.n; i++) {
		const char *n = names.v[i];
		struct py_package rec = { .source = PYPKG_CONDA };
		struct py_package *p;
		char *stem, *norm;
		size_t at;

		if (!cf_ends_with(n, ".json") || n[0] == '.')
			continue;
		stem = xstrndup(n, strlen(n) - 5);
		if (!split_conda_name(stem, &rec.name, &rec.version,
		    &rec.build)) {
			facts_note(ps->ctx->facts, meta, _("%s: not "
			    "NAME-VERSION-BUILD.json"), n);
			rec.name = xstrdup(stem);
		}
		free(stem);
		rec.path = path_join(meta, n);
		norm = norm_name(rec.name, strlen(rec.name));
		rec.cared_about = take_cared(ps, norm);
		if (rec.cared_about) {
			read_conda_record(ps, &rec);
			/* The record may have renamed it. */
			free(norm);
			norm = norm_name(rec.name, strlen(rec.name));
		}
		at = match_site(ps, idx, nsite, norm, rec.version);
		if (at != SIZE_MAX) {
			free(norm);
			merge_record(ps, at, &rec);
			continue;
		}
		p = add_package(ps, rec.name, rec.version, PYPKG_CONDA,
		    rec.path, NULL, norm);
		p->cared_about = rec.cared_about;
		p->build = rec.build;
		p->channel = rec.channel;
		p->requires = rec.requires;
		p->metadata_read = rec.metadata_read;
		p->metadata_error = rec.metadata_error;
	}
	free(idx);
	strv_free(&names);
	free(meta);
}

/* What the caps on conda records left unread in this environment. */
static void
note_conda_caps(struct pkgscan *ps)
{
	char *meta;

	if (ps->conda_unread == 0 && ps->conda_links == 0)
		return;
	meta = path_join(ps->env->prefix, "conda-meta");
	if (ps->conda_links > 0)
		facts_note(ps->ctx->facts, meta, _("%zu records are hard links "
		    "to a record read already (the same file under another "
		    "name): each file was read once, and these keep what "
		    "their file names say"), ps->conda_links);
	if (ps->conda_unread > 0 && ps->conda_run_cut)
		facts_note(ps->ctx->facts, meta, _("%zu records were not read: "
		    "cudawiz reads at most %zu MiB of conda records in one run, "
		    "and the environments before this one used them; these "
		    "keep what their file names say"), ps->conda_unread,
		    CONDA_RUN_BYTES / (1024 * 1024));
	else if (ps->conda_unread > 0)
		facts_note(ps->ctx->facts, meta, _("%zu records were not read: "
		    "cudawiz reads at most %zu MiB of one environment's conda "
		    "records (%zu bytes were read); these keep what their file "
		    "names say"), ps->conda_unread,
		    CONDA_ENV_BYTES / (1024 * 1024), ps->conda_read);
	free(meta);
}

/* ------------------------------------------------------------- ordering */

/* Sorts the packages by normalised name, the order found breaking ties,
 * so a report lists them the way pip list does. */
static void
sort_packages(struct pkgscan *ps)
{
	struct py_env *e = ps->env;
	size_t n = e->packages.n;
	struct name_idx *idx;
	struct py_package *sorted;

	if (n < 2)
		return;
	idx = xcalloc(n, sizeof *idx);
	sorted = xcalloc(n, sizeof *sorted);

	for (size_t i = 0; i < n; i++) {
		idx[i].norm = ps->norm.v[i];
		idx[i].idx = i;
	}
	qsort(idx, n, sizeof *idx, cmp_name_idx);
	for (size_t i = 0; i < n; i++)
		sorted[i] = e->packages.v[idx[i].idx];
	memcpy(e->packages.v, sorted, n * sizeof *sorted);
	free(sorted);
	free(idx);
}

void
probe_python_packages(struct probe_ctx *ctx)
{
	struct facts *f = ctx->facts;
	struct condarun run = { 0, STRMAP_INIT };

	if (f->python_state.state != FACT_KNOWN)
		return;
	for (size_t i = 0; i < f->python_envs.n; i++) {
		struct pkgscan ps = { .ctx = ctx, .env = &f->python_envs.v[i],
		    .run = &run };

		for (size_t j = 0; j < ps.env->site_dirs.n; j++)
			scan_site(&ps, ps.env->site_dirs.v[j]);
		if (ps.env->kind == PYENV_CONDA) {
			scan_conda_meta(&ps);
			note_conda_caps(&ps);
		}
		if (ps.cared_dropped > 0)
			facts_note(f, ps.env->prefix, _("more packages of one "
			    "kind (nvidia-*, cuda-*, …) than any real "
			    "environment holds: %d of each kind were read, "
			    "%zu more are only counted"), PYPKG_MAX_CARED,
			    ps.cared_dropped);
		sort_packages(&ps);
		strv_free(&ps.norm);
		/* Doubling leaves up to half of the vector unused in every
		 * environment, kept to the end of the run. */
		if (ps.env->packages.n > 0 &&
		    ps.env->packages.n < ps.env->packages.cap) {
			ps.env->packages.v = xreallocarray(ps.env->packages.v,
			    ps.env->packages.n, sizeof *ps.env->packages.v);
			ps.env->packages.cap = ps.env->packages.n;
		}
		conda_env_cuda_libs(ctx, ps.env);
	}
	strmap_free(&run.seen);
}

