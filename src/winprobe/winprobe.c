/* The Windows probe: the driver's DLLs, the CUDA toolkits, the CUDA_PATH
 * variables and the cuDNN copies (winpython.c: the Python installs). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "pe/pe.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "winload/winname.h"
#include "winprobe/winprobe_int.h"

#define TOOLKIT_ROOT	"Program Files/NVIDIA GPU Computing Toolkit/CUDA"
#define CUDNN_ROOT	"Program Files/NVIDIA/CUDNN"

/* ------------------------------------------------------------- helpers */

const char *
wp_env(const struct wp *w, const char *name)
{
	size_t n = strlen(name);

	if (w->envp == NULL)
		return NULL;
	for (char *const *e = w->envp; *e != NULL; e++)
		if (strncmp(*e, "=", 1) != 0 && strlen(*e) > n &&
		    (*e)[n] == '=' && winname_eqn(*e, n, name))
			return *e + n + 1;
	return NULL;
}

char *
wp_find(const struct wp *w, const char *dir, const char *name)
{
	char *p = dir[0] != '\0' ? xasprintf("%s/%s", dir, name) : xstrdup(name);
	char *out = NULL;

	if (winname_resolve(w->sr, p, &out) != 0)
		out = NULL;
	free(p);
	return out;
}

bool
wp_list(const struct wp *w, const char *dir, struct strv *names)
{
	if (sysroot_list_dir(w->sr, dir[0] != '\0' ? dir : "/", names) == 0)
		return true;
	strv_free(names);
	return false;
}

bool
wp_glob(const char *name, const char *prefix, const char *suffix)
{
	size_t n = strlen(name), p = strlen(prefix), s = strlen(suffix);

	return n > p + s && winname_eqn(name, p, prefix) &&
	    winname_eq(name + n - s, suffix);
}

char *
wp_text(const struct wp *w, const char *path, char **why)
{
	char *data = NULL;
	size_t len;
	int err;

	*why = NULL;
	err = sysroot_read_head(w->sr, path, WINFACTS_TEXT_CAP, &data, &len);
	if (err != 0) {
		*why = xasprintf("%s: %s", path, sysroot_strerror(err));
		return NULL;
	}
	return data;
}

void
wp_dll_read(const struct wp *w, const char *path, struct win_dll *d)
{
	struct peobj pe;
	char *err = NULL;

	d->path = xstrdup(path);
	if (pe_read(w->sr, path, PE_HEADERS, &pe, &err) != 0) {
		d->error = err;
		pe_free(&pe);
		return;
	}
	d->machine = pe.machine;
	if (pe.file_version != NULL)
		d->file_version = xstrdup(pe.file_version);
	if (pe.product_version != NULL)
		d->product_version = xstrdup(pe.product_version);
	if (pe.product_name != NULL)
		d->product_name = xstrdup(pe.product_name);
	pe_free(&pe);
}

char *
wp_quoted_after(const char *text, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = strstr(text, key); p != NULL;
	    p = strstr(p + 1, key)) {
		const char *q = p + k, *end;
		char quote;

		/* A key inside a longer word is not it ("cuda" in "is_cuda_build"). */
		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		if (isalnum((unsigned char)*q) || *q == '_')
			continue;
		if (*q == '\'' || *q == '"')	/* the key's own closing quote */
			q++;
		while (*q == ' ' || *q == '\t' || *q == ']')
			q++;
		/* torch's "cuda: Optional[str] = '12.1'": an annotation */
		if (*q == ':' && q[1] == ' ' && strncmp(q + 2, "Optional[str]", 13) == 0)
			for (q += 15; *q == ' ' || *q == '\t'; q++)
				;
		if (*q != '=' && *q != ':')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '\'' && *q != '"')
			continue;
		quote = *q++;
		end = strchr(q, quote);
		if (end == NULL || memchr(q, '\n', (size_t)(end - q)) != NULL)
			continue;
		return xstrndup(q, (size_t)(end - q));
	}
	return NULL;
}

void
win_dll_free(struct win_dll *d)
{
	free(d->path);
	free(d->file_version);
	free(d->product_version);
	free(d->product_name);
	free(d->error);
	memset(d, 0, sizeof *d);
}

/* ------------------------------------------------------------- the rule */

