/* The fix lint (issue 18): every command cudawiz prints must exist and fit.
 *
 *   fixlint [--matrix FILE] [--name NAME] [FILE]
 *
 * reads one doctor or explain JSON document (FILE, or stdin) and checks
 * each command line of each finding's fix (a line not starting with "#"):
 * it is split into words the way sh would (quotes, backslashes, and the
 * separators && || | ;), and each command that installs packages is
 * checked against the catalogue (the matrix's published[] rows; FILE's
 * matrix, else the embedded one):
 *   pip install / PY -m pip install   (-U --upgrade --index-url URL
 *	--extra-index-url URL; name, name==V, name==V.*, name>=A,<B,
 *	name[extra])
 *   conda|mamba|micromamba install -c CH pkg[=V]
 *   apt-get|apt|dnf install pkg[=V]   (nvidia-driver-N: a driver branch)
 * A package in the catalogue's scope (NVIDIA's CUDA packages, the
 * frameworks' GPU builds, the driver packages: see in_scope()) that it
 * does not hold, a version or index URL it does not hold, fails. So do
 * commands the document's own facts make pointless: installing a Python
 * package at the version the document shows installed, the driver branch
 * that is loaded, and `ldconfig` in a finding whose evidence names only
 * non-sonames (libcuda.so: ldconfig never caches such a name) or whose
 * fix says running it changes nothing.
 *
 * Prints one line per problem ("NAME: CODE: LINE: why"); exit status 0
 * clean, 1 problems, 2 unreadable input or matrix, 64 usage. */
#include "config.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "matrix/matrix.h"
#include "util/strv.h"
#include "util/version.h"
#include "util/xalloc.h"

struct lint {
	const struct matrix	*m;
	const char		*name;
	json_t			*doc;
	const char		*code;		/* the finding being checked */
	const char		*line;
	json_t			*finding;
	struct strv		 removed;	/* packages an earlier line uninstalls */
	unsigned		 problems;
};