bool
winprobe_driver_version(const char *v, char *buf, size_t n)
{
	unsigned long part[4];
	const char *p = v;
	unsigned long num;

	if (v == NULL)
		return false;
	for (int i = 0; i < 4; i++) {
		char *end;

		if (!isdigit((unsigned char)*p))
			return false;
		errno = 0;
		part[i] = strtoul(p, &end, 10);
		if (errno != 0 || part[i] > 65535)
			return false;
		p = end;
		if (i < 3 && *p++ != '.')
			return false;
	}
	if (*p != '\0' || part[3] > 9999)
		return false;
	num = (part[2] * 10000 + part[3]) % 100000;
	return snprintf(buf, n, "%lu.%02lu", num / 100, num % 100) < (int)n;
}

char *
winprobe_tree_path(char drive, const char *p, const char **why)
{
	struct strbuf sb = STRBUF_INIT;

	*why = NULL;
	if ((p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/')) {
		*why = _("a network path, outside the drive");
		return NULL;
	}
	if (p[0] == '\0' || p[1] != ':' || (p[2] != '\\' && p[2] != '/')) {
		*why = _("not an absolute Windows path");
		return NULL;
	}
	if (toupper((unsigned char)p[0]) != toupper((unsigned char)drive)) {
		*why = _("on another drive than the one probed");
		return NULL;
	}
	for (p += 3; *p != '\0'; p++)
		strbuf_putc(&sb, *p == '\\' ? '/' : *p);
	while (sb.len > 0 && sb.buf[sb.len - 1] == '/')
		sb.buf[--sb.len] = '\0';
	return strbuf_take(&sb);
}

/* ------------------------------------------------------------- driver */

/* s holds "NVIDIA" in any case (NVIDIA's own resources say "NVIDIA";
 * older ones "nVidia"). */
static bool
names_nvidia(const char *s)
{
	if (s == NULL)
		return false;
	for (; *s != '\0'; s++)
		if (winname_eqn(s, 6, "nvidia"))
			return true;
	return false;
}

static void
probe_driver(struct wp *w)
{
	struct win_driver *d = &w->f->driver;
	char *p, buf[32];

	p = wp_find(w, "Windows/System32", "nvcuda.dll");
	if (p != NULL) {
		wp_dll_read(w, p, &d->nvcuda);
		free(p);
		if (d->nvcuda.error != NULL)
			d->state = WIN_NVCUDA_UNREADABLE;
		else if (names_nvidia(d->nvcuda.product_name))
			d->state = WIN_NVCUDA_NVIDIA;
		else
			d->state = WIN_NVCUDA_FOREIGN;
		/* The rule is NVIDIA's: another vendor's numbers mean nothing by it. */
		if (d->state == WIN_NVCUDA_NVIDIA &&
		    winprobe_driver_version(d->nvcuda.file_version, buf, sizeof buf))
			d->version = xstrdup(buf);
	}
	p = wp_find(w, "Windows/System32", "nvml.dll");
	if (p == NULL)
		p = wp_find(w, "Program Files/NVIDIA Corporation/NVSMI", "nvml.dll");
	if (p != NULL) {
		wp_dll_read(w, p, &d->nvml);
		free(p);
	}
}

/* ------------------------------------------------------------- toolkits */

/* "v12.6" -> "12.6"; NULL for any other name. */
static char *
dir_version(const char *name)
{
	const char *p = name + 1;

	if (name[0] != 'v' && name[0] != 'V')
		return NULL;
	if (!isdigit((unsigned char)*p))
		return NULL;
	for (; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return NULL;
	return xstrdup(name + 1);
}

static long
toolkit_add(struct wp *w, const char *dir, const char *name, bool from_env)
{
	struct win_facts *f = w->f;
	struct win_toolkit *t;
	struct strv names = STRV_INIT;
	char *bindir, *json;

	for (size_t i = 0; i < f->toolkits.n; i++)
		if (winname_eq(f->toolkits.v[i].dir, dir))
			return (long)i;
	if (f->toolkits.n >= WINFACTS_TOOLKITS_MAX) {
		strv_pushf(&f->notes, _("more than %d CUDA toolkits: the rest not looked at"),
		    WINFACTS_TOOLKITS_MAX);
		return -1;
	}
	t = VEC_PUSH(&f->toolkits);
	memset(t, 0, sizeof *t);
	t->dir = xstrdup(dir);
	t->dir_version = dir_version(name);
	t->from_env = from_env;
	json = wp_find(w, dir, "version.json");
	if (json != NULL) {
		char *why, *text = wp_text(w, json, &why);

		if (text != NULL) {
			const char *cuda = strstr(text, "\"cuda\"");

			if (cuda != NULL)
				t->json_version = wp_quoted_after(cuda, "\"version\"");
			if (t->json_version == NULL)
				t->json_error = xasprintf(_("%s: no cuda version in it"), json);
		} else {
			t->json_error = why;
		}
		free(text);
		free(json);
	}
	bindir = wp_find(w, dir, "bin");
	if (bindir != NULL && wp_list(w, bindir, &names)) {
		for (size_t i = 0; i < names.n; i++)
			if (wp_glob(names.v[i], "cudart64_", ".dll")) {
				char *p = xasprintf("%s/%s", bindir, names.v[i]);

				wp_dll_read(w, p, &t->cudart);
				free(p);
				break;
			}
	}
	strv_free(&names);
	free(bindir);
	return (long)(f->toolkits.n - 1);
}

static void
probe_toolkits(struct wp *w)
{
	struct strv names = STRV_INIT;
	char *root = wp_find(w, "", TOOLKIT_ROOT);

	if (root != NULL && wp_list(w, root, &names))
		for (size_t i = 0; i < names.n; i++) {
			char *dir = xasprintf("%s/%s", root, names.v[i]);

			if (names.v[i][0] == 'v' || names.v[i][0] == 'V')
				if (sysroot_is_dir(w->sr, dir))
					toolkit_add(w, dir, names.v[i], false);
			free(dir);
		}
	strv_free(&names);
	free(root);
}

/* CUDA_PATH_V11_8 -> "11.8"; CUDA_PATH -> "" ; NULL: not such a name. */
static char *
cudavar_version(const char *name, size_t n)
{
	const char *p = name + 9, *end = name + n;
	struct strbuf sb = STRBUF_INIT;
	bool sep = false;

	if (n < 9 || !winname_eqn(name, 9, "CUDA_PATH"))
		return NULL;
	if (n == 9)
		return xstrdup("");
	if (n < 13 || !winname_eqn(name, 11, "CUDA_PATH_V"))
		return NULL;
	for (p = name + 11; p < end; p++) {
		if (isdigit((unsigned char)*p)) {
			strbuf_putc(&sb, *p);
		} else if (*p == '_' && !sep && p > name + 11 && p + 1 < end) {
			strbuf_putc(&sb, '.');
			sep = true;
		} else {
			strbuf_free(&sb);
			return NULL;
		}
	}
	if (!sep) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_take(&sb);
}

static void
probe_cudavars(struct wp *w)
{
	struct win_facts *f = w->f;

	if (w->envp == NULL)
		return;
	for (char *const *e = w->envp; *e != NULL; e++) {
		const char *eq = strchr(*e, '=');
		struct win_cudavar *v;
		char *ver, *tree;
		const char *why;

		if (eq == NULL || eq == *e)
			continue;
		ver = cudavar_version(*e, (size_t)(eq - *e));
		if (ver == NULL)
			continue;
		if (f->cudavars.n >= WINFACTS_TOOLKITS_MAX) {
			free(ver);
			break;
		}
		v = VEC_PUSH(&f->cudavars);
		memset(v, 0, sizeof *v);
		v->name = xstrndup(*e, (size_t)(eq - *e));
		v->value = xstrdup(eq + 1);
		v->name_version = ver[0] != '\0' ? ver : NULL;
		if (ver[0] == '\0')
			free(ver);
		v->toolkit = -1;
		tree = winprobe_tree_path(f->drive, v->value, &why);
		if (tree == NULL) {
			v->why = xstrdup(why);
			continue;
		}
		if (winname_resolve(w->sr, tree, &v->dir) != 0 ||
		    !sysroot_is_dir(w->sr, v->dir)) {
			FREE(&v->dir);
			v->why = xstrdup(_("the directory does not exist"));
		} else {
			const char *base = strrchr(v->dir, '/');

			v->toolkit = toolkit_add(w, v->dir,
			    base != NULL ? base + 1 : v->dir, true);
			/* Named by a variable but also in the standard place:
			 * not "from the environment only". */
		}
		free(tree);
		if (v->name_version == NULL)
			f->cuda_path_toolkit = v->toolkit;
	}
}

/* ------------------------------------------------------------- cuDNN */

/* The value of "#define NAME <number>" in text; -1 when none. */
static long
define_num(const char *text, const char *name)
{
	size_t k = strlen(name);

	for (const char *p = strstr(text, name); p != NULL;
	    p = strstr(p + 1, name)) {
		const char *q = p + k, *b = p;

		if (*q != ' ' && *q != '\t')
			continue;
		while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b - text < 6 || strncmp(b - 6, "define", 6) != 0)
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (isdigit((unsigned char)*q))
			return strtol(q, NULL, 10) & 0xffffff;
	}
	return -1;
}

static void
cudnn_header(struct wp *w, struct win_cudnn *c, const char *incdir)
{
	char *h, *why, *text;
	long ma, mi, pa;

	if (incdir == NULL)
		return;
	h = wp_find(w, incdir, "cudnn_version.h");
	if (h == NULL)
		h = wp_find(w, incdir, "cudnn.h");	/* cuDNN 7 kept them there */
	if (h == NULL)
		return;
	text = wp_text(w, h, &why);
	free(why);
	if (text != NULL) {
		ma = define_num(text, "CUDNN_MAJOR");
		mi = define_num(text, "CUDNN_MINOR");
		pa = define_num(text, "CUDNN_PATCHLEVEL");
		if (ma >= 0 && mi >= 0 && pa >= 0) {
			c->header_version = xasprintf("%ld.%ld.%ld", ma, mi, pa);
			c->header_path = h;
			h = NULL;
		}
	}
	free(text);
	free(h);
}

/* Looks at dir for cuDNN; incdir: where its header would be. */
static void
cudnn_dir(struct wp *w, const char *dir, enum win_cudnn_where where,
    long index, const char *incdir)
{
	struct win_facts *f = w->f;
	struct strv names = STRV_INIT;
	struct win_cudnn *c = NULL;

	for (size_t i = 0; i < f->cudnn.n; i++)
		if (winname_eq(f->cudnn.v[i].dir, dir))
			return;
	if (!wp_list(w, dir, &names))
		return;
	for (size_t i = 0; i < names.n; i++) {
		const char *n = names.v[i];
		bool main = wp_glob(n, "cudnn64_", ".dll");

		if (!main && !wp_glob(n, "cudnn_", ".dll"))
			continue;
		if (!main && strstr(n, "64_") == NULL)
			continue;
		if (c == NULL) {
			if (f->cudnn.n >= WINFACTS_CUDNN_MAX) {
				strv_pushf(&f->notes, _("more than %d cuDNN directories: the rest not looked at"),
				    WINFACTS_CUDNN_MAX);
				break;
			}
			c = VEC_PUSH(&f->cudnn);
			memset(c, 0, sizeof *c);
			c->where = where;
			c->index = index;
			c->dir = xstrdup(dir);
		}
		if (main && c->dll.path == NULL) {
			char *p = xasprintf("%s/%s", dir, n);

			wp_dll_read(w, p, &c->dll);
			free(p);
		} else {
			strv_push(&c->parts, n);
		}
	}
	if (c != NULL)
		cudnn_header(w, c, incdir);
	strv_free(&names);
}

/* dir's parent joined with "include" and sub (NULL: none). */
static char *
include_of(struct wp *w, const char *dir, const char *sub)
{
	const char *slash = strrchr(dir, '/');
	char *parent, *inc, *out;

	if (slash == NULL)
		return NULL;
	parent = xstrndup(dir, (size_t)(slash - dir));
	inc = wp_find(w, parent, "include");
	free(parent);
	if (inc == NULL || sub == NULL)
		return inc;
	out = wp_find(w, inc, sub);
	free(inc);
	return out;
}

static void
probe_cudnn(struct wp *w)
{
	struct win_facts *f = w->f;
	struct strv vers = STRV_INIT;
	char *root;

	for (size_t i = 0; i < f->toolkits.n; i++) {
		char *bindir = wp_find(w, f->toolkits.v[i].dir, "bin");

		if (bindir != NULL) {
			char *inc = wp_find(w, f->toolkits.v[i].dir, "include");

			cudnn_dir(w, bindir, WIN_CUDNN_TOOLKIT, (long)i, inc);
			free(inc);
		}
		free(bindir);
	}
	/* cuDNN 9's installer: CUDNN/v9.1/bin/12.4/cudnn64_9.dll with its
	 * header in CUDNN/v9.1/include/12.4; cuDNN 8's: v8.9/bindir. */
	root = wp_find(w, "", CUDNN_ROOT);
	if (root != NULL && wp_list(w, root, &vers))
		for (size_t i = 0; i < vers.n; i++) {
			char *top = xasprintf("%s/%s", root, vers.v[i]);
			char *bindir = wp_find(w, top, "bin"), *inc;
			struct strv subs = STRV_INIT;

			if (bindir != NULL) {
				inc = include_of(w, bindir, NULL);
				cudnn_dir(w, bindir, WIN_CUDNN_INSTALLER, -1, inc);
				free(inc);
				if (wp_list(w, bindir, &subs))
					for (size_t j = 0; j < subs.n; j++) {
						char *d = xasprintf("%s/%s", bindir, subs.v[j]);

						if (sysroot_is_dir(w->sr, d)) {
							inc = include_of(w, bindir, subs.v[j]);
							cudnn_dir(w, d, WIN_CUDNN_INSTALLER, -1, inc);
							free(inc);
						}
						free(d);
					}
			}
			strv_free(&subs);
			free(bindir);
			free(top);
		}
	strv_free(&vers);
	free(root);
	for (size_t i = 0; i < w->path.n; i++) {
		char *inc;

		if (w->path.v[i] == NULL)
			continue;
		inc = include_of(w, w->path.v[i], NULL);
		cudnn_dir(w, w->path.v[i], WIN_CUDNN_PATH, (long)i, inc);
		free(inc);
	}
}

/* ------------------------------------------------------------- the run */

static void
split_path(struct wp *w)
{
	const char *path = wp_env(w, "PATH");
	struct strv parts = STRV_INIT;

	if (path == NULL)
		return;
	strv_split(&parts, path, ";");
	for (size_t i = 0; i < parts.n; i++) {
		char *tree, *dir = NULL;
		const char *why;

		if (w->path.n >= WINFACTS_PATH_MAX) {
			strv_pushf(&w->f->notes, _("PATH has more than %d entries: the rest not looked at"),
			    WINFACTS_PATH_MAX);
			break;
		}
		tree = winprobe_tree_path(w->f->drive, parts.v[i], &why);
		if (tree != NULL && (winname_resolve(w->sr, tree, &dir) != 0 ||
		    !sysroot_is_dir(w->sr, dir)))
			FREE(&dir);
		free(tree);
		*(char **)VEC_PUSH(&w->path) = dir;
	}
	strv_free(&parts);
}

void
winprobe_run(const struct sysroot *sr, char *const *envp,
    const struct winprobe_opts *opts, struct win_facts *out)
{
	static const struct winprobe_opts defaults;
	struct wp w;

	memset(out, 0, sizeof *out);
	memset(&w, 0, sizeof w);
	w.sr = sr;
	w.envp = envp;
	w.opts = opts != NULL ? opts : &defaults;
	w.f = out;
	out->drive = w.opts->drive != 0 ?
	    (char)toupper((unsigned char)w.opts->drive) : 'C';
	out->cuda_path_toolkit = -1;
	split_path(&w);
	probe_driver(&w);
	if (w.opts->gpu_registry != NULL)
		out->gpus_read = w.opts->gpu_registry(w.opts->gpu_registry_arg,
		    out);
	probe_toolkits(&w);
	probe_cudavars(&w);
	probe_cudnn(&w);
	wp_pythons(&w);
	wp_needs(&w);
	for (size_t i = 0; i < w.path.n; i++)
		free(w.path.v[i]);
	free(w.path.v);
}

/* --------------------------------------------------------------- GPUs */

/* The four hex digits after key ("VEN_") in a PCI hardware id, matched
 * without case as Windows writes them either way; 0 when absent. */
static unsigned
pci_id_part(const char *id, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = id; *p != '\0'; p++) {
		unsigned v = 0;
		size_t i;

		if (strncasecmp(p, key, kl) != 0)
			continue;
		for (i = 0; i < 4 && isxdigit((unsigned char)p[kl + i]); i++) {
			int c = tolower((unsigned char)p[kl + i]);

			v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
		}
		return i == 4 ? v : 0;
	}
	return 0;
}