static void problem(struct lint *l, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

static void
problem(struct lint *l, const char *fmt, ...)
{
	va_list ap;

	printf("%s: %s: %s: ", l->name, l->code, l->line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	l->problems++;
}

/* ------------------------------------------------------------ words */

/* Splits line into commands (strv of words each), sh-like: '…' literal,
 * "…" with \ escapes, \x outside quotes; && || | ; end a command. A $(…)
 * stays inside its word. Returns the number of commands. */
static size_t
split(const char *line, struct strv *cmds, size_t cap)
{
	size_t n = 0;
	struct strv *cur;
	char *w = xmalloc(strlen(line) + 1);
	size_t wl = 0;
	bool in_word = false;

	if (cap == 0)
		return 0;
	cur = &cmds[0];
	*cur = (struct strv)STRV_INIT;
	n = 1;
	for (const char *p = line; ; p++) {
		char c = *p;

		if (c == '\0' || ((c == ' ' || c == '\t') && in_word)) {
			if (in_word) {
				w[wl] = '\0';
				strv_push(cur, w);
				wl = 0;
				in_word = false;
			}
			if (c == '\0')
				break;
			continue;
		}
		if (c == ' ' || c == '\t')
			continue;
		if (c == ';' || c == '|' || (c == '&' && p[1] == '&')) {
			if (in_word) {
				w[wl] = '\0';
				strv_push(cur, w);
				wl = 0;
				in_word = false;
			}
			if ((c == '&' || c == '|') && p[1] == c)
				p++;
			if (n < cap && cur->n > 0) {
				cur = &cmds[n++];
				*cur = (struct strv)STRV_INIT;
			}
			continue;
		}
		in_word = true;
		if (c == '\'') {
			for (p++; *p != '\0' && *p != '\''; p++)
				w[wl++] = *p;
			if (*p == '\0')
				p--;
		} else if (c == '"') {
			for (p++; *p != '\0' && *p != '"'; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				w[wl++] = *p;
			}
			if (*p == '\0')
				p--;
		} else if (c == '$' && p[1] == '(') {
			int depth = 0;

			for (; *p != '\0'; p++) {
				w[wl++] = *p;
				if (*p == '(')
					depth++;
				else if (*p == ')' && --depth == 0)
					break;
			}
			if (*p == '\0')
				p--;
		} else if (c == '\\' && p[1] != '\0') {
			w[wl++] = *++p;
		} else {
			w[wl++] = c;
		}
	}
	free(w);
	if (cur->n == 0 && n > 1) {
		strv_free(cur);
		n--;
	}
	return n;
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* pip's name form: lower case, runs of -_. as one '-'. */
static char *
pip_norm(const char *name, size_t len)
{
	char *s = xmalloc(len + 1), *o = s;

	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (c == '_' || c == '.' || c == '-') {
			if (o == s || o[-1] != '-')
				*o++ = '-';
		} else {
			*o++ = (char)tolower((unsigned char)c);
		}
	}
	*o = '\0';
	return s;
}

/* ------------------------------------------------------------ facts */

/* The version of Python package name the document shows installed (any
 * environment), or NULL. */
static const char *
installed_py(const struct lint *l, const char *name)
{
	json_t *envs = json_object_get(json_object_get(l->doc, "facts"),
	    "python_envs"), *e, *p;
	size_t i, k;
	const char *found = NULL;
	char *want = pip_norm(name, strlen(name));

	json_array_foreach(envs, i, e)
		json_array_foreach(json_object_get(e, "packages"), k, p) {
			const char *n = json_string_value(json_object_get(p, "name"));
			const char *v = json_string_value(json_object_get(p, "version"));
			char *have;

			if (n == NULL || v == NULL)
				continue;
			have = pip_norm(n, strlen(n));
			if (strcmp(have, want) == 0)
				found = v;
			free(have);
		}
	free(want);
	return found;
}

/* The driver branch the document shows ("550"), or NULL. */
static char *
installed_branch(const struct lint *l)
{
	json_t *d = json_object_get(json_object_get(l->doc, "facts"), "driver");
	const char *v = json_string_value(json_object_get(d, "module_version"));
	json_t *lib;
	size_t i;

	if (v == NULL)
		json_array_foreach(json_object_get(d, "libs"), i, lib)
			if ((v = json_string_value(json_object_get(lib, "version"))) != NULL)
				break;
	return v != NULL ? xstrndup(v, strcspn(v, ".")) : NULL;
}

/* ------------------------------------------------------------ scope */

static bool
prefixed(const char *s, const char *const *prefixes)
{
	for (; *prefixes != NULL; prefixes++)
		if (strncmp(s, *prefixes, strlen(*prefixes)) == 0)
			return true;
	return false;
}

/* What the catalogue is meant to hold (issue 18, point 1): other
 * packages (torchvision, libstdcxx-ng) are not the lint's business. */
static bool
in_scope(const struct lint *l, const char *channel, const char *package)
{
	static const char *const pip[] = { "nvidia-", "torch", "tensorflow",
	    "jax", "cupy-cuda", "onnxruntime-gpu", NULL };
	static const char *const conda[] = { "cudatoolkit", "cuda-", "cudnn",
	    "nccl", NULL };
	static const char *const apt[] = { "cuda-", "libcudnn", "cudnn",
	    "nvidia-driver-", "libnvidia-compute-", "libcublas", "libnccl",
	    NULL };

	if (strcmp(channel, "pip") == 0)
		return prefixed(package, pip) ||
		    matrix_published_find(l->m, channel, package, NULL) != NULL;
	if (strcmp(channel, "apt") == 0)
		return prefixed(package, apt);
	return prefixed(package, conda);
}

/* ---------------------------------------------------------- versions */

/* The prefix before v's next: "8" -> "7", "12.5" -> "12.4", "12.0" -> "11". */
static char *
prev_prefix(const char *v)
{
	size_t len = strlen(v);

	/* "12.0" is below 12: the prefix before it is 11. */
	while (len > 2 && strncmp(v + len - 2, ".0", 2) == 0)
		len -= 2;
	for (size_t i = len; i-- > 0;)
		if (i == 0 || v[i - 1] == '.') {
			unsigned long n = strtoul(v + i, NULL, 10);

			return xasprintf("%.*s%lu", (int)i, v, n > 0 ? n - 1 : 0);
		}
	return xstrdup(v);
}

/* Bounds from a pip/conda version spec ("==8.*", ">=7.6.5,<8", "=7.6",
 * "7.6.5", ">=9"): *min, *max owned or NULL; false when not understood. */
static bool
spec_bounds(const char *spec, char **min, char **max, char **pin)
{
	char *s = xstrdup(spec), *save = NULL;

	*min = *max = *pin = NULL;
	for (char *c = strtok_r(s, ",", &save); c != NULL;
	    c = strtok_r(NULL, ",", &save)) {
		size_t len;

		if (strncmp(c, "==", 2) == 0 || (c[0] == '=' && c[1] != '=')) {
			c += c[1] == '=' ? 2 : 1;
			/* conda's pkg=V=build: the version part. */
			c[strcspn(c, "=")] = '\0';
			len = strlen(c);
			if (len >= 2 && strcmp(c + len - 2, ".*") == 0)
				c[len - 2] = '\0';
			else if (len >= 1 && c[len - 1] == '*')
				c[len - 1] = '\0';
			free(*pin);
			*pin = xstrdup(c);
		} else if (strncmp(c, ">=", 2) == 0) {
			free(*min);
			*min = xstrdup(c + 2);
		} else if (c[0] == '<' && c[1] != '=') {
			free(*max);
			*max = prev_prefix(c + 1);
		} else if (strncmp(c, "<=", 2) == 0) {
			free(*max);
			*max = xstrdup(c + 2);
		} else if (isdigit((unsigned char)c[0])) {
			free(*pin);
			*pin = xstrdup(c);
		} else if (strncmp(c, "~=", 2) == 0 || c[0] == '>' || c[0] == '!') {
			continue;
		} else {
			free(s);
			return false;
		}
	}
	free(s);
	return true;
}

/* ---------------------------------------------------------- checks */

static bool
removed(const struct lint *l, const char *package)
{
	char *n = pip_norm(package, strlen(package));
	bool r = strv_contains(&l->removed, n);

	free(n);
	return r;
}

/* One package on one channel: in the catalogue at these versions, and
 * not what is installed already. */
static void
check_package(struct lint *l, const char *channel, const char *word,
    const char *index_url, bool upgrade)
{
	size_t nlen = strcspn(word, "=<>!~[ ");
	char *name = xstrndup(word, nlen), *full, *min, *max, *pin;
	const char *spec = word + nlen, *have;
	const struct matrix_published *row;
	enum matrix_answer a;

	/* name[extra]: the catalogue may list the extra's name (jax[cuda12],
	 * tensorflow[and-cuda]) or only the package. */
	if (*spec == '[') {
		const char *end = strchr(spec, ']');

		if (end == NULL) {
			problem(l, "unclosed extra in %s", word);
			free(name);
			return;
		}
		full = xstrndup(word, (size_t)(end + 1 - word));
		spec = end + 1;
	} else {
		full = xstrdup(name);
	}
	if (strcmp(channel, "apt") == 0 && spec[0] == '=') {
		/* Debian's version: 8.9.7.29-1+cuda12.2 is upstream 8.9.7.29. */
		char *v = xstrndup(spec + 1, strcspn(spec + 1, "-+~"));

		min = NULL;
		max = NULL;
		pin = v;
	} else if (!spec_bounds(spec, &min, &max, &pin)) {
		problem(l, "cannot read the version of %s", word);
		free(name);
		free(full);
		return;
	}
	if (!in_scope(l, channel, name))
		goto out;
	row = matrix_published_find(l->m, channel, full, index_url);
	if (row == NULL && strcmp(full, name) != 0)
		row = matrix_published_find(l->m, channel, name, index_url);
	if (row == NULL) {
		if (index_url != NULL)
			problem(l, "%s is not published on that index (%s)",
			    full, index_url);
		else
			problem(l, "%s is not in the catalogue", full);
		goto out;
	}
	a = matrix_published_has(l->m, channel, row->package, index_url,
	    pin != NULL ? pin : min, pin != NULL ? pin : max);
	if (a == MATRIX_NO)
		problem(l, "no published version of %s fits %s", full,
		    spec[0] != '\0' ? spec : "(any)");
	/* Pointless: the very version installed, nothing removed first. */
	/* name[extra] at the installed version still installs the extra's
	 * packages (tensorflow[and-cuda]): not pointless. */
	if (strcmp(channel, "apt") != 0 && pin != NULL && !upgrade &&
	    strcmp(full, name) == 0 &&
	    (have = installed_py(l, name)) != NULL &&
	    version_cmp_str(have, pin) == 0 && !removed(l, name))
		problem(l, "%s %s is installed already", name, have);
	if (strcmp(channel, "apt") == 0 && strncmp(name, "nvidia-driver-", 14) == 0) {
		char *br = installed_branch(l);

		if (br != NULL && strncmp(name + 14, br, strlen(br)) == 0 &&
		    (name[14 + strlen(br)] == '\0' || name[14 + strlen(br)] == '-') &&
		    !upgrade)
			problem(l, "driver branch %s is the one installed", br);
		free(br);
	}
out:
	free(name);
	free(full);
	free(min);
	free(max);
	free(pin);
}

static void
check_pip(struct lint *l, char **w, size_t n)
{
	const char *index_url = NULL;
	bool upgrade = false;
	struct strv specs = STRV_INIT;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(w[i], "-U") == 0 || strcmp(w[i], "--upgrade") == 0 ||
		    strcmp(w[i], "--force-reinstall") == 0) {
			upgrade = true;
		} else if ((strcmp(w[i], "--index-url") == 0 ||
		    strcmp(w[i], "-i") == 0) && i + 1 < n) {
			index_url = w[++i];
		} else if (strncmp(w[i], "--index-url=", 12) == 0) {
			index_url = w[i] + 12;
		} else if ((strcmp(w[i], "--extra-index-url") == 0 ||
		    strcmp(w[i], "-f") == 0) && i + 1 < n) {
			index_url = w[++i];
		} else if (strcmp(w[i], "-r") == 0 || strcmp(w[i], "-e") == 0) {
			i++;
		} else if (w[i][0] != '-') {
			strv_push(&specs, w[i]);
		}
	}
	for (size_t i = 0; i < specs.n; i++)
		check_package(l, "pip", specs.v[i], index_url, upgrade);
	strv_free(&specs);
}

static void
check_conda(struct lint *l, char **w, size_t n)
{
	const char *channel = NULL;
	struct strv specs = STRV_INIT;

	for (size_t i = 0; i < n; i++) {
		if ((strcmp(w[i], "-c") == 0 || strcmp(w[i], "--channel") == 0) &&
		    i + 1 < n) {
			if (channel == NULL)
				channel = w[i + 1];
			i++;
		} else if ((strcmp(w[i], "-p") == 0 || strcmp(w[i], "-n") == 0 ||
		    strcmp(w[i], "--prefix") == 0 || strcmp(w[i], "--name") == 0) &&
		    i + 1 < n) {
			i++;
		} else if (w[i][0] != '-') {
			strv_push(&specs, w[i]);
		}
	}
	for (size_t i = 0; i < specs.n; i++)
		check_package(l, channel != NULL ? channel : "conda-forge",
		    specs.v[i], NULL, false);
	strv_free(&specs);
}

static void
check_apt(struct lint *l, char **w, size_t n)
{
	bool again = false;

	for (size_t i = 0; i < n; i++)
		if (strcmp(w[i], "--reinstall") == 0 ||
		    strcmp(w[i], "--only-upgrade") == 0)
			again = true;
	for (size_t i = 0; i < n; i++)
		if (w[i][0] != '-' && strchr(w[i], '$') == NULL)
			check_package(l, "apt", w[i], NULL, again);
}