void
winprobe_add_gpu(struct win_facts *f, const char *name,
    const char *device_id, const char *file_version, const char *provider)
{
	struct win_gpu *g;
	char buf[32];

	/* The hook enumerates at most that many keys (and notes more). */
	if (f->gpus.n >= WINFACTS_GPUS_MAX)
		return;
	g = VEC_PUSH(&f->gpus);
	memset(g, 0, sizeof *g);
	g->name = name != NULL ? xstrdup(name) : NULL;
	g->provider = provider != NULL ? xstrdup(provider) : NULL;
	if (device_id != NULL && strncasecmp(device_id, "PCI\\", 4) == 0) {
		g->device_id = xstrdup(device_id);
		g->vendor = pci_id_part(device_id, "VEN_");
		g->device = pci_id_part(device_id, "DEV_");
	} else if (device_id != NULL) {
		g->device_id = xstrdup(device_id);
	}
	if (file_version != NULL) {
		g->file_version = xstrdup(file_version);
		if (winprobe_driver_version(file_version, buf, sizeof buf))
			g->version = xstrdup(buf);
	}
}

/* ------------------------------------------------------------- names, free */

const char *
win_python_kind_name(enum win_python_kind k)
{
	static const char *const names[] = {
		"python.org", "conda", "conda_env", "venv", "path", "registry",
	};

	return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const char *
win_cudnn_where_name(enum win_cudnn_where wh)
{
	static const char *const names[] = { "toolkit", "installer", "path" };

	return (size_t)wh < sizeof names / sizeof names[0] ? names[wh] : "?";
}

const char *
win_nvcuda_state_name(enum win_nvcuda_state s)
{
	static const char *const names[] = {
		"absent", "nvidia", "foreign", "unreadable",
	};

	return (size_t)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void
win_facts_free(struct win_facts *f)
{
	win_dll_free(&f->driver.nvcuda);
	win_dll_free(&f->driver.nvml);
	free(f->driver.version);
	for (size_t i = 0; i < f->toolkits.n; i++) {
		struct win_toolkit *t = &f->toolkits.v[i];

		free(t->dir);
		free(t->dir_version);
		free(t->json_version);
		free(t->json_error);
		win_dll_free(&t->cudart);
	}
	free(f->toolkits.v);
	for (size_t i = 0; i < f->cudavars.n; i++) {
		struct win_cudavar *v = &f->cudavars.v[i];

		free(v->name);
		free(v->value);
		free(v->name_version);
		free(v->dir);
		free(v->why);
	}
	free(f->cudavars.v);
	for (size_t i = 0; i < f->cudnn.n; i++) {
		struct win_cudnn *c = &f->cudnn.v[i];

		free(c->dir);
		win_dll_free(&c->dll);
		strv_free(&c->parts);
		free(c->header_version);
		free(c->header_path);
	}
	free(f->cudnn.v);
	for (size_t i = 0; i < f->pythons.n; i++) {
		struct win_python *p = &f->pythons.v[i];

		free(p->dir);
		free(p->exe);
		free(p->version);
		free(p->home);
		free(p->site_packages);
		for (size_t j = 0; j < p->frameworks.n; j++) {
			struct win_framework *fw = &p->frameworks.v[j];

			free(fw->name);
			free(fw->version);
			free(fw->cuda_version);
			free(fw->cudnn_version);
			strv_free(&fw->wants);
			strv_free(&fw->bundled);
			free(fw->error);
			for (size_t k = 0; k < fw->needs.n; k++)
				win_need_free(&fw->needs.v[k]);
			free(fw->needs.v);
		}
		free(p->frameworks.v);
	}
	free(f->pythons.v);
	for (size_t i = 0; i < f->gpus.n; i++) {
		struct win_gpu *g = &f->gpus.v[i];

		free(g->name);
		free(g->device_id);
		free(g->file_version);
		free(g->version);
		free(g->provider);
	}
	free(f->gpus.v);
	strv_free(&f->notes);
	memset(f, 0, sizeof *f);
}