/* Library names in text: "libcuda.so", "libcudart.so.12". */
static void
sonames_in(const char *text, bool *bare, bool *versioned)
{
	for (const char *p = text; (p = strstr(p, "lib")) != NULL; p += 3) {
		const char *q = p + 3;

		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (isalnum((unsigned char)*q) || *q == '_' || *q == '-' || *q == '+')
			q++;
		if (strncmp(q, ".so", 3) != 0)
			continue;
		q += 3;
		if (*q == '.' && isdigit((unsigned char)q[1]))
			*versioned = true;
		else if (!isalnum((unsigned char)*q))
			*bare = true;
	}
}

static void
check_ldconfig(struct lint *l)
{
	bool bare = false, versioned = false;
	json_t *ev;
	size_t i;

	json_array_foreach(json_object_get(l->finding, "evidence"), i, ev)
		if (json_is_string(ev))
			sonames_in(json_string_value(ev), &bare, &versioned);
	if (bare && !versioned)
		problem(l, "ldconfig for a name it never caches (only "
		    "non-sonames in the evidence)");
	/* The finding's own fix says running it changes nothing (the
	 * cache is current, or the file's SONAME is another name). */
	json_array_foreach(json_object_get(l->finding, "fix"), i, ev)
		if (json_is_string(ev) && json_string_value(ev)[0] == '#' &&
		    strstr(json_string_value(ev), "ldconfig") != NULL &&
		    strstr(json_string_value(ev), "changes nothing") != NULL) {
			problem(l, "ldconfig in a fix that says running it "
			    "changes nothing");
			break;
		}
}

static void
check_command(struct lint *l, struct strv *c)
{
	char **w = c->v;
	size_t n = c->n;
	const char *tool;

	while (n > 0 && (strcmp(w[0], "sudo") == 0 || strcmp(w[0], "env") == 0 ||
	    (strchr(w[0], '=') != NULL && w[0][0] != '-' && w[0][0] != '='))) {
		w++;
		n--;
	}
	if (n == 0)
		return;
	tool = base_name(w[0]);
	if (strcmp(tool, "ldconfig") == 0) {
		check_ldconfig(l);
		return;
	}
	if ((strcmp(tool, "pip") == 0 || strcmp(tool, "pip3") == 0) && n > 1) {
		if (strcmp(w[1], "install") == 0)
			check_pip(l, w + 2, n - 2);
		else if (strcmp(w[1], "uninstall") == 0)
			for (size_t i = 2; i < n; i++)
				strv_push_owned(&l->removed, pip_norm(w[i], strlen(w[i])));
		return;
	}
	if (n > 3 && strcmp(w[1], "-m") == 0 && strcmp(w[2], "pip") == 0) {
		if (strcmp(w[3], "install") == 0)
			check_pip(l, w + 4, n - 4);
		else if (strcmp(w[3], "uninstall") == 0)
			for (size_t i = 4; i < n; i++)
				strv_push_owned(&l->removed, pip_norm(w[i], strlen(w[i])));
		return;
	}
	if ((strcmp(tool, "conda") == 0 || strcmp(tool, "mamba") == 0 ||
	    strcmp(tool, "micromamba") == 0) && n > 1 &&
	    strcmp(w[1], "install") == 0) {
		check_conda(l, w + 2, n - 2);
		return;
	}
	if ((strcmp(tool, "apt-get") == 0 || strcmp(tool, "apt") == 0 ||
	    strcmp(tool, "dnf") == 0) && n > 1 && strcmp(w[1], "install") == 0)
		check_apt(l, w + 2, n - 2);
}

static void
check_finding(struct lint *l, json_t *fd)
{
	json_t *line;
	size_t i;

	l->finding = fd;
	l->code = json_string_value(json_object_get(fd, "code"));
	if (l->code == NULL)
		l->code = "?";
	strv_free(&l->removed);
	json_array_foreach(json_object_get(fd, "fix"), i, line) {
		struct strv cmds[16];
		size_t nc;

		if (!json_is_string(line))
			continue;
		l->line = json_string_value(line);
		if (l->line[0] == '#' || l->line[0] == '\0')
			continue;
		nc = split(l->line, cmds, sizeof cmds / sizeof cmds[0]);
		for (size_t k = 0; k < nc; k++) {
			check_command(l, &cmds[k]);
			strv_free(&cmds[k]);
		}
	}
}

int
main(int argc, char **argv)
{
	struct lint l = { .name = "-" };
	const char *mfile = NULL, *file = NULL;
	struct matrix *m;
	json_error_t jerr;
	json_t *fds, *fd;
	size_t i;

	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--matrix") == 0 && a + 1 < argc)
			mfile = argv[++a];
		else if (strcmp(argv[a], "--name") == 0 && a + 1 < argc)
			l.name = argv[++a];
		else if (argv[a][0] != '-' && file == NULL)
			file = argv[a];
		else {
			fprintf(stderr, "usage: fixlint [--matrix FILE] [--name NAME] [FILE]\n");
			return 64;
		}
	}
	if (mfile != NULL) {
		FILE *fp = fopen(mfile, "r");
		char *buf, *err = NULL;
		size_t len = 0, cap = 1 << 16, got;

		if (fp == NULL) {
			perror(mfile);
			return 2;
		}
		buf = xmalloc(cap);
		while ((got = fread(buf + len, 1, cap - len, fp)) > 0)
			if ((len += got) == cap)
				buf = xreallocarray(buf, cap *= 2, 1);
		fclose(fp);
		m = matrix_parse(buf, len, &err);
		free(buf);
		if (m == NULL) {
			fprintf(stderr, "fixlint: %s: %s\n", mfile, err != NULL ? err : "?");
			free(err);
			return 2;
		}
	} else {
		m = matrix_embedded();
	}
	l.m = m;
	l.doc = file != NULL ? json_load_file(file, 0, &jerr) :
	    json_loadf(stdin, 0, &jerr);
	if (l.doc == NULL || (fds = json_object_get(l.doc, "findings")) == NULL ||
	    !json_is_array(fds)) {
		fprintf(stderr, "fixlint: %s: not a doctor/explain document (%s)\n",
		    l.name, l.doc == NULL ? jerr.text : "no findings[]");
		json_decref(l.doc);
		matrix_free(m);
		return 2;
	}
	json_array_foreach(fds, i, fd)
		check_finding(&l, fd);
	strv_free(&l.removed);
	json_decref(l.doc);
	matrix_free(m);
	return l.problems > 0 ? 1 : 0;
}
